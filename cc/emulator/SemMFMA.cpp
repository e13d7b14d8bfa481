//===- SemMFMA.cpp - matrix fused multiply-add (v_mfma_*) -----------------===//
//
// Register layouts follow AMD's matrix instruction calculator for CDNA:
//   A (M x K per block, B blocks), element A[b][i][k]:
//     epl = K*M*B/64 elements per lane;
//     lane = b*M + (k / epl)*M*B + i, element (k % epl) of the lane's values.
//   B (K x N) likewise with N and j (then the BLGP lane pattern applies).
//   C/D (M x N per block), 32-bit: rows go in groups of 4 registers;
//     reg = b*(M*N/64) + (i / (4*(64/N)))*4 + i%4,
//     lane = (b % bpr)*N + ((i/4) % (64/N))*bpr*N + j, bpr = ceil(64/(M*N/4)).
//   64-bit outputs use groups of one register pair instead of 4 registers.
// CBSZ/ABID broadcast A block ((b >> cbsz) << cbsz) + abid to 2^cbsz blocks.
// Products are exact and summed in double (int64 for integers), then the
// accumulator is added and the sum rounded once. EXEC is ignored.
//
//===----------------------------------------------------------------------===//
#include "emulator/Semantics.h"

#include <cmath>
#include <vector>

namespace aster::emu {

namespace {

enum class In : uint8_t { F32, XF32, F16, BF16, I8, FP8, BF8, F64 };
enum class Out : uint8_t { F32, I32, F64 };

struct Shape {
  uint8_t M, N, K, B;
  In a, b;
  Out out;
};

unsigned inBits(In t) {
  switch (t) {
  case In::F32: case In::XF32: return 32;
  case In::F16: case In::BF16: return 16;
  case In::F64: return 64;
  default: return 8;
  }
}

/// Element `e` of lane `l` of an A/B source, as double.
double readIn(Wave &w, const Opnd &o, unsigned l, unsigned e, In t) {
  unsigned bits = inBits(t);
  if (bits == 64) {
    uint64_t v = uint64_t(vdst(w, o, 2 * e)[l]) | uint64_t(vdst(w, o, 2 * e + 1)[l]) << 32;
    return u2d(v);
  }
  unsigned per = 32 / bits;
  uint32_t word = vdst(w, o, e / per)[l];
  uint32_t v = (word >> (bits * (e % per))) & (bits == 32 ? ~0u : (1u << bits) - 1);
  switch (t) {
  case In::F32: return u2f(v);
  case In::XF32: {
    // Inputs are used with 10 explicit mantissa bits (round to nearest even).
    uint32_t r = v;
    if ((r & 0x7f800000u) != 0x7f800000u)
      r = (r + 0xfffu + ((r >> 13) & 1u)) & ~0x1fffu;
    return u2f(r);
  }
  case In::F16: return f16ToF32(uint16_t(v));
  case In::BF16: return bf16ToF32(uint16_t(v));
  case In::I8: return double(int8_t(v));
  case In::FP8: return fp8ToF32(uint8_t(v), Fp8Kind::E4M3FNUZ);
  case In::BF8: return fp8ToF32(uint8_t(v), Fp8Kind::E5M2FNUZ);
  default: return 0;
  }
}

unsigned blgpLane(unsigned lane, unsigned blgp) {
  switch (blgp) {
  case 1: return lane % 32;
  case 2: return lane < 32 ? lane + 32 : lane;
  case 3: return (lane + 16) % 64;
  case 4: return lane % 16;
  case 5: return lane < 16 ? lane + 16 : lane >= 48 ? lane - 32 : lane >= 32 ? lane - 16 : lane;
  case 6: return lane >= 48 ? lane - 16 : lane < 16 ? lane + 32 : lane < 32 ? lane + 16 : lane;
  case 7: return lane + (3 - lane / 16) * 16;
  default: return lane;
  }
}

/// Output register and lane of D[b][i][j].
void outPos(const Shape &s, unsigned b, unsigned i, unsigned j, unsigned &reg, unsigned &lane) {
  unsigned M = s.M, N = s.N;
  unsigned h = s.out == Out::F64 ? 1 : 4;
  unsigned mpr = 64 / N;
  unsigned bpr = (64 + (N * M / h) - 1) / (N * M / h);
  reg = b * (M * N / 64) + (i / (h * mpr)) * h + i % h;
  lane = (b % bpr) * N + ((i / h) % mpr) * bpr * N + j;
}

template <const Shape &S> void mfma(Wave &w, const Inst &in) {
  constexpr unsigned M = S.M, N = S.N, K = S.K, B = S.B;
  const Opnd &A = in.src(0), &Bo = in.src(1), &C = in.src(2), &D = in.dst();
  unsigned eplA = K * M * B / 64, eplB = K * N * B / 64;
  static thread_local std::vector<double> a, bm;
  a.assign(size_t(B) * M * K, 0);
  bm.assign(size_t(B) * K * N, 0);
  bool negA = in.negLo & 1, negB = in.negLo & 2, negC = in.negLo & 4;
  for (unsigned b = 0; b < B; ++b)
    for (unsigned k = 0; k < K; ++k) {
      for (unsigned i = 0; i < M; ++i) {
        unsigned lane = b * M + (k / eplA) * M * B + i;
        double v = readIn(w, A, lane, k % eplA, S.a);
        a[(size_t(b) * M + i) * K + k] = negA ? -v : v;
      }
      for (unsigned j = 0; j < N; ++j) {
        unsigned lane = blgpLane(b * N + (k / eplB) * N * B + j, in.blgp);
        double v = readIn(w, Bo, lane, k % eplB, S.b);
        bm[(size_t(b) * K + k) * N + j] = negB ? -v : v;
      }
    }
  unsigned regs = B * M * N / 64 * (S.out == Out::F64 ? 2 : 1);
  uint32_t res[64][64];  // [register][lane]
  unsigned groupSize = 1u << in.cbsz;
  for (unsigned b = 0; b < B; ++b) {
    unsigned ab = (b / groupSize) * groupSize + in.abid;
    if (ab >= B)
      ab = b;
    for (unsigned i = 0; i < M; ++i)
      for (unsigned j = 0; j < N; ++j) {
        unsigned reg, lane;
        outPos(S, b, i, j, reg, lane);
        const double *ar = &a[(size_t(ab) * M + i) * K];
        if (S.out == Out::I32) {
          int64_t acc = 0;
          for (unsigned k = 0; k < K; ++k)
            acc += int64_t(ar[k]) * int64_t(bm[(size_t(b) * K + k) * N + j]);
          uint32_t c = C.kind == OpKind::Imm ? uint32_t(C.imm) : vdst(w, C, reg)[lane];
          res[reg][lane] = uint32_t(int64_t(int32_t(c)) + acc);
        } else if (S.out == Out::F64) {
          double c = C.kind == OpKind::Imm ? u2d(C.imm)
                                           : u2d(uint64_t(vdst(w, C, 2 * reg)[lane]) |
                                                 uint64_t(vdst(w, C, 2 * reg + 1)[lane]) << 32);
          double acc = negC ? -c : c;
          for (unsigned k = 0; k < K; ++k)
            acc = std::fma(ar[k], bm[(size_t(b) * K + k) * N + j], acc);
          uint64_t u = d2u(acc);
          res[2 * reg][lane] = uint32_t(u);
          res[2 * reg + 1][lane] = uint32_t(u >> 32);
        } else {
          double acc = 0;
          for (unsigned k = 0; k < K; ++k)
            acc += ar[k] * bm[(size_t(b) * K + k) * N + j];
          float c = C.kind == OpKind::Imm ? u2f(uint32_t(C.imm)) : u2f(vdst(w, C, reg)[lane]);
          res[reg][lane] = f2u(float(acc + double(c)));
        }
      }
  }
  for (unsigned r = 0; r < regs && r < D.count; ++r)
    std::memcpy(vdst(w, D, r), res[r], 64 * sizeof(uint32_t));
}

/// Sparse MFMA (v_smfmac_*): D += A * B where A (M x K) has 2 non-zeros in
/// every 4 consecutive k; src0 holds the compressed A (K/2 values per row,
/// laid out like a dense M x K/2 operand), src1 the dense B, and src2 one
/// 2-bit position per compressed value (byte group selected by abid).
/// NOTE: the position/ABID layout is modeled from the ISA description and
/// has not been validated against hardware.
template <const Shape &S> void smfmac(Wave &w, const Inst &in) {
  constexpr unsigned M = S.M, N = S.N, K = S.K;
  const Opnd &A = in.src(0), &Bo = in.src(1), &Idx = in.src(2), &D = in.dst();
  constexpr unsigned cpl = (K / 2) * M / 64;  // compressed A values per lane
  constexpr unsigned eplB = K * N / 64;
  static thread_local std::vector<double> a, bm;
  a.assign(size_t(M) * K, 0);
  bm.assign(size_t(K) * N, 0);
  uint32_t tIdx[64];
  const uint32_t *ix = vget(w, Idx, tIdx);
  unsigned idxShift = (cpl * 2) * in.abid;
  for (unsigned l = 0; l < 64; ++l) {
    unsigned i = l % M, g = l / M;
    for (unsigned e = 0; e < cpl; ++e) {
      unsigned pos = (ix[l] >> ((idxShift + 2 * e) & 31)) & 3;
      unsigned k = g * 2 * cpl + (e / 2) * 4 + pos;
      if (k < K)
        a[size_t(i) * K + k] += readIn(w, A, l, e, S.a);
    }
  }
  for (unsigned k = 0; k < K; ++k)
    for (unsigned j = 0; j < N; ++j)
      bm[size_t(k) * N + j] = readIn(w, Bo, j + (k / eplB) * N, k % eplB, S.b);
  uint32_t res[16][64];
  unsigned regs = M * N / 64;
  for (unsigned i = 0; i < M; ++i)
    for (unsigned j = 0; j < N; ++j) {
      unsigned reg, lane;
      outPos(S, 0, i, j, reg, lane);
      uint32_t c = vdst(w, D, reg)[lane];
      if (S.out == Out::I32) {
        int64_t acc = int32_t(c);
        for (unsigned k = 0; k < K; ++k)
          acc += int64_t(a[size_t(i) * K + k]) * int64_t(bm[size_t(k) * N + j]);
        res[reg][lane] = uint32_t(acc);
      } else {
        double acc = 0;
        for (unsigned k = 0; k < K; ++k)
          acc += a[size_t(i) * K + k] * bm[size_t(k) * N + j];
        res[reg][lane] = f2u(float(acc + double(u2f(c))));
      }
    }
  for (unsigned r = 0; r < regs && r < D.count; ++r)
    std::memcpy(vdst(w, D, r), res[r], 64 * sizeof(uint32_t));
}

#define SHAPE(NAME, M, N, K, B, A, BT, O)                                       \
  constexpr Shape NAME{M, N, K, B, In::A, In::BT, Out::O};
SHAPE(s32x32x1_2b_f32, 32, 32, 1, 2, F32, F32, F32)
SHAPE(s16x16x1_4b_f32, 16, 16, 1, 4, F32, F32, F32)
SHAPE(s4x4x1_16b_f32, 4, 4, 1, 16, F32, F32, F32)
SHAPE(s32x32x2_f32, 32, 32, 2, 1, F32, F32, F32)
SHAPE(s16x16x4_f32, 16, 16, 4, 1, F32, F32, F32)
SHAPE(s32x32x4_2b_f16, 32, 32, 4, 2, F16, F16, F32)
SHAPE(s16x16x4_4b_f16, 16, 16, 4, 4, F16, F16, F32)
SHAPE(s4x4x4_16b_f16, 4, 4, 4, 16, F16, F16, F32)
SHAPE(s32x32x8_f16, 32, 32, 8, 1, F16, F16, F32)
SHAPE(s16x16x16_f16, 16, 16, 16, 1, F16, F16, F32)
SHAPE(s32x32x4_2b_bf16, 32, 32, 4, 2, BF16, BF16, F32)
SHAPE(s16x16x4_4b_bf16, 16, 16, 4, 4, BF16, BF16, F32)
SHAPE(s4x4x4_16b_bf16, 4, 4, 4, 16, BF16, BF16, F32)
SHAPE(s32x32x8_bf16, 32, 32, 8, 1, BF16, BF16, F32)
SHAPE(s16x16x16_bf16, 16, 16, 16, 1, BF16, BF16, F32)
SHAPE(s32x32x4_2b_i8, 32, 32, 4, 2, I8, I8, I32)
SHAPE(s16x16x4_4b_i8, 16, 16, 4, 4, I8, I8, I32)
SHAPE(s4x4x4_16b_i8, 4, 4, 4, 16, I8, I8, I32)
SHAPE(s32x32x16_i8, 32, 32, 16, 1, I8, I8, I32)
SHAPE(s16x16x32_i8, 16, 16, 32, 1, I8, I8, I32)
SHAPE(s16x16x8_xf32, 16, 16, 8, 1, XF32, XF32, F32)
SHAPE(s32x32x4_xf32, 32, 32, 4, 1, XF32, XF32, F32)
SHAPE(s16x16x4_f64, 16, 16, 4, 1, F64, F64, F64)
SHAPE(s4x4x4_4b_f64, 4, 4, 4, 4, F64, F64, F64)
SHAPE(s16x16x32_fp8_fp8, 16, 16, 32, 1, FP8, FP8, F32)
SHAPE(s16x16x32_fp8_bf8, 16, 16, 32, 1, FP8, BF8, F32)
SHAPE(s16x16x32_bf8_fp8, 16, 16, 32, 1, BF8, FP8, F32)
SHAPE(s16x16x32_bf8_bf8, 16, 16, 32, 1, BF8, BF8, F32)
SHAPE(s32x32x16_fp8_fp8, 32, 32, 16, 1, FP8, FP8, F32)
SHAPE(s32x32x16_fp8_bf8, 32, 32, 16, 1, FP8, BF8, F32)
SHAPE(s32x32x16_bf8_fp8, 32, 32, 16, 1, BF8, FP8, F32)
SHAPE(s32x32x16_bf8_bf8, 32, 32, 16, 1, BF8, BF8, F32)
// gfx950 shapes.
SHAPE(s16x16x32_f16, 16, 16, 32, 1, F16, F16, F32)
SHAPE(s32x32x16_f16, 32, 32, 16, 1, F16, F16, F32)
SHAPE(s16x16x32_bf16, 16, 16, 32, 1, BF16, BF16, F32)
SHAPE(s32x32x16_bf16, 32, 32, 16, 1, BF16, BF16, F32)
SHAPE(s16x16x64_i8, 16, 16, 64, 1, I8, I8, I32)
SHAPE(s32x32x32_i8, 32, 32, 32, 1, I8, I8, I32)
SHAPE(sp16x16x32_f16, 16, 16, 32, 1, F16, F16, F32)
SHAPE(sp32x32x16_f16, 32, 32, 16, 1, F16, F16, F32)
SHAPE(sp16x16x32_bf16, 16, 16, 32, 1, BF16, BF16, F32)
SHAPE(sp32x32x16_bf16, 32, 32, 16, 1, BF16, BF16, F32)
SHAPE(sp16x16x64_i8, 16, 16, 64, 1, I8, I8, I32)
SHAPE(sp32x32x32_i8, 32, 32, 32, 1, I8, I8, I32)
SHAPE(sp16x16x64_fp8_fp8, 16, 16, 64, 1, FP8, FP8, F32)
SHAPE(sp16x16x64_fp8_bf8, 16, 16, 64, 1, FP8, BF8, F32)
SHAPE(sp16x16x64_bf8_fp8, 16, 16, 64, 1, BF8, FP8, F32)
SHAPE(sp16x16x64_bf8_bf8, 16, 16, 64, 1, BF8, BF8, F32)
SHAPE(sp32x32x32_fp8_fp8, 32, 32, 32, 1, FP8, FP8, F32)
SHAPE(sp32x32x32_fp8_bf8, 32, 32, 32, 1, FP8, BF8, F32)
SHAPE(sp32x32x32_bf8_fp8, 32, 32, 32, 1, BF8, FP8, F32)
SHAPE(sp32x32x32_bf8_bf8, 32, 32, 32, 1, BF8, BF8, F32)
#undef SHAPE

} // namespace

void registerMFMA(SemTable &t) {
  auto add = [&](const char *n, SemFn f, Ty cty) {
    t.push_back({n, f, 1, ICls::MFMA, SF_NO_SDWA, tys(Ty::B32, Ty::B32, cty)});
  };
#define F32(SUF) add("v_mfma_f32_" #SUF, mfma<s##SUF>, Ty::F32);
#define I32(SUF) add("v_mfma_i32_" #SUF, mfma<s##SUF>, Ty::B32);
  F32(32x32x1_2b_f32) F32(16x16x1_4b_f32) F32(4x4x1_16b_f32) F32(32x32x2_f32)
  F32(16x16x4_f32) F32(32x32x4_2b_f16) F32(16x16x4_4b_f16) F32(4x4x4_16b_f16)
  F32(32x32x8_f16) F32(16x16x16_f16) F32(32x32x4_2b_bf16) F32(16x16x4_4b_bf16)
  F32(4x4x4_16b_bf16) F32(32x32x8_bf16) F32(16x16x16_bf16) F32(16x16x8_xf32)
  F32(32x32x4_xf32) F32(16x16x32_fp8_fp8) F32(16x16x32_fp8_bf8) F32(16x16x32_bf8_fp8)
  F32(16x16x32_bf8_bf8) F32(32x32x16_fp8_fp8) F32(32x32x16_fp8_bf8)
  F32(32x32x16_bf8_fp8) F32(32x32x16_bf8_bf8) F32(16x16x32_f16) F32(32x32x16_f16)
  F32(16x16x32_bf16) F32(32x32x16_bf16)
  I32(32x32x4_2b_i8) I32(16x16x4_4b_i8) I32(4x4x4_16b_i8) I32(32x32x16_i8)
  I32(16x16x32_i8) I32(16x16x64_i8) I32(32x32x32_i8)
#undef F32
#undef I32
  add("v_mfma_f64_16x16x4_f64", mfma<s16x16x4_f64>, Ty::F64);
  auto sp = [&](const char *n, SemFn f) {
    t.push_back({n, f, 1, ICls::MFMA, SF_NO_SDWA | SF_READS_DST, tys(Ty::B32)});
  };
#define SP(P, SUF) sp("v_smfmac_" #P "_" #SUF, smfmac<sp##SUF>);
  SP(f32, 16x16x32_f16) SP(f32, 32x32x16_f16) SP(f32, 16x16x32_bf16)
  SP(f32, 32x32x16_bf16) SP(i32, 16x16x64_i8) SP(i32, 32x32x32_i8)
  SP(f32, 16x16x64_fp8_fp8) SP(f32, 16x16x64_fp8_bf8) SP(f32, 16x16x64_bf8_fp8)
  SP(f32, 16x16x64_bf8_bf8) SP(f32, 32x32x32_fp8_fp8) SP(f32, 32x32x32_fp8_bf8)
  SP(f32, 32x32x32_bf8_fp8) SP(f32, 32x32x32_bf8_bf8)
#undef SP
  add("v_mfma_f64_4x4x4_4b_f64", mfma<s4x4x4_4b_f64>, Ty::F64);
}

} // namespace aster::emu
