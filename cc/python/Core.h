//===- Core.h - shared pieces of the nanobind module ---------------------===//
#ifndef ASTER_PYTHON_CORE_H
#define ASTER_PYTHON_CORE_H

#include "dialect/Dialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"

#include <nanobind/nanobind.h>
#include <memory>
#include <string>

namespace aster::py {

/// A module and the context that owns it (shared with its copies, see
/// clone_module). Python's aster.Module wraps one.
///
/// Contexts. Modules built or parsed from Python share one process-wide
/// context (sharedContext): making a context and loading aster's dialects
/// (some 1500 instruction ops) costs milliseconds, more than building and
/// compiling a small kernel. Its threading is off (no locks, no thread pool:
/// nothing a fork() could leave locked or lose), so it relies on the rule
/// every binding follows: types, attributes and ops of a shared context are
/// created only while holding the GIL; code run with the GIL released
/// (producing a code object) only reads IR. Raising runs with the GIL
/// released and creates IR, so a raised module gets a context of its own
/// (newContext). Uniqued types and attributes (register types, immediates,
/// names, call-site locations) stay in the shared context for the process's
/// life; they are few and repeat from module to module.
struct PyModule {
  std::shared_ptr<mlir::MLIRContext> ctx;
  mlir::OwningOpRef<mlir::ModuleOp> module;

  /// A new context with aster's dialects loaded (threading off: one owner).
  static std::unique_ptr<mlir::MLIRContext> newContext();
  /// The process's shared context (made on first use, never destroyed).
  static std::shared_ptr<mlir::MLIRContext> sharedContext();
  mlir::ModuleOp get() { return *module; }
};

/// Where the diagnostics of one context go while it is alive, on the thread
/// that made it (several threads use the shared context: each sees only its
/// own diagnostics). Sinks nest; the innermost of the diagnostic's context
/// that handles it (success) takes it; none: MLIR's default (stderr).
/// Strictly scoped (made and destroyed in LIFO order on one thread).
class DiagnosticSink {
public:
  explicit DiagnosticSink(mlir::MLIRContext *ctx);
  virtual ~DiagnosticSink();
  DiagnosticSink(const DiagnosticSink &) = delete;
  DiagnosticSink &operator=(const DiagnosticSink &) = delete;
  virtual mlir::LogicalResult handle(mlir::Diagnostic &d) = 0;

  /// Installed once on every context newContext() makes: hands a
  /// diagnostic to this thread's sinks.
  static void route(mlir::MLIRContext *ctx);

private:
  mlir::MLIRContext *ctx;
  DiagnosticSink *outer;
};

/// Collects the errors and warnings emitted while alive; `raise()` throws
/// AsterError with all of them ("file:line:col: error: message").
class DiagnosticCollector : public DiagnosticSink {
public:
  explicit DiagnosticCollector(mlir::MLIRContext *ctx) : DiagnosticSink(ctx) {}
  std::string text() const { return messages; }
  bool empty() const { return messages.empty(); }
  [[noreturn]] void raise(const std::string &fallback);
  mlir::LogicalResult handle(mlir::Diagnostic &d) override;

private:
  std::string messages;
};

/// Formats a location as `file:line:col` (or its printed form).
std::string formatLocation(mlir::Location loc);

/// The Python exception type aster.AsterError.
extern nanobind::object asterError;
[[noreturn]] void raiseError(const std::string &msg);

void bindBuilder(nanobind::module_ &m);
void bindISA(nanobind::module_ &m);
void bindRaise(nanobind::module_ &m);
void bindLower(nanobind::module_ &m);

} // namespace aster::py

#endif
