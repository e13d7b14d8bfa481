//===- Recovery.h - run LLVM on user input without dying -----------------===//
//
// LLVM reports some bad input with a fatal error (report_fatal_error, MC's
// "Size expression must be absolute", lld's fatal()): by default that prints
// "LLVM ERROR: ..." and exits or aborts the process. aster runs inside the
// user's Python process, so every call into MC, lld or the disassembler with
// data that came from a user goes through runRecoverable: a fatal error (or a
// crash signal) inside it unwinds back to it through LLVM's
// CrashRecoveryContext and becomes an llvm::Error carrying LLVM's message.
//
// Needs: installFatalErrorRecovery() called once by the process's entry point
// (it enables LLVM's crash recovery process-wide and installs a fatal-error
// handler that only acts inside runRecoverable; outside it LLVM behaves as by
// default). Without it, crash signals and aborting fatal errors still recover. Guarantees: fn either returns normally or
// the call returns an Error; state fn left behind (memory, objects on its
// stack) is leaked, not destroyed, so fn must not hold locks of its caller.
//
//===----------------------------------------------------------------------===//
#ifndef ASTER_RECOVERY_RECOVERY_H
#define ASTER_RECOVERY_RECOVERY_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace aster {

/// Installs the process's LLVM fatal-error handler (once): inside
/// runRecoverable a fatal error unwinds to it; elsewhere LLVM's default
/// behaviour. Called by each entry point (the Python module, the tools).
void installFatalErrorRecovery();

/// Runs fn; an LLVM fatal error or crash inside it becomes an Error
/// "<what>: <LLVM's message>".
llvm::Error runRecoverable(llvm::StringRef what, llvm::function_ref<void()> fn);

} // namespace aster

#endif
