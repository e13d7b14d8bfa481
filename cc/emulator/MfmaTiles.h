//===- MfmaTiles.h - the host's tiled MFMA sums, shared by MFMA files -----===//
//
// Needs: A as a[i * K + k] and B as bm[k * N + j], doubles (each product of
// two of them exact in double); row i's C and D lanes at cRow[i], dRow[i]
// (f32 bits; D may be C: each lane is read before it is written).
// Guarantees: D[i][j] = f32(s + C[i][j]) with s the sum over k, in order
// from 0 and starting from +0, of a[i][k] * bm[k][j] in double, each step
// rounded once: the sums SemMFMA.cpp's gemmBody and SemF8F6F4.cpp form,
// bit for bit. mfmaTilesF32 returns false (nothing written) where the host
// has no AVX2/FMA or the shape has no tiled form; the caller then sums
// itself. denseTilesF32 (x86 hosts) is the template SemMFMA.cpp inlines
// into its AVX2 MFMA bodies; MfmaTiles.cpp instantiates it for the rest.
//
//===----------------------------------------------------------------------===//
#ifndef ASTER_EMULATOR_MFMATILES_H
#define ASTER_EMULATOR_MFMATILES_H

#include <cstdint>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

namespace aster::emu {

bool mfmaTilesF32(unsigned M, unsigned N, unsigned K, const double *a, const double *bm,
                  const uint32_t *const *cRow, uint32_t *const *dRow);

#if defined(__x86_64__) && defined(__GNUC__)
/// The host has AVX2, FMA and F16C (checked once).
bool hostHasAvx2();

#define ASTER_MFMA_HOST __attribute__((target("avx2,fma,f16c")))

/// One-block MFMAs with f32 results, on AVX2 hosts: the same sums as
/// gemmBody (each D[i][j] = f32(sum_k a[i][k] * b[k][j] + C[i][j]), the sum
/// in double from +0 in k order, each step one fused multiply-add of an
/// exact product) in register tiles of 4 rows x 8 columns. The order of the
/// additions into each sum is fixed; what is free is the order in which the
/// M x N independent sums advance: a tile keeps 8 accumulator chains (the
/// host's two FMA pipes of latency 4 need 8 in flight), loads 2 vectors of
/// B and broadcasts 4 values of A per k (6 loads per 8 FMAs; a whole row at
/// a time needed 9), and adds C and rounds to f32 as soon as its sums are
/// done, from registers. Row i's C and D lanes: cRow[i], dRow[i] (D may be
/// C itself: each lane is read before it is written).
template <unsigned M, unsigned N, unsigned K>
ASTER_MFMA_HOST inline void denseTilesF32(const double *a, const double *bm,
                                          const uint32_t *const *cRow, uint32_t *const *dRow) {
  static_assert(M % 4 == 0 && N % 8 == 0, "tiles of 4 x 8");
  for (unsigned i = 0; i < M; i += 4)
    for (unsigned j0 = 0; j0 < N; j0 += 8) {
      __m256d r[4][2];
      for (unsigned q = 0; q < 4; ++q)
        r[q][0] = r[q][1] = _mm256_setzero_pd();
      const double *ar = a + i * K, *br = bm + j0;
      for (unsigned k = 0; k < K; ++k) {
        __m256d b0 = _mm256_loadu_pd(br + k * N), b1 = _mm256_loadu_pd(br + k * N + 4);
        for (unsigned q = 0; q < 4; ++q) {
          __m256d x = _mm256_broadcast_sd(ar + q * K + k);
          r[q][0] = _mm256_fmadd_pd(x, b0, r[q][0]);
          r[q][1] = _mm256_fmadd_pd(x, b1, r[q][1]);
        }
      }
      for (unsigned q = 0; q < 4; ++q) {
        const float *c = reinterpret_cast<const float *>(cRow[i + q] + j0);
        __m128 lo = _mm256_cvtpd_ps(_mm256_add_pd(r[q][0], _mm256_cvtps_pd(_mm_loadu_ps(c))));
        __m128 hi =
            _mm256_cvtpd_ps(_mm256_add_pd(r[q][1], _mm256_cvtps_pd(_mm_loadu_ps(c + 4))));
        float *d = reinterpret_cast<float *>(dRow[i + q] + j0);
        _mm_storeu_ps(d, lo);
        _mm_storeu_ps(d + 4, hi);
      }
    }
}
#endif

} // namespace aster::emu

#endif
