//===- SemWrap.cpp - SDWA and DPP around any VALU semantic ----------------===//
//
// The decoder points the plain operation (Inst::inner) at scratch VGPRs;
// these wrappers fill them with selected bytes/words (SDWA) or lanes moved
// across the wave (DPP), run the operation, and merge the result.
//
//===----------------------------------------------------------------------===//
#include "emulator/Semantics.h"

namespace aster::emu {

static uint32_t selectBits(uint32_t v, uint8_t sel, bool sext) {
  switch (sel) {
  case SEL_B0: case SEL_B1: case SEL_B2: case SEL_B3: {
    uint32_t b = (v >> (8 * (sel - SEL_B0))) & 0xff;
    return sext ? uint32_t(int32_t(int8_t(b))) : b;
  }
  case SEL_W0: case SEL_W1: {
    uint32_t h = (v >> (16 * (sel - SEL_W0))) & 0xffff;
    return sext ? uint32_t(int32_t(int16_t(h))) : h;
  }
  default:
    return v;
  }
}

static uint32_t mergeDst(uint32_t old, uint32_t val, uint8_t sel, uint8_t unused) {
  unsigned shift, width;
  switch (sel) {
  case SEL_B0: case SEL_B1: case SEL_B2: case SEL_B3:
    shift = 8 * (sel - SEL_B0);
    width = 8;
    break;
  case SEL_W0: case SEL_W1:
    shift = 16 * (sel - SEL_W0);
    width = 16;
    break;
  default:
    return val;
  }
  uint32_t field = (val & ((1u << width) - 1)) << shift;
  uint32_t fmask = ((1u << width) - 1) << shift;
  switch (unused) {
  case UNUSED_PRESERVE:
    return (old & ~fmask) | field;
  case UNUSED_SEXT: {
    bool neg = (val >> (width - 1)) & 1;
    uint32_t above = shift + width >= 32 ? 0 : ~0u << (shift + width);
    return field | (neg ? above : 0);
  }
  default:
    return field;
  }
}

void execSdwa(Wave &w, const Inst &in) {
  const Inst &inner = *in.inner;
  unsigned nd = in.ndst;
  for (unsigned s = 0; s < 2 && s < in.nsrc(); ++s) {
    const Opnd &io = inner.op[nd + s];
    if (io.kind != OpKind::V || io.reg != kScratchVgpr + s)
      continue;
    uint32_t tmp[64];
    const uint32_t *src = vget(w, in.src(s), tmp);
    bool sext = in.src(s).mods & MOD_SEXT;
    uint32_t *t = w.v[kScratchVgpr + s];
    for (unsigned l = 0; l < 64; ++l)
      t[l] = selectBits(src[l], in.sel[s], sext);
  }
  inner.fn(w, inner);
  if (nd == 1 && inner.op[0].kind == OpKind::V && inner.op[0].reg == kScratchVgpr + 2) {
    uint32_t *d = vdst(w, in.dst());
    const uint32_t *r = w.v[kScratchVgpr + 2];
    forLanes(w.exec(), [&](unsigned l) { d[l] = mergeDst(d[l], r[l], in.sel[2], in.dstUnused); });
  }
}

/// Source lane of lane `l` for DPP control `c`, or -1 when out of range.
static int dppSource(unsigned c, unsigned l) {
  unsigned row = l & ~15u, rl = l & 15u;
  if (c <= 0xff)
    return int((l & ~3u) | ((c >> (2 * (l & 3))) & 3));
  if (c >= 0x101 && c <= 0x10f) {  // row_shl
    unsigned n = c - 0x100;
    return rl + n < 16 ? int(l + n) : -1;
  }
  if (c >= 0x111 && c <= 0x11f) {  // row_shr
    unsigned n = c - 0x110;
    return rl >= n ? int(l - n) : -1;
  }
  if (c >= 0x121 && c <= 0x12f)  // row_ror
    return int(row | ((rl - (c - 0x120)) & 15));
  if (c >= 0x150 && c <= 0x15f)  // row_newbcast: lane n of each row to the row
    return int(row | (c - 0x150));
  switch (c) {
  case 0x130: return l + 1 < 64 ? int(l + 1) : -1;  // wave_shl
  case 0x134: return int((l + 1) & 63);             // wave_rol
  case 0x138: return l ? int(l - 1) : -1;           // wave_shr
  case 0x13c: return int((l - 1) & 63);             // wave_ror
  case 0x140: return int(row | (15 - rl));          // row_mirror
  case 0x141: return int((l & ~7u) | (7 - (l & 7)));  // row_half_mirror
  case 0x142: return row ? int(row - 1) : -1;       // row_bcast:15
  case 0x143: return l >= 32 ? 31 : -1;             // row_bcast:31
  default: return -1;
  }
}

void execDpp(Wave &w, const Inst &in) {
  const Inst &inner = *in.inner;
  const Opnd &s0 = in.src(0);
  uint64_t exec = w.exec(), writable = 0;
  bool bound = in.flags & IF_BOUND_CTRL;
  for (unsigned l = 0; l < 64; ++l) {
    if (!((in.rowMask >> (l / 16)) & 1) || !((in.bankMask >> ((l / 4) & 3)) & 1))
      continue;
    int sl = dppSource(in.dppCtrl, l);
    bool valid = sl >= 0 && ((exec >> sl) & 1);
    if (valid || bound)
      writable |= 1ull << l;
    for (unsigned word = 0; word < s0.count; ++word)
      w.v[kScratchVgpr + 3 + word][l] = valid ? vdst(w, s0, word)[sl] : 0;
  }
  w.setExec(exec & writable);
  inner.fn(w, inner);
  if (w.exec() == (exec & writable))
    w.setExec(exec);
}

} // namespace aster::emu
