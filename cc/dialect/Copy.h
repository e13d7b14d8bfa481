//===- Copy.h - a deep copy of IR, op for op ------------------------------===//
//
// What Operation::clone makes (every op, attribute, property, block and
// location; values and blocks remapped), in one walk: each op is created
// with its operands already remapped (no second pass that sets operands and
// reallocates their storage) and nothing maps ops to ops. aster.compile
// copies the user's module before running passes on it (WYSIWYG: the
// module built is never changed), so this is on every compile's path.
//
//===----------------------------------------------------------------------===//
#ifndef ASTER_DIALECT_COPY_H
#define ASTER_DIALECT_COPY_H

#include "mlir/IR/Operation.h"

namespace aster {

/// A deep copy of `op` (detached, in the same context). Values defined
/// outside `op` stay as they are (as with Operation::clone).
mlir::Operation *copyOperation(mlir::Operation *op);

} // namespace aster

#endif
