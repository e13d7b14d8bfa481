//===- LowerConstantTensor.cpp - constant tensors' globals into the gpu.module -===//
//
// An `arith.constant dense<...> : tensor<...>` in a kernel bufferizes
// (upstream's one-shot bufferization, LowerTensors.cpp) to a
// memref.get_global of a new `memref.global "private" constant`, which
// upstream's getGlobalFor (Bufferization/Transforms/BufferUtils.cpp) puts in
// the nearest builtin.module: the top-level module, outside the gpu.module
// whose kernel reads it, where neither symbol lookup nor the code object
// can reach it. Upstream's GPU path puts every symbol a kernel refers to in
// its gpu.module (gpu-kernel-outlining clones the referenced symbols into
// the new gpu.module it creates); here the kernels are outlined already, so
// each such global is moved into the gpu.module that uses it (cloned when
// another gpu.module uses it too), where LowerMemrefGlobal.cpp emits it as
// read-only data of the code object (`.rodata`, read PC-relative).
// aster.lowering.llvm moves the global the same way in LLVM's oracle.
// Needs before: one-shot bufferization of `gm` done. Guarantees after:
// every memref.get_global in `gm` names a global of `gm`; a name found in
// neither is left for LowerMemrefGlobal.cpp's located error.
//===----------------------------------------------------------------------===//
#include "lower/KernelLowering.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace aster::lower {

void moveReferencedGlobals(gpu::GPUModuleOp gm) {
  auto top = gm->getParentOfType<ModuleOp>();
  if (!top)
    return;
  SymbolTable inner(gm);
  SmallVector<memref::GetGlobalOp> gets;
  gm.walk([&](memref::GetGlobalOp g) { gets.push_back(g); });
  for (auto g : gets) {
    StringAttr name = g.getNameAttr().getAttr();
    if (inner.lookup(name))
      continue;
    auto glob = dyn_cast_or_null<memref::GlobalOp>(SymbolTable::lookupSymbolIn(top, name));
    if (!glob)
      continue;
    // Another gpu.module (or the top module) may still refer to it: a copy.
    bool usedElsewhere = false;
    top.walk([&](memref::GetGlobalOp other) {
      if (other.getNameAttr().getAttr() == name && !gm->isProperAncestor(other))
        usedElsewhere = true;
    });
    Operation *moved = usedElsewhere ? glob->clone() : glob.getOperation();
    if (!usedElsewhere)
      moved->remove();
    inner.insert(moved, gm.getBody()->begin());
  }
}

} // namespace aster::lower
