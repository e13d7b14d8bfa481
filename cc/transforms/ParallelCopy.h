//===- ParallelCopy.h - register moves that happen "at once" -------------===//
#ifndef ASTER_TRANSFORMS_PARALLELCOPY_H
#define ASTER_TRANSFORMS_PARALLELCOPY_H

#include "dialect/Types.h"

#include "mlir/IR/Builders.h"

namespace aster {

/// One 32-bit register move dst <- src of `kind` at the builder's insertion
/// point: v_mov_b32, s_mov_b32 or v_accvgpr_mov_b32.
mlir::Operation *emitMove(mlir::OpBuilder &b, mlir::Location loc,
                          amdgcn::RegKind kind, unsigned dst, unsigned src);

/// Emits moves that give every `dst` unit the old value of its `src` unit
/// (each dst at most once), as if all happened at once. A cycle is broken
/// through the free unit `temp`; with temp < 0 a cycle fails. Returns the
/// number of moves emitted.
mlir::FailureOr<unsigned>
emitParallelCopy(mlir::OpBuilder &b, mlir::Location loc, amdgcn::RegKind kind,
                 llvm::ArrayRef<std::pair<unsigned, unsigned>> moves, int temp);

} // namespace aster

#endif
