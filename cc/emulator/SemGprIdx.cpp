//===- SemGprIdx.cpp - VGPR index mode (s_set_gpr_idx_*) ------------------===//
//
// AMD CDNA3 ISA, S_SET_GPR_IDX_ON / _OFF / _IDX / _MODE: while MODE.gpr_idx_en
// is set, VALU instructions add m0[7:0] to the VGPR numbers of the operands
// m0[15:12] selects (bit 0 SRC0, 1 SRC1, 2 SRC2, 3 VDST).
//   s_set_gpr_idx_on ssrc0, gpr_idx(...): enable; m0[7:0] = ssrc0[7:0],
//                                         m0[15:12] = the mode; other m0
//                                         bits kept
//   s_set_gpr_idx_off                     disable
//   s_set_gpr_idx_idx ssrc0               m0[7:0] = ssrc0[7:0]
//   s_set_gpr_idx_mode gpr_idx(...)       m0[15:12] = the mode
// The interpreter runs each VALU instruction of an indexed stretch through
// gprIndexed(), which offsets the operands (and the registers strict mode
// tracks). SDWA/DPP and MFMA instructions in index mode are not emulated
// (they fail with that reason).
//
//===----------------------------------------------------------------------===//
#include "emulator/Semantics.h"

namespace aster::emu {

namespace {

void setIdx(Wave &w, uint32_t idx) { w.s[SR_M0] = (w.s[SR_M0] & ~0xffu) | (idx & 0xff); }
void setMode(Wave &w, uint32_t mode) {
  w.s[SR_M0] = (w.s[SR_M0] & ~0xf000u) | (mode & 0xf) << 12;
}

void s_set_gpr_idx_on(Wave &w, const Inst &in) {
  setIdx(w, sget(w, in.src(0)));
  setMode(w, uint32_t(in.src(1).imm));
  w.gprIdxOn = true;
}
void s_set_gpr_idx_off(Wave &w, const Inst &) { w.gprIdxOn = false; }
void s_set_gpr_idx_idx(Wave &w, const Inst &in) { setIdx(w, sget(w, in.src(0))); }
void s_set_gpr_idx_mode(Wave &w, const Inst &in) { setMode(w, uint32_t(in.src(0).imm)); }

void notInIndexMode(Wave &w, const Inst &in) {
  w.fail(in, "SDWA/DPP and MFMA instructions in VGPR index mode are not emulated");
}
void outOfRange(Wave &w, const Inst &in) {
  w.fail(in, "VGPR index mode moves an operand past the VGPRs (m0 index " +
                 std::to_string(w.s[SR_M0] & 0xff) + ")");
}

/// Offsets operand `o` and the first not yet moved tracked range that is
/// exactly its registers.
bool shift(Opnd &o, unsigned idx, RegRange *ranges, unsigned n, bool *moved) {
  if (o.kind != OpKind::V)
    return true;
  unsigned first = kTrackV + o.reg;
  o.reg = uint16_t(o.reg + idx);
  if (o.reg + o.count > kNumVgprs)
    return false;
  for (unsigned i = 0; i < n; ++i)
    if (!moved[i] && ranges[i].first == first && ranges[i].count == o.count) {
      ranges[i].first = uint16_t(first + idx);
      moved[i] = true;
      break;
    }
  return true;
}

} // namespace

const Inst &gprIndexed(Wave &w, const Inst &in) {
  if (in.cls != ICls::VALU && in.cls != ICls::MFMA)
    return in;
  Inst &c = w.idxInst;
  c = in;
  if (in.cls == ICls::MFMA || (in.flags & (IF_SDWA | IF_DPP))) {
    c.fn = notInIndexMode;
    return c;
  }
  unsigned idx = w.s[SR_M0] & 0xff, mode = (w.s[SR_M0] >> 12) & 0xf;
  bool movedR[8] = {}, movedW[3] = {};
  bool ok = true;
  if (mode & 8)
    for (unsigned d = 0; d < c.ndst; ++d)
      ok &= shift(c.op[d], idx, c.writes, c.nwrites, movedW);
  for (unsigned s = 0; s < 3; ++s)
    if ((mode >> s & 1) && c.ndst + s < c.nop)
      ok &= shift(c.op[c.ndst + s], idx, c.reads, c.nreads, movedR);
  if (!ok)
    c.fn = outOfRange;
  return c;
}

void registerGprIdx(SemTable &t) {
  // They change fields of m0 and keep the rest, which strict mode does not
  // count as a read (clang sets index mode without writing m0 first).
  auto add = [&](const char *n, SemFn f) {
    t.push_back({n, f, 0, ICls::SALU, 0, tys(Ty::B32)});
  };
  add("s_set_gpr_idx_on", s_set_gpr_idx_on);
  add("s_set_gpr_idx_off", s_set_gpr_idx_off);
  add("s_set_gpr_idx_idx", s_set_gpr_idx_idx);
  add("s_set_gpr_idx_mode", s_set_gpr_idx_mode);
}

} // namespace aster::emu
