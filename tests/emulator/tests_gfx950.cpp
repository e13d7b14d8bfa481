//===- tests_gfx950.cpp - gfx950 (CDNA4) code objects ---------------------===//
//
// hip/gfx950_mfma.hip compiled with --offload-arch=gfx950: the loader takes
// the gfx950 code object, the decoder uses the gfx950 subtarget, and the new
// MFMA shapes run against references computed here.
//
//===----------------------------------------------------------------------===//
#include "TestUtil.h"

#include <cmath>

namespace emutest {

namespace {

std::unique_ptr<CodeObject> &gfx950Code(const Env &env, Check &c) {
  static std::unique_ptr<CodeObject> co;
  if (!co) {
    auto path = compileHip(env, "gfx950_mfma", {}, "gfx950");
    if (!c.value(path, "compile"))
      return co;
    auto l = load(*path);
    if (!c.value(l, "load"))
      return co;
    co = std::move(*l);
    if (co->processor() != "gfx950")
      c.fail("processor is " + co->processor().str() + ", expected gfx950");
    for (const KernelInfo &k : co->kernels())
      for (const std::string &u : co->unsupported(k))
        if (k.name != "fp8cvt950")  // refused on purpose (testFp8Refused)
          c.fail("unsupported instruction in " + k.name + ": " + u);
  }
  return co;
}

template <class T> std::vector<T> cast(const std::vector<double> &v) {
  return std::vector<T>(v.begin(), v.end());
}

void runF16(const Env &env, Check &c, const char *kernel, int M, int N, int K, bool bf16,
            bool withC) {
  auto &co = gfx950Code(env, c);
  if (!co) return;
  auto a = smallValues(size_t(M) * K, M + K + 950), b = smallValues(size_t(K) * N, N + 3 * K);
  auto cm = smallValues(size_t(M) * N, 950);
  auto want = matmul(a, b, withC ? &cm : nullptr, M, N, K);
  std::vector<uint16_t> ea(a.size()), eb(b.size());
  for (size_t i = 0; i < a.size(); ++i) ea[i] = bf16 ? bf16Bits(a[i]) : halfBits(a[i]);
  for (size_t i = 0; i < b.size(); ++i) eb[i] = bf16 ? bf16Bits(b[i]) : halfBits(b[i]);
  Dev d;
  uint64_t A = d.buf(ea), B = d.buf(eb), C = d.buf(cast<float>(cm)),
           D = d.zeros<float>(size_t(M) * N);
  KernargBuilder k;
  k.addPointer(A).addPointer(B);
  if (withC)
    k.addPointer(C);
  k.addPointer(D);
  auto st = d.dev.launch(*co, kernel, {1}, {64}, k.bytes());
  if (!c.value(st, "launch"))
    return;
  c.eq(d.get<float>(D), cast<float>(want), "D");
  if (st->mfma != 1)
    c.fail("expected 1 MFMA, counted " + std::to_string(st->mfma));
}

void testF16(const Env &e, Check &c) {
  runF16(e, c, "mfma950_f16_16x16x32", 16, 16, 32, false, true);
}
void testBf16(const Env &e, Check &c) {
  runF16(e, c, "mfma950_bf16_32x32x16", 32, 32, 16, true, false);
}

void testI8(const Env &env, Check &c) {
  auto &co = gfx950Code(env, c);
  if (!co) return;
  int M = 16, N = 16, K = 64;
  Rng r(950);
  std::vector<double> a(size_t(M) * K), b(size_t(K) * N);
  for (double &x : a) x = double(int(r.next() % 256) - 128);
  for (double &x : b) x = double(int(r.next() % 256) - 128);
  auto want = matmul(a, b, nullptr, M, N, K);
  Dev d;
  uint64_t A = d.buf(cast<int8_t>(a)), B = d.buf(cast<int8_t>(b)),
           D = d.zeros<int>(size_t(M) * N);
  KernargBuilder k;
  k.addPointer(A).addPointer(B).addPointer(D);
  auto st = d.dev.launch(*co, "mfma950_i8_16x16x64", {1}, {64}, k.bytes());
  if (c.value(st, "launch"))
    c.eq(d.get<int>(D), cast<int>(want), "D");
}

void testSaxpy(const Env &env, Check &c) {
  auto &co = gfx950Code(env, c);
  if (!co) return;
  int n = 1000;
  Rng r(9);
  std::vector<float> x(n), y(n), want(n);
  for (int i = 0; i < n; ++i) {
    x[i] = r.uniform(-4, 4);
    y[i] = r.uniform(-4, 4);
    want[i] = 1.5f * x[i] + y[i];
  }
  Dev d;
  uint64_t X = d.buf(x), Y = d.buf(y);
  KernargBuilder k;
  k.addPointer(X).addPointer(Y).addF32(1.5f).addI32(n);
  auto st = d.dev.launch(*co, "saxpy950", {4}, {256}, k.bytes());
  if (c.value(st, "launch"))
    c.near(d.get<float>(Y), want, 1e-6, 1e-6, "y");
}

/// Nearest bf16 to finite `f` (ties to even), by comparing the two
/// candidates in double.
uint16_t nearestBf16(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  uint32_t lo = u & 0xffff0000u, hi = lo + 0x10000u;
  float flo, fhi;
  std::memcpy(&flo, &lo, 4);
  std::memcpy(&fhi, &hi, 4);
  double dl = std::fabs(double(f) - double(flo)), dh = std::fabs(double(fhi) - double(f));
  bool up = dh < dl || (dh == dl && ((lo >> 16) & 1));
  return uint16_t((up ? hi : lo) >> 16);
}

/// clang's gfx950 code for conversions and three-input bit logic
/// (v_cvt_pk_bf16_f32, v_cvt_pk_f16_f32, v_bitop3_b32) against host
/// arithmetic (_Float16 conversion, the bit expression itself).
void testConvert(const Env &env, Check &c) {
  auto &co = gfx950Code(env, c);
  if (!co) return;
  int n = 300;
  Rng r(950950);
  std::vector<float> x(2 * n), wantW(n);
  std::vector<uint16_t> b(n);
  std::vector<uint32_t> wantB(n), wantH(n), wantBits(n);
  for (float &v : x) {
    uint32_t u = r.next() & 0x8fffffffu;  // exponents up to 2^31: finite
    std::memcpy(&v, &u, 4);
  }
  x[0] = 1.0f + 0x1p-8f;   // a bf16 tie, rounds to even (down)
  x[1] = 1.0f + 3 * 0x1p-8f; // a bf16 tie, rounds up
  for (int i = 0; i < n; ++i) {
    b[i] = uint16_t(r.next());
    if ((b[i] & 0x7f80) == 0x7f80) b[i] &= 0xbfff;  // no inf/NaN
    uint32_t wb = uint32_t(b[i]) << 16;
    float fb;
    std::memcpy(&fb, &wb, 4);
    wantW[i] = fb * 2.0f;
    wantB[i] = nearestBf16(x[2 * i]) | uint32_t(nearestBf16(x[2 * i + 1])) << 16;
    _Float16 h0 = _Float16(x[2 * i]), h1 = _Float16(x[2 * i + 1]);
    uint16_t b0, b1;
    std::memcpy(&b0, &h0, 2);
    std::memcpy(&b1, &h1, 2);
    wantH[i] = b0 | uint32_t(b1) << 16;
    uint32_t u, v;
    std::memcpy(&u, &x[2 * i], 4);
    std::memcpy(&v, &x[2 * i + 1], 4);
    wantBits[i] = (u & v) | ((~u & uint32_t(i)) ^ (v | 0x0f0f0f0fu));
  }
  Dev d;
  uint64_t X = d.buf(x), B = d.buf(b), W = d.zeros<float>(n), BP = d.zeros<uint32_t>(n),
           HP = d.zeros<uint32_t>(n), BI = d.zeros<uint32_t>(n);
  KernargBuilder k;
  k.addPointer(X).addPointer(B).addPointer(W).addPointer(BP).addPointer(HP).addPointer(BI)
      .addI32(n);
  auto st = d.dev.launch(*co, "convert950", {2}, {256}, k.bytes());
  if (!c.value(st, "launch"))
    return;
  c.eq(d.get<float>(W), wantW, "bf16 -> f32 * 2");
  c.eq(d.get<uint32_t>(BP), wantB, "f32 pair -> bf16 pair");
  c.eq(d.get<uint32_t>(HP), wantH, "f32 pair -> f16 pair");
  c.eq(d.get<uint32_t>(BI), wantBits, "bit logic");
}

/// gfx950's fp8 formats are not gfx942's: such instructions fail with their
/// name and pc instead of computing in the wrong format.
void testFp8Refused(const Env &env, Check &c) {
  auto &co = gfx950Code(env, c);
  if (!co) return;
  Dev d;
  uint64_t X = d.zeros<uint32_t>(64), Y = d.zeros<float>(64);
  KernargBuilder k;
  k.addPointer(X).addPointer(Y);
  auto st = d.dev.launch(*co, "fp8cvt950", {1}, {64}, k.bytes());
  c.errorContains(st, {"v_cvt_f32_fp8", "OCP fp8/bf8", "pc 0x"});
}

/// gfx950 has 160 KiB of LDS per workgroup: more is refused, with the
/// processor named.
void testLdsLimit(const Env &env, Check &c) {
  auto &co = gfx950Code(env, c);
  if (!co) return;
  Dev d;
  uint64_t X = d.zeros<float>(256), Y = d.zeros<float>(256);
  KernargBuilder k;
  k.addPointer(X).addPointer(Y).addF32(1.f).addI32(256);
  LaunchOptions o;
  o.dynamicLdsBytes = 160 * 1024;
  auto ok = d.dev.launch(*co, "saxpy950", {1}, {256}, k.bytes(), o);
  c.value(ok, "launch with 160 KiB of LDS");
  o.dynamicLdsBytes = 160 * 1024 + 4;
  auto bad = d.dev.launch(*co, "saxpy950", {1}, {256}, k.bytes(), o);
  c.errorContains(bad, {"bytes of LDS", "gfx950 has 163840"});
}

} // namespace

void addGfx950Tests(std::vector<TestCase> &t) {
  t.push_back({"gfx950_mfma_f16_16x16x32", testF16});
  t.push_back({"gfx950_mfma_bf16_32x32x16", testBf16});
  t.push_back({"gfx950_mfma_i8_16x16x64", testI8});
  t.push_back({"gfx950_saxpy", testSaxpy});
  t.push_back({"gfx950_lds_limit", testLdsLimit});
  t.push_back({"gfx950_convert_bitop3", testConvert});
  t.push_back({"gfx950_fp8_refused", testFp8Refused});
}

} // namespace emutest
