//===- tests_mfma.cpp - matrix core instructions --------------------------===//
#include "TestUtil.h"

#include <cmath>

namespace emutest {

namespace {

std::unique_ptr<CodeObject> &mfmaCode(const Env &env, Check &c) {
  static std::unique_ptr<CodeObject> co;
  if (!co) {
    auto path = compileHip(env, "mfma");
    if (!c.value(path, "compile"))
      return co;
    auto l = load(*path);
    if (!c.value(l, "load"))
      return co;
    co = std::move(*l);
    for (const KernelInfo &k : co->kernels())
      for (const std::string &u : co->unsupported(k))
        c.fail("unsupported instruction in " + k.name + ": " + u);
  }
  return co;
}

} // namespace

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

namespace {

template <class T, class F> std::vector<T> convert(const std::vector<double> &v, F f) {
  std::vector<T> out(v.size());
  for (size_t i = 0; i < v.size(); ++i)
    out[i] = f(v[i]);
  return out;
}

template <class T> std::vector<T> narrowed(const std::vector<double> &v) {
  return convert<T>(v, [](double x) { return T(x); });
}

void runF16(const Env &env, Check &c, const char *kernel, int M, int N, int K, bool bf16,
            bool withC) {
  auto &co = mfmaCode(env, c);
  if (!co) return;
  auto a = smallValues(size_t(M) * K, M + K), b = smallValues(size_t(K) * N, N * 3 + K);
  auto cm = smallValues(size_t(M) * N, 99);
  auto want = matmul(a, b, withC ? &cm : nullptr, M, N, K);
  auto enc = [&](double x) { return bf16 ? bf16Bits(x) : halfBits(x); };
  Dev d;
  uint64_t A = d.buf(convert<uint16_t>(a, enc)), B = d.buf(convert<uint16_t>(b, enc));
  uint64_t C = d.buf(narrowed<float>(cm)), D = d.zeros<float>(size_t(M) * N);
  KernargBuilder k;
  k.addPointer(A).addPointer(B);
  if (withC)
    k.addPointer(C);
  k.addPointer(D);
  auto st = d.dev.launch(*co, kernel, {1}, {64}, k.bytes());
  if (c.value(st, "launch"))
    c.eq(d.get<float>(D), narrowed<float>(want), "D");
}

void testF16x16(const Env &e, Check &c) { runF16(e, c, "mfma_f16_16x16x16", 16, 16, 16, false, true); }
void testF32x32(const Env &e, Check &c) { runF16(e, c, "mfma_f16_32x32x8", 32, 32, 8, false, false); }
void testBf16x16(const Env &e, Check &c) { runF16(e, c, "mfma_bf16_16x16x16", 16, 16, 16, true, false); }
void testBf32x32(const Env &e, Check &c) { runF16(e, c, "mfma_bf16_32x32x8", 32, 32, 8, true, false); }

void runI8(const Env &env, Check &c, const char *kernel, int M, int N, int K) {
  auto &co = mfmaCode(env, c);
  if (!co) return;
  Rng r(M * 7 + K);
  std::vector<double> a(size_t(M) * K), b(size_t(K) * N);
  for (double &x : a) x = double(int(r.next() % 256) - 128);
  for (double &x : b) x = double(int(r.next() % 256) - 128);
  auto want = matmul(a, b, nullptr, M, N, K);
  Dev d;
  uint64_t A = d.buf(narrowed<int8_t>(a)), B = d.buf(narrowed<int8_t>(b)),
           D = d.zeros<int>(size_t(M) * N);
  KernargBuilder k;
  k.addPointer(A).addPointer(B).addPointer(D);
  auto st = d.dev.launch(*co, kernel, {1}, {64}, k.bytes());
  if (c.value(st, "launch"))
    c.eq(d.get<int>(D), narrowed<int>(want), "D");
}
void testI8x16(const Env &e, Check &c) { runI8(e, c, "mfma_i8_16x16x32", 16, 16, 32); }
void testI8x32(const Env &e, Check &c) { runI8(e, c, "mfma_i8_32x32x16", 32, 32, 16); }

void runF32(const Env &env, Check &c, const char *kernel, int M, int N, int K) {
  auto &co = mfmaCode(env, c);
  if (!co) return;
  Rng r(K * 31 + M);
  std::vector<double> a(size_t(M) * K), b(size_t(K) * N);
  for (double &x : a) x = double(r.uniform(-2, 2));
  for (double &x : b) x = double(r.uniform(-2, 2));
  auto want = matmul(a, b, nullptr, M, N, K);
  Dev d;
  uint64_t A = d.buf(narrowed<float>(a)), B = d.buf(narrowed<float>(b)),
           D = d.zeros<float>(size_t(M) * N);
  KernargBuilder k;
  k.addPointer(A).addPointer(B).addPointer(D);
  auto st = d.dev.launch(*co, kernel, {1}, {64}, k.bytes());
  if (c.value(st, "launch"))
    c.near(d.get<float>(D), narrowed<float>(want), 1e-6, 1e-6, "D");
}
void testF32x32x2(const Env &e, Check &c) { runF32(e, c, "mfma_f32_32x32x2", 32, 32, 2); }
void testF32x16x4(const Env &e, Check &c) { runF32(e, c, "mfma_f32_16x16x4", 16, 16, 4); }

void testFp8(const Env &env, Check &c) {
  auto &co = mfmaCode(env, c);
  if (!co) return;
  int M = 16, N = 16, K = 32;
  Rng r(77);
  std::vector<uint8_t> ca(size_t(M) * K), cb(size_t(K) * N);
  for (uint8_t &x : ca) do x = uint8_t(r.next()); while (x == 0x80);
  for (uint8_t &x : cb) do x = uint8_t(r.next()); while (x == 0x80);
  std::vector<double> a(ca.size()), b(cb.size());
  for (size_t i = 0; i < a.size(); ++i) a[i] = fp8Value(ca[i]);
  for (size_t i = 0; i < b.size(); ++i) b[i] = fp8Value(cb[i]);
  auto want = matmul(a, b, nullptr, M, N, K);
  Dev d;
  uint64_t A = d.buf(ca), B = d.buf(cb), D = d.zeros<float>(size_t(M) * N);
  KernargBuilder k;
  k.addPointer(A).addPointer(B).addPointer(D);
  auto st = d.dev.launch(*co, "mfma_fp8_16x16x32", {1}, {64}, k.bytes());
  if (c.value(st, "launch"))
    c.eq(d.get<float>(D), narrowed<float>(want), "D");
}

void testF64(const Env &env, Check &c) {
  auto &co = mfmaCode(env, c);
  if (!co) return;
  int M = 16, N = 16, K = 4;
  Rng r(5);
  std::vector<double> a(size_t(M) * K), b(size_t(K) * N);
  for (double &x : a) x = double(r.uniform(-3, 3)) / 3.0;
  for (double &x : b) x = double(r.uniform(-3, 3)) / 7.0;
  auto want = matmul(a, b, nullptr, M, N, K);
  Dev d;
  uint64_t A = d.buf(a), B = d.buf(b), D = d.zeros<double>(size_t(M) * N);
  KernargBuilder k;
  k.addPointer(A).addPointer(B).addPointer(D);
  auto st = d.dev.launch(*co, "mfma_f64_16x16x4", {1}, {64}, k.bytes());
  if (c.value(st, "launch"))
    c.near(d.get<double>(D), want, 1e-14, 1e-15, "D");
}

void testGemmLoop(const Env &env, Check &c) {
  auto &co = mfmaCode(env, c);
  if (!co) return;
  int K = 64;
  auto a = smallValues(size_t(64) * K, 1), b = smallValues(size_t(K) * 64, 2);
  auto want = matmul(a, b, nullptr, 64, 64, K);
  Dev d;
  uint64_t A = d.buf(convert<uint16_t>(a, halfBits)), B = d.buf(convert<uint16_t>(b, halfBits));
  uint64_t D = d.zeros<float>(64 * 64);
  KernargBuilder k;
  k.addPointer(A).addPointer(B).addPointer(D).addI32(K);
  auto st = d.dev.launch(*co, "mfma_gemm_loop", {1}, {256}, k.bytes());
  if (!c.value(st, "launch"))
    return;
  c.eq(d.get<float>(D), narrowed<float>(want), "D");
  if (st->mfma != 4 * 4 * uint64_t(K / 16))
    c.fail("expected " + std::to_string(4 * 4 * (K / 16)) + " MFMAs, counted " +
           std::to_string(st->mfma));
}

/// Blocked MFMAs: 16 blocks of 4x4x4 (optionally with CBSZ=1, ABID=1: every
/// pair of blocks uses the A of its odd block) and 2 blocks of 32x32x4.
void testBlocks(const Env &env, Check &c) {
  auto &co = mfmaCode(env, c);
  if (!co) return;
  for (int broadcast = 0; broadcast < 2; ++broadcast) {
    auto a = smallValues(16 * 16, 40), b = smallValues(16 * 16, 41);
    std::vector<double> want(16 * 16);
    for (int blk = 0; blk < 16; ++blk) {
      int ab = broadcast ? (blk / 2) * 2 + 1 : blk;
      std::vector<double> A(a.begin() + ab * 16, a.begin() + ab * 16 + 16);
      std::vector<double> B(b.begin() + blk * 16, b.begin() + blk * 16 + 16);
      auto D = matmul(A, B, nullptr, 4, 4, 4);
      std::copy(D.begin(), D.end(), want.begin() + blk * 16);
    }
    Dev d;
    uint64_t A = d.buf(convert<uint16_t>(a, halfBits)), B = d.buf(convert<uint16_t>(b, halfBits));
    uint64_t D = d.zeros<float>(16 * 16);
    KernargBuilder k;
    k.addPointer(A).addPointer(B).addPointer(D).addI32(broadcast);
    auto st = d.dev.launch(*co, "mfma_f16_4x4x4_16b", {1}, {64}, k.bytes());
    if (c.value(st, "launch 4x4x4"))
      c.eq(d.get<float>(D), narrowed<float>(want), broadcast ? "D (cbsz/abid)" : "D 4x4x4");
  }
  auto a = smallValues(2 * 32 * 4, 50), b = smallValues(2 * 4 * 32, 51);
  std::vector<double> want(2 * 1024);
  for (int blk = 0; blk < 2; ++blk) {
    std::vector<double> A(a.begin() + blk * 128, a.begin() + blk * 128 + 128);
    std::vector<double> B(b.begin() + blk * 128, b.begin() + blk * 128 + 128);
    auto D = matmul(A, B, nullptr, 32, 32, 4);
    std::copy(D.begin(), D.end(), want.begin() + blk * 1024);
  }
  Dev d;
  uint64_t A = d.buf(convert<uint16_t>(a, halfBits)), B = d.buf(convert<uint16_t>(b, halfBits));
  uint64_t D = d.zeros<float>(2 * 1024);
  KernargBuilder k;
  k.addPointer(A).addPointer(B).addPointer(D);
  auto st = d.dev.launch(*co, "mfma_f16_32x32x4_2b", {1}, {64}, k.bytes());
  if (c.value(st, "launch 32x32x4"))
    c.eq(d.get<float>(D), narrowed<float>(want), "D 32x32x4 2 blocks");
}

} // namespace

void addMfmaTests(std::vector<TestCase> &t) {
  t.push_back({"mfma_f16_16x16x16", testF16x16});
  t.push_back({"mfma_f16_32x32x8", testF32x32});
  t.push_back({"mfma_bf16_16x16x16", testBf16x16});
  t.push_back({"mfma_bf16_32x32x8", testBf32x32});
  t.push_back({"mfma_i8_16x16x32", testI8x16});
  t.push_back({"mfma_i8_32x32x16", testI8x32});
  t.push_back({"mfma_f32_32x32x2", testF32x32x2});
  t.push_back({"mfma_f32_16x16x4", testF32x16x4});
  t.push_back({"mfma_fp8_16x16x32", testFp8});
  t.push_back({"mfma_f64_16x16x4", testF64});
  t.push_back({"mfma_gemm_loop", testGemmLoop});
  t.push_back({"mfma_blocks_cbsz_abid", testBlocks});
}

} // namespace emutest
