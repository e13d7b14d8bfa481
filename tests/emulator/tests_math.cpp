//===- tests_math.cpp - f32, f16, f64 and integer arithmetic --------------===//
#include "TestUtil.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace emutest {

namespace {

std::unique_ptr<CodeObject> build(const Env &env, Check &c, const char *name) {
  auto path = compileHip(env, name);
  if (!c.value(path, "compile"))
    return nullptr;
  auto co = load(*path);
  if (!c.value(co, "load"))
    return nullptr;
  for (const KernelInfo &k : (*co)->kernels())
    for (const std::string &u : (*co)->unsupported(k))
      c.fail("unsupported instruction in " + k.name + ": " + u);
  return std::move(*co);
}

// ---- an f16 reference independent of the emulator's converters ----
double halfValue(uint16_t h) {
  int e = (h >> 10) & 31, m = h & 1023;
  double v = e == 0 ? std::ldexp(double(m), -24)
                    : e == 31 ? (m ? NAN : INFINITY) : std::ldexp(double(m | 1024), e - 25);
  return (h & 0x8000) ? -v : v;
}
/// Nearest f16 (ties to even) by search over all finite positive halves.
uint16_t toHalf(double d) {
  static std::vector<double> pos = [] {
    std::vector<double> v;
    for (uint32_t h = 0; h < 0x7c00; ++h)
      v.push_back(halfValue(uint16_t(h)));
    return v;
  }();
  if (std::isnan(d))
    return 0x7e00;
  uint16_t sign = std::signbit(d) ? 0x8000 : 0;
  double a = std::fabs(d);
  // Values at or above 65520 round to infinity.
  if (a >= 65520.0)
    return sign | 0x7c00;
  auto it = std::lower_bound(pos.begin(), pos.end(), a);
  size_t hi = size_t(it - pos.begin());
  if (hi >= pos.size())
    return sign | 0x7bff;
  if (pos[hi] == a || hi == 0)
    return uint16_t(sign | hi);
  size_t lo = hi - 1;
  double dl = a - pos[lo], dh = pos[hi] - a;
  size_t pick = dl < dh ? lo : dh < dl ? hi : ((lo & 1) ? hi : lo);
  return uint16_t(sign | pick);
}

void testF32(const Env &env, Check &c) {
  auto co = build(env, c, "f32_math");
  if (!co) return;
  int n = 256;
  std::vector<float> a(n), b(n);
  Rng r(21);
  for (int i = 0; i < n; ++i) {
    a[i] = r.uniform(-50, 50);
    b[i] = r.uniform(0.25f, 20.0f) * ((r.next() & 1) ? 1 : -1);
  }
  a[0] = 0.0f; a[1] = -0.0f; b[2] = 1e-3f; a[3] = 1e6f;
  std::vector<float> exact(16 * n), approx(16 * n);
  std::vector<float> want(16 * n);
  for (int i = 0; i < n; ++i) {
    float x = a[i], y = b[i];
    float *o = &want[16 * i];
    o[0] = x / y;
    o[1] = std::sqrt(std::fabs(x));
    o[2] = std::fma(x, y, 1.5f);
    o[3] = std::fmin(x, y);
    o[4] = std::fmax(x, y);
    o[5] = std::floor(x);
    o[6] = std::ceil(y);
    double x7 = double(x * 7.0f);
    o[7] = float(x7 >= 2147483647.0 ? 2147483647 : int(x7));
    o[8] = std::trunc(x * 3.3f);
    o[9] = std::nearbyint(y * 2.5f);
    double u = std::fabs(double(x * 100.0f));
    o[10] = float(u >= 4294967295.0 ? 4294967295u : unsigned(u));
    o[11] = std::copysign(x, y);
    o[12] = std::ldexp(x, int(y) % 8);
    o[13] = 1.0f / y;
    o[14] = float(std::exp2(double(y * 0.1f)));
    o[15] = float(std::log2(double(std::fabs(x) + 1.0f)));
  }
  Dev d;
  uint64_t A = d.buf(a), B = d.buf(b), O = d.zeros<float>(16 * n);
  KernargBuilder k;
  k.addPointer(A).addPointer(B).addPointer(O).addI32(n);
  auto st = d.dev.launch(*co, "f32_math", {unsigned(n / 64)}, {64}, k.bytes());
  if (!c.value(st, "launch"))
    return;
  std::vector<float> got = d.get<float>(O);
  // Exact results for IEEE-exact operations; 2 ulp for the approximations.
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < 16; ++j) {
      float g = got[16 * i + j], w = want[16 * i + j];
      bool approxOp = j >= 13;
      bool ok = approxOp ? std::fabs(g - w) <= 2.5e-7f * std::fabs(w) + 1e-30f
                         : (g == w && std::signbit(g) == std::signbit(w)) ||
                               (std::isnan(g) && std::isnan(w));
      if (!ok) {
        c.fail("out[" + std::to_string(i) + "][" + std::to_string(j) + "] = " +
               std::to_string(g) + ", expected " + std::to_string(w) + " (x=" +
               std::to_string(a[i]) + ", y=" + std::to_string(b[i]) + ")");
        return;
      }
    }
}

void testInt(const Env &env, Check &c) {
  auto co = build(env, c, "int_math");
  if (!co) return;
  int n = 256;
  std::vector<int> a(n), b(n), want(16 * n);
  Rng r(9);
  for (int i = 0; i < n; ++i) {
    a[i] = int(r.next()) * ((r.next() & 1) ? 1 : -1);
    b[i] = (i % 5 == 0) ? int(r.next() % 100) - 50 : int(r.next());
  }
  a[0] = INT32_MIN; b[0] = -1; b[1] = 0;
  for (int i = 0; i < n; ++i) {
    int x = a[i], y = b[i];
    uint32_t ux = uint32_t(x), uy = uint32_t(y);
    long long lx = (long long)x * 123457, ly = (long long)y - 99;
    int *o = &want[16 * i];
    o[0] = y ? (x == INT32_MIN && y == -1 ? INT32_MIN : x / y) : 0;
    o[1] = y ? (y == -1 ? 0 : x % y) : 0;
    o[2] = uy ? int(ux / uy) : 0;
    o[3] = uy ? int(ux % uy) : 0;
    o[4] = int(((long long)x * y) >> 32);
    o[5] = int(((unsigned long long)ux * uy) >> 32);
    o[6] = int(ux << (y & 31));
    o[7] = x >> (y & 31);
    o[8] = int(ux >> (uy & 31));
    o[9] = __builtin_popcount(ux);
    o[10] = ux ? __builtin_clz(ux) : 32;
    o[11] = std::min(x, y);
    o[12] = int(std::max(ux, uy));
    o[13] = int((long long)((unsigned long long)lx * (unsigned long long)ly) >> 7);
    o[14] = ly ? int(lx / ly) : 0;
    uint32_t rev = 0;
    for (int k = 0; k < 32; ++k)
      rev |= ((ux >> k) & 1u) << (31 - k);
    o[15] = int(rev ^ (ux * uy));
  }
  Dev d;
  uint64_t A = d.buf(a), B = d.buf(b), O = d.zeros<int>(16 * n);
  KernargBuilder k;
  k.addPointer(A).addPointer(B).addPointer(O).addI32(n);
  auto st = d.dev.launch(*co, "int_math", {unsigned(n / 64)}, {64}, k.bytes());
  if (c.value(st, "launch"))
    c.eq(d.get<int>(O), want, "out");
}

void testF16(const Env &env, Check &c) {
  auto co = build(env, c, "f16_math");
  if (!co) return;
  int n = 256;
  std::vector<uint16_t> a(n), b(n), cc(n), want(12 * n), fused(12 * n);
  std::vector<float> fwant(2 * n);
  Rng r(4);
  for (int i = 0; i < n; ++i) {
    a[i] = toHalf(r.uniform(-30, 30));
    b[i] = toHalf(r.uniform(0.5f, 8) * ((r.next() & 1) ? 1.0f : -1.0f));
    cc[i] = toHalf(r.uniform(-100, 100));
  }
  for (int i = 0; i < n; ++i) {
    double x = halfValue(a[i]), y = halfValue(b[i]), z = halfValue(cc[i]);
    uint16_t *o = &want[12 * i];
    o[0] = toHalf(x + y);
    o[1] = toHalf(x * y);
    o[2] = toHalf(x - z);
    o[3] = toHalf(x * y + z);  // exact product and sum in double: one rounding
    o[4] = x > y ? a[i] : b[i];
    o[5] = toHalf(double(float(x) * 0.3f));
    double t = halfValue(toHalf(y * 10.0));
    o[6] = toHalf(double(int(t)));
    double rx = halfValue(toHalf(x * y)), ry = halfValue(toHalf(y * z));
    o[7] = toHalf(rx + y);
    o[8] = toHalf(ry + z);
    fused[12 * i + 7] = toHalf(x * y + y);
    fused[12 * i + 8] = toHalf(y * z + z);
    o[9] = toHalf(x + y);
    o[10] = toHalf(y + z);
    o[11] = toHalf(double((unsigned short)(z < 0 ? -z : z)));
    fwant[2 * i] = float(x) * float(y);
    fwant[2 * i + 1] = float(halfValue(toHalf(x / y)));
  }
  Dev d;
  uint64_t A = d.buf(a), B = d.buf(b), C = d.buf(cc), O = d.zeros<uint16_t>(12 * n),
           F = d.zeros<float>(2 * n);
  KernargBuilder k;
  k.addPointer(A).addPointer(B).addPointer(C).addPointer(O).addPointer(F).addI32(n);
  auto st = d.dev.launch(*co, "f16_math", {unsigned(n / 64)}, {64}, k.bytes());
  if (!c.value(st, "launch"))
    return;
  std::vector<uint16_t> got = d.get<uint16_t>(O);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < 12; ++j) {
      uint16_t g = got[12 * i + j], w = want[12 * i + j];
      // The packed multiply-add may be fused (one rounding).
      bool ok = g == w || ((j == 7 || j == 8) && g == fused[12 * i + j]);
      if (!ok) {
        c.fail("half out[" + std::to_string(i) + "][" + std::to_string(j) + "] = " +
               std::to_string(halfValue(g)) + ", expected " + std::to_string(halfValue(w)));
        return;
      }
    }
  c.near(d.get<float>(F), fwant, 1e-3, 0, "float out");
}

void testF64(const Env &env, Check &c) {
  auto co = build(env, c, "f64_math");
  if (!co) return;
  int n = 128;
  std::vector<double> a(n), b(n), want(10 * n);
  Rng r(8);
  for (int i = 0; i < n; ++i) {
    a[i] = double(r.uniform(-1000, 1000)) / 7.0;
    b[i] = double(r.uniform(0.01f, 50)) * ((r.next() & 1) ? 1 : -1) / 3.0;
  }
  for (int i = 0; i < n; ++i) {
    double x = a[i], y = b[i];
    double *o = &want[10 * i];
    o[0] = x * y + x;
    o[1] = std::fma(x, y, -1.0);
    o[2] = x / y;
    o[3] = std::sqrt(std::fabs(y));
    o[4] = std::fmin(x, y);
    o[5] = std::floor(x);
    o[6] = double(int(y * 3.0));
    o[7] = double(float(x * 1.1));
    o[8] = std::ceil(y);
    o[9] = x - y;
  }
  Dev d;
  uint64_t A = d.buf(a), B = d.buf(b), O = d.zeros<double>(10 * n);
  KernargBuilder k;
  k.addPointer(A).addPointer(B).addPointer(O).addI32(n);
  auto st = d.dev.launch(*co, "f64_math", {unsigned(n / 64)}, {64}, k.bytes());
  if (!c.value(st, "launch"))
    return;
  std::vector<double> got = d.get<double>(O);
  for (int i = 0; i < 10 * n; ++i) {
    // x * y + x may be contracted to an fma: allow 1 ulp for that output.
    double tol = (i % 10 == 0) ? std::fabs(want[i]) * 4e-16 : 0;
    if (!(std::fabs(got[i] - want[i]) <= tol)) {
      c.fail("out[" + std::to_string(i / 10) + "][" + std::to_string(i % 10) + "] = " +
             std::to_string(got[i]) + ", expected " + std::to_string(want[i]));
      return;
    }
  }
}

} // namespace

void addMathTests(std::vector<TestCase> &t) {
  t.push_back({"f32_math", testF32});
  t.push_back({"int_math", testInt});
  t.push_back({"f16_math", testF16});
  t.push_back({"f64_math", testF64});
}

} // namespace emutest
