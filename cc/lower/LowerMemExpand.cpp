//===- LowerMemExpand.cpp - memref / vector / gpu ops as simpler ones -----===//
//
// Our own rewrites (upstream IR in, upstream IR out), run on the clone
// lowerGpuModules lowers before the other expansions, for ops upstream has
// no rewrite of (its LLVM conversions lower them to intrinsics or calls):
//   memref.copy           between contiguous row-major static memrefs in
//                         global / workgroup memory: 16-byte vector.load /
//                         store pieces (global_load_dwordx4 as LLVM's inline
//                         llvm.memcpy; the memrefs collapsed to 1-D);
//                         between row-major memrefs of dynamic shape: an
//                         scf.for of those pieces and one of single
//                         elements for the rest (LLVM's loop expansion of
//                         a dynamic-size llvm.memcpy: dwordx4, residual); else
//                         one memref.load + memref.store per element, in
//                         row-major order: unrolled at constant indices for
//                         static shapes of at most 64 elements, else an
//                         scf.for nest over memref.dim (any strided layout,
//                         any memory; per work-item, as the op is). LLVM
//                         lowers a contiguous copy to llvm.memcpy and calls
//                         the host runtime's memrefCopy otherwise.
//   memref.reshape        memref.reinterpret_cast of the source (its offset
//                         kept) to the result shape, row-major strides; a
//                         dynamic size is memref.load of the shape operand.
//                         A shape operand that is a memref.alloca only stored
//                         to is erased with its stores afterwards (LLVM's
//                         SROA does the same at -O3).
//   memref.get_global of  one workgroup attribution of the kernel per global
//     a workgroup global  (static LDS, LowerMemory.cpp: the whole
//                         workgroup sees it, as LLVM's AMDGPULowerModuleLDS
//                         places an addrspace(3) global in the kernel's LDS);
//                         the memref.global erased once nothing uses it;
//                         unless a non-kernel function uses the global too
//                         (LowerModuleLds.cpp: a fixed LDS offset, the
//                         get_global lowered where used).
//   vector.expandload     per element e: scf.if mask[e] loads base[i + n]
//                         (n = set mask bits before e) else passthru[e]
//   vector.compressstore  per element e: scf.if mask[e] stores it at i + n
//   vector.scatter        per element e: scf.if mask[e] stores it at
//                         base[..., i + index[e]], in element order (the op
//                         leaves overlapping indices' order unspecified;
//                         LLVM's scalarized llvm.masked.scatter stores in
//                         order too)
//   gpu.rotate            gpu.shuffle idx from lane ((lane + offset) &
//                         (width - 1)) + (lane & ~(width - 1)) with width 64
//                         (the op's definition, GPUOps.td), valid = lane <
//                         width; convert-gpu-to-rocdl of LLVM 22 has no
//                         pattern for gpu.rotate
//   vector.contract of    lhs / rhs promoted to the accumulator's type first
//     narrower operands   (arith.extf / extsi: the op's definition,
//                         VectorOps.td); upstream's Dot lowering (and so
//                         convert-vector-to-llvm) leaves mixed types as they are
//   gpu.cluster_id / cluster_dim / cluster_block_id / cluster_dim_blocks: an
//                         error saying why (no clusters on gfx942 / gfx950;
//                         out of scope in aster.lowering.coverage.scope)
// Needs before: a gpu.module. Guarantees after: none of the ops above
// remains except where a located error says why (a workgroup global used
// outside a kernel, memrefs of different ranks, a reshape of a source that
// is not row-major).
//===----------------------------------------------------------------------===//
#include "lower/ExpandWalk.h"
#include "lower/KernelLowering.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include "llvm/ADT/MapVector.h"

namespace aster::lower {

namespace {

bool isWorkgroup(Attribute space) {
  auto a = dyn_cast_or_null<gpu::AddressSpaceAttr>(space);
  return a && a.getValue() == gpu::AddressSpace::Workgroup;
}

Type elementOf(Type t) {
  auto vt = dyn_cast<VectorType>(t);
  return vt ? vt.getElementType() : t;
}

bool mixedContract(vector::ContractionOp c) {
  Type acc = elementOf(c.getAccType());
  return elementOf(c.getLhsType()) != acc || elementOf(c.getRhsType()) != acc;
}

/// A vector.contract whose operands are narrower than its accumulator: the
/// operands promoted first, as the op defines it (VectorOps.td: "operands
/// are promoted to have the same bitwidth as the result"; integers by sign
/// extension), then the contract of one type upstream's Dot lowering takes.
LogicalResult expandMixedContract(vector::ContractionOp c) {
  Type acc = elementOf(c.getAccType());
  OpBuilder b(c);
  Location loc = c.getLoc();
  auto promote = [&](Value v) -> FailureOr<Value> {
    auto vt = cast<VectorType>(v.getType());
    Type e = vt.getElementType();
    if (e == acc)
      return v;
    auto to = vt.clone(acc);
    if (isa<FloatType>(e) && isa<FloatType>(acc) && e.getIntOrFloatBitWidth() < acc.getIntOrFloatBitWidth())
      return (Value)arith::ExtFOp::create(b, loc, to, v);
    if (isa<IntegerType>(e) && isa<IntegerType>(acc) && e.getIntOrFloatBitWidth() < acc.getIntOrFloatBitWidth())
      return (Value)arith::ExtSIOp::create(b, loc, to, v);
    return failure();
  };
  auto l = promote(c.getLhs()), r = promote(c.getRhs());
  if (failed(l) || failed(r))
    return c.emitOpError("cannot be lowered to amdgcn: operands wider than the accumulator or "
                         "of another kind");
  c.getLhsMutable().set(*l);
  c.getRhsMutable().set(*r);
  return success();
}

bool expandable(Operation *op) {
  if (isa<memref::CopyOp, memref::ReshapeOp, vector::ExpandLoadOp, vector::CompressStoreOp,
          vector::ScatterOp, gpu::RotateOp>(op))
    return true;
  if (auto c = dyn_cast<vector::ContractionOp>(op))
    return mixedContract(c);
  if (isa<gpu::ClusterIdOp, gpu::ClusterDimOp, gpu::ClusterBlockIdOp, gpu::ClusterDimBlocksOp>(op))
    return true; // an error below
  if (auto g = dyn_cast<memref::GetGlobalOp>(op)) {
    if (!isWorkgroup(g.getType().getMemorySpace()))
      return false;
    // One of the module's LDS (LowerModuleLds.cpp): lowered where used.
    auto glob = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(g, g.getNameAttr());
    return !(glob && glob->hasAttr("aster.lds_offset"));
  }
  return false;
}

Value idx(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

/// Whether `v` is (a view of) a memref.alloca: private memory, which only
/// memref.load / store reach (LowerMemory.cpp).
bool fromAlloca(Value v) {
  while (Operation *d = v.getDefiningOp()) {
    if (isa<memref::AllocaOp>(d))
      return true;
    auto view = dyn_cast<ViewLikeOpInterface>(d);
    if (!view)
      return false;
    v = view.getViewSource();
  }
  return false;
}

/// A row-major memref of type t as one of rank 1 (itself when it is).
Value collapseRowMajor(OpBuilder &b, Location loc, Value m, MemRefType t) {
  if (t.getRank() == 1)
    return m;
  SmallVector<ReassociationIndices> all(1);
  for (int64_t d = 0; d < t.getRank(); ++d)
    all[0].push_back(d);
  return memref::CollapseShapeOp::create(b, loc, m, all);
}

/// A copy between contiguous row-major memrefs of static shape in global or
/// workgroup memory, as 16-byte vector.load / vector.store pieces over the
/// memrefs collapsed to one dimension (a last piece of what is left): the
/// global_load_dwordx4 / global_store_dwordx4 LLVM's inline expansion of
/// the llvm.memcpy it makes of such a copy selects on gfx942.
bool copyAsVectors(OpBuilder &b, Location loc, memref::CopyOp c, MemRefType st, MemRefType dt) {
  Type e = st.getElementType();
  unsigned eb = memElementBytes(e);
  int64_t n = st.getNumElements();
  if (!eb || e != dt.getElementType() || n * eb < 8 || (n * eb) % 4 ||
      !memref::isStaticShapeAndContiguousRowMajor(st) ||
      !memref::isStaticShapeAndContiguousRowMajor(dt) || fromAlloca(c.getSource()) ||
      fromAlloca(c.getTarget()))
    return false;
  Value src = collapseRowMajor(b, loc, c.getSource(), st),
        dst = collapseRowMajor(b, loc, c.getTarget(), dt);
  int64_t per = 16 / eb;
  for (int64_t at = 0; at < n; at += per) {
    auto vt = VectorType::get({std::min(per, n - at)}, e);
    Value i = idx(b, loc, at);
    Value v = vector::LoadOp::create(b, loc, vt, src, ValueRange{i});
    vector::StoreOp::create(b, loc, v, dst, ValueRange{i});
  }
  return true;
}

/// A copy between row-major (identity layout) memrefs of dynamic shape in
/// global or workgroup memory: over the memrefs collapsed to one dimension
/// of n elements, an scf.for of 16-byte vector.load / vector.store pieces
/// up to n - n % per, then an scf.for of one element each for the rest.
/// MLIR's memref-to-llvm makes an llvm.memcpy of such a copy, which LLVM's
/// AMDGPU backend expands (LowerMemIntrinsics' loop for an unknown size) to
/// a loop of 16-byte global_load_dwordx4 / global_store_dwordx4 and a
/// residual loop.
bool copyDynamicAsVectors(OpBuilder &b, Location loc, memref::CopyOp c, MemRefType st,
                          MemRefType dt) {
  Type e = st.getElementType();
  unsigned eb = memElementBytes(e);
  if (!eb || eb > 16 || e != dt.getElementType() || st.hasStaticShape() ||
      !st.getLayout().isIdentity() || !dt.getLayout().isIdentity() ||
      fromAlloca(c.getSource()) || fromAlloca(c.getTarget()))
    return false;
  Value src = collapseRowMajor(b, loc, c.getSource(), st),
        dst = collapseRowMajor(b, loc, c.getTarget(), dt);
  int64_t per = 16 / eb;
  Value n = memref::DimOp::create(b, loc, src, 0);
  Value zero = idx(b, loc, 0), one = idx(b, loc, 1), step = idx(b, loc, per);
  Value rest = arith::RemUIOp::create(b, loc, n, step);
  Value whole = arith::SubIOp::create(b, loc, n, rest);
  {
    OpBuilder::InsertionGuard g(b);
    auto f = scf::ForOp::create(b, loc, zero, whole, step);
    b.setInsertionPoint(f.getBody()->getTerminator());
    auto vt = VectorType::get({per}, e);
    Value v = vector::LoadOp::create(b, loc, vt, src, ValueRange{f.getInductionVar()});
    vector::StoreOp::create(b, loc, v, dst, ValueRange{f.getInductionVar()});
  }
  auto t = scf::ForOp::create(b, loc, whole, n, one);
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPoint(t.getBody()->getTerminator());
  Value v = memref::LoadOp::create(b, loc, src, ValueRange{t.getInductionVar()});
  memref::StoreOp::create(b, loc, v, dst, ValueRange{t.getInductionVar()});
  return true;
}

LogicalResult expandCopy(memref::CopyOp c) {
  auto st = cast<MemRefType>(c.getSource().getType());
  auto dt = cast<MemRefType>(c.getTarget().getType());
  if (st.getRank() != dt.getRank())
    return c.emitOpError("cannot be lowered to amdgcn: memrefs of different ranks");
  OpBuilder b(c);
  Location loc = c.getLoc();
  int64_t rank = st.getRank();
  if (copyAsVectors(b, loc, c, st, dt) || copyDynamicAsVectors(b, loc, c, st, dt)) {
    c.erase();
    return success();
  }
  if (st.hasStaticShape() && st.getNumElements() <= 64) {
    for (int64_t e = 0; e < st.getNumElements(); ++e) {
      SmallVector<Value> ix(rank);
      int64_t r = e;
      for (int64_t d = rank - 1; d >= 0; --d) {
        ix[d] = idx(b, loc, r % st.getDimSize(d));
        r /= st.getDimSize(d);
      }
      Value v = memref::LoadOp::create(b, loc, c.getSource(), ix);
      memref::StoreOp::create(b, loc, v, c.getTarget(), ix);
    }
    c.erase();
    return success();
  }
  SmallVector<Value> ix;
  Value zero = idx(b, loc, 0), one = idx(b, loc, 1);
  for (int64_t d = 0; d < rank; ++d) {
    Value n = memref::DimOp::create(b, loc, c.getSource(), d);
    auto f = scf::ForOp::create(b, loc, zero, n, one);
    ix.push_back(f.getInductionVar());
    b.setInsertionPoint(f.getBody()->getTerminator());
  }
  Value v = memref::LoadOp::create(b, loc, c.getSource(), ix);
  memref::StoreOp::create(b, loc, v, c.getTarget(), ix);
  c.erase();
  return success();
}

LogicalResult expandReshape(memref::ReshapeOp r) {
  auto src = cast<MemRefType>(r.getSource().getType());
  auto res = cast<MemRefType>(r.getResult().getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(src.getStridesAndOffset(strides, offset)) ||
      !src.getLayout().isIdentity() || !res.getLayout().isIdentity())
    return r.emitOpError("cannot be lowered to amdgcn: only row-major (identity layout) "
                         "memrefs are reshaped");
  OpBuilder b(r);
  Location loc = r.getLoc();
  SmallVector<OpFoldResult> sizes(res.getRank()), outStrides(res.getRank());
  for (int64_t d = 0; d < res.getRank(); ++d) {
    if (!res.isDynamicDim(d)) {
      sizes[d] = b.getIndexAttr(res.getDimSize(d));
      continue;
    }
    Value s = memref::LoadOp::create(b, loc, r.getShape(), ValueRange{idx(b, loc, d)});
    if (!s.getType().isIndex())
      s = arith::IndexCastOp::create(b, loc, b.getIndexType(), s);
    sizes[d] = s;
  }
  OpFoldResult acc = b.getIndexAttr(1);
  for (int64_t d = res.getRank() - 1; d >= 0; --d) {
    outStrides[d] = acc;
    auto as = getConstantIntValue(acc), ss = getConstantIntValue(sizes[d]);
    if (as && ss)
      acc = b.getIndexAttr(*as * *ss);
    else
      acc = arith::MulIOp::create(b, loc, getValueOrCreateConstantIndexOp(b, loc, acc),
                                  getValueOrCreateConstantIndexOp(b, loc, sizes[d]))
                .getResult();
  }
  Value shape = r.getShape();
  auto cast = memref::ReinterpretCastOp::create(b, loc, res, r.getSource(),
                                                OpFoldResult(b.getIndexAttr(0)), sizes, outStrides);
  r.replaceAllUsesWith(cast.getResult());
  r.erase();
  // A shape alloca now only stored to: dead (SROA's deletion at -O3).
  if (auto a = shape.getDefiningOp<memref::AllocaOp>())
    if (llvm::all_of(a->getUsers(), [&](Operation *u) {
          auto s = dyn_cast<memref::StoreOp>(u);
          return s && s.getMemRef() == a.getResult();
        })) {
      for (Operation *u : llvm::make_early_inc_range(a->getUsers()))
        u->erase();
      a.erase();
    }
  return success();
}

/// The index of element `e` of the accessed run: base indices with the last
/// one moved by `add`.
SmallVector<Value> shifted(OpBuilder &b, Location loc, ValueRange base, Value add) {
  SmallVector<Value> ix(base.begin(), base.end());
  ix.back() = arith::AddIOp::create(b, loc, ix.back(), add);
  return ix;
}

LogicalResult expandExpandLoad(vector::ExpandLoadOp op) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  VectorType vt = op.getVectorType();
  Value n = idx(b, loc, 0), one = idx(b, loc, 1), zero = idx(b, loc, 0);
  SmallVector<Value> out;
  for (int64_t e = 0; e < vt.getNumElements(); ++e) {
    Value m = vector::ExtractOp::create(b, loc, op.getMask(), e);
    Value pass = vector::ExtractOp::create(b, loc, op.getPassThru(), e);
    auto ifOp = scf::IfOp::create(b, loc, TypeRange{vt.getElementType()}, m, true);
    {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
      Value v = memref::LoadOp::create(b, loc, op.getBase(), shifted(b, loc, op.getIndices(), n));
      scf::YieldOp::create(b, loc, v);
      b.setInsertionPointToStart(ifOp.elseBlock());
      scf::YieldOp::create(b, loc, pass);
    }
    out.push_back(ifOp.getResult(0));
    n = arith::AddIOp::create(b, loc, n, arith::SelectOp::create(b, loc, m, one, zero));
  }
  op.replaceAllUsesWith(vector::FromElementsOp::create(b, loc, vt, out).getResult());
  op.erase();
  return success();
}

LogicalResult expandCompressStore(vector::CompressStoreOp op) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  VectorType vt = cast<VectorType>(op.getValueToStore().getType());
  Value n = idx(b, loc, 0), one = idx(b, loc, 1), zero = idx(b, loc, 0);
  for (int64_t e = 0; e < vt.getNumElements(); ++e) {
    Value m = vector::ExtractOp::create(b, loc, op.getMask(), e);
    Value v = vector::ExtractOp::create(b, loc, op.getValueToStore(), e);
    auto ifOp = scf::IfOp::create(b, loc, TypeRange{}, m, false);
    {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
      memref::StoreOp::create(b, loc, v, op.getBase(), shifted(b, loc, op.getIndices(), n));
    }
    n = arith::AddIOp::create(b, loc, n, arith::SelectOp::create(b, loc, m, one, zero));
  }
  op.erase();
  return success();
}

LogicalResult expandScatter(vector::ScatterOp op) {
  auto mt = dyn_cast<MemRefType>(op.getBase().getType());
  if (!mt)
    return op.emitOpError("cannot be lowered to amdgcn: scatters into tensors are not lowered");
  OpBuilder b(op);
  Location loc = op.getLoc();
  VectorType vt = cast<VectorType>(op.getValueToStore().getType());
  if (vt.getRank() != 1)
    return op.emitOpError("cannot be lowered to amdgcn: only 1-D scatters are lowered");
  for (int64_t e = 0; e < vt.getNumElements(); ++e) {
    Value m = vector::ExtractOp::create(b, loc, op.getMask(), e);
    auto ifOp = scf::IfOp::create(b, loc, TypeRange{}, m, false);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
    Value v = vector::ExtractOp::create(b, loc, op.getValueToStore(), e);
    Value i = vector::ExtractOp::create(b, loc, op.getIndices(), e);
    if (!i.getType().isIndex())
      i = arith::IndexCastOp::create(b, loc, b.getIndexType(), i);
    memref::StoreOp::create(b, loc, v, op.getBase(), shifted(b, loc, op.getOffsets(), i));
  }
  op.erase();
  return success();
}

LogicalResult expandRotate(gpu::RotateOp op) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  uint32_t w = op.getWidth(), off = op.getOffset();
  Type i32 = b.getI32Type();
  auto c = [&](uint32_t v) {
    return arith::ConstantIntOp::create(b, loc, i32, (int64_t)(int32_t)v);
  };
  Value lane = arith::IndexCastOp::create(b, loc, i32, gpu::LaneIdOp::create(b, loc, IntegerAttr()));
  Value in = arith::AndIOp::create(b, loc, arith::AddIOp::create(b, loc, lane, c(off)), c(w - 1));
  Value group = arith::AndIOp::create(b, loc, lane, c(~(w - 1)));
  Value src = arith::OrIOp::create(b, loc, in, group);
  auto sh = gpu::ShuffleOp::create(b, loc, op.getValue(), src, c(64),
                                    gpu::ShuffleModeAttr::get(b.getContext(), gpu::ShuffleMode::IDX));
  Value valid = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, lane, c(w));
  op.getRotateResult().replaceAllUsesWith(sh.getShuffleResult());
  op.getValid().replaceAllUsesWith(valid);
  op.erase();
  return success();
}

/// Every get_global of a workgroup global in kernel `fn`: one workgroup
/// attribution of the kernel per global.
LogicalResult expandWorkgroupGlobals(gpu::GPUFuncOp fn, SmallVectorImpl<Operation *> &ops) {
  llvm::MapVector<StringAttr, Value> allocas;
  OpBuilder b(fn.getContext());
  for (Operation *op : ops) {
    auto g = cast<memref::GetGlobalOp>(op);
    if (!fn.isKernel())
      return g.emitOpError("cannot be lowered to amdgcn: a workgroup global is lowered in "
                           "kernels only (its LDS belongs to the kernel)");
    StringAttr name = g.getNameAttr().getAttr();
    Value &a = allocas[name];
    if (!a)
      a = fn.addWorkgroupAttribution(g.getType(), g.getLoc());
    if (a.getType() != g.getType())
      return g.emitOpError("cannot be lowered to amdgcn: the global is used with two types");
    g.replaceAllUsesWith(a);
    g.erase();
  }
  return success();
}

} // namespace

bool hasExpandableMem(gpu::GPUModuleOp gm) {
  return anyOpWhere(gm, expandable);
}

// LowerModuleLds.cpp: fixed LDS offsets of the workgroup globals functions use.
void placeModuleLds(gpu::GPUModuleOp gm);

LogicalResult expandMem(gpu::GPUModuleOp gm) {
  placeModuleLds(gm);
  SmallVector<Operation *> ops = opsWhere(gm, expandable);
  llvm::MapVector<gpu::GPUFuncOp, SmallVector<Operation *>> globals;
  bool ok = true;
  for (Operation *op : ops) {
    LogicalResult r = success();
    if (auto c = dyn_cast<memref::CopyOp>(op))
      r = expandCopy(c);
    else if (auto c = dyn_cast<memref::ReshapeOp>(op))
      r = expandReshape(c);
    else if (auto c = dyn_cast<vector::ExpandLoadOp>(op))
      r = expandExpandLoad(c);
    else if (auto c = dyn_cast<vector::CompressStoreOp>(op))
      r = expandCompressStore(c);
    else if (auto c = dyn_cast<vector::ScatterOp>(op))
      r = expandScatter(c);
    else if (auto c = dyn_cast<gpu::RotateOp>(op))
      r = expandRotate(c);
    else if (auto c = dyn_cast<vector::ContractionOp>(op))
      r = expandMixedContract(c);
    else if (!isa<memref::GetGlobalOp>(op))
      r = op->emitOpError("cannot be lowered to amdgcn: thread-block clusters are NVIDIA's "
                          "(sm_90+); gfx942 / gfx950 have none, and LLVM 22's "
                          "convert-gpu-to-rocdl does not lower the cluster ops either");
    else if (auto fn = op->getParentOfType<gpu::GPUFuncOp>())
      globals[fn].push_back(op);
    ok &= succeeded(r);
  }
  for (auto &[fn, gets] : globals)
    ok &= succeeded(expandWorkgroupGlobals(fn, gets));
  // Workgroup globals nothing refers to any more.
  for (auto g : llvm::make_early_inc_range(gm.getOps<memref::GlobalOp>()))
    if (isWorkgroup(g.getType().getMemorySpace()) &&
        SymbolTable::symbolKnownUseEmpty(g.getSymNameAttr(), gm))
      g.erase();
  return success(ok);
}

} // namespace aster::lower
