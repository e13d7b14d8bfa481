//===- tests_strict.cpp - LDS bounds, traps, bad input, fuzzing ----------===//
// (Missing waitcnts, global out-of-bounds, never-written registers and the
// instruction budget are checked in tests/py/test_emu_strict.py.)
#include "TestUtil.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"

namespace emutest {

namespace {

/// vadd's assembly with `from` replaced by `to` (once), assembled.
llvm::Expected<std::unique_ptr<CodeObject>> editedVadd(const Env &env, llvm::StringRef from,
                                                       llvm::StringRef to, const char *out) {
  auto text = hipToAsm(env, "vadd");
  if (!text)
    return text.takeError();
  size_t pos = text->find(from.str());
  if (pos == std::string::npos)
    return llvm::createStringError("vadd assembly has no '" + from.str() + "'");
  text->replace(pos, from.size(), to.str());
  auto path = asmToHsaco(env, *text, out);
  if (!path)
    return path.takeError();
  return load(*path);
}

struct VaddRun {
  Dev d;
  uint64_t A, B, C;
  KernargBuilder k;
  VaddRun(int n, int bufElems) {
    std::vector<float> a(bufElems, 1.0f), b(bufElems, 2.0f), c(bufElems, -7.0f);
    A = d.buf(a, "a");
    B = d.buf(b, "b");
    C = d.buf(c, "c");
    k.addPointer(A).addPointer(B).addPointer(C).addI32(n);
  }
  llvm::Expected<LaunchStats> run(const CodeObject &co, LaunchOptions o = {}) {
    return d.dev.launch(co, "vadd", {4}, {256}, k.bytes(), o);
  }
};

void testUnsupported(const Env &env, Check &c) {
  auto co = editedVadd(env, "s_endpgm", "s_sethalt 0\n\ts_endpgm", "vadd_halt");
  if (!c.value(co, "build"))
    return;
  const KernelInfo *k = (*co)->findKernel("vadd");
  if (!k || (*co)->unsupported(*k).empty())
    c.fail("unsupported() does not list s_sethalt");
  VaddRun r(1000, 1000);
  auto st = r.run(**co);
  c.errorContains(st, {"cannot execute", "s_sethalt", "pc 0x"});
}

std::unique_ptr<CodeObject> strictCode(const Env &env, Check &c) {
  auto path = compileHip(env, "strict");
  if (!c.value(path, "compile"))
    return nullptr;
  auto co = load(*path);
  if (!c.value(co, "load"))
    return nullptr;
  return std::move(*co);
}

void testLdsOob(const Env &env, Check &c) {
  auto co = strictCode(env, c);
  if (!co) return;
  Dev d;
  uint64_t O = d.zeros<int>(64);
  KernargBuilder k;
  k.addPointer(O).addI32(1000);
  auto st = d.dev.launch(*co, "lds_oob", {1}, {64}, k.bytes());
  c.errorContains(st, {"LDS access", "outside"});
  KernargBuilder k0;
  k0.addPointer(O).addI32(0);
  auto ok = d.dev.launch(*co, "lds_oob", {1}, {64}, k0.bytes());
  if (c.value(ok, "in-range launch")) {
    std::vector<int> want(64);
    for (int i = 0; i < 64; ++i) want[i] = i;
    c.eq(d.get<int>(O), want, "out");
  }
}

void testTrap(const Env &env, Check &c) {
  auto co = strictCode(env, c);
  if (!co) return;
  Dev d;
  std::vector<int> flag(64, 0);
  flag[9] = 1;
  uint64_t F = d.buf(flag), O = d.zeros<int>(64);
  KernargBuilder k;
  k.addPointer(F).addPointer(O);
  auto st = d.dev.launch(*co, "trap_if", {1}, {64}, k.bytes());
  c.errorContains(st, {"s_trap"});
}

void testBadInput(const Env &env, Check &c) {
  (void)env;
  // Not an ELF file.
  std::vector<uint8_t> junk(100, 0x41);
  auto co = CodeObject::load(junk);
  c.errorContains(co, {"code object"});
  // Truncated ELF header.
  std::vector<uint8_t> elf = {0x7f, 'E', 'L', 'F', 2, 1, 1, 64};
  auto co2 = CodeObject::load(elf);
  c.errorContains(co2, {"code object"});
  // A valid code object with bad launch parameters.
  auto path = compileHip(env, "vadd");
  if (!c.value(path, "compile"))
    return;
  auto good = load(*path);
  if (!c.value(good, "load"))
    return;
  Dev d;
  KernargBuilder k;
  k.addI32(1);
  auto st = d.dev.launch(**good, "vadd", {1}, {64}, k.bytes());
  c.errorContains(st, {"explicit arguments"});
  auto st2 = d.dev.launch(**good, "nope", {1}, {64}, k.bytes());
  c.errorContains(st2, {"no kernel named 'nope'", "vadd"});
  KernargBuilder k2;
  k2.addU64(0).addU64(0).addU64(0).addI32(1);
  auto st3 = d.dev.launch(**good, "vadd", {1}, {2048}, k2.bytes());
  c.errorContains(st3, {"1024"});
  // Null pointers: the load faults with an out-of-bounds error.
  auto st4 = d.dev.launch(**good, "vadd", {1}, {64}, k2.bytes());
  c.errorContains(st4, {"out-of-bounds", "0x0"});
}

/// Randomly corrupted code objects must load or fail cleanly, and launches of
/// whatever loads must finish or fail cleanly (no crash, no hang).
void testFuzz(const Env &env, Check &c) {
  auto path = compileHip(env, "divergence");
  if (!c.value(path, "compile"))
    return;
  auto mb = llvm::MemoryBuffer::getFile(*path);
  if (!mb) {
    c.fail("cannot read the code object");
    return;
  }
  std::vector<uint8_t> orig((*mb)->getBufferStart(), (*mb)->getBufferEnd());
  Rng r(1234);
  unsigned loaded = 0, launched = 0;
  for (unsigned iter = 0; iter < 300; ++iter) {
    std::vector<uint8_t> bytes = orig;
    unsigned flips = 1 + r.next() % 8;
    for (unsigned f = 0; f < flips; ++f) {
      size_t pos = r.next() % bytes.size();
      // Bias mutations toward the code and descriptor (second half of the file).
      if (r.next() & 1)
        pos = bytes.size() / 4 + r.next() % (bytes.size() / 2);
      bytes[pos] ^= uint8_t(1u << (r.next() % 8));
    }
    if (iter % 50 == 0)
      bytes.resize(r.next() % bytes.size());
    auto co = CodeObject::load(bytes);
    if (!co) {
      llvm::consumeError(co.takeError());
      continue;
    }
    ++loaded;
    for (const KernelInfo &k : (*co)->kernels()) {
      Dev d;
      uint64_t I = d.zeros<int>(1000), O = d.zeros<int>(1000);
      KernargBuilder kb;
      kb.addPointer(I).addPointer(O).addI32(1000);
      LaunchOptions o;
      o.instructionBudget = 200000;
      auto st = d.dev.launch(**co, k.name, {2}, {128}, kb.bytes(), o);
      if (st)
        ++launched;
      else
        llvm::consumeError(st.takeError());
    }
  }
  if (env.verbose)
    llvm::outs() << "  fuzz: " << loaded << " loaded, " << launched << " launches completed\n";
}

void testDynLds(const Env &env, Check &c) {
  auto co = strictCode(env, c);
  if (!co) return;
  int n = 1000;
  std::vector<float> in(n), want(64);
  for (int i = 0; i < n; ++i) in[i] = float(i) - 3.5f;
  for (int t = 0; t < 64; ++t) want[t] = in[(t * 7) % n] * 2.0f;
  Dev d;
  uint64_t I = d.buf(in), O = d.zeros<float>(64);
  KernargBuilder k;
  k.addPointer(I).addPointer(O).addI32(n);
  LaunchOptions o;
  o.dynamicLdsBytes = uint32_t(n * 4);
  auto st = d.dev.launch(*co, "dyn_lds", {1}, {64}, k.bytes(), o);
  if (c.value(st, "launch"))
    c.eq(d.get<float>(O), want, "out");
  o.dynamicLdsBytes = 256;
  auto bad = d.dev.launch(*co, "dyn_lds", {1}, {64}, k.bytes(), o);
  c.errorContains(bad, {"LDS access", "256 bytes of LDS"});
}

/// Only the buffers named in LaunchOptions::buffers are accessible.
void testBoundBuffers(const Env &env, Check &c) {
  auto path = compileHip(env, "vadd");
  if (!c.value(path, "compile"))
    return;
  auto co = load(*path);
  if (!c.value(co, "load"))
    return;
  VaddRun r(1000, 1000);
  LaunchOptions o;
  o.buffers = {r.A, r.C};
  auto st = r.run(**co, o);
  c.errorContains(st, {"out-of-bounds load", "global_load_dword"});
  o.buffers = {r.A, r.B, r.C};
  auto ok = r.run(**co, o);
  if (c.value(ok, "launch with all buffers bound"))
    c.eq(r.d.get<float>(r.C), std::vector<float>(1000, 3.0f), "c");
  o.buffers = {r.A + 4};
  auto bad = r.run(**co, o);
  c.errorContains(bad, {"not the start of a buffer"});
}

} // namespace

void addStrictTests(std::vector<TestCase> &t) {
  t.push_back({"unsupported_instruction", testUnsupported});
  t.push_back({"strict_lds_oob", testLdsOob});
  t.push_back({"trap", testTrap});
  t.push_back({"bad_input", testBadInput});
  t.push_back({"dynamic_lds", testDynLds});
  t.push_back({"bound_buffers", testBoundBuffers});
  t.push_back({"fuzz_corrupted_code_objects", testFuzz});
}

} // namespace emutest
