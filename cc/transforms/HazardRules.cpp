//===- HazardRules.cpp - wait states the hardware does not interlock ------===//
//
// Sources of the numbers (facts only; no code taken from them):
//  [ISA9]   AMD "Vega" / "MI100" / CDNA ISA guides, section 4.5 "Manually
//           Inserted Wait States (NOPs)" (the gfx9 table: VALU writes SGPR
//           then VMEM reads it 5; VALU writes SGPR/VCC then v_readlane /
//           v_writelane lane select 4; VALU writes VCC then v_div_fmas 4;
//           SALU writes M0 then LDS add-TID / LDS DMA / s_movrel /
//           s_sendmsg 1; VMEM store of more than 64 bits then a VALU write
//           of its data; S_SETREG then S_GETREG or S_SETREG of the same
//           register 2; S_SETVSKIP then S_GETREG MODE 2; S_SETREG
//           MODE.vskip then any vector instruction 2). The table has no
//           entry for VGPR index mode: s_set_gpr_idx_on/_mode/_idx need no
//           wait states before the VALU they index (nor does LLVM's
//           GCNHazardRecognizer add any); they write m0, so the m0 rules
//           apply to them as SALU writes.
//  [CDNA3]  AMD CDNA3 ISA guide, section 7.6 "Dependency Resolution:
//           Required Independent Instructions" (MFMA / XDL tables, by
//           number of passes).
//  [LLVM]   LLVM 22 GCNHazardRecognizer.cpp (checkMAIHazards90A,
//           checkMAIVALUHazards, checkVALUHazards, checkVMEMHazards,
//           checkRWLaneHazards, checkDivFMasHazards, checkReadM0Hazards,
//           checkGetRegHazards, checkSetRegHazards: 2 on gfx9) and
//           SISchedule.td (SIDPGFX942FullSpeedModel /
//           SIDPGFX950FullSpeedModel: MFMA passes), read for the numbers;
//           checkSoftClauseHazards for the XNACK soft-clause rule.
//
// Where the sources distinguish cases aster does not track, the larger
// number is used: every non-f64 MFMA is treated as XDL (XDL numbers are
// never smaller than the non-XDL "SMFMA" ones), an f8f6f4 MFMA as taking
// f8 inputs (twice the passes), a MUBUF store as having no SGPR soffset.
//
//===----------------------------------------------------------------------===//
#include "transforms/HazardRules.h"

#include "dialect/Dialect.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace aster::amdgcn;

namespace aster::hazards {

// --- MFMA passes ------------------------------------------------------------

// [LLVM] SISchedule.td, SIDPGFX942FullSpeedModel and
// SIDPGFX950FullSpeedModel (one pass = 4 cycles, [CDNA3] MFMA table):
//   4x4 shapes: 2 passes.
//   16x16: 4 passes; 8 for f32 inputs (x1_4b_f32, x4_f32) and the
//     multi-block forms (_4b_: x4_4b_f16/bf16/i8).
//   32x32: 8 passes; 16 for f32 inputs and the multi-block forms (_2b_).
//   f8f6f4 (gfx950): twice that when an input is f8 (assumed here).
//   f64: 4x4 4 passes; 16x16 8 (gfx942) or 16 (gfx950).
//   SMFMAC: 16x16 4, 32x32 8 (the same rule: no f32 or block forms).
unsigned mfmaPasses(StringRef mn, uint8_t targetBit) {
  SmallVector<StringRef, 8> parts;
  mn.split(parts, '_');
  unsigned m = 0;
  bool slow = mn.contains("f8f6f4");
  for (StringRef p : parts) {
    if (!m && p.count('x') == 2 && !p.empty() && isdigit(p[0])) {
      p.take_until([](char c) { return c == 'x'; }).getAsInteger(10, m);
      continue;
    }
    if (p == "2b" || p == "4b")
      slow = true;
  }
  // f32 inputs: the last part is f32 (not xf32) in a v_mfma_f32_* name.
  if (mn.starts_with("v_mfma_f32_") && parts.back() == "f32")
    slow = true;
  if (mn.starts_with("v_mfma_f64_"))
    return m == 4 ? 4 : (targetBit == ISA::T_GFX950 ? 16 : 8);
  if (m == 4)
    return 2;
  unsigned base = m == 16 ? 4 : 8;
  return slow ? 2 * base : base;
}

// --- What an op reads and writes -------------------------------------------

static std::optional<RegRange> specialRange(SpecialReg r) {
  auto rr = [](uint16_t lo, uint16_t hi) {
    return RegRange{RegFile::Special, lo, hi};
  };
  switch (r) {
  case SpecialReg::vcc: return rr(0, 1);
  case SpecialReg::vcc_lo: return rr(0, 0);
  case SpecialReg::vcc_hi: return rr(1, 1);
  case SpecialReg::exec: return rr(2, 3);
  case SpecialReg::exec_lo: return rr(2, 2);
  case SpecialReg::exec_hi: return rr(3, 3);
  case SpecialReg::m0: return rr(4, 4);
  case SpecialReg::scc: return rr(5, 5);
  case SpecialReg::flat_scratch: return rr(6, 7);
  case SpecialReg::flat_scratch_lo: return rr(6, 6);
  case SpecialReg::flat_scratch_hi: return rr(7, 7);
  case SpecialReg::src_shared_base: case SpecialReg::src_shared_limit:
  case SpecialReg::src_private_base: case SpecialReg::src_private_limit:
    return std::nullopt; // constants: nothing writes them
  }
  return std::nullopt;
}
static const RegRange kVcc{RegFile::Special, 0, 1};
/// hwreg id of MODE (gfx9 HW_REG_MODE).
static constexpr int8_t kHwregMode = 1;
static const RegRange kExec{RegFile::Special, 2, 3};
static const RegRange kM0{RegFile::Special, 4, 4};

/// The hardware registers a value of type `t` names, if allocated.
std::optional<RegRange> rangeOf(Type t) {
  if (auto r = dyn_cast<RegType>(t)) {
    if (r.isVirtual())
      return std::nullopt;
    RegFile f = r.getKind() == RegKind::VGPR   ? RegFile::V
                : r.getKind() == RegKind::SGPR ? RegFile::S
                                               : RegFile::A;
    return RegRange{f, (uint16_t)r.getIndex(),
                    (uint16_t)(r.getIndex() + r.getWidth() - 1)};
  }
  if (auto s = dyn_cast<SpecialRegType>(t))
    return specialRange(s.getReg());
  return std::nullopt;
}

void addImplicit(uint8_t bits, function_ref<void(RegRange)> add) {
  if (bits & ISA::IMP_VCC)
    add(kVcc);
  if (bits & ISA::IMP_EXEC)
    add(kExec);
  if (bits & ISA::IMP_M0)
    add(kM0);
  if (bits & ISA::IMP_SCC)
    add(RegRange{RegFile::Special, 5, 5});
}

/// Instructions that read m0 without an interlock after an SALU writes it
/// ([ISA9]; [LLVM] checkReadM0Hazards: s_movrel*, LDS add-TID, s_sendmsg,
/// s_ttracedata, LDS DMA). Those not in aster's table are listed so that
/// adding them to the table is enough.
static bool mnemonicReadsM0Late(StringRef mn) {
  return llvm::StringSwitch<bool>(mn)
      .StartsWith("s_movrel", true)
      .StartsWith("s_sendmsg", true)
      .Case("s_ttracedata", true)
      .Cases({"ds_read_addtid_b32", "ds_write_addtid_b32"}, true)
      .Default(false);
}

namespace {
/// Wait states after an MFMA `p`, per kind of later access.
struct MfmaWaits {
  unsigned readByValu, readByMem, srcAB, srcCOverlap, waw, war;
  unsigned srcCSame, srcCSameF64x4; ///< the later MFMA: any / an f64 4x4
  unsigned max() const {
    return std::max({readByValu, readByMem, srcAB, srcCOverlap, waw, war, srcCSame,
                     srcCSameF64x4});
  }
};
} // namespace

static MfmaWaits mfmaWaits(const InstFacts &p, uint8_t target) {
  unsigned n = p.passes;
  bool bigDgemm = p.dgemm && n >= 8; // 16x16 f64
  // gfx950 needs one more wait state than gfx942 after a write by an XDL
  // MFMA of more than 2 passes, and for overlapped srcC reads ([LLVM]
  // GFX940_XDL_N_Pass* with IsGFX950; [CDNA4] ISA guide MFMA table).
  unsigned extra950 = target == ISA::T_GFX950 && n > 2 ? 1 : 0;
  unsigned srcC950 = target == ISA::T_GFX950 ? 1 : 0;
  MfmaWaits w;
  // [CDNA3] / [LLVM] checkMAIVALUHazards: XDL write, then VALU or memory
  // read of it (incl. v_accvgpr_read, store data, addresses): passes + 3;
  // f64 4x4: 6 (VALU) / 9 (memory), f64 16x16: 11 / 18.
  w.readByValu = p.dgemm ? (bigDgemm ? 11 : 6) : n + 3 + extra950;
  w.readByMem = p.dgemm ? (bigDgemm ? 18 : 9) : n + 3 + extra950;
  // [CDNA3] / [LLVM] checkMAIHazards90A: XDL write, then an MFMA reads it as
  // srcA/B: passes + 3; f64: 6 (4x4) / 11 (16x16).
  w.srcAB = p.dgemm ? (bigDgemm ? 11 : 6) : n + 3 + extra950;
  // Overlapping but not the same registers as srcC: XDL passes + 1;
  // f64: 4 (4x4) / 9 (16x16).
  w.srcCOverlap = p.dgemm ? (bigDgemm ? 9 : 4) : n + 1 + srcC950;
  // Exactly the same registers as srcC (back-to-back accumulation): none,
  // except after a 2-pass MFMA (2) and f64 4x4 into f64 4x4 (4).
  w.srcCSame = p.dgemm ? 0 : (n == 2 ? 2 : 0);
  w.srcCSameF64x4 = p.dgemm ? (!bigDgemm ? 4 : 0) : w.srcCSame;
  // [LLVM] checkMAIVALUHazards: a VALU or memory op overwrites an MFMA result
  // (WAW): XDL passes + 3; f64 6 / 11.
  w.waw = p.dgemm ? (bigDgemm ? 11 : 6) : n + 3 + extra950;
  // ... or overwrites what an XDL MFMA reads as srcC (WAR): 2 passes 1,
  // 4 passes 3, 8 passes 7, 16 passes 15.
  w.war = n - 1;
  // gfx950 f64 MFMAs: LLVM 22 pads a 16x16x4 f64 result (16 passes there)
  // before a VALU read with 19 wait states, the XDL number, not the gfx942
  // table's 11. Take the larger of the two everywhere.
  if (p.dgemm && target == ISA::T_GFX950) {
    w.readByValu = std::max(w.readByValu, n + 3 + extra950);
    w.readByMem = std::max(w.readByMem, n + 3 + extra950);
    w.srcAB = std::max(w.srcAB, n + 3 + extra950);
    w.srcCOverlap = std::max(w.srcCOverlap, n + 1 + srcC950);
    w.waw = std::max(w.waw, n + 3 + extra950);
  }
  return w;
}

namespace {
/// What describe takes from an instruction-table row (the same for every op
/// of it): the flags, and the role of each source slot.
struct RowFacts {
  bool nop = false;
  InstFacts base; ///< flags, passes, reach of an MFMA; no registers
  llvm::SmallVector<ReadRole, 6> roles;
  int vdata = -1; ///< the store-data slot of a VMEM store (not atomic)
};

RowFacts rowFacts(const ISA::InstDesc &d, uint8_t targetBit) {
  RowFacts row;
  StringRef mn = d.mnemonic;
  InstFacts &f = row.base;
  f.waitStates = 1;
  row.nop = mn == "s_nop";
  if (row.nop)
    return row; // wait states only
  f.mfma = d.has(ISA::PROP_MFMA);
  f.valu = d.has(ISA::PROP_VALU) && !f.mfma;
  f.salu = d.has(ISA::PROP_SALU);
  f.vmem = d.has(ISA::PROP_VMEM);
  f.smem = d.has(ISA::PROP_SMEM);
  f.store = d.has(ISA::PROP_MAYSTORE);
  f.lds = d.enc == ISA::Enc::DS;
  f.dgemm = f.mfma && mn.starts_with("v_mfma_f64");
  if (f.mfma) {
    f.passes = mfmaPasses(mn, targetBit);
    f.reach = mfmaWaits(f, targetBit).max();
  }
  f.readsM0Late = mnemonicReadsM0Late(mn) || (f.vmem && d.has(ISA::PROP_LDS));
  f.divFmas = mn.starts_with("v_div_fmas_");
  f.rwLane = mn == "v_readlane_b32" || mn == "v_writelane_b32";
  f.lanes = f.rwLane || mn == "v_readfirstlane_b32";
  f.dpp = d.enc == ISA::Enc::DPP;
  f.setvskip = mn == "s_setvskip";
  f.setsVskip = f.setvskip;
  f.boundary = mn == "s_swappc_b64" || mn == "s_setpc_b64";
  f.dot = mn.starts_with("v_dot");
  f.row = uint16_t(d.index());
  int srcC = -1;
  if (f.mfma || f.dot)
    for (unsigned s = 0; s < d.numSrcs; ++s)
      if (d.srcs()[s].tiedTo >= 0 || (srcC < 0 && StringRef(d.srcs()[s].name) == "src2"))
        srcC = s;
  for (unsigned s = 0; s < d.numSrcs; ++s) {
    StringRef name = d.srcs()[s].name;
    ReadRole role = ReadRole::Plain;
    if ((int)s == srcC)
      role = ReadRole::SrcC;
    else if (f.rwLane && name == "lane")
      role = ReadRole::LaneSelect;
    else if (f.lanes && mn != "v_writelane_b32" && name == "src0")
      role = ReadRole::LaneSource;
    row.roles.push_back(role);
    // [ISA9]: store data of more than 64 bits ([LLVM] createsVALUHazard).
    if (f.vmem && d.has(ISA::PROP_MAYSTORE) && !d.has(ISA::PROP_ATOMIC) && name == "vdata")
      row.vdata = s;
  }
  return row;
}

/// rowFacts of every row for gfx942 and gfx950, computed once.
const RowFacts &cachedRowFacts(const ISA::InstDesc &d, uint8_t targetBit) {
  static std::vector<RowFacts> *tables = [] {
    auto *t = new std::vector<RowFacts>[2];
    for (const ISA::InstDesc &i : ISA::instructions()) {
      t[0].push_back(rowFacts(i, ISA::T_GFX942));
      t[1].push_back(rowFacts(i, ISA::T_GFX950));
    }
    return t;
  }();
  return tables[targetBit == ISA::T_GFX950][d.index()];
}
} // namespace

InstFacts describe(Operation *op, uint8_t targetBit) {
  const ISA::InstDesc *d = getInstDesc(op);
  if (!d)
    return InstFacts(); // emits nothing: no wait states, no accesses
  std::optional<RowFacts> other;
  if (targetBit != ISA::T_GFX942 && targetBit != ISA::T_GFX950)
    other = rowFacts(*d, targetBit);
  const RowFacts &row = other ? *other : cachedRowFacts(*d, targetBit);
  InstFacts f = row.base;
  if (row.nop) {
    if (auto imm = op->getAttrOfType<IntegerAttr>("imm"))
      f.waitStates = imm.getInt() + 1;
    return f;
  }
  if (d->enc == ISA::Enc::SOPK && StringRef(d->mnemonic).contains("etreg_")) {
    // hwreg(id, offset, size): id[5:0], offset[10:6], size - 1 [15:11];
    // an absent attribute is the whole MODE register.
    uint32_t hw = 0xf801;
    if (auto a = op->getAttrOfType<IntegerAttr>("hwreg"))
      hw = uint32_t(a.getInt());
    int8_t id = int8_t(hw & 63);
    unsigned off = (hw >> 6) & 31, size = ((hw >> 11) & 31) + 1;
    if (StringRef(d->mnemonic).starts_with("s_getreg")) {
      f.getHwreg = id;
    } else {
      f.setHwreg = id;
      f.setsVskip = id == kHwregMode && off <= 28 && off + size > 28;
    }
  }

  // Sources: slot s of the row for each operand (an absent optional source
  // is left out of the operands; branch operands are not sources).
  int opt = d->optionalSrc();
  unsigned present = op->getNumOperands();
  bool optPresent = present >= d->numSrcs;
  for (unsigned s = 0, oi = 0; s < d->numSrcs && oi < present; ++s) {
    if ((int)s == opt && !optPresent)
      continue;
    Value v = op->getOperand(oi++);
    std::optional<RegRange> r = rangeOf(v.getType());
    if (!r)
      continue;
    f.reads.push_back({*r, row.roles[s]});
    if ((int)s == row.vdata && r->hi - r->lo + 1 > 2)
      f.wideStoreData = *r;
  }
  addImplicit(d->implicitUses, [&](RegRange r) { f.reads.push_back({r, ReadRole::Implicit}); });
  for (Value res : op->getResults())
    if (std::optional<RegRange> r = rangeOf(res.getType()))
      f.writes.push_back(*r);
  addImplicit(d->implicitDefs, [&](RegRange r) { f.writes.push_back(r); });
  f.producer = f.mfma || ((f.valu || f.salu) && !f.writes.empty()) ||
               f.wideStoreData.has_value() || f.setHwreg >= 0 || f.setsVskip;
  // The largest number the rules below ask for after `f`: an MFMA's (its
  // largest MfmaWaits, set by rowFacts), a VALU's 5 (SGPR write then VMEM
  // read, exec write then DPP), a wide store's 2, an SALU's 1 (m0).
  if (!f.mfma)
    f.reach = std::max({f.valu && !f.writes.empty() ? 5u : 0u,
                        f.wideStoreData ? 2u : 0u,
                        f.salu && !f.writes.empty() ? 1u : 0u,
                        f.setHwreg >= 0 || f.setsVskip ? 2u : 0u});
  auto sig = [](const RegRange &r) {
    uint64_t bits = 0;
    for (unsigned i = r.lo; i <= r.hi; ++i)
      bits |= 1ull << ((i * 7 + (unsigned)r.file * 17) & 63);
    return bits;
  };
  for (const RegRange &w : f.writes) {
    f.sigOut |= sig(w);
    f.sigIn |= sig(w);
    f.writesSpecial |= w.file == RegFile::Special;
  }
  for (const Read &r : f.reads) {
    f.sigIn |= sig(r.reg);
    if (r.role == ReadRole::SrcC)
      f.sigOut |= sig(r.reg);
  }
  if (f.wideStoreData)
    f.sigOut |= sig(*f.wideStoreData);
  return f;
}

// --- The rules ----------------------------------------------------------------

static bool overlapsAny(ArrayRef<RegRange> rs, const RegRange &r) {
  return llvm::any_of(rs, [&](const RegRange &x) { return x.overlaps(r); });
}
static bool isScalarFile(const RegRange &r) {
  return r.file == RegFile::S || r.file == RegFile::Special;
}

/// First an MFMA writes its result / reads its srcC, then `c`.
static unsigned afterMfma(const InstFacts &p, const InstFacts &c, uint8_t target) {
  MfmaWaits w = mfmaWaits(p, target);
  unsigned readByOther = p.dgemm && !c.valu ? w.readByMem : w.readByValu;
  unsigned srcCSame = c.dgemm && c.passes == 4 ? w.srcCSameF64x4 : w.srcCSame;
  unsigned srcAB = w.srcAB, srcCOverlap = w.srcCOverlap, waw = w.waw, war = w.war;
  unsigned need = 0;
  auto req = [&](unsigned n) { need = std::max(need, n); };
  for (const Read &r : c.reads) {
    if (!overlapsAny(p.writes, r.reg))
      continue;
    if (c.mfma) {
      if (r.role == ReadRole::SrcC)
        req(llvm::is_contained(p.writes, r.reg) ? srcCSame : srcCOverlap);
      else
        req(srcAB);
    } else if (c.valu || c.vmem || c.lds) {
      req(readByOther);
    }
  }
  if (c.valu || c.vmem || c.lds) {
    for (const RegRange &w : c.writes) {
      if (overlapsAny(p.writes, w))
        req(waw);
      if (!p.dgemm)
        for (const Read &r : p.reads)
          if (r.role == ReadRole::SrcC && r.reg.overlaps(w))
            req(war);
    }
  }
  return need;
}

unsigned requiredWaitStates(const InstFacts &p, const InstFacts &c,
                            uint8_t target) {
  if (!c.waitStates)
    return 0;
  unsigned need = 0;
  auto req = [&](unsigned n) { need = std::max(need, n); };
  if (p.mfma)
    req(afterMfma(p, c, target));
  // Every VALU rule below needs `p` to write a scalar register (an SGPR,
  // vcc, exec, m0) or `c` to be an MFMA, a DPP op or a lane op: a VALU
  // writing only VGPRs, then a plain VALU (most pairs of a kernel), is
  // answered without walking the reads.
  if (p.valu && (c.mfma || c.dpp || c.lanes || llvm::any_of(p.writes, isScalarFile))) {
    bool writesExec = overlapsAny(p.writes, kExec);
    if (c.mfma) {
      // [CDNA3] / [LLVM] checkMAIHazards90A: VALU (v_accvgpr_write
      // included) writes a VGPR/AGPR, then an MFMA reads it: 2.
      for (const Read &r : c.reads)
        if (!isScalarFile(r.reg) && overlapsAny(p.writes, r.reg))
          req(2);
      // VALU writes exec, then an MFMA: 4.
      if (writesExec)
        req(4);
    }
    // [ISA9] VALU writes an SGPR (or vcc, exec, m0), then VMEM reads it
    // (explicitly or, like exec, implicitly): 5.
    if (c.vmem)
      for (const Read &r : c.reads)
        if (isScalarFile(r.reg) && overlapsAny(p.writes, r.reg))
          req(5);
    // [ISA9] VALU writes an SGPR/VCC, then v_readlane / v_writelane use it
    // as the lane select: 4.
    if (c.rwLane)
      for (const Read &r : c.reads)
        if (r.role == ReadRole::LaneSelect && overlapsAny(p.writes, r.reg))
          req(4);
    // [ISA9] VALU writes vcc, then v_div_fmas: 4.
    if (c.divFmas && overlapsAny(p.writes, kVcc))
      req(4);
    // gfx940 and later ([LLVM] checkVALUHazards, hasVDecCoExecHazard; seen
    // in LLVM 22's gfx942 code): a VALU writes an SGPR (vcc included), then
    // a VALU reads it as an operand or as its implicit vcc: 2.
    if (c.valu || c.mfma)
      for (const Read &r : c.reads)
        if (isScalarFile(r.reg) && (r.role != ReadRole::Implicit || r.reg == kVcc) &&
            overlapsAny(p.writes, r.reg))
          req(2);
    // ... a VALU writes exec, then v_readlane / v_readfirstlane /
    // v_writelane: 4.
    if (c.lanes && writesExec)
      req(4);
    // [ISA9] a VALU writes a VGPR, then a DPP op reads it: 2; a VALU writes
    // exec, then a DPP op: 5 ([LLVM] checkDPPHazards).
    if (c.dpp) {
      for (const Read &r : c.reads)
        if (!isScalarFile(r.reg) && overlapsAny(p.writes, r.reg))
          req(2);
      if (writesExec)
        req(5);
    }
    // ... a VALU writes a VGPR, then v_readlane / v_readfirstlane reads it: 1.
    for (const Read &r : c.reads)
      if (r.role == ReadRole::LaneSource && overlapsAny(p.writes, r.reg))
        req(1);
  }
  // [LLVM] checkMAIVALUHazards (gfx90a and later): a v_dot* writes a VGPR,
  // then a VALU or memory instruction reads it: 3, but 0 when the same
  // instruction reads it as its accumulator (srcC).
  if (p.dot && (c.valu || c.mfma || c.vmem || c.lds))
    for (const Read &r : c.reads)
      if (r.role != ReadRole::Implicit && !isScalarFile(r.reg) &&
          overlapsAny(p.writes, r.reg) && !(c.row == p.row && r.role == ReadRole::SrcC))
        req(3);
  // [ISA9] SALU writes m0, then LDS add-TID / LDS DMA / s_movrel /
  // s_sendmsg: 1.
  if (p.salu && c.readsM0Late && overlapsAny(p.writes, kM0))
    req(1);
  // [ISA9] / [LLVM] checkGetRegHazards, checkSetRegHazards: s_setreg, then
  // an s_getreg or s_setreg of the same hardware register: 2.
  if (p.setHwreg >= 0 && (c.getHwreg == p.setHwreg || c.setHwreg == p.setHwreg))
    req(2);
  // [ISA9] s_setvskip, then s_getreg of MODE (which holds VSKIP): 2.
  if (p.setvskip && c.getHwreg == kHwregMode)
    req(2);
  // [ISA9] MODE.vskip set (s_setreg of that bit; s_setvskip writes the same
  // bit, so it is given the same rule), then any vector instruction: 2.
  if (p.setsVskip && (c.valu || c.mfma || c.vmem || c.lds))
    req(2);
  // [ISA9] a VMEM store of more than 64 bits of data, then a VALU writes
  // those registers: 2 on gfx940 and later ([LLVM] checkVALUHazardsHelper).
  if (p.wideStoreData && (c.valu || c.mfma) &&
      overlapsAny(c.writes, *p.wideStoreData))
    req(2);
  return need;
}

// --- Soft clauses ---------------------------------------------------------------
// [LLVM] checkSoftClauseHazards (with XNACK, which gfx942/gfx950 code
// objects may run with): a VMEM or SMEM instruction that would make its
// clause read a register the clause writes, or a store in a clause that
// writes registers, needs 1 wait state (any non-clause op ends the clause).

static Clause::Kind clauseKind(const InstFacts &f) {
  return f.vmem ? Clause::VMem : f.smem ? Clause::SMem : Clause::None;
}

void Clause::add(const InstFacts &f) {
  Kind k = clauseKind(f);
  if (k != kind || !f.waitStates) {
    defs.clear();
    uses.clear();
    pad = false;
  }
  kind = f.waitStates ? k : None;
  if (kind == None)
    return;
  pad |= f.pad;
  for (const Read &r : f.reads)
    uses.push_back(r.reg);
  llvm::append_range(defs, f.writes);
}

void Clause::merge(const Clause &o) {
  if (o.kind == None)
    return;
  if (kind != None && kind != o.kind) {
    // Different kinds on two paths: keep the one with more writes.
    if (o.defs.size() > defs.size())
      *this = o;
    return;
  }
  kind = o.kind;
  pad |= o.pad;
  for (const RegRange &r : o.defs)
    if (!llvm::is_contained(defs, r))
      defs.push_back(r);
  for (const RegRange &r : o.uses)
    if (!llvm::is_contained(uses, r))
      uses.push_back(r);
}

unsigned clauseWaitStates(const Clause &c, const InstFacts &f) {
  Clause::Kind k = clauseKind(f);
  if (k == Clause::None || k != c.kind)
    return 0;
  if (c.defs.empty())
    return 0;
  if (f.store)
    return 1;
  SmallVector<RegRange, 8> defs(c.defs), uses(c.uses);
  llvm::append_range(defs, f.writes);
  for (const Read &r : f.reads)
    uses.push_back(r.reg);
  for (const RegRange &d : defs)
    if (overlapsAny(uses, d))
      return 1;
  return 0;
}

} // namespace aster::hazards
