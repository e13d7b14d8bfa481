//===- tests_basic.cpp - memory, control flow, LDS, atomics, grids --------===//
#include "TestUtil.h"

#include "llvm/Support/Format.h"

#include <algorithm>
#include <numeric>

namespace emutest {

namespace {

/// Compiles and loads hip/NAME.hip, or records the failure.
std::unique_ptr<CodeObject> build(const Env &env, Check &c, const char *name,
                                  const std::vector<std::string> &flags = {}) {
  auto path = compileHip(env, name, flags);
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

bool launch(Check &c, Dev &d, const CodeObject &co, const char *kernel, Dim3 grid, Dim3 block,
            const KernargBuilder &args, LaunchStats *out = nullptr, LaunchOptions opts = {}) {
  auto st = d.dev.launch(co, kernel, grid, block, args.bytes(), opts);
  if (!c.value(st, "launch"))
    return false;
  if (out)
    *out = *st;
  return true;
}

void testVadd(const Env &env, Check &c) {
  auto co = build(env, c, "vadd");
  if (!co) return;
  int n = 1000;
  std::vector<float> a(n), b(n), want(n);
  for (int i = 0; i < n; ++i) {
    a[i] = float(i) * 0.25f - 17.0f;
    b[i] = 1.0f / float(i + 1);
    want[i] = a[i] + b[i];
  }
  Dev d;
  uint64_t A = d.buf(a, "a"), B = d.buf(b, "b"), C = d.zeros<float>(n, "c");
  KernargBuilder k;
  k.addPointer(A).addPointer(B).addPointer(C).addI32(n);
  if (launch(c, d, *co, "vadd", {4}, {256}, k))
    c.eq(d.get<float>(C), want, "c");
}

void testDivergence(const Env &env, Check &c) {
  auto co = build(env, c, "divergence");
  if (!co) return;
  int n = 1000;
  Rng r(7);
  std::vector<int> in(n), want(n);
  for (int i = 0; i < n; ++i) {
    in[i] = int(r.next() % 2000) - 1000;
    int x = in[i], acc = 0;
    for (int k = 0; k < i % 37; ++k) {
      if ((x + k) & 1) acc += x * k;
      else acc ^= (k << 3);
      if (acc > 100000) break;
    }
    want[i] = acc;
  }
  Dev d;
  uint64_t I = d.buf(in), O = d.zeros<int>(n);
  KernargBuilder k;
  k.addPointer(I).addPointer(O).addI32(n);
  if (launch(c, d, *co, "divergent_loop", {8}, {128}, k))
    c.eq(d.get<int>(O), want, "out");
}

void testLdsReduce(const Env &env, Check &c) {
  auto co = build(env, c, "lds_reduce");
  if (!co) return;
  unsigned groups = 6;
  std::vector<float> in(256 * groups), want(groups);
  for (unsigned i = 0; i < in.size(); ++i)
    in[i] = float(i % 97);  // integer values: the sum is exact in any order
  for (unsigned g = 0; g < groups; ++g)
    want[g] = std::accumulate(in.begin() + 256 * g, in.begin() + 256 * (g + 1), 0.0f);
  Dev d;
  uint64_t I = d.buf(in), O = d.zeros<float>(groups);
  KernargBuilder k;
  k.addPointer(I).addPointer(O);
  LaunchStats st;
  if (launch(c, d, *co, "lds_reduce", {groups}, {256}, k, &st)) {
    c.eq(d.get<float>(O), want, "out");
    if (st.waves != groups * 4)
      c.fail("expected 4 waves per workgroup");
    if (!st.lds)
      c.fail("no LDS instructions counted");
  }
}

void testAtomics(const Env &env, Check &c) {
  auto co = build(env, c, "atomics");
  if (!co) return;
  int n = 1000;
  std::vector<int> in(n);
  Rng r(3);
  for (int &v : in) v = int(r.next() % 100000);
  std::vector<int> hist(16, 0);
  int mx = 0;
  float fs = 0;
  for (int v : in) {
    hist[v & 15]++;
    mx = std::max(mx, v);
    fs += float(v & 7);
  }
  for (unsigned threads : {1u, 3u}) {
    Dev d;
    uint64_t I = d.buf(in), H = d.zeros<int>(16), C = d.zeros<int>(1), S = d.zeros<int>(n),
             M = d.zeros<int>(1), F = d.zeros<float>(1);
    KernargBuilder k;
    k.addPointer(I).addPointer(H).addPointer(C).addPointer(S).addPointer(M).addPointer(F).addI32(n);
    LaunchOptions o;
    o.threads = threads;
    if (!launch(c, d, *co, "atomics", {16}, {64}, k, nullptr, o))
      return;
    c.eq(d.get<int>(H), hist, "hist");
    c.eq(d.get<int>(C), std::vector<int>{n}, "counter");
    c.eq(d.get<int>(S), std::vector<int>(n, 1), "slots");
    c.eq(d.get<int>(M), std::vector<int>{mx}, "max");
    c.eq(d.get<float>(F), std::vector<float>{fs}, "float sum");
  }
}

void testTranspose(const Env &env, Check &c) {
  auto co = build(env, c, "transpose");
  if (!co) return;
  int rows = 45, cols = 70;
  std::vector<float> in(rows * cols), want(rows * cols);
  for (int y = 0; y < rows; ++y)
    for (int x = 0; x < cols; ++x) {
      in[y * cols + x] = float(y * 1000 + x);
      want[x * rows + y] = in[y * cols + x];
    }
  Dev d;
  uint64_t I = d.buf(in), O = d.zeros<float>(rows * cols);
  KernargBuilder k;
  k.addPointer(I).addPointer(O).addI32(rows).addI32(cols);
  if (launch(c, d, *co, "transpose", {unsigned(cols + 15) / 16, unsigned(rows + 15) / 16},
             {16, 16}, k))
    c.eq(d.get<float>(O), want, "out");
}

void testGrid3d(const Env &env, Check &c) {
  // Code object v4 reads the workgroup size from the dispatch packet, v5/v6
  // from the hidden kernel arguments.
  for (const char *ver : {"4", "5", "6"}) {
  auto co = build(env, c, "grid3d", {std::string("-mcode-object-version=") + ver});
  if (!co) return;
  if (co->codeObjectVersion() != unsigned(ver[0] - '0'))
    c.fail(std::string("expected code object version ") + ver);
  Dim3 g{3, 2, 2}, b{8, 4, 3};
  unsigned nx = g.x * b.x, ny = g.y * b.y, nz = g.z * b.z;
  std::vector<int> want(4 * nx * ny * nz);
  for (unsigned z = 0; z < nz; ++z)
    for (unsigned y = 0; y < ny; ++y)
      for (unsigned x = 0; x < nx; ++x) {
        unsigned lin = (z * ny + y) * nx + x;
        want[4 * lin] = int(x);
        want[4 * lin + 1] = int(y);
        want[4 * lin + 2] = int(z);
        want[4 * lin + 3] = int(((z % b.z) * b.y + y % b.y) * b.x + x % b.x);
      }
  Dev d;
  uint64_t O = d.zeros<int>(want.size());
  KernargBuilder k;
  k.addPointer(O).addI32(int(g.x)).addI32(int(g.y));
  if (launch(c, d, *co, "grid3d", g, b, k))
    c.eq(d.get<int>(O), want, "out");
  }
}

/// Workgroups on several threads give the same results as on one.
void testThreads(const Env &env, Check &c) {
  auto co = build(env, c, "transpose");
  if (!co) return;
  int rows = 100, cols = 130;
  std::vector<float> in(rows * cols);
  for (size_t i = 0; i < in.size(); ++i) in[i] = float(i);
  std::vector<float> results[2];
  for (unsigned t = 0; t < 2; ++t) {
    Dev d;
    uint64_t I = d.buf(in), O = d.zeros<float>(in.size());
    KernargBuilder k;
    k.addPointer(I).addPointer(O).addI32(rows).addI32(cols);
    LaunchOptions o;
    o.threads = t ? 4 : 1;
    LaunchStats st;
    if (!launch(c, d, *co, "transpose", {unsigned(cols + 15) / 16, unsigned(rows + 15) / 16},
                {16, 16}, k, &st, o))
      return;
    results[t] = d.get<float>(O);
  }
  c.eq(results[1], results[0], "4 threads vs 1");
}

void testKernargs(const Env &env, Check &c) {
  auto co = build(env, c, "kernargs");
  if (!co) return;
  std::vector<int> p(64);
  for (int i = 0; i < 64; ++i) p[i] = i * 3 - 50;
  signed char ch = -7;
  short sh = -1234;
  int in = 98765;
  long long l = -123456789012ll;
  float f = 3.5f;
  double db = -0.125;
  unsigned char u8 = 200;
  std::vector<double> want(64);
  for (int t = 0; t < 64; ++t)
    want[t] = double(ch) + double(sh) * 2 + double(in) * 3 + double(l) * 4 + double(f) * 5 +
              db * 6 + double(u8) * 7 + double(p[t]) * 8;
  Dev d;
  uint64_t O = d.zeros<double>(64), P = d.buf(p);
  KernargBuilder k;
  k.addPointer(O).addI8(ch).addI16(sh).addI32(in).addI64(l).addF32(f).addF64(db);
  k.addRaw(&u8, 1, 1).addPointer(P);
  if (launch(c, d, *co, "kernargs", {1}, {64}, k))
    c.eq(d.get<double>(O), want, "out");
}

void testWaveOps(const Env &env, Check &c) {
  auto co = build(env, c, "waveops");
  if (!co) return;
  unsigned groups = 2;
  std::vector<int> in(64 * groups), want(8 * 64 * groups);
  Rng r(11);
  for (int &v : in) v = int(r.next() % 1000) - 300;
  for (unsigned g = 0; g < groups; ++g) {
    const int *v = &in[64 * g];
    uint64_t odd = 0;
    int total = 0;
    for (unsigned t = 0; t < 64; ++t) {
      odd |= uint64_t(v[t] & 1) << t;
      total += v[t];
    }
    for (unsigned t = 0; t < 64; ++t) {
      int *o = &want[(64 * g + t) * 8];
      o[0] = v[(t + 5) & 63];
      o[1] = v[0];
      o[2] = v[17];
      o[3] = int(t);
      o[4] = int(uint32_t(odd >> (t & 32)));
      o[5] = (t & 15) == 0 ? -1 : v[t - 1];
      o[6] = total;
      o[7] = v[t ^ 1];
    }
  }
  Dev d;
  uint64_t I = d.buf(in), O = d.zeros<int>(want.size());
  KernargBuilder k;
  k.addPointer(I).addPointer(O);
  if (launch(c, d, *co, "waveops", {groups}, {64}, k))
    c.eq(d.get<int>(O), want, "out");
}

void testScratch(const Env &env, Check &c) {
  auto co = build(env, c, "scratch");
  if (!co) return;
  int n = 128;
  std::vector<int> idx(n), want(n);
  Rng r(5);
  for (int &v : idx) v = int(r.next() % 1000);
  for (int i = 0; i < n; ++i) {
    int local[200];
    for (int k = 0; k < 200; ++k) local[k] = k * i + 1;
    for (int k = 0; k < 16; ++k) local[idx[(i + k) % n] % 200] += k;
    int acc = 0;
    for (int k = 0; k < 8; ++k) acc += local[idx[(i * 3 + k) % n] % 200];
    want[i] = acc;
  }
  Dev d;
  uint64_t I = d.buf(idx), O = d.zeros<int>(n);
  KernargBuilder k;
  k.addPointer(I).addPointer(O).addI32(n);
  if (launch(c, d, *co, "scratch_array", {2}, {64}, k))
    c.eq(d.get<int>(O), want, "out");
}

void testBuffer(const Env &env, Check &c) {
  auto co = build(env, c, "buffer");
  if (!co) return;
  std::vector<int> in(64), init(64, -5), want(64);
  int records = 40 * 4;  // bytes in range: 40 elements
  for (int i = 0; i < 64; ++i) {
    in[i] = i * 7 - 3;
    want[i] = i < 40 ? in[i] * 2 + 1 : -5;
  }
  Dev d;
  uint64_t I = d.buf(in), O = d.buf(init);
  KernargBuilder k;
  k.addPointer(I).addPointer(O).addI32(records);
  if (launch(c, d, *co, "buffer_ops", {1}, {64}, k))
    c.eq(d.get<int>(O), want, "out");
}

void testCalls(const Env &env, Check &c) {
  auto co = build(env, c, "calls");
  if (!co) return;
  int n = 200;
  std::vector<int> in(n), wantI(2 * n);
  std::vector<float> coef = {0.5f, -1.25f, 2.0f, 0.75f, -0.125f}, wantF(n);
  Rng r(17);
  for (int &v : in) v = int(r.next() % 100000) - 20000;
  for (int i = 0; i < n; ++i) {
    int x = in[i] % 1000 + 1, steps = 0;
    while (x != 1 && steps < 1000) {
      x = (x & 1) ? 3 * x + 1 : x / 2;
      ++steps;
    }
    wantI[2 * i] = steps;
    int v = in[i], p;
    switch (v & 7) {
    case 0: p = v * 3; break;
    case 1: p = v ^ 0x55; break;
    case 2: p = v - 100; break;
    case 3: p = int(unsigned(v) << 2); break;
    case 4: p = -v; break;
    case 5: p = v / 3; break;
    case 6: p = v % 7; break;
    default: p = 42;
    }
    wantI[2 * i + 1] = p;
    float xf = float(i % 10) * 0.1f, acc = 0;
    for (int k = 4; k >= 0; --k) acc = acc * xf + coef[k];
    wantF[i] = acc;
  }
  Dev d;
  uint64_t I = d.buf(in), C = d.buf(coef), OI = d.zeros<int>(2 * n), OF = d.zeros<float>(n);
  KernargBuilder k;
  k.addPointer(I).addPointer(C).addPointer(OI).addPointer(OF).addI32(n);
  if (launch(c, d, *co, "calls", {unsigned(n + 63) / 64}, {64}, k)) {
    c.eq(d.get<int>(OI), wantI, "ints");
    c.near(d.get<float>(OF), wantF, 1e-6, 1e-7, "poly");
  }
  // Softmax rows.
  unsigned rows = 3;
  std::vector<float> x(64 * rows), want(64 * rows);
  for (float &v : x) v = r.uniform(-5, 5);
  for (unsigned row = 0; row < rows; ++row) {
    double m = -1e30, s = 0;
    for (int t = 0; t < 64; ++t) m = std::max(m, double(x[64 * row + t]));
    for (int t = 0; t < 64; ++t) s += std::exp(double(x[64 * row + t]) - m);
    for (int t = 0; t < 64; ++t)
      want[64 * row + t] = float(std::exp(double(x[64 * row + t]) - m) / s);
  }
  uint64_t X = d.buf(x), Y = d.zeros<float>(x.size());
  KernargBuilder k2;
  k2.addPointer(X).addPointer(Y);
  if (launch(c, d, *co, "softmax64", {rows}, {64}, k2))
    c.near(d.get<float>(Y), want, 1e-5, 1e-7, "softmax");
}

void testMisc(const Env &env, Check &c) {
  auto co = build(env, c, "misc");
  if (!co) return;
  std::vector<uint32_t> in(64);
  Rng r(23);
  for (uint32_t &v : in) v = r.next();
  std::vector<int> want(8 * 64);
  double dsum = 0;
  uint64_t maxbits = 0;
  float fmax = 0;
  auto sb = [](uint32_t x, int k) { return int(int8_t(x >> (8 * k))); };
  auto ub = [](uint32_t x, int k) { return int((x >> (8 * k)) & 0xff); };
  for (unsigned t = 0; t < 64; ++t) {
    uint32_t v = in[t];
    int *o = &want[8 * t];
    o[0] = ub(v, 1) + sb(v, 2);
    int dot = 5;
    for (int k = 0; k < 4; ++k) dot += sb(v, k) * sb(in[63 - t], k);
    o[1] = dot;
    o[2] = int(float(v & 15) * 2.0f - float((v >> 4) & 15) + 0.5f);
    unsigned row = t / 16;
    o[3] = row == 1 ? int(in[15]) : row == 3 ? int(in[47]) : 0;
    o[4] = int(in[row * 16 + 15 - t % 16]);
    o[5] = int(uint16_t(v * 3u)) + int(int16_t(v >> 3));
    unsigned udot = 7;
    for (int k = 0; k < 4; ++k) udot += unsigned(ub(v, k) * ub(in[t ^ 1], k));
    o[6] = int(udot);
    o[7] = int(in[63]);
    dsum += double(v & 255);
    maxbits = std::max(maxbits, (uint64_t(v) << 32) | t);
    fmax = std::max(fmax, float(v % 1000) * 0.5f);
  }
  Dev d;
  uint64_t I = d.buf(in), O = d.zeros<int>(8 * 64), DS = d.zeros<double>(1),
           MB = d.zeros<uint64_t>(1), FM = d.zeros<float>(1);
  KernargBuilder k;
  k.addPointer(I).addPointer(O).addPointer(DS).addPointer(MB).addPointer(FM);
  if (launch(c, d, *co, "misc", {1}, {64}, k)) {
    c.eq(d.get<int>(O), want, "out");
    c.eq(d.get<double>(DS), std::vector<double>{dsum}, "f64 atomic add");
    c.eq(d.get<uint64_t>(MB), std::vector<uint64_t>{maxbits}, "u64 atomic max");
    c.eq(d.get<float>(FM), std::vector<float>{fmax}, "CAS-loop float max");
  }
}

void testGlobals(const Env &env, Check &c) {
  auto co = build(env, c, "globals");
  if (!co) return;
  std::vector<float> want(128);
  std::vector<int> want2(128);
  for (int t = 0; t < 128; ++t) {
    want[t] = float(t % 8 + 1) + 128.0f;
    want2[t] = 10 * (t % 3 + 1);
  }
  for (int run = 0; run < 2; ++run) {  // globals start from their initial values
    Dev d;
    uint64_t O = d.zeros<float>(128), O2 = d.zeros<int>(128);
    KernargBuilder k;
    k.addPointer(O).addPointer(O2);
    if (!launch(c, d, *co, "globals", {1}, {128}, k))
      return;
    c.eq(d.get<float>(O), want, "table + counter");
    c.eq(d.get<int>(O2), want2, "pointer table");
  }
}

/// Emulation speed on a VALU-heavy loop (reported; fails only far below the
/// 20 M wave-instructions/s target, since the machine may be busy).
void testSpeed(const Env &env, Check &c) {
  auto co = build(env, c, "bench");
  if (!co) return;
  for (bool strict : {true, false}) {
    Dev d;
    uint64_t O = d.zeros<float>(16 * 256);
    KernargBuilder k;
    k.addPointer(O).addI32(4000);
    LaunchOptions o;
    o.strict = strict;
    LaunchStats st;
    if (!launch(c, d, *co, "valu_bench", {16}, {256}, k, &st, o))
      return;
    double rate = st.waveInstructionsPerSecond() / 1e6;
    llvm::outs() << llvm::format("  valu_bench (%s): %.1f M wave-instructions/s\n",
                                 strict ? "strict" : "non-strict", rate);
    if (rate < 5)
      c.fail("emulation far below 20 M wave-instructions/s");
  }
}

} // namespace

void addBasicTests(std::vector<TestCase> &t) {
  t.push_back({"vadd_f32", testVadd});
  t.push_back({"divergent_loop", testDivergence});
  t.push_back({"lds_reduce_4waves", testLdsReduce});
  t.push_back({"global_atomics", testAtomics});
  t.push_back({"lds_transpose_2d", testTranspose});
  t.push_back({"grid_3d_code_object_v4_v5_v6", testGrid3d});
  t.push_back({"threads_deterministic", testThreads});
  t.push_back({"kernarg_types", testKernargs});
  t.push_back({"wave_ops", testWaveOps});
  t.push_back({"scratch_array", testScratch});
  t.push_back({"buffer_bounds", testBuffer});
  t.push_back({"calls_switch_softmax", testCalls});
  t.push_back({"sdwa_dpp_dot_atomics64", testMisc});
  t.push_back({"device_globals_relocations", testGlobals});
  t.push_back({"valu_speed", testSpeed});
}

} // namespace emutest
