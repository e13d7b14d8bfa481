//===- Spill.h - saving a virtual register and reloading it at its uses --===//
#ifndef ASTER_TRANSFORMS_SPILL_H
#define ASTER_TRANSFORMS_SPILL_H

#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseSet.h"

namespace aster {

/// Spills the virtual 32-bit VGPR `v` to a virtual AGPR: saved with
/// v_accvgpr_write_b32 right after its definition (a load's result: just
/// before its first use, once it has arrived) and reloaded with
/// v_accvgpr_read_b32 into a new virtual VGPR before each later use. The ops
/// created are added to `spillCode`. Instruction order is otherwise kept.
void spillToAGPR(mlir::Value v, llvm::DenseSet<mlir::Operation *> &spillCode);

} // namespace aster

#endif
