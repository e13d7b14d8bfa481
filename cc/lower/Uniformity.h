//===- Uniformity.h - which values of a GPU kernel differ between lanes ---===//
//
// A forward dataflow over a gpu.func's structured body (no CFG needed:
// scf regions give the joins). A value is divergent (may differ between the
// lanes of one wave) when:
//   - it is gpu.thread_id, gpu.lane_id, a gpu.shuffle result, an atomic's
//     result, a subgroup_reduce with a cluster size, or an amdgpu.mfma
//     result (each lane holds other elements of the product);
//   - it is private memory (a memref.alloca, a private attribution: each
//     lane has its own, so what is loaded from it differs), or a parameter
//     of a non-kernel gpu.func (passed by any caller, in VGPRs);
//   - any operand is divergent (loads: any index);
//   - it is an scf.if result and the condition or a yielded value is
//     divergent (lanes took different sides);
//   - it is an scf.for iteration argument / result / induction variable and
//     a bound, the step, the initial value or the yielded value is divergent
//     (lanes leave the loop in different iterations).
// Everything else is uniform (block ids and dims, kernel arguments,
// constants, subgroup_reduce / all_reduce results).
// The fixpoint terminates: a value only ever goes uniform -> divergent.
//
// Needs before: the kernel's ops (any dialect; unknown ops: divergent when
// an operand is). Guarantees after: isDivergent(v) for every value.
//===----------------------------------------------------------------------===//
#ifndef ASTER_LOWER_UNIFORMITY_H
#define ASTER_LOWER_UNIFORMITY_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseSet.h"

namespace aster::lower {

class Uniformity {
public:
  explicit Uniformity(mlir::Operation *func);
  bool isDivergent(mlir::Value v) const { return divergent.contains(v); }
  bool isUniform(mlir::Value v) const { return !isDivergent(v); }

private:
  llvm::DenseSet<mlir::Value> divergent;
  bool mark(mlir::Value v) { return divergent.insert(v).second; }
  bool visit(mlir::Operation *op);
};

} // namespace aster::lower

#endif
