//===- LowerMemPairs.cpp - adjacent 32-bit loads / stores as one access ---===//
//
// Two memref.load (memref.store) of 32-bit elements of one memref in one
// block, at the same indices but the last, the second's last index the
// first's plus 1, with no op between them that writes memory (for loads)
// or touches memory at all (for stores), become one vector.load of
// vector<2xT> (vector.store of vector.from_elements): global_load_dwordx2 /
// global_store_dwordx2 (ds_read_b64 where 8-byte alignment is known), as
// LLVM's LoadStoreVectorizer merges the two accesses of its build (llc-22
// -mcpu=gfx942 on the i64 kernels of lower_suite_arith.py, which read and
// write an i64 as two i32 elements).
//
// Upstream IR in, upstream IR out (before the function's Uniformity); the
// memref's innermost stride must be 1 and its memory not private (vector
// accesses do not reach scratch).
// Needs before: a structured body. Guarantees after: the same values
// loaded and stored, in the order of the block's other memory accesses.
//===----------------------------------------------------------------------===//
#include "lower/KernelLowering.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace aster::lower {

namespace {

std::optional<int64_t> constIndex(Value v) {
  if (auto c = v.getDefiningOp<arith::ConstantOp>())
    if (auto i = dyn_cast<IntegerAttr>(c.getValue()))
      return i.getInt();
  return std::nullopt;
}

/// Whether index `b` is index `a` plus 1.
bool nextIndex(Value a, Value b) {
  auto ca = constIndex(a), cb = constIndex(b);
  if (ca && cb)
    return *cb == *ca + 1;
  auto add = b.getDefiningOp<arith::AddIOp>();
  if (!add)
    return false;
  for (auto [x, y] : {std::pair{add.getLhs(), add.getRhs()}, std::pair{add.getRhs(), add.getLhs()}})
    if (x == a && constIndex(y) == 1)
      return true;
  return false;
}

/// Whether memref `v` may be merged into vector accesses.
bool mergeable(Value v) {
  auto mt = dyn_cast<MemRefType>(v.getType());
  if (!mt || mt.getRank() == 0 || !mt.getElementType().isIntOrFloat() ||
      mt.getElementType().getIntOrFloatBitWidth() != 32)
    return false;
  if (auto as = dyn_cast_or_null<gpu::AddressSpaceAttr>(mt.getMemorySpace());
      as && as.getValue() == gpu::AddressSpace::Private)
    return false;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(mt.getStridesAndOffset(strides, offset)) || strides.back() != 1)
    return false;
  for (Operation *d = v.getDefiningOp(); d;) {
    if (isa<memref::AllocaOp>(d))
      return false;
    auto view = dyn_cast<ViewLikeOpInterface>(d);
    if (!view)
      break;
    d = view.getViewSource().getDefiningOp();
  }
  return true;
}

/// Whether `op` may touch memory: writes (`writesOnly`) or any access.
bool touches(Operation *op, bool writesOnly) {
  if (op->getNumRegions() || isa<gpu::BarrierOp>(op))
    return true;
  auto mem = dyn_cast<MemoryEffectOpInterface>(op);
  if (!mem)
    return !isPure(op);
  SmallVector<MemoryEffects::EffectInstance> effects;
  mem.getEffects(effects);
  for (auto &e : effects) {
    if (isa<MemoryEffects::Allocate, MemoryEffects::Free>(e.getEffect()))
      continue;
    if (!writesOnly || isa<MemoryEffects::Write>(e.getEffect()))
      return true;
  }
  return false;
}

/// The access after `first` in its block that pairs with it, if any.
template <typename Op> Op partner(Op first, bool isLoad) {
  ValueRange ia = first.getIndices();
  for (Operation *op = first->getNextNode(); op; op = op->getNextNode()) {
    if (auto second = dyn_cast<Op>(op); second && second.getMemRef() == first.getMemRef()) {
      ValueRange ib = second.getIndices();
      bool same = ia.size() == ib.size();
      for (unsigned i = 0; same && i + 1 < ia.size(); ++i)
        same = ia[i] == ib[i];
      if (same && nextIndex(ia.back(), ib.back()))
        return second;
    }
    if (touches(op, isLoad))
      return {};
  }
  return {};
}

void mergeBlock(Block &blk) {
  for (Operation *op = &blk.front(); op;) {
    Operation *next = op->getNextNode();
    if (auto ld = dyn_cast<memref::LoadOp>(op); ld && mergeable(ld.getMemRef())) {
      if (auto b = partner(ld, true)) {
        OpBuilder bld(ld);
        auto vt = VectorType::get({2}, ld.getType());
        Value v = vector::LoadOp::create(bld, ld.getLoc(), vt, ld.getMemRef(), ld.getIndices());
        ld.replaceAllUsesWith(vector::ExtractOp::create(bld, ld.getLoc(), v, 0).getResult());
        b.replaceAllUsesWith(vector::ExtractOp::create(bld, ld.getLoc(), v, 1).getResult());
        if (next == b.getOperation())
          next = b->getNextNode();
        b.erase();
        ld.erase();
      }
    } else if (auto st = dyn_cast<memref::StoreOp>(op); st && mergeable(st.getMemRef())) {
      if (auto b = partner(st, false)) {
        OpBuilder bld(b);
        auto vt = VectorType::get({2}, st.getValueToStore().getType());
        Value v = vector::FromElementsOp::create(
            bld, b.getLoc(), vt, ValueRange{st.getValueToStore(), b.getValueToStore()});
        vector::StoreOp::create(bld, b.getLoc(), v, st.getMemRef(), st.getIndices());
        if (next == b.getOperation())
          next = b->getNextNode();
        b.erase();
        st.erase();
      }
    }
    op = next;
  }
}

} // namespace

void mergeAdjacentAccesses(gpu::GPUFuncOp fn) {
  SmallVector<Block *> blocks;
  fn.walk([&](Block *b) { blocks.push_back(b); });
  for (Block *b : blocks)
    if (!b->empty())
      mergeBlock(*b);
}

} // namespace aster::lower
