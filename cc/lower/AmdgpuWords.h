//===- AmdgpuWords.h - the 32-bit words of an amdgpu op's operand ---------===//
//
// amdgpu ops (mfma, dpp, permlane_swap) work on their operands as 32-bit
// words whatever the MLIR type: a vector's words (KernelLowering::vecs), a
// 64-bit scalar's pair (low first) or one dword; and the name an element
// type has in MFMA mnemonics. Included by the amdgpu lowerings that need
// them (LowerAmdgpuMfma.cpp, LowerAmdgpuSparse.cpp, LowerAmdgpuDpp.cpp, ...).
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

/// The name of element type t in MFMA / SMFMAC mnemonics ("" if none):
/// gfx942 reads 8-bit floats as the FNUZ formats, gfx950 as OCP ones.
inline std::string mfmaTypeName(mlir::Type t, bool gfx950) {
  if (t.isF32()) return "f32";
  if (t.isF16()) return "f16";
  if (t.isBF16()) return "bf16";
  if (t.isF64()) return "f64";
  if (t.isInteger(8)) return "i8";
  if (t.isInteger(32)) return "i32";
  if (gfx950 ? mlir::isa<mlir::Float8E4M3FNType>(t) : mlir::isa<mlir::Float8E4M3FNUZType>(t))
    return "fp8";
  if (gfx950 ? mlir::isa<mlir::Float8E5M2Type>(t) : mlir::isa<mlir::Float8E5M2FNUZType>(t))
    return "bf8";
  return "";
}

} // namespace aster::lower

#endif
