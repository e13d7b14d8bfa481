//===- Decoder.cpp - code bytes to a pre-decoded Program ------------------===//
//
// Each instruction is decoded and printed by LLVM (Disasm.cpp), the text is
// matched against the instruction table's rows by the table's text parser
// (dialect/InstText.h, the one the raiser uses) and bound here to the
// matched row's semantic: operands become register indices or immediates of
// the type the semantic reads, modifiers become fields, and branch targets
// become instruction indices.
//
//===----------------------------------------------------------------------===//
#include "emulator/Decoder.h"

#include "target/Disassembler.h"
#include "emulator/Semantics.h"

#include "dialect/InstText.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>

using namespace llvm;

namespace aster::emu {

using ISA::TextModifier;
using ISA::TextOperand;

static bool isInlineInt(int64_t v) { return v >= -16 && v <= 64; }

/// Value of a floating-point inline constant for an operand of type `t`.
static uint64_t floatConst(const TextOperand &a, Ty t) {
  double d = a.fval;
  bool inv2pi = std::fabs(d - 0.15915494) < 1e-7;
  switch (t) {
  case Ty::F16: case Ty::B16: {
    uint16_t h = inv2pi ? 0x3118 : f32ToF16(float(d));
    return h;
  }
  case Ty::PK16F: case Ty::PK16I: {
    uint32_t h = inv2pi ? 0x3118 : f32ToF16(float(d));
    return h | h << 16;
  }
  case Ty::BF16: {
    uint16_t h = inv2pi ? 0x3e22 : f32ToBF16(float(d));
    return h;
  }
  case Ty::F64: case Ty::B64: case Ty::I64: {
    uint64_t u;
    if (inv2pi)
      u = 0x3fc45f306dc9c882ull;
    else
      std::memcpy(&u, &d, 8);
    return u;
  }
  case Ty::PKF32: {
    uint64_t f = inv2pi ? 0x3e22f983u : fbits(float(d));
    return f | f << 32;
  }
  default:
    return inv2pi ? 0x3e22f983u : fbits(float(d));
  }
}

/// Value of an integer immediate for an operand of type `t`.
static uint64_t intConst(const TextOperand &a, Ty t) {
  int64_t v = a.ival;
  bool literal = a.hex || a.lit || !isInlineInt(v);
  if (literal) {
    uint32_t L = uint32_t(v);
    switch (t) {
    case Ty::F64: return uint64_t(L) << 32;
    case Ty::B64: return L;
    case Ty::I64: return uint64_t(int64_t(int32_t(L)));
    case Ty::PKF32: return uint64_t(L) | uint64_t(L) << 32;
    default: return L;
    }
  }
  switch (t) {
  case Ty::F64: case Ty::B64: case Ty::I64:
    return uint64_t(v);
  case Ty::PK16F: case Ty::PK16I: {
    uint32_t h = uint32_t(v) & 0xffffu;
    return h | h << 16;
  }
  case Ty::PKF32: {
    uint64_t w = uint32_t(int32_t(v));
    return w | w << 32;
  }
  default:
    return uint32_t(int32_t(v));
  }
}

static bool is64(Ty t) { return t == Ty::F64 || t == Ty::B64 || t == Ty::I64 || t == Ty::PKF32; }

/// Scalar-file registers printed by name (AMD CDNA3 ISA, scalar operand
/// encodings), and the aperture constants.
static bool namedOperand(StringRef name, Ty t, Opnd &o) {
  struct Special { const char *name; unsigned reg, count; };
  static const Special specials[] = {
      {"vcc", SR_VCC, 2},           {"vcc_lo", SR_VCC, 1},
      {"vcc_hi", SR_VCC + 1, 1},    {"exec", SR_EXEC, 2},
      {"exec_lo", SR_EXEC, 1},      {"exec_hi", SR_EXEC + 1, 1},
      {"m0", SR_M0, 1},             {"flat_scratch", SR_FLAT_SCRATCH, 2},
      {"flat_scratch_lo", SR_FLAT_SCRATCH, 1},
      {"flat_scratch_hi", SR_FLAT_SCRATCH + 1, 1},
      {"xnack_mask", SR_XNACK, 2},  {"xnack_mask_lo", SR_XNACK, 1},
      {"xnack_mask_hi", SR_XNACK + 1, 1},
  };
  for (const Special &s : specials)
    if (name == s.name) {
      o.kind = OpKind::S;
      o.reg = uint16_t(s.reg);
      o.count = uint8_t(s.count);
      return true;
    }
  int aperture = StringSwitch<int>(name)
                     .Case("src_shared_base", 0)
                     .Case("src_shared_limit", 1)
                     .Case("src_private_base", 2)
                     .Case("src_private_limit", 3)
                     .Default(-1);
  if (aperture < 0)
    return false;
  uint64_t base = aperture < 2 ? kSharedAperture : kPrivateAperture;
  uint64_t v = (aperture & 1) ? base + kApertureSize - 1 : base;
  o.kind = OpKind::Imm;
  o.count = 1;
  o.imm = is64(t) ? v : v >> 32;
  return true;
}

static std::string convertOperand(const TextOperand &a, Ty t, Opnd &o) {
  o = Opnd();
  o.mods = (a.neg ? MOD_NEG : 0) | (a.abs ? MOD_ABS : 0) | (a.sext ? MOD_SEXT : 0);
  switch (a.kind) {
  case TextOperand::Reg:
    if (a.file == 's' || a.file == 't') {
      unsigned reg = a.first + (a.file == 't' ? SR_TTMP0 : 0);
      if (reg + a.count > SR_COUNT)
        return "scalar register out of range";
      o.kind = OpKind::S;
      o.reg = uint16_t(reg);
      o.count = uint8_t(a.count);
      return "";
    }
    if (a.first + a.count > kNumVgprs || a.count > 32)
      return "vector register out of range";
    o.kind = a.file == 'v' ? OpKind::V : OpKind::A;
    o.reg = uint16_t(a.first);
    o.count = uint8_t(a.count);
    return "";
  case TextOperand::Name:
    if (!namedOperand(a.text, t, o))
      return "the operand '" + a.text.str() + "' is not emulated";
    return "";
  case TextOperand::Off:
    o.kind = OpKind::None;
    return "";
  case TextOperand::Symbolic:
    o.kind = OpKind::Imm;
    o.count = 1;
    o.imm = uint64_t(a.ival);
    return "";
  case TextOperand::Float:
    o.kind = OpKind::Imm;
    o.count = 1;
    o.imm = floatConst(a, t);
    return "";
  case TextOperand::Int:
    o.kind = OpKind::Imm;
    o.count = 1;
    o.imm = intConst(a, t);
    return "";
  }
  return "unsupported operand";
}

static unsigned trackIndex(const Opnd &o) {
  switch (o.kind) {
  case OpKind::S: return o.reg;
  case OpKind::V: return kTrackV + o.reg;
  case OpKind::A: return kTrackA + o.reg;
  default: return ~0u;
  }
}

/// DPP controls the lane moves of SemWrap.cpp implement.
static bool emulatedDppCtrl(unsigned c) {
  return c <= 0xff || (c > 0x100 && c < 0x130 && (c & 15)) || c == 0x130 || c == 0x134 ||
         c == 0x138 || c == 0x13c || (c >= 0x140 && c <= 0x143) || (c >= 0x150 && c <= 0x15f);
}

/// A modifier of the matched row (its table name, the parsed value) into
/// the instruction's fields.
static std::string applyModifier(const TextModifier &m, Inst &in, bool &hasOpselHi,
                                 unsigned &opselLen, const uint32_t *word0) {
  StringRef n = m.desc->name;
  int64_t x = m.value;
  auto bad = [&] { return "bad modifier '" + m.token.str() + "'"; };
  uint32_t flag = StringSwitch<uint32_t>(n)
                      .Cases({"sc0", "glc"}, IF_SC0)
                      .Cases({"sc1", "slc"}, IF_SC1)
                      .Case("nt", IF_NT)
                      .Case("offen", IF_OFFEN)
                      .Case("idxen", IF_IDXEN)
                      .Case("lds", IF_LDS)
                      .Case("gds", IF_GDS)
                      .Case("clamp", IF_CLAMP)
                      .Case("tfe", IF_TFE)
                      .Case("bound_ctrl", IF_BOUND_CTRL)
                      .Case("fi", IF_FI)
                      .Default(0);
  if (flag) {
    in.flags |= flag;
    return "";
  }
  switch (m.desc->kind) {
  case ISA::ModKind::Omod:
    in.omod = uint8_t(x);
    return "";
  case ISA::ModKind::Dpp:
    if (!emulatedDppCtrl(unsigned(x)))
      return "the DPP control '" + m.token.str() + "' is not emulated";
    in.dppCtrl = uint16_t(x);
    return "";
  case ISA::ModKind::Sel:
    in.sel[n == "src0_sel" ? 0 : n == "src1_sel" ? 1 : 2] = uint8_t(x);
    return "";
  case ISA::ModKind::Unused:
    in.dstUnused = uint8_t(x);
    return "";
  case ISA::ModKind::Swizzle:
    // SemDS.cpp implements the QUAD_PERM and BITMASK modes.
    // LLVM prints BITMASK_PERM offsets that compute the same lanes alike:
    // the code word has the offset (DS: bits 15:0).
    if (word0)
      x = *word0 & 0xffff;
    if ((x & 0xc000) == 0xc000)
      return "the swizzle mode of '" + m.token.str() + "' (ROTATE/FFT) is not emulated";
    in.offset = int32_t(x);
    return "";
  default:
    break;
  }
  if (n == "offset") {
    if (x < -(1 << 20) || x > (1 << 21))
      return bad();
    in.offset = int32_t(x);
    return "";
  }
  auto set8 = [&](uint8_t &field, int64_t hi) {
    if (x < 0 || x > hi)
      return bad();
    field = uint8_t(x);
    return std::string();
  };
  if (n == "offset0") return set8(in.offset0, 255);
  if (n == "offset1") return set8(in.offset1, 255);
  if (n == "op_sel") {
    opselLen = m.desc->len;
    return set8(in.opsel, 15);
  }
  if (n == "op_sel_hi") {
    hasOpselHi = true;
    return set8(in.opselHi, 15);
  }
  if (n == "neg_lo" || n == "neg") // MFMA f64 `neg`: negate A, B, C
    return set8(in.negLo, 15);
  if (n == "neg_hi") return set8(in.negHi, 15);
  if (n == "cbsz") return set8(in.cbsz, 15);
  if (n == "abid") return set8(in.abid, 15);
  if (n == "blgp") return set8(in.blgp, 15);
  if (n == "vmcnt") return set8(in.vmcnt, 63);
  if (n == "expcnt") return set8(in.expcnt, 63);
  if (n == "lgkmcnt") return set8(in.lgkmcnt, 63);
  if (n == "row_mask") return set8(in.rowMask, 15);
  if (n == "bank_mask") return set8(in.bankMask, 15);
  if (n == "bitop3") { // v_bitop3_b32 truth table (in aux)
    if (x < 0 || x > 255)
      return bad();
    in.aux = uint32_t(x);
    return "";
  }
  return "unsupported modifier '" + m.token.str() + "'";
}

/// Binds a match of the text against a table row: the row's semantic,
/// operands and modifiers.
static std::string bindRow(const ISA::InstText &a, Inst &in, Program &prog,
                           const uint32_t *word0) {
  StringRef mn = a.row->asmName;
  if (a.suffix == "e64")
    in.flags |= IF_VOP3;
  if (a.row->enc == ISA::Enc::SDWA) {
    in.flags |= IF_SDWA;
    mn.consume_back("_sdwa");
  } else if (a.row->enc == ISA::Enc::DPP) {
    in.flags |= IF_DPP;
    mn.consume_back("_dpp");
  }
  const SemInfo *si = semanticOf(*a.row, prog.gfx950);
  if (!si)
    return "the emulator has no semantics for '" + mn.str() + "'";
  if (si->flags & SF_NOT_EMULATED)
    return "'" + mn.str() + "' is not emulated";
  if ((in.flags & (IF_SDWA | IF_DPP)) && (si->flags & SF_NO_SDWA))
    return "SDWA/DPP form of '" + mn.str() + "' is not supported";
  std::string err;
  bool hasOpselHi = false;
  unsigned opselLen = 0;
  for (const TextModifier &m : a.mods) {
    err = applyModifier(m, in, hasOpselHi, opselLen, word0);
    if (!err.empty())
      return err;
  }
  if (!hasOpselHi)
    in.opselHi = (si->flags & SF_PACKED) ? 0x7 : 0;
  if ((si->flags & SF_NO_CLAMP) && ((in.flags & IF_CLAMP) || in.omod))
    return "the clamp/omod modifiers of '" + mn.str() + "' are not emulated";
  in.fn = si->fn;
  in.cls = si->cls;
  unsigned ndst = si->ndst;
  if (si->flags & SF_ATOMIC)
    ndst = (in.flags & IF_SC0) ? 1 : 0;
  bool ldsForm = (si->flags & SF_LDS_FORM) && (in.flags & IF_LDS);
  if (ldsForm)
    ndst = 0;
  if (a.ops.size() > 6)
    return "too many operands";
  if (a.ops.size() < ndst)
    return "missing destination operand";
  in.nop = uint8_t(a.ops.size());
  in.ndst = uint8_t(ndst);
  for (unsigned i = 0; i < in.nop; ++i) {
    Ty t = i < ndst ? Ty::B32 : tyOf(si->tys, i - ndst);
    err = convertOperand(a.ops[i], t, in.op[i]);
    if (!err.empty())
      return err;
  }
  // VOP3 op_sel lists one entry per source and then the destination; the
  // destination select is bit 3 in the encoding.
  if (opselLen && !(si->flags & (SF_PACKED | SF_MIX)) && opselLen == in.nsrc() + 1 &&
      opselLen < 4) {
    unsigned d = (in.opsel >> (opselLen - 1)) & 1;
    in.opsel = uint8_t((in.opsel & ((1u << (opselLen - 1)) - 1)) | d << 3);
  }
  if (si->flags & SF_BRANCH) {
    if (in.nsrc() < 1 || in.src(0).kind != OpKind::Imm)
      return "branch without a target";
    int16_t simm = int16_t(uint16_t(in.src(0).imm));
    uint64_t target = in.pc + 4 + int64_t(simm) * 4;
    int64_t idx = prog.indexOf(target);
    if (idx < 0)
      return "branch target " + utohexstr(target) + " is not an instruction";
    in.target = uint32_t(idx);
  }

  if (mn.starts_with("s_sendmsg") && in.nsrc() >= 1) {
    std::string p = sendMsgProblem(unsigned(in.src(0).imm));
    if (!p.empty())
      return p;
  }

  // Registers read and written, for strict mode.
  auto addRange = [](RegRange *list, uint8_t &n, unsigned cap, const Opnd &o) {
    unsigned t = trackIndex(o);
    if (t == ~0u || n >= cap)
      return;
    list[n++] = RegRange{uint16_t(t), o.count};
  };
  for (unsigned i = 0; i < in.nop; ++i) {
    const Opnd &o = in.op[i];
    if (i < ndst) {
      addRange(in.writes, in.nwrites, 3, o);
      if (si->flags & SF_READS_DST)
        addRange(in.reads, in.nreads, 8, o);
    } else {
      addRange(in.reads, in.nreads, 8, o);
    }
  }
  if (si->flags & SF_MATRIX_JOB)
    in.flags |= IF_MATRIX;
  if ((si->flags & SF_BUF_ATOMIC) && (in.flags & IF_SC0) && in.nop)
    addRange(in.writes, in.nwrites, 3, in.op[0]);
  if (si->flags & SF_READS_VCC) {
    Opnd v; v.kind = OpKind::S; v.reg = SR_VCC; v.count = 2;
    addRange(in.reads, in.nreads, 8, v);
  }
  if ((si->flags & SF_READS_M0) || ldsForm) {
    Opnd v; v.kind = OpKind::S; v.reg = SR_M0; v.count = 1;
    addRange(in.reads, in.nreads, 8, v);
  }
  if ((si->flags & (SF_LOAD | SF_BUF_ATOMIC)) && in.nwrites) {
    switch (si->cls) {
    case ICls::VMEM: in.mem = MemKind::VM; break;
    case ICls::LDS: in.mem = MemKind::LDS; break;
    case ICls::SMEM: in.mem = MemKind::SMEM; break;
    default: break;
    }
  }

  // SDWA / DPP: the plain operation runs on scratch registers.
  if (in.flags & (IF_SDWA | IF_DPP)) {
    prog.wrapped.push_back(in);
    Inst &inner = prog.wrapped.back();
    inner.flags &= ~(IF_SDWA | IF_DPP);
    if (in.flags & IF_SDWA) {
      for (unsigned s = 0; s < 2 && s < in.nsrc(); ++s) {
        Opnd &o = inner.op[ndst + s];
        if (in.sel[s] != SEL_DWORD || (o.mods & MOD_SEXT)) {
          o.kind = OpKind::V;
          o.reg = uint16_t(kScratchVgpr + s);
          o.count = 1;
          o.mods &= ~MOD_SEXT;
        }
      }
      if (ndst == 1 && in.op[0].kind == OpKind::V && in.sel[2] != SEL_DWORD)
        inner.op[0].reg = uint16_t(kScratchVgpr + 2);
      in.fn = execSdwa;
    } else {
      if (in.nsrc() < 1 || !in.src(0).isVector())
        return "DPP source 0 must be a VGPR";
      Opnd &o = inner.op[ndst];
      o.kind = OpKind::V;
      o.reg = uint16_t(kScratchVgpr + 3);
      o.count = in.src(0).count;
      if (o.count > 2)
        return "DPP on a wide source is not supported";
      in.fn = execDpp;
    }
    in.inner = &inner;
  }
  return "";
}

std::string bindInstruction(StringRef text, Inst &in, Program &prog, const uint32_t *word0) {
  const ISA::RowIndex &rows =
      ISA::RowIndex::forTarget(prog.gfx950 ? ISA::T_GFX950 : ISA::T_GFX942);
  Inst start = in;
  std::string err;
  // The first row the text fits and that binds: rows of one mnemonic differ
  // in their operands (returning atomics, scratch addressing).
  ISA::matchInstText(
      text, rows,
      [&](const ISA::InstText &a) {
        in = start;
        err = bindRow(a, in, prog, word0);
        return err.empty();
      },
      err);
  return err;
}

std::string gfx950Refusal(StringRef mn) {
  for (StringRef suffix : {"_e32", "_e64", "_sdwa", "_dpp"})
    if (mn.consume_back(suffix))
      break;
  if ((mn.contains("fp8") || mn.contains("bf8") || mn.contains("f8f6f4")) &&
      !hasGfx950Meaning(mn))
    return "'" + mn.str() + "' on gfx950 uses the OCP fp8/bf8 formats, which the emulator "
           "does not implement for this instruction (only gfx942's FNUZ meaning)";
  return "";
}

Expected<std::unique_ptr<Program>> decodeProgram(ArrayRef<uint8_t> code, uint64_t base,
                                                 StringRef cpu) {
  auto dis = target::InstDisassembler::create(cpu);
  if (!dis)
    return dis.takeError();
  auto prog = std::make_unique<Program>();
  prog->base = base;
  prog->gfx950 = cpu == "gfx950";
  prog->end = base + (code.size() & ~size_t(3));
  prog->pcIndex.assign(code.size() / 4, -1);
  std::vector<std::string> texts;
  std::vector<uint64_t> pcs;
  for (size_t off = 0; off + 4 <= code.size();) {
    target::InstDisassembler::Line line = (*dis)->decode(code.slice(off), base + off);
    uint64_t pc = base + off;
    prog->pcIndex[off / 4] = int32_t(pcs.size());
    pcs.push_back(pc);
    if (line.ok) {
      // The text without a printer comment after '//' (the semantics are
      // looked up by mnemonic and operands).
      StringRef t(line.text);
      size_t c = t.find("//");
      texts.push_back(c == StringRef::npos ? line.text : t.substr(0, c).rtrim().str());
    } else {
      uint32_t w;
      std::memcpy(&w, code.data() + off, 4);
      std::string t;
      raw_string_ostream(t) << ".long " << format_hex(w, 10);
      texts.push_back(t);
    }
    off += line.ok ? line.size : 4;
  }
  size_t n = pcs.size();
  prog->insts.resize(n + 1);
  prog->text = texts;
  prog->text.push_back("<end of code>");
  prog->problems.assign(n + 1, "");
  for (size_t i = 0; i < n; ++i) {
    Inst &in = prog->insts[i];
    in.pc = pcs[i];
    in.index = uint32_t(i);
    in.next = uint32_t(i + 1);
    std::string err;
    if (StringRef(texts[i]).starts_with(".long"))
      err = "the disassembler cannot decode this word";
    else {
      uint32_t w;
      std::memcpy(&w, code.data() + (in.pc - base), 4);
      err = bindInstruction(texts[i], in, *prog, &w);
    }
    if (err.empty() && cpu == "gfx950")
      err = gfx950Refusal(StringRef(texts[i]).ltrim().split(' ').first);
    // Forms the semantics refuse at run time are reported here too, so
    // unsupported() never under-reports.
    if (err.empty() && (in.flags & IF_TFE))
      err = "the tfe modifier is not emulated";
    // Buffer loads to LDS: 1, 2 or 4 bytes, and on gfx950 3 or 4 dwords.
    StringRef mn = StringRef(texts[i]).ltrim();
    if (err.empty() && (in.flags & IF_LDS) && mn.starts_with("buffer_load_dwordx") &&
        (cpu != "gfx950" || mn.starts_with("buffer_load_dwordx2")))
      err = "buffer loads of 2 dwords, or of 3 or 4 before gfx950, with lds (direct to "
            "LDS) are not emulated";
    if (!err.empty()) {
      Inst bad;
      bad.pc = in.pc;
      bad.index = in.index;
      bad.next = in.next;
      bad.fn = execProblem;
      in = bad;
      prog->problems[i] = err;
    }
  }
  // VGPR index mode: SDWA/DPP and MFMA instructions between an
  // s_set_gpr_idx_on and the next s_set_gpr_idx_off or s_endpgm (in code
  // order) are not
  // emulated in that mode (gprIndexed); report them here too.
  bool indexed = false;
  for (size_t i = 0; i < n; ++i) {
    StringRef mn = StringRef(texts[i]).ltrim().split(' ').first;
    if (mn == "s_set_gpr_idx_on")
      indexed = true;
    else if (mn == "s_set_gpr_idx_off" || mn == "s_endpgm")
      indexed = false;
    else if (indexed && prog->problems[i].empty() &&
             ((prog->insts[i].flags & (IF_SDWA | IF_DPP)) || prog->insts[i].cls == ICls::MFMA))
      prog->problems[i] = "SDWA/DPP and MFMA instructions in VGPR index mode are not emulated";
  }
  auto namesAgpr = [](const Inst &in) {
    for (unsigned o = 0; o < in.nop; ++o)
      if (in.op[o].kind == OpKind::A)
        return true;
    return false;
  };
  for (const Inst &in : prog->insts)
    prog->usesAgprs |= namesAgpr(in);
  for (const Inst &in : prog->wrapped)
    prog->usesAgprs |= namesAgpr(in);
  Inst &endInst = prog->insts[n];
  endInst.pc = prog->end;
  endInst.index = endInst.next = uint32_t(n);
  endInst.fn = execProblem;
  prog->problems[n] = "execution ran past the end of the code";
  return std::move(prog);
}

} // namespace aster::emu
