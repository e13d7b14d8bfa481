//===- LowerVectorCarries.cpp - scf.for / scf.if carrying vectors ---------===//
//
// scf.for loops whose iteration arguments are vectors, and scf.if ops
// yielding vectors, are rewritten (upstream
// IR in, upstream IR out, before the kernel's Uniformity is computed) to
// carry the vector's 32-bit words as scalars: vector.bitcast to i32 words
// where the elements are not 32-bit, vector.extract per word at the yield,
// vector.from_elements (+ bitcast back) at the uses: moves, no code.
// Needs before: vectors of whole 32-bit words. Guarantees after: no scf.for
// carries and no scf.if (with an else) yields such a vector (others are left
// as they are).
//===----------------------------------------------------------------------===//
#include "lower/LowerVectorUtil.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace aster::lower {

using namespace vec;

namespace {

/// The 32-bit words of vector `v` as scalars (i32, or f32 when the elements
/// are f32 / i32 / index of 32 bits: kept as they are).
SmallVector<Value> splitWords(OpBuilder &b, Location loc, Value v) {
  auto vt = cast<VectorType>(v.getType());
  unsigned bits = elemBits(vt.getElementType());
  Value w = v;
  if (bits != 32 || vt.getRank() != 1) {
    auto flat = VectorType::get({vt.getNumElements()}, vt.getElementType());
    if (vt.getRank() != 1)
      w = vector::ShapeCastOp::create(b, loc, flat, w);
    if (bits != 32)
      w = vector::BitCastOp::create(
          b, loc, VectorType::get({(int64_t)numWords(vt)}, b.getI32Type()), w);
  }
  SmallVector<Value> out;
  for (int64_t i = 0; i < cast<VectorType>(w.getType()).getNumElements(); ++i)
    out.push_back(vector::ExtractOp::create(b, loc, w, ArrayRef<int64_t>{i}));
  return out;
}

Value joinWords(OpBuilder &b, Location loc, VectorType vt, ValueRange words) {
  unsigned bits = elemBits(vt.getElementType());
  Type wt = words.front().getType();
  Value v = vector::FromElementsOp::create(
      b, loc, VectorType::get({(int64_t)words.size()}, wt), words);
  if (bits != 32)
    v = vector::BitCastOp::create(
        b, loc, VectorType::get({vt.getNumElements()}, vt.getElementType()), v);
  if (vt.getRank() != 1)
    v = vector::ShapeCastOp::create(b, loc, vt, v);
  return v;
}

bool carriable(Type t) {
  auto vt = dyn_cast<VectorType>(t);
  if (!vt)
    return false;
  unsigned bits = elemBits(vt.getElementType());
  return bits != 1 && (bits * vt.getNumElements()) % 32 == 0;
}

/// scf.for with vector iter_args -> the same loop carrying the words.
void scalarizeFor(scf::ForOp op) {
  if (!llvm::any_of(op.getInitArgs(), [](Value v) { return carriable(v.getType()); }))
    return;
  OpBuilder b(op);
  Location loc = op.getLoc();
  SmallVector<Value> inits;
  SmallVector<unsigned> count;
  for (Value v : op.getInitArgs()) {
    if (carriable(v.getType())) {
      auto ws = splitWords(b, loc, v);
      count.push_back(ws.size());
      inits.append(ws);
    } else {
      count.push_back(0);
      inits.push_back(v);
    }
  }
  auto nf = scf::ForOp::create(b, loc, op.getLowerBound(), op.getUpperBound(), op.getStep(),
                               inits);
  Block *nb = nf.getBody();
  if (!nb->empty() && isa<scf::YieldOp>(nb->back()))
    nb->back().erase();
  // Body: rebuild the vectors from the word arguments, then the old body.
  OpBuilder bb = OpBuilder::atBlockBegin(nb);
  SmallVector<Value> argMap{nf.getInductionVar()};
  unsigned k = 0;
  for (auto [i, old] : llvm::enumerate(op.getRegionIterArgs())) {
    if (count[i]) {
      argMap.push_back(joinWords(bb, loc, cast<VectorType>(old.getType()),
                                 nf.getRegionIterArgs().slice(k, count[i])));
      k += count[i];
    } else {
      argMap.push_back(nf.getRegionIterArgs()[k++]);
    }
  }
  Block *ob = op.getBody();
  for (auto [o, n] : llvm::zip(ob->getArguments(), argMap))
    o.replaceAllUsesWith(n);
  nb->getOperations().splice(nb->end(), ob->getOperations());
  auto y = cast<scf::YieldOp>(nb->getTerminator());
  OpBuilder yb(y);
  SmallVector<Value> ys;
  for (auto [i, v] : llvm::enumerate(y.getOperands())) {
    if (count[i])
      ys.append(splitWords(yb, loc, v));
    else
      ys.push_back(v);
  }
  scf::YieldOp::create(yb, loc, ys);
  y.erase();
  // Results.
  b.setInsertionPointAfter(nf);
  k = 0;
  for (auto [i, r] : llvm::enumerate(op.getResults())) {
    if (count[i]) {
      r.replaceAllUsesWith(joinWords(b, loc, cast<VectorType>(r.getType()),
                                     nf.getResults().slice(k, count[i])));
      k += count[i];
    } else {
      r.replaceAllUsesWith(nf.getResult(k++));
    }
  }
  op.erase();
}

/// scf.if yielding vectors -> the same if yielding their words (e.g. the
/// conditional loads upstream's gather and masked-load rewrites build).
void scalarizeIf(scf::IfOp op) {
  if (!llvm::any_of(op.getResultTypes(), carriable) || op.getElseRegion().empty())
    return;
  Location loc = op.getLoc();
  SmallVector<unsigned> count;
  SmallVector<Type> types;
  for (Region *r : {&op.getThenRegion(), &op.getElseRegion()}) {
    auto y = cast<scf::YieldOp>(r->front().getTerminator());
    OpBuilder yb(y);
    SmallVector<Value> ys;
    bool first = r == &op.getThenRegion();
    for (Value v : y.getOperands()) {
      if (carriable(v.getType())) {
        auto ws = splitWords(yb, loc, v);
        if (first) {
          count.push_back(ws.size());
          for (Value w : ws)
            types.push_back(w.getType());
        }
        ys.append(ws);
      } else {
        if (first) {
          count.push_back(0);
          types.push_back(v.getType());
        }
        ys.push_back(v);
      }
    }
    scf::YieldOp::create(yb, loc, ys);
    y.erase();
  }
  OpBuilder b(op);
  auto ni = scf::IfOp::create(b, loc, types, op.getCondition(), false, false);
  ni.getThenRegion().takeBody(op.getThenRegion());
  ni.getElseRegion().takeBody(op.getElseRegion());
  b.setInsertionPointAfter(ni);
  unsigned k = 0;
  for (auto [i, r] : llvm::enumerate(op.getResults())) {
    if (count[i]) {
      r.replaceAllUsesWith(joinWords(b, loc, cast<VectorType>(r.getType()),
                                     ni.getResults().slice(k, count[i])));
      k += count[i];
    } else {
      r.replaceAllUsesWith(ni.getResult(k++));
    }
  }
  op.erase();
}

} // namespace

void scalarizeVectorCarries(gpu::GPUFuncOp fn) {
  SmallVector<scf::ForOp> fors;
  fn.walk([&](scf::ForOp f) { fors.push_back(f); });
  for (scf::ForOp f : fors)   // post-order: inner loops first
    scalarizeFor(f);
  SmallVector<scf::IfOp> ifs;
  fn.walk([&](scf::IfOp f) { ifs.push_back(f); });
  for (scf::IfOp f : ifs)
    scalarizeIf(f);
}


} // namespace aster::lower
