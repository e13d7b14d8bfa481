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
/// through the free unit `temp`, or without one by exchanging two registers:
/// v_swap_b32 for VGPRs, three s_xor_b32 for SGPRs when `sccFree` (they
/// write scc); otherwise a cycle fails. Returns the number of instructions
/// emitted.
mlir::FailureOr<unsigned>
emitParallelCopy(mlir::OpBuilder &b, mlir::Location loc, amdgcn::RegKind kind,
                 llvm::ArrayRef<std::pair<unsigned, unsigned>> moves, int temp,
                 bool sccFree = false);

} // namespace aster

#endif
