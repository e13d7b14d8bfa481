//===- MfmaTiles.h - the host's tiled MFMA sums, shared by MFMA files -----===//
//
// Needs: A as a[i * K + k] and B as bm[k * N + j], doubles (each product of
// two of them exact in double); row i's C and D lanes at cRow[i], dRow[i]
// (f32 bits; D may be C: each lane is read before it is written).
// Guarantees: D[i][j] = f32(s + C[i][j]) with s the sum over k, in order
// from 0 and starting from +0, of a[i][k] * bm[k][j] in double, each step
// rounded once: the sums SemMFMA.cpp's gemmBody and SemF8F6F4.cpp form,
// bit for bit. Returns false (nothing written) where the host has no
// AVX2/FMA or the shape has no tiled form; the caller then sums itself.
//
//===----------------------------------------------------------------------===//
#ifndef ASTER_EMULATOR_MFMATILES_H
#define ASTER_EMULATOR_MFMATILES_H

#include <cstdint>

namespace aster::emu {

bool mfmaTilesF32(unsigned M, unsigned N, unsigned K, const double *a, const double *bm,
                  const uint32_t *const *cRow, uint32_t *const *dRow);

} // namespace aster::emu

#endif
