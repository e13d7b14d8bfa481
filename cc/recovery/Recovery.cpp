//===- Recovery.cpp - LLVM fatal errors into llvm::Error ------------------===//
#include "recovery/Recovery.h"

#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/ErrorHandling.h"

#include <mutex>
#include <string>
#include <unistd.h>

using namespace llvm;

namespace aster {
namespace {

/// The message of the last fatal error on this thread inside runRecoverable.
/// (Each extension module links its own copy of this file; the handler is
/// installed by one of them, so a message raised under the other module's
/// runRecoverable is not seen there: it still recovers, with a generic message.)
thread_local std::string *fatalMessage = nullptr;

void onFatalError(void *, const char *reason, bool) {
  // Unwinds to the innermost CrashRecoveryContext of this thread (ours, or
  // lld's own one inside lldMain, which then reports a failed link).
  if (CrashRecoveryContext *crc = CrashRecoveryContext::GetCurrent()) {
    if (fatalMessage && fatalMessage->empty())
      *fatalMessage = reason ? reason : "";
    crc->HandleExit(1);
  }
  // Outside aster's calls: what LLVM does without a handler (it exits after).
  std::string line = std::string("LLVM ERROR: ") + (reason ? reason : "") + "\n";
  (void)!::write(2, line.data(), line.size());
}

void enableOnce() {
  static std::once_flag once;
  std::call_once(once, [] { CrashRecoveryContext::Enable(); });
}

} // namespace

void installFatalErrorRecovery() {
  static std::once_flag once;
  std::call_once(once, [] {
    enableOnce();
    install_fatal_error_handler(onFatalError, nullptr);
  });
}

Error runRecoverable(StringRef what, function_ref<void()> fn) {
  enableOnce();
  std::string message;
  std::string *outerMessage = fatalMessage;
  fatalMessage = &message;
  bool ok;
  int retCode = 0;
  {
    CrashRecoveryContext crc;
    ok = crc.RunSafely(fn);
    retCode = crc.RetCode;
  }
  fatalMessage = outerMessage;
  if (ok)
    return Error::success();
  if (message.empty())
    message = retCode > 128 ? "LLVM crashed (signal " + std::to_string(retCode - 128) + ")"
                            : "LLVM stopped with a fatal error";
  return createStringError(what + ": " + message);
}

} // namespace aster
