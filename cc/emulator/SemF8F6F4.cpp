//===- SemF8F6F4.cpp - gfx950 f8f6f4 MFMAs, plain and scaled --------------===//
//
// v_mfma_f32_16x16x128_f8f6f4, v_mfma_f32_32x32x64_f8f6f4 and their
// v_mfma_scale_* forms (AMD CDNA4 ISA, "Matrix fused multiply-add"):
//  * cbsz gives A's element format and blgp B's (not the broadcast controls
//    of the other MFMAs): 0 fp8 (OCP E4M3FN), 1 bf8 (E5M2), 2 fp6 (E2M3),
//    3 bf6 (E3M2), 4 fp4 (E2M1); a lane holds 32 consecutive k of one row
//    of A (column of B) packed in 8, 6 or 4 registers, element e at bits
//    [e * w, (e + 1) * w) of the registers taken as one little-endian number;
//  * lane l of A holds row l % M, k from 32 * (l / M) (B: column l % N);
//  * scaled forms: scale_a / scale_b hold per lane an E8M0 scale (2^(s - 127),
//    255 is NaN) for that lane's 32 values, in the byte op_sel[i] |
//    op_sel_hi[i] << 1 (i = 0 for A, 1 for B);
//  * D = C + A x B: products (exact in double) summed in k order in double,
//    plus C, rounded once to f32, as for the other MFMAs (SemMFMA.cpp); on
//    AVX2 hosts the same sums in SemMFMA.cpp's register tiles (MfmaTiles.h).
//
//===----------------------------------------------------------------------===//
#include "emulator/MfmaTiles.h"
#include "emulator/Semantics.h"

#include <cmath>
#include <limits>
#include <vector>

namespace aster::emu {

namespace {

double e8m0(unsigned s) {
  return s == 255 ? std::numeric_limits<double>::quiet_NaN() : std::ldexp(1.0, int(s) - 127);
}

/// ocpToF64 of every bit pattern of each format, formed once ([host]: the
/// per-element conversion was most of an f8f6f4 MFMA's time).
const double *ocpTable(unsigned fmt) {
  static const auto tables = [] {
    std::vector<double> t(5 * 256);
    for (unsigned f = 0; f < 5; ++f)
      for (unsigned v = 0; v < (1u << ocpBits(f)); ++v)
        t[f * 256 + v] = ocpToF64(f, v);
    return t;
  }();
  return tables.data() + 256 * fmt;
}

/// Unpacks A (or B) as out[r * K + k], r the row of A (column of B).
void unpack(Wave &w, const Opnd &o, unsigned fmt, unsigned R, unsigned K, const Opnd *scale,
            unsigned byte, std::vector<double> &out) {
  unsigned bits = ocpBits(fmt);
  const double *table = ocpTable(fmt);
  out.resize(size_t(R) * K);
  for (unsigned l = 0; l < 64; ++l) {
    unsigned r = l % R, k0 = 32 * (l / R);
    double s = scale ? e8m0((vdst(w, *scale)[l] >> (8 * byte)) & 0xff) : 1.0;
    // The lane's 32 elements as one little-endian number of `bits` * 32 bits.
    uint32_t words[9] = {};
    for (unsigned q = 0; q < bits; ++q)
      words[q] = vdst(w, o, q)[l];
    double *dst = out.data() + size_t(r) * K + k0;
    for (unsigned e = 0; e < 32; ++e) {
      unsigned bit = e * bits, wd = bit / 32, sh = bit % 32;
      uint64_t v = (uint64_t(words[wd + 1]) << 32 | words[wd]) >> sh;
      dst[e] = table[unsigned(v) & ((1u << bits) - 1)] * s;
    }
  }
}

template <unsigned M> void mfmaF8F6F4(Wave &w, const Inst &in) {
  constexpr unsigned N = M, K = 2048 / M;
  if (in.cbsz > 4 || in.blgp > 4) {
    w.fail(in, "cbsz/blgp above 4 is not an f8f6f4 format");
    return;
  }
  bool scaled = in.nsrc() >= 5;
  const Opnd &A = in.src(0), &B = in.src(1), &C = in.src(2), &D = in.dst();
  if (A.count < ocpBits(in.cbsz) || B.count < ocpBits(in.blgp)) {
    w.fail(in, "source registers too few for the cbsz/blgp format");
    return;
  }
  unsigned byteA = (in.opsel & 1) | (in.opselHi & 1) << 1;
  unsigned byteB = (in.opsel >> 1 & 1) | (in.opselHi >> 1 & 1) << 1;
  std::vector<double> a, b;
  unpack(w, A, in.cbsz, M, K, scaled ? &in.src(3) : nullptr, byteA, a);
  unpack(w, B, in.blgp, N, K, scaled ? &in.src(4) : nullptr, byteB, b);
  // D/C layout of the 32-bit MFMAs with one block: row groups of 4
  // registers (SemMFMA.cpp, outPos).
  constexpr unsigned regs = M * N / 64, mpr = 64 / N;
  uint32_t res[regs][64];
  {
    // B as bm[k * N + j] for the tiled sums; D through `res` (C may be D).
    static thread_local std::vector<double> bt;
    bt.resize(size_t(K) * N);
    for (unsigned j = 0; j < N; ++j)
      for (unsigned k = 0; k < K; ++k)
        bt[size_t(k) * N + j] = b[size_t(j) * K + k];
    uint32_t cImm[64];
    if (C.kind == OpKind::Imm)
      for (uint32_t &x : cImm)
        x = uint32_t(C.imm);
    const uint32_t *cRow[M];
    uint32_t *dRow[M];
    for (unsigned i = 0; i < M; ++i) {
      unsigned reg = (i / (4 * mpr)) * 4 + i % 4, lane = ((i / 4) % mpr) * N;
      cRow[i] = (C.kind == OpKind::Imm ? cImm : vdst(w, C, reg)) + lane;
      dRow[i] = res[reg] + lane;
    }
    if (mfmaTilesF32(M, N, K, a.data(), bt.data(), cRow, dRow)) {
      for (unsigned r = 0; r < regs && r < D.count; ++r)
        std::memcpy(vdst(w, D, r), res[r], sizeof(res[r]));
      return;
    }
  }
  for (unsigned i = 0; i < M; ++i)
    for (unsigned j = 0; j < N; ++j) {
      unsigned reg = (i / (4 * mpr)) * 4 + i % 4, lane = ((i / 4) % mpr) * N + j;
      double acc = 0;
      for (unsigned k = 0; k < K; ++k)
        acc += a[i * K + k] * b[j * K + k];
      float c = C.kind == OpKind::Imm ? u2f(uint32_t(C.imm)) : u2f(vdst(w, C, reg)[lane]);
      res[reg][lane] = f2u(float(acc + double(c)));
    }
  for (unsigned r = 0; r < regs && r < D.count; ++r)
    std::memcpy(vdst(w, D, r), res[r], sizeof(res[r]));
}

} // namespace

void registerF8F6F4(SemTable &t) {
  const uint16_t ty = tys(Ty::B32, Ty::B32, Ty::F32, Ty::B32);
  t.push_back({"v_mfma_f32_16x16x128_f8f6f4", mfmaF8F6F4<16>, 1, ICls::MFMA, SF_NO_SDWA, ty});
  t.push_back({"v_mfma_f32_32x32x64_f8f6f4", mfmaF8F6F4<32>, 1, ICls::MFMA, SF_NO_SDWA, ty});
  t.push_back({"v_mfma_scale_f32_16x16x128_f8f6f4", mfmaF8F6F4<16>, 1, ICls::MFMA, SF_NO_SDWA,
               ty});
  t.push_back({"v_mfma_scale_f32_32x32x64_f8f6f4", mfmaF8F6F4<32>, 1, ICls::MFMA, SF_NO_SDWA,
               ty});
}

} // namespace aster::emu
