//===- LowerModuleLds.cpp - workgroup globals of non-kernel functions -----===//
//
// A workgroup memref.global read or written by a non-kernel function (a
// gpu.func, or a func.func body, called from kernels) has no kernel of its
// own: the function is lowered once (an amdgcn.func, inlined into each
// caller by aster.compile), so its LDS address must be the same in every
// kernel that reaches it. LLVM's AMDGPULowerModuleLDS (its "module"
// strategy, AMDGPUUsage "LDS" / the pass's header) does the same: the
// variables used from non-kernel functions go into one module struct at
// LDS address 0 of every kernel that may call those functions, the
// kernels' own LDS after it. Here (our own, from that description):
//   - each such global gets a fixed byte offset (`aster.lds_offset`),
//     16-byte aligned, in the order functions first name them;
//   - every kernel that calls (directly or through other functions) a
//     function using one, or names one itself, starts its own LDS after
//     their bytes (`aster.module_lds` on the gpu.func, read by
//     setupInterface: KernelLowering.cpp);
//   - their get_globals, in kernels and functions alike, stay for the walk:
//     LowerMemrefGlobal.cpp makes each an LDS memref at that offset.
// Workgroup globals only kernels use stay the kernels' own attributions
// (LowerMemExpand.cpp).
// Needs before: func.func bodies made gpu.funcs (funcBodiesToGpuFuncs).
// Guarantees after: the attributes above set; nothing else changed.
//===----------------------------------------------------------------------===//
#include "lower/KernelLowering.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

#include "llvm/ADT/SetVector.h"

namespace aster::lower {

namespace {

bool isWorkgroupSpace(Attribute space) {
  auto a = dyn_cast_or_null<gpu::AddressSpaceAttr>(space);
  return a && a.getValue() == gpu::AddressSpace::Workgroup;
}

} // namespace

void placeModuleLds(gpu::GPUModuleOp gm) {
  // The workgroup globals each function names, and whom it calls.
  llvm::SetVector<memref::GlobalOp> shared;
  DenseMap<StringAttr, SmallVector<StringAttr>> calls;
  DenseMap<StringAttr, bool> names;
  for (auto fn : gm.getOps<gpu::GPUFuncOp>()) {
    StringAttr name = SymbolTable::getSymbolName(fn);
    fn.walk([&](Operation *op) {
      if (auto c = dyn_cast<func::CallOp>(op))
        calls[name].push_back(c.getCalleeAttr().getAttr());
      auto g = dyn_cast<memref::GetGlobalOp>(op);
      if (!g || !isWorkgroupSpace(g.getType().getMemorySpace()))
        return;
      names[name] = true;
      if (!fn.isKernel())
        if (auto glob = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(g, g.getNameAttr()))
          shared.insert(glob);
    });
  }
  if (shared.empty())
    return;
  OpBuilder b(gm.getContext());
  unsigned bytes = 0;
  for (memref::GlobalOp g : shared) {
    auto mt = g.getType();
    g->setAttr("aster.lds_offset", b.getI32IntegerAttr(bytes));
    bytes += (unsigned)((mt.getNumElements() * memElementBytes(mt.getElementType()) + 15) / 16 * 16);
  }
  // A kernel reaches the module LDS if it names one of the globals or calls,
  // through any chain, a function that does.
  DenseMap<StringAttr, bool> reaches;
  std::function<bool(StringAttr, unsigned)> reach = [&](StringAttr f, unsigned depth) -> bool {
    if (depth > 64)
      return false;
    if (auto it = reaches.find(f); it != reaches.end())
      return it->second;
    bool r = false;
    if (auto fn = SymbolTable::lookupSymbolIn(gm, f))
      fn->walk([&](memref::GetGlobalOp g) {
        if (auto glob = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(g, g.getNameAttr()))
          r |= shared.contains(glob);
      });
    for (StringAttr c : calls.lookup(f))
      r |= reach(c, depth + 1);
    return reaches[f] = r;
  };
  for (auto fn : gm.getOps<gpu::GPUFuncOp>())
    if (fn.isKernel() && reach(SymbolTable::getSymbolName(fn), 0))
      fn->setAttr("aster.module_lds", b.getI32IntegerAttr(bytes));
}

} // namespace aster::lower
