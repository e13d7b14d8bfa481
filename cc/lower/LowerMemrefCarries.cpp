//===- LowerMemrefCarries.cpp - memrefs through scf results and calls -----===//
//
// A memref an scf.if / scf.for / scf.while yields or carries (a branch
// choosing a buffer, ping-pong buffers swapped each iteration) has no
// register form of its own: before the walk (carryMemrefsAsValues, upstream
// IR in and out) each such result, iteration argument and yielded operand
// becomes the values that locate the memref, and the memref is rebuilt from
// them where it is used:
//
//   %r = scf.if %c -> memref<..>     %p:n = scf.if %c -> (i64 / i32, index..)
//     scf.yield %a          =>         %a' = unrealized_conversion_cast %a
//                                      scf.yield %a'#0, ...
//                                    %r = unrealized_conversion_cast %p#0, ...
//
// both casts marked `aster.memref_carry = "<kind>"`. The carried values:
// the memory's address, then the view's offset (when the type's is
// dynamic), its dynamic sizes and its dynamic strides (index). The address
// depends on the memory the memref can be (its kind, found on the upstream
// IR as LLVM's InferAddressSpaces finds an address space through phis):
//   global   every incoming memref is global memory (kernel arguments,
//            global memref.globals, views of those; a memory space of
//            #gpu.address_space<global>): the 64-bit pointer (i64); a
//            uniform one is used as the global_* base (SGPR pair), a
//            divergent one as a flat pointer (a global address is its own
//            flat address);
//   lds      every one is workgroup memory: the LDS byte address (i32), the
//            memref LDS with that dynamic base (MemArg::dynOffset): ds_*;
//   private  every one is scratch (allocas): the scratch byte offset (i32);
//   flat     anything else (memories mixed, a select of memrefs, a memref
//            of unknown origin): the flat address (i64; LDS {address,
//            src_shared_base[63:32]}, scratch {offset,
//            src_private_base[63:32]}, llc-22's addrspacecast to 0), its
//            accesses flat_* (LowerMemrefFlat.cpp).
// The same kinds tell how a non-kernel function takes a memref parameter
// (memrefParamKind, LowerFunction.cpp / LowerCall.cpp): from the memrefs
// its callers in the module pass.
//
// Needs before: a structured body (structurizeKernelCFG). Guarantees after:
// no scf op has a memref result or iteration argument; the casts lower here
// (forward: the memref's MemArg to lowered values; backward: a MemArg).
//===----------------------------------------------------------------------===//
#include "lower/KernelLowering.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace aster::lower {

FailureOr<std::pair<RV, RV>> flatBase(KernelLowering &L, Operation *op, const MemArg &m);
bool isFlat(KernelLowering &L, const MemArg &m);

static constexpr const char *kCarry = "aster.memref_carry";

StringRef memKindName(MemKind k) {
  switch (k) {
  case MemKind::Global: return "global";
  case MemKind::Lds: return "lds";
  case MemKind::Private: return "private";
  default: return "flat";
  }
}

namespace {

MemKind kindNamed(StringRef s) {
  return s == "global" ? MemKind::Global
         : s == "lds"  ? MemKind::Lds
         : s == "private" ? MemKind::Private
                          : MemKind::Flat;
}

MemKind merge(MemKind a, MemKind b) {
  if (a == MemKind::None)
    return b;
  if (b == MemKind::None)
    return a;
  return a == b ? a : MemKind::Flat;
}

/// The memory a memref value can be, traced on the upstream IR.
class Roots {
public:
  MemKind of(Value v) {
    auto mt = dyn_cast<BaseMemRefType>(v.getType());
    if (!mt)
      return MemKind::Flat;
    if (auto as = dyn_cast_or_null<gpu::AddressSpaceAttr>(mt.getMemorySpace())) {
      switch (as.getValue()) {
      case gpu::AddressSpace::Workgroup: return MemKind::Lds;
      case gpu::AddressSpace::Private: return MemKind::Private;
      case gpu::AddressSpace::Global: return MemKind::Global;
      }
    }
    if (!visiting.insert(v).second)
      return MemKind::None; // a cycle (loop-carried): the other incoming values decide
    MemKind k = trace(v);
    visiting.erase(v);
    return k;
  }

  /// How non-kernel function `f` takes memref parameter `i`: the kinds of
  /// what its callers in the module pass (global when none does: a Python
  /// kernel's call passes a kernel argument's pointer).
  MemKind param(gpu::GPUFuncOp f, unsigned i) {
    MemKind k = MemKind::None;
    auto gm = f->getParentOfType<gpu::GPUModuleOp>();
    if (gm)
      gm.walk([&](func::CallOp c) {
        if (c.getCallee() == f.getName() && i < c.getNumOperands())
          k = merge(k, of(c.getOperand(i)));
      });
    if (k == MemKind::None)
      k = MemKind::Global;
    // Scratch passed down: a flat pointer (the callee has no scratch of its own).
    return k == MemKind::Private ? MemKind::Flat : k;
  }

private:
  DenseSet<Value> visiting;

  MemKind trace(Value v) {
    if (auto a = dyn_cast<BlockArgument>(v)) {
      Operation *owner = a.getOwner()->getParentOp();
      if (auto f = dyn_cast<gpu::GPUFuncOp>(owner)) {
        if (a.getOwner() != &f.getBody().front() ||
            a.getArgNumber() >= f.getFunctionType().getNumInputs())
          return MemKind::Flat;
        return f.isKernel() ? MemKind::Global : param(f, a.getArgNumber());
      }
      if (auto fo = dyn_cast<scf::ForOp>(owner)) {
        if (a.getArgNumber() == 0)
          return MemKind::Flat;
        unsigned j = a.getArgNumber() - 1;
        return merge(of(fo.getInitArgs()[j]), of(fo.getBody()->getTerminator()->getOperand(j)));
      }
      if (auto w = dyn_cast<scf::WhileOp>(owner)) {
        unsigned j = a.getArgNumber();
        if (a.getOwner() == &w.getBefore().front())
          return merge(of(w.getInits()[j]), of(w.getYieldOp().getOperand(j)));
        return of(w.getConditionOp().getArgs()[j]);
      }
      return MemKind::Flat;
    }
    Operation *d = v.getDefiningOp();
    unsigned n = cast<OpResult>(v).getResultNumber();
    if (isa<memref::MemorySpaceCastOp, memref::SubViewOp, memref::CastOp,
            memref::ReinterpretCastOp, memref::CollapseShapeOp, memref::ExpandShapeOp,
            memref::TransposeOp, memref::AssumeAlignmentOp>(d))
      return of(d->getOperand(0));
    if (isa<memref::AllocaOp>(d))
      return MemKind::Private;
    if (auto g = dyn_cast<memref::GetGlobalOp>(d))
      return MemKind::Global; // workgroup globals carry their space in the type
    if (auto i = dyn_cast<scf::IfOp>(d)) {
      MemKind k = of(i.thenYield().getOperand(n));
      return i.getElseRegion().empty() ? k : merge(k, of(i.elseYield().getOperand(n)));
    }
    if (auto fo = dyn_cast<scf::ForOp>(d))
      return merge(of(fo.getInitArgs()[n]), of(fo.getBody()->getTerminator()->getOperand(n)));
    if (auto w = dyn_cast<scf::WhileOp>(d))
      return of(w.getConditionOp().getArgs()[n]);
    if (auto c = dyn_cast<UnrealizedConversionCastOp>(d))
      if (auto k = c->getAttrOfType<StringAttr>(kCarry))
        return kindNamed(k.getValue());
    // arith.select of memrefs is always a flat pointer (LowerMemrefFlat.cpp).
    return MemKind::Flat;
  }
};

/// The types carrying a memref of type `mt` and kind `k`.
SmallVector<Type> carriedTypes(MLIRContext *ctx, MemRefType mt, MemKind k) {
  SmallVector<Type> ts;
  Builder b(ctx);
  bool narrow = k == MemKind::Lds || k == MemKind::Private;
  ts.push_back(narrow ? b.getI32Type() : b.getI64Type());
  SmallVector<int64_t> strides;
  int64_t offset = 0;
  if (failed(mt.getStridesAndOffset(strides, offset)))
    return ts;
  if (ShapedType::isDynamic(offset))
    ts.push_back(b.getIndexType());
  for (int64_t d : mt.getShape())
    if (ShapedType::isDynamic(d))
      ts.push_back(b.getIndexType());
  for (int64_t s : strides)
    if (ShapedType::isDynamic(s))
      ts.push_back(b.getIndexType());
  return ts;
}

struct Carry {
  MemKind kind;
  SmallVector<Type> types;
};

/// Values standing for memref `v` (of kind `k`), made before `at`.
ValueRange forward(OpBuilder &b, Operation *at, Value v, const Carry &c) {
  b.setInsertionPoint(at);
  auto cast = UnrealizedConversionCastOp::create(b, v.getLoc(), c.types, v);
  cast->setAttr(kCarry, b.getStringAttr(memKindName(c.kind)));
  return cast.getResults();
}

/// The memref of type `t` rebuilt from `vals`.
Value backward(OpBuilder &b, Location loc, Type t, ValueRange vals, MemKind k) {
  auto cast = UnrealizedConversionCastOp::create(b, loc, t, vals);
  cast->setAttr(kCarry, b.getStringAttr(memKindName(k)));
  return cast.getResult(0);
}

/// Operands of `term` (a yield / condition) from `first` on: each memref at
/// index i (of that range) replaced by its carried values (carries[i]).
void rewriteTerminator(OpBuilder &b, Operation *term, unsigned first,
                       ArrayRef<std::optional<Carry>> carries) {
  SmallVector<Value> ops(term->getOperands().take_front(first));
  for (auto [i, v] : llvm::enumerate(term->getOperands().drop_front(first))) {
    if (!carries[i]) {
      ops.push_back(v);
      continue;
    }
    ValueRange vs = forward(b, term, v, *carries[i]);
    ops.append(vs.begin(), vs.end());
  }
  term->setOperands(ops);
}

/// Block arguments from `first` on: each memref one (carries[i]) replaced by
/// its carried values and rebuilt at the block's start.
void rewriteBlockArgs(OpBuilder &b, Block &blk, unsigned first,
                      ArrayRef<std::optional<Carry>> carries) {
  unsigned pos = first;
  for (auto &c : carries) {
    if (!c) {
      ++pos;
      continue;
    }
    BlockArgument old = blk.getArgument(pos);
    SmallVector<Value> vs;
    for (auto [j, t] : llvm::enumerate(c->types))
      vs.push_back(blk.insertArgument(pos + 1 + j, t, old.getLoc()));
    b.setInsertionPointToStart(&blk);
    Value m = backward(b, old.getLoc(), old.getType(), vs, c->kind);
    old.replaceAllUsesWith(m);
    blk.eraseArgument(pos);
    pos += c->types.size();
  }
}

/// New result types, the carries of memref results.
SmallVector<std::optional<Carry>> carriesOf(Roots &roots, TypeRange types, ValueRange vals,
                                            SmallVectorImpl<Type> &newTypes) {
  SmallVector<std::optional<Carry>> cs;
  for (auto [t, v] : llvm::zip(types, vals)) {
    auto mt = dyn_cast<MemRefType>(t);
    if (!mt) {
      cs.push_back(std::nullopt);
      newTypes.push_back(t);
      continue;
    }
    MemKind k = roots.of(v);
    if (k == MemKind::None)
      k = MemKind::Flat;
    Carry c{k, carriedTypes(t.getContext(), mt, k)};
    newTypes.append(c.types.begin(), c.types.end());
    cs.push_back(c);
  }
  return cs;
}

/// Replaces `op`'s results with `n`'s (memref ones rebuilt after `n`).
void replaceResults(OpBuilder &b, Operation *op, Operation *n,
                    ArrayRef<std::optional<Carry>> carries) {
  b.setInsertionPointAfter(n);
  unsigned pos = 0;
  for (auto [r, c] : llvm::zip(op->getResults(), carries)) {
    if (!c) {
      r.replaceAllUsesWith(n->getResult(pos++));
      continue;
    }
    r.replaceAllUsesWith(backward(b, op->getLoc(), r.getType(),
                                  n->getResults().slice(pos, c->types.size()), c->kind));
    pos += c->types.size();
  }
}

bool hasMemref(TypeRange ts) {
  return llvm::any_of(ts, [](Type t) { return isa<MemRefType>(t); });
}

} // namespace

MemKind memrefParamKind(gpu::GPUFuncOp f, unsigned i) {
  Roots roots;
  Type t = f.getArgumentTypes()[i];
  auto mt = cast<MemRefType>(t);
  if (auto as = dyn_cast_or_null<gpu::AddressSpaceAttr>(mt.getMemorySpace()))
    return as.getValue() == gpu::AddressSpace::Workgroup ? MemKind::Lds
           : as.getValue() == gpu::AddressSpace::Global  ? MemKind::Global
                                                         : MemKind::Flat;
  return roots.param(f, i);
}

void carryMemrefsAsValues(gpu::GPUFuncOp fn) {
  SmallVector<Operation *> ops;
  fn.walk([&](Operation *op) {
    if (isa<scf::IfOp, scf::ForOp, scf::WhileOp>(op) && hasMemref(op->getResultTypes()))
      ops.push_back(op);
  });
  if (ops.empty())
    return;
  // Kinds first, on the IR as it is (the rewrite below changes what the
  // analysis walks).
  Roots roots;
  SmallVector<SmallVector<std::optional<Carry>>> all;
  SmallVector<SmallVector<Type>> newTypes;
  for (Operation *op : ops) {
    newTypes.emplace_back();
    all.push_back(carriesOf(roots, op->getResultTypes(), op->getResults(), newTypes.back()));
  }
  OpBuilder b(fn.getContext());
  for (auto [op, carries, types] : llvm::zip(ops, all, newTypes)) {
    if (auto i = dyn_cast<scf::IfOp>(op)) {
      rewriteTerminator(b, i.thenYield(), 0, carries);
      if (!i.getElseRegion().empty())
        rewriteTerminator(b, i.elseYield(), 0, carries);
      b.setInsertionPoint(i);
      auto n = scf::IfOp::create(b, i.getLoc(), types, i.getCondition(), false, false);
      n.getThenRegion().takeBody(i.getThenRegion());
      n.getElseRegion().takeBody(i.getElseRegion());
      replaceResults(b, i, n, carries);
      i.erase();
    } else if (auto f = dyn_cast<scf::ForOp>(op)) {
      SmallVector<Value> inits;
      for (auto [v, c] : llvm::zip(f.getInitArgs(), carries)) {
        if (!c) {
          inits.push_back(v);
          continue;
        }
        ValueRange vs = forward(b, f, v, *c);
        inits.append(vs.begin(), vs.end());
      }
      rewriteTerminator(b, f.getBody()->getTerminator(), 0, carries);
      rewriteBlockArgs(b, *f.getBody(), 1, carries);
      b.setInsertionPoint(f);
      auto n = scf::ForOp::create(b, f.getLoc(), f.getLowerBound(), f.getUpperBound(),
                                  f.getStep(), inits, nullptr, f.getUnsignedCmp());
      n.getRegion().takeBody(f.getRegion());
      n->setAttrs(f->getDiscardableAttrDictionary());
      replaceResults(b, f, n, carries);
      f.erase();
    } else if (auto w = dyn_cast<scf::WhileOp>(op)) {
      // The before block's arguments are the inits' (and yields') types;
      // the after block's and the results are the condition's.
      SmallVector<Type> beforeTypes;
      auto before = carriesOf(roots, w.getBefore().front().getArgumentTypes(),
                              w.getBefore().front().getArguments(), beforeTypes);
      SmallVector<Value> inits;
      for (auto [v, c] : llvm::zip(w.getInits(), before)) {
        if (!c) {
          inits.push_back(v);
          continue;
        }
        ValueRange vs = forward(b, w, v, *c);
        inits.append(vs.begin(), vs.end());
      }
      rewriteTerminator(b, w.getYieldOp(), 0, before);
      rewriteTerminator(b, w.getConditionOp(), 1, carries);
      rewriteBlockArgs(b, w.getBefore().front(), 0, before);
      rewriteBlockArgs(b, w.getAfter().front(), 0, carries);
      b.setInsertionPoint(w);
      auto n = scf::WhileOp::create(b, w.getLoc(), types, inits);
      n.getBefore().takeBody(w.getBefore());
      n.getAfter().takeBody(w.getAfter());
      replaceResults(b, w, n, carries);
      w.erase();
    }
  }
}

namespace {

/// unrealized_conversion_cast marked aster.memref_carry: a memref to the
/// values locating it, or those values back to a memref.
LogicalResult lowerCarryCast(KernelLowering &L, Operation *op) {
  auto kindAttr = op->getAttrOfType<StringAttr>(kCarry);
  if (!kindAttr)
    return L.unsupported(op, "only the casts amdgcn-lower makes itself are lowered");
  MemKind kind = kindNamed(kindAttr.getValue());
  bool toValues = isa<MemRefType>(op->getOperand(0).getType());
  auto mt = cast<MemRefType>(toValues ? op->getOperand(0).getType() : op->getResult(0).getType());
  SmallVector<int64_t> strides;
  int64_t offset = 0;
  if (failed(mt.getStridesAndOffset(strides, offset)))
    return L.unsupported(op, "the memref layout is not strided");
  if (toValues) {
    auto m = L.memrefOf(op, op->getOperand(0));
    if (failed(m))
      return failure();
    RV addr;
    if (kind == MemKind::Lds || kind == MemKind::Private) {
      if (kind == MemKind::Lds ? !m->lds : !m->priv)
        return L.unsupported(op, "a memref carried as " + kindAttr.getValue() +
                                     " memory is not that memory");
      RV dyn = m->dynOffset.k == RV::None ? RV::imm(0) : m->dynOffset;
      addr = L.add(RV::imm(kind == MemKind::Lds ? m->ldsOffset : m->privOffset), dyn);
    } else {
      auto p = flatBase(L, op, *m);
      if (failed(p))
        return failure();
      addr = L.pair(p->first, p->second);
    }
    unsigned r = 0;
    L.vals[op->getResult(r++)] = addr;
    if (ShapedType::isDynamic(offset))
      L.vals[op->getResult(r++)] = L.memrefOffset(*m);
    for (int64_t d = 0; d < mt.getRank(); ++d)
      if (mt.isDynamicDim(d))
        L.vals[op->getResult(r++)] = L.memrefSize(*m, d);
    for (int64_t d = 0; d < mt.getRank(); ++d)
      if (ShapedType::isDynamic(strides[d]))
        L.vals[op->getResult(r++)] = L.memrefStride(*m, d);
    return success();
  }
  auto vs = L.getAll(op->getOperands());
  if (failed(vs))
    return failure();
  MemArg m;
  m.type = mt;
  m.view = true;
  RV addr = (*vs)[0];
  // A memref of vectors (vector.type_cast views carried): the memref of
  // their scalars (LowerVectorTypeCast.cpp indexes its leading dimensions).
  // type_cast takes and gives static identity layouts; the offset is 0.
  MemRefType st = mt;
  if (auto vt = dyn_cast<VectorType>(mt.getElementType())) {
    if (!mt.hasStaticShape() || !mt.getLayout().isIdentity())
      return L.unsupported(op, "a carried memref of vectors is lowered when static and "
                               "identity-laid-out (a vector.type_cast view)");
    SmallVector<int64_t> shape(mt.getShape());
    shape.append(vt.getShape().begin(), vt.getShape().end());
    st = MemRefType::get(shape, vt.getElementType(), MemRefLayoutAttrInterface(),
                         mt.getMemorySpace());
    m.type = st;
  }
  if (kind == MemKind::Lds) {
    m.lds = true;
    m.dynOffset = addr;
  } else if (kind == MemKind::Private) {
    m.priv = true;
    m.dynOffset = addr;
  } else if (kind == MemKind::Global && addr.scalar()) {
    m.ptrReg = L.toS64(addr);
  } else {
    m.ptrReg = L.toV64(addr);
  }
  unsigned r = 1;
  m.viewOffset = ShapedType::isDynamic(offset) ? (*vs)[r++] : RV::imm((uint32_t)offset);
  if (st != mt) {
    SmallVector<int64_t> ss;
    int64_t so;
    (void)st.getStridesAndOffset(ss, so);
    for (int64_t d = 0; d < st.getRank(); ++d) {
      m.viewSizes.push_back(RV::imm((uint32_t)st.getDimSize(d)));
      m.viewStrides.push_back(RV::imm((uint32_t)ss[d]));
    }
    L.mems[op->getResult(0)] = m;
    return success();
  }
  for (int64_t d = 0; d < mt.getRank(); ++d)
    m.viewSizes.push_back(mt.isDynamicDim(d) ? (*vs)[r++] : RV::imm((uint32_t)mt.getDimSize(d)));
  for (int64_t d = 0; d < mt.getRank(); ++d)
    m.viewStrides.push_back(ShapedType::isDynamic(strides[d]) ? (*vs)[r++]
                                                              : RV::imm((uint32_t)strides[d]));
  L.mems[op->getResult(0)] = m;
  return success();
}

} // namespace

void populateMemrefCarriesLowering(LoweringTable &table) {
  table.add(UnrealizedConversionCastOp::getOperationName(), lowerCarryCast);
}

} // namespace aster::lower
