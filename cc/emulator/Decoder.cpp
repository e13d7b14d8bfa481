//===- Decoder.cpp - code bytes to a pre-decoded Program ------------------===//
//
// Each instruction is decoded and printed by LLVM (Disasm.cpp), the text is
// parsed (AsmText.cpp) and bound here to its semantic: operands become
// register indices or immediates of the type the semantic reads, modifiers
// become fields, and branch targets become instruction indices.
//
//===----------------------------------------------------------------------===//
#include "emulator/Decoder.h"

#include "emulator/AsmText.h"
#include "emulator/Disasm.h"
#include "emulator/Semantics.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace llvm;

namespace aster::emu {

static bool isInlineInt(int64_t v) { return v >= -16 && v <= 64; }

/// Value of a floating-point inline constant for an operand of type `t`.
static uint64_t floatConst(const AsmOperand &a, Ty t) {
  double d = a.fval;
  switch (t) {
  case Ty::F16: case Ty::B16: {
    uint16_t h = a.inv2pi ? 0x3118 : f32ToF16(float(d));
    return h;
  }
  case Ty::PK16F: case Ty::PK16I: {
    uint32_t h = a.inv2pi ? 0x3118 : f32ToF16(float(d));
    return h | h << 16;
  }
  case Ty::BF16: {
    uint16_t h = a.inv2pi ? 0x3e22 : f32ToBF16(float(d));
    return h;
  }
  case Ty::F64: case Ty::B64: case Ty::I64: {
    uint64_t u;
    if (a.inv2pi)
      u = 0x3fc45f306dc9c882ull;
    else
      std::memcpy(&u, &d, 8);
    return u;
  }
  case Ty::PKF32: {
    uint64_t f = a.inv2pi ? 0x3e22f983u : fbits(float(d));
    return f | f << 32;
  }
  default:
    return a.inv2pi ? 0x3e22f983u : fbits(float(d));
  }
}

/// Value of an integer immediate for an operand of type `t`.
static uint64_t intConst(const AsmOperand &a, Ty t) {
  int64_t v = a.ival;
  bool literal = a.hex || !isInlineInt(v);
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

static std::string convertOperand(const AsmOperand &a, Ty t, Opnd &o) {
  o = Opnd();
  o.mods = (a.neg ? MOD_NEG : 0) | (a.abs ? MOD_ABS : 0) | (a.sext ? MOD_SEXT : 0);
  switch (a.kind) {
  case AsmOperand::SGPR:
    if (a.reg + a.count > SR_COUNT)
      return "scalar register out of range";
    o.kind = OpKind::S;
    o.reg = uint16_t(a.reg);
    o.count = uint8_t(a.count);
    return "";
  case AsmOperand::VGPR:
  case AsmOperand::AGPR:
    if (a.reg + a.count > kNumVgprs || a.count > 32)
      return "vector register out of range";
    o.kind = a.kind == AsmOperand::VGPR ? OpKind::V : OpKind::A;
    o.reg = uint16_t(a.reg);
    o.count = uint8_t(a.count);
    return "";
  case AsmOperand::Off:
    o.kind = OpKind::None;
    return "";
  case AsmOperand::Aperture: {
    uint64_t base = a.ival < 2 ? kSharedAperture : kPrivateAperture;
    uint64_t v = (a.ival & 1) ? base + kApertureSize - 1 : base;
    o.kind = OpKind::Imm;
    o.count = 1;
    o.imm = is64(t) ? v : v >> 32;
    return "";
  }
  case AsmOperand::Hwreg:
    o.kind = OpKind::Imm;
    o.count = 1;
    o.imm = uint64_t(a.ival);
    return "";
  case AsmOperand::Float:
    o.kind = OpKind::Imm;
    o.count = 1;
    o.imm = floatConst(a, t);
    return "";
  case AsmOperand::Int:
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

/// ds_swizzle_b32 patterns as printed: swizzle(QUAD_PERM,a,b,c,d),
/// swizzle(BITMASK_PERM,"01pi0"), swizzle(SWAP,n), swizzle(REVERSE,n),
/// swizzle(BROADCAST,n,lane). Produces the 16-bit offset encoding.
static bool parseSwizzle(StringRef v, int64_t &out) {
  if (!v.consume_front("swizzle(") || !v.consume_back(")"))
    return false;
  SmallVector<StringRef, 6> p;
  v.split(p, ',');
  for (StringRef &s : p)
    s = s.trim();
  int64_t a[4] = {};
  auto ints = [&](size_t n) {
    if (p.size() != n + 1)
      return false;
    for (size_t i = 0; i < n; ++i)
      if (!parseInteger(p[i + 1], a[i]) || a[i] < 0 || a[i] > 63)
        return false;
    return true;
  };
  if (p[0] == "QUAD_PERM") {
    if (!ints(4) || a[0] > 3 || a[1] > 3 || a[2] > 3 || a[3] > 3)
      return false;
    out = 0x8000 | a[0] | a[1] << 2 | a[2] << 4 | a[3] << 6;
    return true;
  }
  unsigned andm = 0x1f, orm = 0, xorm = 0;
  if (p[0] == "BITMASK_PERM") {
    if (p.size() != 2)
      return false;
    StringRef m = p[1].trim('"');
    if (m.size() != 5)
      return false;
    andm = 0;
    for (unsigned i = 0; i < 5; ++i) {
      unsigned bit = 1u << (4 - i);
      switch (m[i]) {
      case '0': break;
      case '1': orm |= bit; break;
      case 'p': andm |= bit; break;
      case 'i': andm |= bit; xorm |= bit; break;
      default: return false;
      }
    }
  } else if (p[0] == "SWAP") {
    if (!ints(1) || a[0] < 1 || a[0] > 16)
      return false;
    xorm = unsigned(a[0]);
  } else if (p[0] == "REVERSE") {
    if (!ints(1) || a[0] < 2 || a[0] > 32)
      return false;
    xorm = unsigned(a[0] - 1);
  } else if (p[0] == "BROADCAST") {
    if (!ints(2) || a[0] < 2 || a[0] > 32 || a[1] >= a[0])
      return false;
    andm = 0x1f & ~unsigned(a[0] - 1);
    orm = unsigned(a[1]);
  } else {
    return false;
  }
  out = andm | orm << 5 | xorm << 10;
  return true;
}

static std::string applyModifier(const AsmModifier &m, Inst &in, bool &hasOpselHi,
                                 unsigned &opselLen) {
  StringRef n = m.name, v = m.value;
  int64_t x = 0;
  unsigned bits = 0;
  auto intIn = [&](int64_t lo, int64_t hi) { return parseInteger(v, x) && x >= lo && x <= hi; };
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
                      .Default(0);
  if (flag) {
    in.flags |= flag;
    return "";
  }
  if (n == "offset" && v.starts_with("swizzle(")) {
    if (!parseSwizzle(v, x))
      return "unsupported swizzle pattern '" + v.str() + "'";
    in.offset = int32_t(x);
    return "";
  }
  if (n == "offset") {
    if (!intIn(-(1 << 20), (1 << 21)))
      return "bad offset";
    in.offset = int32_t(x);
    return "";
  }
  if (n == "offset0" || n == "offset1") {
    if (!intIn(0, 255))
      return "bad " + n.str();
    (n == "offset0" ? in.offset0 : in.offset1) = uint8_t(x);
    return "";
  }
  if (n == "mul" || n == "div") {
    if (!intIn(2, 4))
      return "bad output modifier";
    in.omod = n == "div" ? 3 : (x == 2 ? 1 : 2);
    return "";
  }
  if (n == "op_sel" || n == "op_sel_hi" || n == "neg_lo" || n == "neg_hi") {
    if (!parseBitList(v, bits) || bits > 15)
      return "bad " + n.str();
    if (n == "op_sel") {
      in.opsel = uint8_t(bits);
      opselLen = unsigned(std::count(v.begin(), v.end(), ',')) + 1;
    }
    else if (n == "op_sel_hi") { in.opselHi = uint8_t(bits); hasOpselHi = true; }
    else if (n == "neg_lo") in.negLo = uint8_t(bits);
    else in.negHi = uint8_t(bits);
    return "";
  }
  if (n == "neg") {  // MFMA f64: negate A, B, C
    if (!parseBitList(v, bits) || bits > 7)
      return "bad neg";
    in.negLo = uint8_t(bits);
    return "";
  }
  if (n == "bitop3") {  // v_bitop3_b32 truth table (in aux)
    if (!intIn(0, 255))
      return "bad bitop3";
    in.aux = uint32_t(x);
    return "";
  }
  if (n == "cbsz" || n == "abid" || n == "blgp") {
    if (!intIn(0, 15))
      return "bad " + n.str();
    (n == "cbsz" ? in.cbsz : n == "abid" ? in.abid : in.blgp) = uint8_t(x);
    return "";
  }
  if (n == "vmcnt" || n == "expcnt" || n == "lgkmcnt") {
    if (!intIn(0, 63))
      return "bad " + n.str();
    (n == "vmcnt" ? in.vmcnt : n == "expcnt" ? in.expcnt : in.lgkmcnt) = uint8_t(x);
    return "";
  }
  if (n == "dst_sel" || n == "src0_sel" || n == "src1_sel") {
    int s = StringSwitch<int>(v)
                .Case("BYTE_0", SEL_B0).Case("BYTE_1", SEL_B1).Case("BYTE_2", SEL_B2)
                .Case("BYTE_3", SEL_B3).Case("WORD_0", SEL_W0).Case("WORD_1", SEL_W1)
                .Case("DWORD", SEL_DWORD).Default(-1);
    if (s < 0)
      return "bad " + n.str();
    in.sel[n == "src0_sel" ? 0 : n == "src1_sel" ? 1 : 2] = uint8_t(s);
    return "";
  }
  if (n == "dst_unused") {
    int s = StringSwitch<int>(v)
                .Case("UNUSED_PAD", UNUSED_PAD).Case("UNUSED_SEXT", UNUSED_SEXT)
                .Case("UNUSED_PRESERVE", UNUSED_PRESERVE).Default(-1);
    if (s < 0)
      return "bad dst_unused";
    in.dstUnused = uint8_t(s);
    return "";
  }
  if (n == "quad_perm") {
    SmallVector<StringRef, 4> parts;
    if (!v.consume_front("[") || !v.consume_back("]"))
      return "bad quad_perm";
    v.split(parts, ',');
    if (parts.size() != 4)
      return "bad quad_perm";
    unsigned ctrl = 0;
    for (unsigned i = 0; i < 4; ++i) {
      int64_t e;
      if (!parseInteger(parts[i], e) || e < 0 || e > 3)
        return "bad quad_perm";
      ctrl |= unsigned(e) << (2 * i);
    }
    in.dppCtrl = uint16_t(ctrl);
    return "";
  }
  struct DppRow { const char *name; unsigned base, lo, hi; };
  static const DppRow rows[] = {
      {"row_shl", 0x100, 1, 15}, {"row_shr", 0x110, 1, 15}, {"row_ror", 0x120, 1, 15},
      {"wave_shl", 0x130, 1, 1}, {"wave_rol", 0x134, 1, 1}, {"wave_shr", 0x138, 1, 1},
      {"wave_ror", 0x13c, 1, 1}, {"row_newbcast", 0x150, 0, 15}};
  for (const DppRow &r : rows)
    if (n == r.name) {
      if (!intIn(r.lo, r.hi))
        return "bad " + n.str();
      in.dppCtrl = uint16_t(r.base + (r.hi == 1 ? 0 : x));
      return "";
    }
  if (n == "row_mirror") { in.dppCtrl = 0x140; return ""; }
  if (n == "row_half_mirror") { in.dppCtrl = 0x141; return ""; }
  if (n == "row_bcast") {
    if (!intIn(15, 31) || (x != 15 && x != 31))
      return "bad row_bcast";
    in.dppCtrl = x == 15 ? 0x142 : 0x143;
    return "";
  }
  if (n == "row_mask" || n == "bank_mask") {
    if (!intIn(0, 15))
      return "bad " + n.str();
    (n == "row_mask" ? in.rowMask : in.bankMask) = uint8_t(x);
    return "";
  }
  return "unsupported modifier '" + m.name + (m.value.empty() ? "" : ":" + m.value) + "'";
}

std::string bindInstruction(StringRef text, Inst &in, Program &prog) {
  AsmInst a;
  std::string err = parseAsm(text, a);
  if (!err.empty())
    return err;
  StringRef mn = a.mnemonic;
  if (mn.consume_back("_e32")) {
  } else if (mn.consume_back("_e64")) {
    in.flags |= IF_VOP3;
  } else if (mn.consume_back("_sdwa")) {
    in.flags |= IF_SDWA;
  } else if (mn.consume_back("_dpp")) {
    in.flags |= IF_DPP;
  }
  const SemInfo *si = prog.gfx950 ? findGfx950Semantic(mn) : findSemantic(mn);
  if (!si)
    return "the emulator has no semantics for '" + mn.str() + "'";
  if (si->flags & SF_NOT_EMULATED)
    return "'" + mn.str() + "' is not emulated";
  if ((in.flags & (IF_SDWA | IF_DPP)) && (si->flags & SF_NO_SDWA))
    return "SDWA/DPP form of '" + mn.str() + "' is not supported";
  bool hasOpselHi = false;
  unsigned opselLen = 0;
  for (const AsmModifier &m : a.modifiers) {
    err = applyModifier(m, in, hasOpselHi, opselLen);
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
  if (a.operands.size() > 6)
    return "too many operands";
  if (a.operands.size() < ndst)
    return "missing destination operand";
  in.nop = uint8_t(a.operands.size());
  in.ndst = uint8_t(ndst);
  for (unsigned i = 0; i < in.nop; ++i) {
    Ty t = i < ndst ? Ty::B32 : tyOf(si->tys, i - ndst);
    err = convertOperand(a.operands[i], t, in.op[i]);
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
  auto dis = Disassembler::create(cpu);
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
    Disassembler::Line line = (*dis)->decode(code.slice(off), base + off);
    uint64_t pc = base + off;
    prog->pcIndex[off / 4] = int32_t(pcs.size());
    pcs.push_back(pc);
    if (line.ok) {
      texts.push_back(line.text);
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
    else
      err = bindInstruction(texts[i], in, *prog);
    if (err.empty() && cpu == "gfx950")
      err = gfx950Refusal(StringRef(texts[i]).ltrim().split(' ').first);
    // Forms the semantics refuse at run time are reported here too, so
    // unsupported() never under-reports.
    if (err.empty() && (in.flags & IF_TFE))
      err = "the tfe modifier is not emulated";
    if (err.empty() && (in.flags & IF_LDS) &&
        StringRef(texts[i]).ltrim().starts_with("buffer_load_dwordx"))
      err = "buffer loads of 3 or 4 dwords with lds (direct to LDS) are not emulated";
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
  Inst &endInst = prog->insts[n];
  endInst.pc = prog->end;
  endInst.index = endInst.next = uint32_t(n);
  endInst.fn = execProblem;
  prog->problems[n] = "execution ran past the end of the code";
  return std::move(prog);
}

} // namespace aster::emu
