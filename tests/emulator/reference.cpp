//===- reference.cpp - host references shared by the C++ emulator checks --===//
#include "TestUtil.h"

#include <cmath>
#include <cstring>

namespace emutest {

/// Reference D = A (M x K) * B (K x N) + C, summed in double.
std::vector<double> matmul(const std::vector<double> &a, const std::vector<double> &b,
                           const std::vector<double> *c, int M, int N, int K) {
  std::vector<double> d(size_t(M) * N);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double s = 0;
      for (int k = 0; k < K; ++k)
        s += a[size_t(i) * K + k] * b[size_t(k) * N + j];
      d[size_t(i) * N + j] = s + (c ? (*c)[size_t(i) * N + j] : 0);
    }
  return d;
}

uint16_t halfBits(double v) {  // exact for the small values used here
  if (v == 0) return 0;
  uint16_t s = v < 0 ? 0x8000 : 0;
  v = std::fabs(v);
  int e;
  double m = std::frexp(v, &e);  // v = m * 2^e, m in [0.5, 1)
  int biased = e - 1 + 15;
  uint16_t mant = uint16_t((m * 2 - 1) * 1024);
  return uint16_t(s | biased << 10 | mant);
}
uint16_t bf16Bits(double v) {
  float f = float(v);
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return uint16_t(u >> 16);  // exact for the values used
}
double fp8Value(uint8_t code) {  // E4M3FNUZ: bias 8, no inf, 0x80 = NaN
  int e = (code >> 3) & 15, m = code & 7;
  double v = e == 0 ? std::ldexp(double(m), -10) : std::ldexp(double(8 + m), e - 11);
  return (code & 0x80) ? -v : v;
}

/// Small integers / 4 so every product and sum is exact in f16/bf16/f32.
std::vector<double> smallValues(size_t n, uint64_t seed) {
  Rng r(seed);
  std::vector<double> v(n);
  for (double &x : v)
    x = double(int(r.next() % 17) - 8) / 4.0;
  return v;
}

} // namespace emutest
