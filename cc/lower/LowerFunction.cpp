//===- LowerFunction.cpp - non-kernel gpu.func to amdgcn.func --------------===//
//
// Mixing, the other direction (issue 26 item 5): a gpu.func without the
// `kernel` attribute becomes an `amdgcn.func` of the same name in the
// lowered module, which a Python-built kernel calls with `k.call` (after
// `m.include(lowered)`) and amdgcn-inline puts in place, like any
// register-level function.
//
//   parameters   f32 / i32 / index / i1-free scalars: a virtual VGPR each
//                (divergent: any caller's value, Uniformity.h); a memref of
//                static shape and identity layout by the memory the
//                module's calls pass (memrefParamKind, LowerMemrefCarries.cpp):
//                global memory (none passes another, or no call: a Python
//                kernel's) its pointer, an SGPR pair (`!amdgcn.sgpr<?x2>`,
//                2-aligned); workgroup memory its LDS byte address (a VGPR:
//                ds_*); anything else, or memories mixed, its flat address
//                (a VGPR pair: flat_*, as LLVM's build of the function
//                before inlining; after it LLVM's InferAddressSpaces may
//                find the memory, aster keeps flat_* there).
//   results      gpu.return's values, a virtual VGPR each (amdgcn.return).
//   body         lowered as a kernel's (the same dialect files); thread /
//                block ids and dims, workgroup attributions and scratch
//                allocas belong to the kernel that calls it and are errors
//                here (pass them as parameters); lane ids, shuffles, wave
//                reductions and register allocas work.
//
// A func.func with a body in the gpu.module (called from a kernel with
// func.call, as upstream writes device functions) is first made a gpu.func
// of the same name, type and body (func.return -> gpu.return;
// funcBodiesToGpuFuncs, on lowerGpuModules' clone of the module), then
// lowered as above; lowerGpuModules lowers functions before the kernels
// and callees before callers, so each func.call becomes an amdgcn.call of
// it (LowerCall.cpp), inlined by aster.compile like a library function.
//
// Needs before: a gpu.func body lifted to one block (structurizeKernelCFG).
// Guarantees after: an amdgcn.func on virtual registers ending in
// amdgcn.return, or an error at the op.
//===----------------------------------------------------------------------===//
#include "lower/KernelLowering.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace aster::lower {

bool hasFuncBodies(gpu::GPUModuleOp gm) {
  return llvm::any_of(gm.getOps<func::FuncOp>(),
                      [](func::FuncOp f) { return !f.isDeclaration(); });
}

void funcBodiesToGpuFuncs(gpu::GPUModuleOp gm) {
  for (auto f : llvm::make_early_inc_range(gm.getOps<func::FuncOp>())) {
    if (f.isDeclaration())
      continue;
    OpBuilder b(f);
    auto g = gpu::GPUFuncOp::create(b, f.getLoc(), f.getSymName(), f.getFunctionType());
    g.getBody().takeBody(f.getBody());
    SmallVector<func::ReturnOp> rets;
    g.walk([&](func::ReturnOp r) { rets.push_back(r); });
    for (func::ReturnOp r : rets) {
      OpBuilder rb(r);
      gpu::ReturnOp::create(rb, r.getLoc(), r.getOperands());
      r.erase();
    }
    f.erase();
  }
}

LogicalResult KernelLowering::setupFunction() {
  SmallVector<Type> params, results;
  for (BlockArgument a : kernelArgs()) {
    Type t = a.getType();
    if (auto mt = dyn_cast<MemRefType>(t)) {
      if (!mt.hasStaticShape() || !mt.getLayout().isIdentity() ||
          !memElementBytes(mt.getElementType()))
        return fn.emitOpError("argument ")
               << a.getArgNumber() << " of type " << t
               << " cannot be lowered to amdgcn: a function takes memrefs of static shapes "
                  "and identity layouts (their pointer)";
      auto as = dyn_cast_or_null<gpu::AddressSpaceAttr>(mt.getMemorySpace());
      if ((mt.getMemorySpace() && !as) ||
          (as && as.getValue() == gpu::AddressSpace::Private))
        return fn.emitOpError("argument ") << a.getArgNumber() << " of type " << t
                                          << " cannot be lowered to amdgcn: a function takes "
                                             "global, workgroup or generic memrefs (pass a "
                                             "private buffer cast to generic)";
      MemKind k = memrefParamKind(fn, a.getArgNumber());
      params.push_back(k == MemKind::Global ? s2T : k == MemKind::Lds ? vT : v2T);
    } else if (t.isF32() || t.isInteger(32) || t.isIndex()) {
      params.push_back(vT);
    } else {
      return fn.emitOpError("argument ") << a.getArgNumber() << " of type " << t
                                        << " cannot be lowered to amdgcn (a function takes f32, "
                                           "i32, index and static memrefs)";
    }
  }
  for (Type t : fn.getFunctionType().getResults()) {
    if (!(t.isF32() || t.isInteger(32) || t.isIndex()))
      return fn.emitOpError("result of type ")
             << t << " cannot be lowered to amdgcn (a function returns f32, i32, index)";
    results.push_back(vT);
  }
  if (!fn.getWorkgroupAttributions().empty() || !fn.getPrivateAttributions().empty())
    return fn.emitOpError("cannot be lowered to amdgcn: a function has no workgroup or "
                          "private attributions (the kernel that calls it owns its memory)");
  b.setInsertionPointToEnd(&km.getBody().front());
  loc = fn.getLoc();
  OperationState st(loc, FuncOp::getOperationName());
  st.addAttribute(SymbolTable::getSymbolAttrName(), b.getStringAttr(fn.getName()));
  st.addAttribute("function_type", TypeAttr::get(b.getFunctionType(params, results)));
  st.addRegion();
  func = cast<FuncOp>(b.create(st));
  body = &func.getBody();
  entry = new Block();
  body->push_back(entry);
  for (Type t : params)
    entry->addArgument(t, loc);
  b.setInsertionPointToEnd(entry);
  Block *first = newBlock();
  cf::BranchOp::create(b, loc, first);
  start(first);
  for (auto [a, reg] : llvm::zip(kernelArgs(), entry->getArguments())) {
    if (auto mt = dyn_cast<MemRefType>(a.getType())) {
      MemArg m;
      m.type = mt;
      if (reg.getType() == vT) { // an LDS byte address
        m.lds = true;
        m.dynOffset = RV::of(RV::V, reg);
      } else {
        m.ptrReg = reg; // global: an SGPR pair; flat: a VGPR pair (isFlat)
      }
      mems[a] = m;
    } else {
      vals[a] = RV::of(RV::V, reg, a.getType().isF32());
    }
  }
  return success();
}

LogicalResult KernelLowering::lowerInFunction(Operation *op) {
  if (!isa<gpu::ReturnOp>(op))
    return unsupported(op, "in a function (not a kernel) thread and block ids and dims are "
                           "the caller's: pass them as parameters");
  if (op->getParentOp() != fn.getOperation())
    return unsupported(op, "gpu.return only ends the function body");
  auto rs = getAll(op->getOperands());
  if (failed(rs))
    return failure();
  SmallVector<Value> regs;
  for (const RV &r : *rs)
    regs.push_back(toV(r));
  ReturnOp::create(b, loc, regs);
  return success();
}

} // namespace aster::lower
