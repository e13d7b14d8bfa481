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
#include "emulator/MfmaTiles.h"

#include <cmath>
#include <cstring>
#include <type_traits>
#include <vector>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

namespace aster::emu {

namespace {

// FP8/BF8: gfx942's FNUZ formats; OFP8/OBF8: gfx950's OCP E4M3FN / E5M2.
enum class In : uint8_t { F32, XF32, F16, BF16, I8, FP8, BF8, OFP8, OBF8, F64 };
enum class Out : uint8_t { F32, I32, F64 };

struct Shape {
  uint8_t M, N, K, B;
  In a, b;
  Out out;
};

constexpr unsigned inBits(In t) {
  switch (t) {
  case In::F32: case In::XF32: return 32;
  case In::F16: case In::BF16: return 16;
  case In::F64: return 64;
  default: return 8;
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

/// Bits of element `e` of a source lane given as its 32-bit words `wd`.
template <In T> EMU_INLINE uint64_t elementBits(const uint32_t *wd, unsigned e) {
  constexpr unsigned bits = inBits(T);
  if constexpr (bits == 64) {
    return uint64_t(wd[2 * e]) | uint64_t(wd[2 * e + 1]) << 32;
  } else {
    constexpr unsigned per = 32 / bits;
    return (wd[e / per] >> (bits * (e % per))) & (bits == 32 ? ~0u : (1u << bits) - 1);
  }
}

/// fp8ToF32 of every byte for the 8-bit float kind K, formed once ([host]:
/// a table lookup instead of a conversion per element).
template <Fp8Kind K> const float *fp8Table() {
  static const auto table = [] {
    std::vector<float> t(256);
    for (unsigned v = 0; v < 256; ++v)
      t[v] = fp8ToF32(uint8_t(v), K);
    return t;
  }();
  return table.data();
}

/// Element bits converted to the accumulation type: double, or int32 for i8.
template <In T, class E> EMU_INLINE E convert(uint64_t v) {
  if constexpr (T == In::F64) return E(u2d(v));
  if constexpr (T == In::F32) return E(u2f(uint32_t(v)));
  if constexpr (T == In::XF32) {
    // Inputs are used with 10 explicit mantissa bits (round to nearest even).
    uint32_t r = uint32_t(v);
    if ((r & 0x7f800000u) != 0x7f800000u)
      r = (r + 0xfffu + ((r >> 13) & 1u)) & ~0x1fffu;
    return E(u2f(r));
  }
  if constexpr (T == In::F16) return E(f16ToF32(uint16_t(v)));
  if constexpr (T == In::BF16) return E(bf16ToF32(uint16_t(v)));
  if constexpr (T == In::I8) return E(int8_t(v));
  if constexpr (T == In::FP8) return E(fp8Table<Fp8Kind::E4M3FNUZ>()[uint8_t(v)]);
  if constexpr (T == In::BF8) return E(fp8Table<Fp8Kind::E5M2FNUZ>()[uint8_t(v)]);
  if constexpr (T == In::OFP8) return E(fp8Table<Fp8Kind::E4M3FN>()[uint8_t(v)]);
  if constexpr (T == In::OBF8) return E(fp8Table<Fp8Kind::E5M2>()[uint8_t(v)]);
  return E(0);
}

/// Element `e` of lane `l` of an A/B source, as double.
template <In T> double readIn(Wave &w, const Opnd &o, unsigned l, unsigned e) {
  constexpr unsigned bits = inBits(T), per = bits == 64 ? 1 : 32 / bits;
  unsigned first = bits == 64 ? 2 * e : e / per;
  uint32_t wd[2] = {vdst(w, o, first)[l], bits == 64 ? vdst(w, o, first + 1)[l] : 0};
  return convert<T, double>(elementBits<T>(wd, bits == 64 ? 0 : e % per));
}

/// Registers of an A (B) source of shape S.
template <In T> constexpr unsigned srcWords(unsigned K, unsigned R, unsigned B) {
  return (K * R * B / 64 * inBits(T) + 31) / 32;
}

/// Unpacks an A (or B) source (its registers `reg`): logical lane L = b*R + (k/epl)*R*B + r
/// holds element k % epl of row r (i of A, j of B); it goes to
/// out[b*BS + r*RS + k*KS]. B sources read logical lane L from lane
/// blgpLane(L). Bits are gathered first, then converted in one flat loop.
template <In T, class E, unsigned R, unsigned K, unsigned B, unsigned BS, unsigned RS,
          unsigned KS>
EMU_INLINE void unpack(const uint32_t (*reg)[64], E *out, unsigned blgp, bool neg) {
  constexpr unsigned epl = K * R * B / 64;
  constexpr unsigned words = (epl * inBits(T) + 31) / 32;
  using Bits = std::conditional_t<inBits(T) == 64, uint64_t, uint32_t>;
  Bits raw[B * R * K];
  for (unsigned L = 0; L < 64; ++L) {
    unsigned lane = blgp ? blgpLane(L, blgp) : L;
    uint32_t wd[words];
    for (unsigned r = 0; r < words; ++r)
      wd[r] = reg[r][lane];
    unsigned r = L % R, b = (L / R) % B, k0 = (L / (R * B)) * epl;
    Bits *dst = raw + b * BS + r * RS + k0 * KS;
    for (unsigned e = 0; e < epl; ++e)
      dst[e * KS] = Bits(elementBits<T>(wd, e));
  }
  if (neg)
    for (unsigned n = 0; n < B * R * K; ++n)
      out[n] = E(-convert<T, E>(raw[n]));
  else
    for (unsigned n = 0; n < B * R * K; ++n)
      out[n] = convert<T, E>(raw[n]);
}

#if defined(__x86_64__) && defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wpsabi"  // Dbl4 is only passed inside AVX code
typedef double Dbl4 __attribute__((vector_size(32)));
/// acc + x * y in one rounding (vfmadd231pd); inlined where mfmaAvx2 (a
/// `flatten` function of the same target) calls it.
ASTER_MFMA_HOST inline Dbl4 fma4(Dbl4 acc, Dbl4 x, Dbl4 y) {
  return __builtin_ia32_vfmaddpd256(x, y, acc);
}

/// The fast unpacking of 16-bit (f16, bf16) sources of one-block MFMAs (no
/// BLGP, no negation): the same doubles as unpack(), from the lanes' words
/// gathered as halves, then converted 8 at a time. f16 through the host's
/// F16C conversion (vcvtph2ps), which gives the bits of f16ToF32 for all
/// 65536 halves (NaNs quieted alike; tests/py/test_emu_mfma_host.py checks
/// the MFMA results against ml_dtypes); bf16 by a shift.
template <In T> ASTER_MFMA_HOST inline void halvesToDouble(const uint16_t *h, double *out,
                                                           unsigned n) {
  for (unsigned i = 0; i < n; i += 8) {
    __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i *>(h + i));
    __m256 f;
    if constexpr (T == In::F16)
      f = _mm256_cvtph_ps(x);
    else
      f = _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(x), 16));
    _mm256_storeu_pd(out + i, _mm256_cvtps_pd(_mm256_castps256_ps128(f)));
    _mm256_storeu_pd(out + i + 4, _mm256_cvtps_pd(_mm256_extractf128_ps(f, 1)));
  }
}
/// A (R = M rows): lane L holds elements k0.. k0 + epl - 1 (k0 = (L / R) *
/// epl) of row L % R, two per word, low half first: out[r * K + k].
template <unsigned R, unsigned K>
ASTER_MFMA_HOST inline void gatherRows16(const uint32_t (*reg)[64], uint16_t *h) {
  constexpr unsigned epl = K * R / 64, words = epl / 2;
  for (unsigned L = 0; L < 64; ++L) {
    uint16_t *dst = h + (L % R) * K + (L / R) * epl;
    for (unsigned w = 0; w < words; ++w)
      std::memcpy(dst + 2 * w, &reg[w][L], 4);
  }
}
/// B (R = N columns) as doubles, bm[k * N + j]: lane g * R + j's word w
/// holds k = g * epl + 2w (low half) and k + 1 (high half) of column j.
/// Four lanes' words at a time: their 8 halves converted as halvesToDouble
/// does (the same doubles), the low halves to row k, the high to k + 1.
template <In T, unsigned R, unsigned K>
ASTER_MFMA_HOST inline void colsToDouble16(const uint32_t (*reg)[64], double *bm) {
  constexpr unsigned epl = K * R / 64, words = epl / 2;
  static_assert(R % 4 == 0, "four lanes at a time");
  const __m256i lohi = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
  for (unsigned g = 0; g < 64 / R; ++g)
    for (unsigned w = 0; w < words; ++w) {
      double *lo = bm + (g * epl + 2 * w) * R, *hi = lo + R;
      const uint32_t *x = reg[w] + g * R;
      for (unsigned j = 0; j < R; j += 4) {
        __m128i h = _mm_loadu_si128(reinterpret_cast<const __m128i *>(x + j));
        __m256 f;
        if constexpr (T == In::F16)
          f = _mm256_cvtph_ps(h);
        else
          f = _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(h), 16));
        f = _mm256_permutevar8x32_ps(f, lohi);
        _mm256_storeu_pd(lo + j, _mm256_cvtps_pd(_mm256_castps256_ps128(f)));
        _mm256_storeu_pd(hi + j, _mm256_cvtps_pd(_mm256_extractf128_ps(f, 1)));
      }
    }
}

#endif

/// Row i of block b of the result: the sum over k, in order from 0, of
/// a[ab][i][k] * bm[b][k][j] for every j, where ab is the A block
/// CBSZ/ABID select for block b, goes to emit(b, i, row). The j loop
/// vectorizes. `Fma`: the host's fused multiply-add (Dbl4) for E = double.
/// That is the same sum: every product of two non-f64 inputs (at most 24
/// significant bits each, exponents within f32's range) is exact in double,
/// so acc + x * y rounds once either way.
template <class E, unsigned M, unsigned N, unsigned K, unsigned B, bool Fma, class Emit>
EMU_INLINE void gemmBody(const E *a, const E *bm, unsigned cbsz, unsigned abid, Emit &&emit) {
  // 32-byte vectors of E (GCC/Clang vector extension): a row of the result
  // is NV of them, kept in registers while k runs; with short rows, two
  // rows at once give the adder independent chains.
  constexpr unsigned W = 32 / sizeof(E);
  typedef E V __attribute__((vector_size(32)));
  constexpr unsigned NV = N / W, RR = NV <= 4 ? 2 : 1;
  unsigned groupSize = 1u << cbsz;
  for (unsigned b = 0; b < B; ++b) {
    unsigned ab = (b / groupSize) * groupSize + abid;
    if (ab >= B)
      ab = b;
    if constexpr (N % W != 0 || M % RR != 0) {
      for (unsigned i = 0; i < M; ++i) {
        E row[N];
        const E *ar = a + (ab * M + i) * K;
        for (unsigned j = 0; j < N; ++j)
          row[j] = 0;
        for (unsigned k = 0; k < K; ++k)
          for (unsigned j = 0; j < N; ++j)
            row[j] += ar[k] * bm[(b * K + k) * N + j];
        emit(b, i, row);
      }
    } else {
      for (unsigned i = 0; i < M; i += RR) {
        V r[RR][NV];
        for (unsigned q = 0; q < RR; ++q)
          for (unsigned v = 0; v < NV; ++v)
            r[q][v] = V{};
        for (unsigned k = 0; k < K; ++k) {
          V bv[NV];
          std::memcpy(bv, bm + (b * K + k) * N, sizeof(bv));
          for (unsigned q = 0; q < RR; ++q) {
            E x = a[(ab * M + i + q) * K + k];
            V xv;
            for (unsigned l = 0; l < W; ++l)
              xv[l] = x;
            for (unsigned v = 0; v < NV; ++v) {
#if defined(__x86_64__) && defined(__GNUC__)
              if constexpr (Fma && std::is_same_v<E, double>) {
                r[q][v] = fma4(r[q][v], xv, bv[v]);
                continue;
              }
#endif
              r[q][v] += xv * bv[v];
            }
          }
        }
        for (unsigned q = 0; q < RR; ++q) {
          alignas(32) E row[N];
          std::memcpy(row, r[q], sizeof(row));
          emit(b, i + q, row);
        }
      }
    }
  }
}
/// D = A * B + C with A's and B's registers at `src` (A's, then B's).
template <const Shape &S, bool Fma>
EMU_INLINE void mfmaBody(Wave &w, const Inst &in, const uint32_t (*src)[64]) {
  constexpr unsigned M = S.M, N = S.N, K = S.K, B = S.B;
  using E = std::conditional_t<S.out == Out::I32, int32_t, double>;
  const Opnd &C = in.src(2), &D = in.dst();
  // a[b][i][k] and bm[b][k][j].
  alignas(64) E a[B * M * K], bm[B * K * N];
#if defined(__x86_64__) && defined(__GNUC__)
  constexpr bool half16 = B == 1 && S.a == S.b && (S.a == In::F16 || S.a == In::BF16) &&
                          (K * M / 64) % 2 == 0 && (K * N / 64) % 2 == 0;
  if constexpr (Fma && half16 && std::is_same_v<E, double>) {
    if (!in.blgp && !(in.negLo & 3)) {
      alignas(32) uint16_t ha[M * K];
      gatherRows16<M, K>(src, ha);
      halvesToDouble<S.a>(ha, a, M * K);
      colsToDouble16<S.b, N, K>(src + srcWords<S.a>(K, M, B), bm);
    } else {
      unpack<S.a, E, M, K, B, M * K, K, 1>(src, a, 0, in.negLo & 1);
      unpack<S.b, E, N, K, B, K * N, 1, N>(src + srcWords<S.a>(K, M, B), bm, in.blgp,
                                           in.negLo & 2);
    }
  } else
#endif
  {
    unpack<S.a, E, M, K, B, M * K, K, 1>(src, a, 0, in.negLo & 1);
    unpack<S.b, E, N, K, B, K * N, 1, N>(src + srcWords<S.a>(K, M, B), bm, in.blgp,
                                         in.negLo & 2);
  }
  constexpr unsigned regs = B * M * N / 64 * (S.out == Out::F64 ? 2 : 1);
  uint32_t res[regs][64];  // [register][lane]
  if constexpr (S.out == Out::F64) {
    // Fused, from the accumulator, in k order.
    bool negC = in.negLo & 4;
    unsigned groupSize = 1u << in.cbsz;
    for (unsigned b = 0; b < B; ++b) {
      unsigned ab = (b / groupSize) * groupSize + in.abid;
      if (ab >= B)
        ab = b;
      for (unsigned i = 0; i < M; ++i)
        for (unsigned j = 0; j < N; ++j) {
          unsigned reg, lane;
          outPos(S, b, i, j, reg, lane);
          double c = C.kind == OpKind::Imm ? u2d(C.imm)
                                           : u2d(uint64_t(vdst(w, C, 2 * reg)[lane]) |
                                                 uint64_t(vdst(w, C, 2 * reg + 1)[lane]) << 32);
          double acc = negC ? -c : c;
          for (unsigned k = 0; k < K; ++k)
            acc = std::fma(a[(ab * M + i) * K + k], bm[(b * K + k) * N + j], acc);
          uint64_t u = d2u(acc);
          res[2 * reg][lane] = uint32_t(u);
          res[2 * reg + 1][lane] = uint32_t(u >> 32);
        }
    }
  } else {
    // Row i of block b goes to N consecutive lanes of one register.
    uint32_t cImm[64];
    if (C.kind == OpKind::Imm)
      fill64(cImm, uint32_t(C.imm));
#if defined(__x86_64__) && defined(__GNUC__)
    if constexpr (Fma && B == 1 && S.out == Out::F32 && M % 4 == 0 && N % 8 == 0) {
      // D written in place when it is C (an accumulation chain) or C is an
      // immediate; else through `res`.
      bool inPlace = D.count >= regs &&
                     (C.kind == OpKind::Imm || (C.kind == D.kind && C.reg == D.reg));
      const uint32_t *cRow[M];
      uint32_t *dRow[M];
      for (unsigned i = 0; i < M; ++i) {
        unsigned reg, lane;
        outPos(S, 0, i, 0, reg, lane);
        cRow[i] = (C.kind == OpKind::Imm ? cImm : vdst(w, C, reg)) + lane;
        dRow[i] = (inPlace ? vdst(w, D, reg) : res[reg]) + lane;
      }
      denseTilesF32<M, N, K>(a, bm, cRow, dRow);
      if (!inPlace)
        for (unsigned r = 0; r < regs && r < D.count; ++r)
          std::memcpy(vdst(w, D, r), res[r], 64 * sizeof(uint32_t));
      return;
    }
#endif
    gemmBody<E, M, N, K, B, Fma>(a, bm, in.cbsz, in.abid,
                                 [&](unsigned b, unsigned i, const E *row) {
      unsigned reg, lane;
      outPos(S, b, i, 0, reg, lane);
      const uint32_t *c = (C.kind == OpKind::Imm ? cImm : vdst(w, C, reg)) + lane;
      uint32_t *d = res[reg] + lane;
      for (unsigned j = 0; j < N; ++j) {
        if constexpr (S.out == Out::I32)
          d[j] = c[j] + uint32_t(row[j]);  // wraps like the hardware's i32 sum
        else
          d[j] = f2u(float(row[j] + double(u2f(c[j]))));
      }
    });
  }
  for (unsigned r = 0; r < regs && r < D.count; ++r)
    std::memcpy(vdst(w, D, r), res[r], 64 * sizeof(uint32_t));
}

template <const Shape &S>
void mfmaPlain(Wave &w, const Inst &in, const uint32_t (*src)[64]) {
  mfmaBody<S, false>(w, in, src);
}
#if defined(__x86_64__) && defined(__GNUC__)
// The same code with 256-bit vectors and fused multiply-adds where the host
// has them (the same results: see gemmBody).
template <const Shape &S>
__attribute__((target("avx2,fma,f16c"), flatten)) void mfmaAvx2(Wave &w, const Inst &in,
                                                                const uint32_t (*src)[64]) {
  mfmaBody<S, true>(w, in, src);
}
#endif
/// The MFMA from A's and B's registers at `src` (the wave's, or a copy).
template <const Shape &S> void mfmaFrom(Wave &w, const Inst &in, const uint32_t (*src)[64]) {
#if defined(__x86_64__) && defined(__GNUC__)
  if (hostHasAvx2())
    return mfmaAvx2<S>(w, in, src);
#endif
  mfmaPlain<S>(w, in, src);
}
template <const Shape &S> void mfma(Wave &w, const Inst &in) {
  constexpr unsigned wa = srcWords<S.a>(S.K, S.M, S.B), wb = srcWords<S.b>(S.K, S.N, S.B);
  static_assert(wa + wb <= MatrixJob::kMaxSrcRegs, "MFMA sources do not fit a job");
  const Opnd &A = in.src(0), &Bo = in.src(1);
  if (w.matrix) {
    // Queued: A and B copied now; C read and D written by the matrix
    // thread, which runs the wave's MFMAs in order (MatrixThread.h).
    MatrixJob &j = w.matrix->slot();
    for (unsigned r = 0; r < wa; ++r)
      std::memcpy(j.src[r], vdst(w, A, r), sizeof(j.src[r]));
    for (unsigned r = 0; r < wb; ++r)
      std::memcpy(j.src[wa + r], vdst(w, Bo, r), sizeof(j.src[r]));
    j.w = &w;
    j.in = &in;
    j.fn = mfmaFrom<S>;
    uint64_t seq = w.matrix->push();
    w.mxLast = seq;
    auto mark = [&](const Opnd &o, unsigned regs, uint64_t *last) {
      if (!o.isVector())
        return;
      unsigned t = (o.kind == OpKind::A ? kTrackA : kTrackV) + o.reg;
      for (unsigned k = 0; k < regs && t + k < kTrackCount; ++k)
        last[t + k] = seq;
    };
    constexpr unsigned regs = S.B * S.M * S.N / 64 * (S.out == Out::F64 ? 2 : 1);
    mark(in.src(2), regs, w.mxRead);
    mark(in.dst(), regs, w.mxWrite);
    return;
  }
  uint32_t src[MatrixJob::kMaxSrcRegs][64];
  for (unsigned r = 0; r < wa; ++r)
    std::memcpy(src[r], vdst(w, A, r), sizeof(src[r]));
  for (unsigned r = 0; r < wb; ++r)
    std::memcpy(src[wa + r], vdst(w, Bo, r), sizeof(src[r]));
  mfmaFrom<S>(w, in, src);
}

/// D += A * B for the sparse MFMAs, A (M x K) and B (K x N) unpacked to
/// doubles; C/D in the dense single-block layout.
template <const Shape &S>
void smfmacAccumulate(Wave &w, const Opnd &D, const std::vector<double> &a,
                      const std::vector<double> &bm) {
  constexpr unsigned M = S.M, N = S.N, K = S.K;
  uint32_t res[16][64];
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
  for (unsigned r = 0; r < M * N / 64 && r < D.count; ++r)
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
        a[size_t(i) * K + k] += readIn<S.a>(w, A, l, e);
    }
  }
  for (unsigned k = 0; k < K; ++k)
    for (unsigned j = 0; j < N; ++j)
      bm[size_t(k) * N + j] = readIn<S.b>(w, Bo, j + (k / eplB) * N, k % eplB);
  smfmacAccumulate<S>(w, D, a, bm);
}

/// gfx950's sparse MFMAs with doubled K: 16-bit (v_smfmac_f32_16x16x64_f16/
/// bf16, 32x32x32_f16/bf16) and 8-bit (v_smfmac_i32_16x16x128_i8,
/// 32x32x64_i8, v_smfmac_f32_16x16x128/32x32x64 with OCP fp8/bf8). With
/// G = 64/N lane groups, lane l (g = l / N), c = 8 values of 16 bits or 16
/// of 8 bits (16 bytes):
///  * B (CDNA4 ISA document, "F16/BF16 Layout for Matrix B" and the 8-bit
///    layout: group g holds k 16g..16g+15 and 64+16g.. for 16x16x128): 2c
///    values of column l % N, value e at k = (e / c) * cG + cg + e % c --
///    per lane two 16-byte runs, as the dense double-K MFMAs read one
///    (mfma_layouts.py);
///  * A: c compressed values of row l % M covering dense k (K/G)g ..
///    (K/G)(g+1) - 1, two per group of 4, value e from k = (K/G)g +
///    4 * (e / 2) (the document does not tabulate A; AMD's rocjitsu emulator
///    lays out the 16-bit A so, and it agrees with the document's B);
///  * src2: value e's position in its group at bits [2e + 1, 2e]; 16-bit:
///    of the 16-bit set abid[0] when cbsz is 0, else set 0 (the document's
///    "Sparse Index Select"); 8-bit: the whole register, cbsz/abid ignored
///    (one index set: 16 values x 2 bits);
///  * C/D as the dense MFMAs.
/// (rocjitsu's fp8 sparse MFMAs read B in 8-byte runs, 8g..8g+7, 32+8g..;
/// its i8 ones are not implemented. The document's 16-byte runs are used:
/// they are what its 16-bit layout and the dense double-K MFMAs read.
/// AMD's composable_kernel agrees: ck_tile's gfx950 sparse amdgcn_mma
/// gives both widths kBKNumAccess 2 with kABKPerLane 16 / 32, i.e. B's k in
/// two runs of 8 / 16 values (16 bytes), and kAKNumAccess 1, A one
/// contiguous k run per lane. LLVM's MLIR smfmac verifier fix,
/// llvm-project #193541 (AMD), gives the index sets: 8 / 16 non-zeros per
/// lane, two 16-bit sets / one 32-bit set.)
template <const Shape &S> void smfmac950(Wave &w, const Inst &in) {
  constexpr unsigned M = S.M, N = S.N, K = S.K, G = 64 / N;
  constexpr bool byte = S.a == In::I8 || S.a == In::OFP8 || S.a == In::OBF8;
  constexpr unsigned C = byte ? 16 : 8, span = K / G;
  const Opnd &A = in.src(0), &Bo = in.src(1), &Idx = in.src(2), &D = in.dst();
  static thread_local std::vector<double> a, bm;
  a.assign(size_t(M) * K, 0);
  bm.assign(size_t(K) * N, 0);
  uint32_t tIdx[64];
  const uint32_t *ix = vget(w, Idx, tIdx);
  unsigned set = byte || in.cbsz != 0 ? 0 : (in.abid & 1);
  for (unsigned l = 0; l < 64; ++l) {
    unsigned g = l / N;
    for (unsigned e = 0; e < C; ++e) {
      unsigned pos = (ix[l] >> (16 * set + 2 * e)) & 3;
      a[size_t(l % M) * K + span * (l / M) + 4 * (e / 2) + pos] += readIn<S.a>(w, A, l, e);
    }
    for (unsigned e = 0; e < 2 * C; ++e)
      bm[size_t((e / C) * C * G + C * g + e % C) * N + l % N] = readIn<S.b>(w, Bo, l, e);
  }
  smfmacAccumulate<S>(w, D, a, bm);
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
// The same fp8/bf8 shapes in gfx950 code (OCP formats).
SHAPE(o16x16x32_fp8_fp8, 16, 16, 32, 1, OFP8, OFP8, F32)
SHAPE(o16x16x32_fp8_bf8, 16, 16, 32, 1, OFP8, OBF8, F32)
SHAPE(o16x16x32_bf8_fp8, 16, 16, 32, 1, OBF8, OFP8, F32)
SHAPE(o16x16x32_bf8_bf8, 16, 16, 32, 1, OBF8, OBF8, F32)
SHAPE(o32x32x16_fp8_fp8, 32, 32, 16, 1, OFP8, OFP8, F32)
SHAPE(o32x32x16_fp8_bf8, 32, 32, 16, 1, OFP8, OBF8, F32)
SHAPE(o32x32x16_bf8_fp8, 32, 32, 16, 1, OBF8, OFP8, F32)
SHAPE(o32x32x16_bf8_bf8, 32, 32, 16, 1, OBF8, OBF8, F32)
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
SHAPE(sp16x16x64_f16, 16, 16, 64, 1, F16, F16, F32)
SHAPE(sp32x32x32_f16, 32, 32, 32, 1, F16, F16, F32)
SHAPE(sp16x16x64_bf16, 16, 16, 64, 1, BF16, BF16, F32)
SHAPE(sp32x32x32_bf16, 32, 32, 32, 1, BF16, BF16, F32)
SHAPE(sp16x16x128_i8, 16, 16, 128, 1, I8, I8, I32)
SHAPE(sp32x32x64_i8, 32, 32, 64, 1, I8, I8, I32)
SHAPE(sp16x16x128_fp8_fp8, 16, 16, 128, 1, OFP8, OFP8, F32)
SHAPE(sp16x16x128_fp8_bf8, 16, 16, 128, 1, OFP8, OBF8, F32)
SHAPE(sp16x16x128_bf8_fp8, 16, 16, 128, 1, OBF8, OFP8, F32)
SHAPE(sp16x16x128_bf8_bf8, 16, 16, 128, 1, OBF8, OBF8, F32)
SHAPE(sp32x32x64_fp8_fp8, 32, 32, 64, 1, OFP8, OFP8, F32)
SHAPE(sp32x32x64_fp8_bf8, 32, 32, 64, 1, OFP8, OBF8, F32)
SHAPE(sp32x32x64_bf8_fp8, 32, 32, 64, 1, OBF8, OFP8, F32)
SHAPE(sp32x32x64_bf8_bf8, 32, 32, 64, 1, OBF8, OBF8, F32)
#undef SHAPE

} // namespace

void registerMFMA(SemTable &t) {
  auto add = [&](const char *n, SemFn f, Ty cty) {
    t.push_back({n, f, 1, ICls::MFMA, SF_NO_SDWA | SF_MATRIX_JOB, tys(Ty::B32, Ty::B32, cty)});
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
#define SP(P, SUF) sp("v_smfmac_" #P "_" #SUF, smfmac950<sp##SUF>);
  SP(f32, 16x16x64_f16) SP(f32, 32x32x32_f16) SP(f32, 16x16x64_bf16)
  SP(f32, 32x32x32_bf16) SP(i32, 16x16x128_i8) SP(i32, 32x32x64_i8)
#undef SP
  add("v_mfma_f64_4x4x4_4b_f64", mfma<s4x4x4_4b_f64>, Ty::F64);
}

/// gfx950 meanings of the gfx942 fp8/bf8 MFMAs: same shapes and layouts,
/// OCP inputs.
void registerGfx950OcpMFMA(SemTable &t) {
#define O(SUF)                                                                    \
  t.push_back({"v_mfma_f32_" #SUF, mfma<o##SUF>, 1, ICls::MFMA,                     \
               SF_NO_SDWA | SF_MATRIX_JOB,                                          \
               tys(Ty::B32, Ty::B32, Ty::F32)});
  O(16x16x32_fp8_fp8) O(16x16x32_fp8_bf8) O(16x16x32_bf8_fp8) O(16x16x32_bf8_bf8)
  O(32x32x16_fp8_fp8) O(32x32x16_fp8_bf8) O(32x32x16_bf8_fp8) O(32x32x16_bf8_bf8)
#undef O
  // gfx950-only, OCP inputs (smfmac950).
#define SP(SUF)                                                                   \
  t.push_back({"v_smfmac_f32_" #SUF, smfmac950<sp##SUF>, 1, ICls::MFMA,             \
               SF_NO_SDWA | SF_READS_DST, tys(Ty::B32)});
  SP(16x16x128_fp8_fp8) SP(16x16x128_fp8_bf8) SP(16x16x128_bf8_fp8) SP(16x16x128_bf8_bf8)
  SP(32x32x64_fp8_fp8) SP(32x32x64_fp8_bf8) SP(32x32x64_bf8_fp8) SP(32x32x64_bf8_bf8)
#undef SP
}

} // namespace aster::emu
