//===- emu_tests.cpp - the emulator test driver ---------------------------===//
//
//   aster-emu-tests --clang CLANG --hip-dir DIR [--work DIR] [-v] [FILTER...]
//
// Emulator checks with no Python counterpart: unsupported instructions, LDS
// bounds, traps, bad code objects and launches, fuzzing (tests_strict.cpp).
// The HIP oracle corpus (tests/emulator/hip vs NumPy references) runs in
// pytest: tests/py/test_emu_*.py.
//
//===----------------------------------------------------------------------===//
#include "TestUtil.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <chrono>

using namespace llvm;

namespace emutest {

static Error runClang(const Env &env, std::vector<std::string> args) {
  std::vector<StringRef> argv;
  argv.push_back(env.clang);
  for (const std::string &a : args)
    argv.push_back(a);
  std::string errFile = env.workDir + "/clang.err";
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(errFile), StringRef(errFile)};
  std::string msg;
  int rc = sys::ExecuteAndWait(env.clang, argv, std::nullopt, redirects, 120, 0, &msg);
  if (rc != 0) {
    std::string out;
    if (auto mb = MemoryBuffer::getFile(errFile))
      out = (*mb)->getBuffer().str();
    std::string cmd;
    for (StringRef a : argv)
      cmd += a.str() + " ";
    return createStringError("clang failed (" + std::to_string(rc) + " " + msg + "): " + cmd +
                             "\n" + out);
  }
  return Error::success();
}

static std::vector<std::string> hipFlags(const Env &env) {
  return {"-x", "hip", "--offload-arch=gfx942", "--cuda-device-only", "--no-gpu-bundle-output",
          "-nogpulib", "-nogpuinc", "-O3", "-I", env.hipDir};
}

Expected<std::string> compileHip(const Env &env, StringRef name,
                                 const std::vector<std::string> &extra) {
  std::string src = env.hipDir + "/" + name.str() + ".hip";
  std::string out = env.workDir + "/" + name.str() + ".hsaco";
  std::vector<std::string> args = hipFlags(env);
  args.insert(args.end(), extra.begin(), extra.end());
  args.insert(args.end(), {src, "-o", out});
  if (Error e = runClang(env, args))
    return std::move(e);
  return out;
}

Expected<std::string> hipToAsm(const Env &env, StringRef name) {
  std::string src = env.hipDir + "/" + name.str() + ".hip";
  std::string out = env.workDir + "/" + name.str() + ".s";
  std::vector<std::string> args = hipFlags(env);
  args.insert(args.end(), {"-S", src, "-o", out});
  if (Error e = runClang(env, args))
    return std::move(e);
  auto mb = MemoryBuffer::getFile(out);
  if (!mb)
    return createStringError("cannot read " + out);
  return (*mb)->getBuffer().str();
}

Expected<std::string> asmToHsaco(const Env &env, StringRef text, StringRef out) {
  std::string s = env.workDir + "/" + out.str() + ".s";
  std::string o = env.workDir + "/" + out.str() + ".hsaco";
  {
    std::error_code ec;
    raw_fd_ostream os(s, ec);
    if (ec)
      return createStringError("cannot write " + s);
    os << text;
  }
  if (Error e = runClang(env, {"-target", "amdgcn-amd-amdhsa", "-mcpu=gfx942", "-x",
                               "assembler", "-nostdlib", s, "-o", o}))
    return std::move(e);
  return o;
}

Expected<std::unique_ptr<CodeObject>> load(const std::string &path) {
  return CodeObject::loadFile(path);
}

} // namespace emutest

using namespace emutest;

int main(int argc, char **argv) {
  Env env;
  std::vector<std::string> filters;
  for (int i = 1; i < argc; ++i) {
    StringRef a = argv[i];
    if (a == "--clang" && i + 1 < argc)
      env.clang = argv[++i];
    else if (a == "--hip-dir" && i + 1 < argc)
      env.hipDir = argv[++i];
    else if (a == "--work" && i + 1 < argc)
      env.workDir = argv[++i];
    else if (a == "-v")
      env.verbose = true;
    else
      filters.push_back(a.str());
  }
  if (env.clang.empty() || env.hipDir.empty()) {
    errs() << "usage: aster-emu-tests --clang CLANG --hip-dir DIR [--work DIR] [-v] "
              "[FILTER...]\n";
    return 2;
  }
  if (env.workDir.empty()) {
    SmallString<128> tmp;
    if (sys::fs::createUniqueDirectory("aster-emu-tests", tmp)) {
      errs() << "cannot create a work directory\n";
      return 2;
    }
    env.workDir = tmp.str().str();
  }
  sys::fs::create_directories(env.workDir);

  std::vector<TestCase> tests;
  addStrictTests(tests);
  unsigned passed = 0, failed = 0;
  for (const TestCase &t : tests) {
    if (!filters.empty()) {
      bool match = false;
      for (const std::string &f : filters)
        match |= StringRef(t.name).contains(f);
      if (!match)
        continue;
    }
    Check c;
    c.test = t.name;
    auto t0 = std::chrono::steady_clock::now();
    t.fn(env, c);
    double ms = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() * 1e3;
    outs() << (c.ok ? "PASS " : "FAIL ") << t.name << format(" (%.0f ms)", ms) << "\n";
    (c.ok ? passed : failed)++;
  }
  outs() << passed << " passed, " << failed << " failed\n";
  return failed ? 1 : 0;
}
