//===- tests_gfx950.cpp - gfx950 (CDNA4) code objects ---------------------===//
//
// hip/gfx950_mfma.hip compiled with --offload-arch=gfx950: the loader takes
// the gfx950 code object, the decoder uses the gfx950 subtarget, and the new
// MFMA shapes run against references computed here.
//
//===----------------------------------------------------------------------===//
#include "TestUtil.h"

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
}

} // namespace emutest
