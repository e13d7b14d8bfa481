//===- Inline.h - amdgcn-inline: calls replaced by function bodies -------===//
#ifndef ASTER_TRANSFORMS_INLINE_H
#define ASTER_TRANSFORMS_INLINE_H

#include "dialect/Dialect.h"

#include "llvm/ADT/StringSet.h"

namespace aster {

/// Replaces every amdgcn.call in the kernels of `module` (only the calls to
/// functions in `only`, when it is not empty) by the callee's body, and the
/// calls that body makes likewise (nested calls), in place.
///
/// Needs: a verified module (callees exist, operands match their
/// parameters, no recursion).
///
/// Guarantees, per call: the body's ops are cloned right where the call was,
/// in the body's order (nothing is moved, added or dropped inside it); each
/// call site gets fresh SSA values, so the body's virtual registers are new
/// virtual registers at every call site (renamed), while its pinned
/// registers (allocated and special types) stay exactly as written; the
/// parameters are the call's operands and the call's results the returned
/// values. A body of one block is spliced into the caller's block; a body
/// of several blocks goes between the two halves of the caller's block
/// (cf.br into it, each amdgcn.return a cf.br to the rest; with several
/// returns the rest's block arguments are the results, with one the
/// returned values are used directly). Each inlined op's location is
/// callsite(its location in the body at the call's location), nested for
/// nested calls. Functions stay in the module (translation never emits
/// them). Returns the number of calls inlined, or failure with a
/// diagnostic at the call.
mlir::FailureOr<unsigned> inlineCalls(amdgcn::KernelModuleOp module,
                                      const llvm::StringSet<> &only);

/// True if a kernel of `module` still has an amdgcn.call.
bool hasCalls(mlir::Operation *module);

/// The pass documentation (what it needs before, what it guarantees after).
extern const char *const kInlineDoc;

} // namespace aster

#endif
