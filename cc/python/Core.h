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
struct PyModule {
  std::shared_ptr<mlir::MLIRContext> ctx;
  mlir::OwningOpRef<mlir::ModuleOp> module;

  /// A context with aster's dialects loaded (threading off: one owner).
  static std::unique_ptr<mlir::MLIRContext> newContext();
  mlir::ModuleOp get() { return *module; }
};

/// Collects diagnostics emitted while alive; `raise()` throws AsterError
/// with all of them ("file:line:col: error: message").
class DiagnosticCollector {
public:
  explicit DiagnosticCollector(mlir::MLIRContext *ctx);
  ~DiagnosticCollector();
  std::string text() const { return messages; }
  bool empty() const { return messages.empty(); }
  [[noreturn]] void raise(const std::string &fallback);

private:
  mlir::MLIRContext *ctx;
  mlir::DiagnosticEngine::HandlerID id;
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

} // namespace aster::py

#endif
