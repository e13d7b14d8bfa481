//===- LowerCall.cpp - calls of hand-written amdgcn.func from lowered code ===//
//
// Mixing (issue 26 item 5): a gpu.func calls a register-level function with
// `func.call @f(...)`, `@f` declared in its gpu.module (`func.func private
// @f(f32) -> f32`, as upstream's verifier wants) and defined as an
// `amdgcn.func @f` in an `amdgcn.module` of the same input (e.g. a
// hand-written piece, or one printed from aster.nanokernels). The call
// becomes `amdgcn.call @f`, inlined by amdgcn-inline like a Python kernel's
// call (aster.compile runs it).
//
//   importFunctions: copies each declared function's amdgcn.func into the
//     lowered module (before its kernels are lowered).
//   func.call: each argument moved to its parameter's register class
//     (VGPR: v_mov_b32 of a scalar; SGPR: v_readfirstlane_b32 of a VGPR,
//     which must then be uniform; a vector of n words to a VGPR range of n
//     by amdgcn.concat); results read back (a range split by amdgcn.part
//     into a vector's words).
//
// The callee may also be a func.func with a body in the gpu.module, lowered
// to an amdgcn.func before the kernel (LowerFunction.cpp); a memref
// argument is then what its parameter takes: global memory's pointer, an
// LDS byte address or a flat address (memrefParamKind).
//
// Needs before: the callee's parameters and results virtual VGPR / SGPR
// ranges (pinned registers are errors). Guarantees after: one amdgcn.call
// per func.call; the library modules of the input are removed once every
// gpu.module is lowered (lowerGpuModules).
//===----------------------------------------------------------------------===//
#include "lower/LowerVectorUtil.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace aster::lower {

LogicalResult importFunctions(ModuleOp top, gpu::GPUModuleOp gm, KernelModuleOp km) {
  bool ok = true;
  for (auto decl : gm.getOps<func::FuncOp>()) {
    if (!decl.isDeclaration()) // a device function of the module (LowerFunction.cpp)
      continue;
    FuncOp def;
    for (auto lib : top.getOps<KernelModuleOp>()) {
      if (lib == km)
        continue;
      if (auto f = lib.lookupSymbol<FuncOp>(decl.getSymName())) {
        def = f;
        break;
      }
    }
    if (!def) {
      decl.emitOpError("declares @") << decl.getSymName()
                                     << ", which no amdgcn.module of the input defines as an "
                                        "amdgcn.func";
      ok = false;
      continue;
    }
    if (!km.lookupSymbol(decl.getSymName()))
      km.getBody().front().push_back(def->clone());
  }
  return success(ok);
}

// LowerMemrefFlat.cpp: flat pointers.
bool isFlat(KernelLowering &L, const MemArg &m);
FailureOr<std::pair<RV, RV>> flatBase(KernelLowering &L, Operation *op, const MemArg &m);

namespace {

LogicalResult lowerCall(KernelLowering &L, Operation *op) {
  auto call = cast<func::CallOp>(op);
  auto callee = L.km.lookupSymbol<FuncOp>(call.getCallee());
  if (!callee)
    return L.unsupported(op, "@" + call.getCallee() + " is not an amdgcn.func of the input");
  ArrayRef<Type> params = callee.getArgumentTypes(), results = callee.getResultTypes();
  if (params.size() != call.getNumOperands() || results.size() != call.getNumResults())
    return L.unsupported(op, "its arguments and results do not match @" + call.getCallee() +
                                 "'s");
  SmallVector<Value> args;
  for (auto [v, p] : llvm::zip(call.getOperands(), params)) {
    auto rt = dyn_cast<RegType>(p);
    if (!rt || !rt.isVirtual() ||
        (rt.getKind() != RegKind::VGPR && rt.getKind() != RegKind::SGPR))
      return L.unsupported(op, "parameters must be virtual VGPR or SGPR ranges");
    if (isa<MemRefType>(v.getType())) {
      // A lowered function's memref parameter (LowerFunction.cpp): global
      // memory's pointer (an SGPR pair), an LDS byte address (a VGPR) or a
      // flat address (a VGPR pair), of the memref's element 0.
      auto m = L.memrefOf(op, v);
      if (failed(m))
        return failure();
      if (m->regs)
        return L.unsupported(op, "an alloca held in registers has no address to pass");
      unsigned bytes = memElementBytes(cast<MemRefType>(v.getType()).getElementType());
      RV off = L.shl(L.memrefOffset(*m), RV::imm(llvm::Log2_32(std::max(1u, bytes))));
      bool isGlobal = !m->lds && !m->priv && !isFlat(L, *m);
      if (rt.getKind() == RegKind::SGPR && rt.getWidth() == 2) {
        if (!isGlobal || !(off.k == RV::Imm && off.bits == 0))
          return L.unsupported(op, "a global memref parameter takes the pointer of global "
                                   "memory (a kernel argument, not a view at an offset)");
        args.push_back(m->ptrReg ? m->ptrReg : L.loadPtr(m->ptr));
        continue;
      }
      if (rt.getKind() == RegKind::VGPR && rt.getWidth() == 1) {
        if (!m->lds)
          return L.unsupported(op, "a workgroup memref parameter takes LDS memory");
        RV dyn = m->dynOffset.k == RV::None ? RV::imm(0) : m->dynOffset;
        args.push_back(L.toV(L.add(L.add(RV::imm(m->ldsOffset), dyn), off)));
        continue;
      }
      if (rt.getKind() == RegKind::VGPR && rt.getWidth() == 2) {
        auto p = flatBase(L, op, *m);
        if (failed(p))
          return failure();
        args.push_back(vec::flatAt(L, L.toV64(L.pair(p->first, p->second)), off));
        continue;
      }
      return L.unsupported(op, "a memref argument for a parameter that is not one "
                               "(an SGPR pair, a VGPR or a VGPR pair)");
    }
    SmallVector<RV> words;
    if (isa<VectorType>(v.getType())) {
      auto it = L.vecs.find(v);
      if (it == L.vecs.end())
        return L.unsupported(op, "an argument vector is not lowered");
      words = it->second;
    } else {
      auto r = L.get(v);
      if (failed(r))
        return failure();
      words.push_back(*r);
    }
    if (words.size() != rt.getWidth())
      return L.unsupported(op, "an argument of " + Twine(words.size()) +
                                   " words for a parameter of " + Twine(rt.getWidth()));
    SmallVector<Value> regs;
    for (const RV &w : words)
      regs.push_back(rt.getKind() == RegKind::VGPR ? L.toV(w) : L.toS(w));
    args.push_back(regs.size() == 1 ? regs[0]
                                    : (Value)ConcatOp::create(L.b, L.loc, p, regs));
  }
  OperationState st(L.loc, CallOp::getOperationName());
  st.addAttribute("callee", call.getCalleeAttr());
  st.addOperands(args);
  st.addTypes(results);
  Operation *c = L.b.create(st);
  for (auto [res, t, r] : llvm::zip(call.getResults(), results, c->getResults())) {
    auto rt = dyn_cast<RegType>(t);
    if (!rt || !rt.isVirtual() ||
        (rt.getKind() != RegKind::VGPR && rt.getKind() != RegKind::SGPR))
      return L.unsupported(op, "results must be virtual VGPR or SGPR ranges");
    RV::Kind k = rt.getKind() == RegKind::VGPR ? RV::V : RV::S;
    bool fl = isa<FloatType>(getElementTypeOrSelf(res.getType()));
    if (auto vt = dyn_cast<VectorType>(res.getType())) {
      SmallVector<RV> out;
      for (unsigned i = 0; i < rt.getWidth(); ++i) {
        Type one = RegType::getVirtual(L.ctx, rt.getKind());
        out.push_back(RV::of(k, rt.getWidth() == 1 ? r
                                   : (Value)PartOp::create(L.b, L.loc, one, r,
                                                           L.b.getI32IntegerAttr(i)),
                             fl));
      }
      L.vecs[res] = out;
    } else if (rt.getWidth() == 1) {
      L.vals[res] = RV::of(k, r, fl);
    } else {
      return L.unsupported(op, "a wide result needs a vector result type");
    }
  }
  return success();
}

} // namespace

void populateCallLowering(LoweringTable &table) {
  table.add(func::CallOp::getOperationName(), lowerCall);
}

} // namespace aster::lower
