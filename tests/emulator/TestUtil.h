//===- TestUtil.h - helpers for the emulator test driver ------------------===//
#ifndef ASTER_TESTS_EMULATOR_TESTUTIL_H
#define ASTER_TESTS_EMULATOR_TESTUTIL_H

#include "emulator/Emulator.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace emutest {

using namespace aster::emu;

struct Env {
  std::string clang;   ///< clang able to target gfx942
  std::string hipDir;  ///< tests/emulator/hip
  std::string workDir; ///< where compiled code objects go
  bool verbose = false;
};

/// Compiles hip/NAME.hip to a gfx942 code object; `extra` are more clang
/// flags.
llvm::Expected<std::string> compileHip(const Env &env, llvm::StringRef name,
                                       const std::vector<std::string> &extra = {});
/// Compiles hip/NAME.hip to assembly text.
llvm::Expected<std::string> hipToAsm(const Env &env, llvm::StringRef name);
/// Assembles and links assembly text to a code object named OUT.hsaco.
llvm::Expected<std::string> asmToHsaco(const Env &env, llvm::StringRef text,
                                       llvm::StringRef out);
llvm::Expected<std::unique_ptr<CodeObject>> load(const std::string &path);

/// A device plus helpers to create buffers from host vectors.
struct Dev {
  Device dev;
  template <class T> uint64_t buf(const std::vector<T> &v, const char *name = "") {
    uint64_t a = llvm::cantFail(dev.allocate(v.size() * sizeof(T), name));
    llvm::cantFail(dev.write(a, llvm::ArrayRef<uint8_t>(
                                    reinterpret_cast<const uint8_t *>(v.data()), v.size() * sizeof(T))));
    return a;
  }
  template <class T> uint64_t zeros(size_t n, const char *name = "") {
    return llvm::cantFail(dev.allocate(n * sizeof(T), name));
  }
  template <class T> std::vector<T> get(uint64_t addr) {
    auto c = llvm::cantFail(dev.contents(addr));
    std::vector<T> v(c.size() / sizeof(T));
    std::memcpy(v.data(), c.data(), v.size() * sizeof(T));
    return v;
  }
};

/// Test outcome reporting.
struct Check {
  std::string test;
  bool ok = true;
  unsigned reported = 0;
  void fail(const std::string &msg) {
    ok = false;
    if (reported++ < 8)
      llvm::errs() << "  [" << test << "] " << msg << "\n";
  }
  /// Fails with the error's message if `e` is an error; true if success.
  bool noError(llvm::Error e, const char *what) {
    if (!e)
      return true;
    fail(std::string(what) + ": " + llvm::toString(std::move(e)));
    return false;
  }
  template <class T> bool value(llvm::Expected<T> &v, const char *what) {
    if (v)
      return true;
    fail(std::string(what) + ": " + llvm::toString(v.takeError()));
    return false;
  }
  template <class T>
  void eq(const std::vector<T> &got, const std::vector<T> &want, const char *what) {
    if (got.size() != want.size()) {
      fail(std::string(what) + ": size " + std::to_string(got.size()) + " != " +
           std::to_string(want.size()));
      return;
    }
    for (size_t i = 0; i < got.size(); ++i)
      if (!(got[i] == want[i])) {
        fail(std::string(what) + "[" + std::to_string(i) + "] = " + std::to_string(got[i]) +
             ", expected " + std::to_string(want[i]));
        return;
      }
  }
  /// |got - want| <= atol + rtol * |want| (NaNs must match).
  template <class T>
  void near(const std::vector<T> &got, const std::vector<T> &want, double rtol, double atol,
            const char *what) {
    if (got.size() != want.size()) {
      fail(std::string(what) + ": size mismatch");
      return;
    }
    for (size_t i = 0; i < got.size(); ++i) {
      double g = double(got[i]), w = double(want[i]);
      bool bad = std::isnan(w) ? !std::isnan(g) : !(std::fabs(g - w) <= atol + rtol * std::fabs(w));
      if (bad) {
        fail(std::string(what) + "[" + std::to_string(i) + "] = " + std::to_string(g) +
             ", expected " + std::to_string(w));
        return;
      }
    }
  }
  /// `e` must be an error whose message contains every string of `needles`.
  template <class T>
  void errorContains(llvm::Expected<T> &v, const std::vector<std::string> &needles) {
    if (v) {
      fail("expected an error, the launch succeeded");
      return;
    }
    std::string msg = llvm::toString(v.takeError());
    for (const std::string &n : needles)
      if (msg.find(n) == std::string::npos) {
        fail("error message lacks '" + n + "': " + msg);
        return;
      }
  }
};

using TestFn = std::function<void(const Env &, Check &)>;
struct TestCase {
  const char *name;
  TestFn fn;
};
/// Each test file appends its tests.
void addStrictTests(std::vector<TestCase> &t);

/// Small deterministic pseudo-random numbers.
struct Rng {
  uint64_t s;
  explicit Rng(uint64_t seed) : s(seed * 2654435761u + 1) {}
  uint32_t next() {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return uint32_t(s >> 16);
  }
  float uniform(float lo, float hi) { return lo + (hi - lo) * float(next() % 1000000) / 1e6f; }
};

} // namespace emutest

#endif
