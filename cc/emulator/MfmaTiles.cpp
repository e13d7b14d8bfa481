//===- MfmaTiles.cpp - the host's tiled MFMA sums for SemF8F6F4.cpp --------===//
//
// mfmaTilesF32 (MfmaTiles.h): denseTilesF32 for the gfx950 f8f6f4 shapes,
// as functions of the host's AVX2 target, behind one check of the host.
//
//===----------------------------------------------------------------------===//

#include "emulator/MfmaTiles.h"

namespace aster::emu {

#if defined(__x86_64__) && defined(__GNUC__)
namespace {
template <unsigned M, unsigned N, unsigned K>
__attribute__((target("avx2,fma,f16c"), noinline)) void denseTilesAvx2(
    const double *a, const double *bm, const uint32_t *const *cRow, uint32_t *const *dRow) {
  denseTilesF32<M, N, K>(a, bm, cRow, dRow);
}
} // namespace

bool hostHasAvx2() {
  static const bool has = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
                          __builtin_cpu_supports("f16c");
  return has;
}
#endif

bool mfmaTilesF32(unsigned M, unsigned N, unsigned K, const double *a, const double *bm,
                  const uint32_t *const *cRow, uint32_t *const *dRow) {
#if defined(__x86_64__) && defined(__GNUC__)
  if (!hostHasAvx2())
    return false;
  if (M == 16 && N == 16 && K == 128)
    return denseTilesAvx2<16, 16, 128>(a, bm, cRow, dRow), true;
  if (M == 32 && N == 32 && K == 64)
    return denseTilesAvx2<32, 32, 64>(a, bm, cRow, dRow), true;
#endif
  (void)M, (void)N, (void)K, (void)a, (void)bm, (void)cRow, (void)dRow;
  return false;
}

} // namespace aster::emu
