//===- AmdgpuWords.h - the 32-bit words of an amdgpu op's operand ---------===//
//
// amdgpu ops (mfma, dpp, permlane_swap) work on their operands as 32-bit
// words whatever the MLIR type: a vector's words (KernelLowering::vecs), a
// 64-bit scalar's pair (low first) or one dword. Included by the amdgpu
// lowerings that need it (LowerAmdgpuMfma.cpp, LowerAmdgpuDpp.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef ASTER_LOWER_AMDGPUWORDS_H
#define ASTER_LOWER_AMDGPUWORDS_H

#include "lower/KernelLowering.h"

namespace aster::lower {

/// The 32-bit words of `v`: a vector's words, a 64-bit scalar's two dwords
/// (low first), or the one dword of a 32-bit-or-narrower scalar.
inline mlir::FailureOr<llvm::SmallVector<RV>> operandWords(KernelLowering &L, mlir::Value v) {
  if (mlir::isa<mlir::VectorType>(v.getType())) {
    auto it = L.vecs.find(v);
    if (it == L.vecs.end())
      return L.fn.emitOpError("uses a vector value amdgcn-lower does not know");
    return it->second;
  }
  auto r = L.get(v);
  if (mlir::failed(r))
    return mlir::failure();
  if (r->wide)
    return llvm::SmallVector<RV>{KernelLowering::lo(*r), KernelLowering::hi(*r)};
  return llvm::SmallVector<RV>{*r};
}

} // namespace aster::lower

#endif
