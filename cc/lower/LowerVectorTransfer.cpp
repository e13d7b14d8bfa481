//===- LowerVectorTransfer.cpp - vector loads, stores and transfers -------===//
//
// vector.load / store and in-bounds transfer_read / transfer_write: 32-bit
// words in chunks (LowerVectorUtil's loadWords / storeWords); out-of-bounds
// or masked transfers per element (LowerVectorUtil.h states the forms).
// Needs before: rank-0/1 vectors, minor-identity maps; whole 32-bit words
// of any element size memory ops lower (LLVM selects the same dword loads at
// any alignment on gfx942: unaligned access mode), or one 16-bit value
// (ushort / short); masked and out-of-bounds transfers on 4-byte elements. Guarantees after: the loaded vector
// in vecs; anything else an error naming what is missing.
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

/// Whether `vt` is moved to / from memref `mt` as whole 32-bit words (a
/// vector of 1, 2, 4 or 8-byte elements filling them; rank 0 is one
/// element), or as one 16-bit value (`half`: vector<2xi8>, vector<1xf16>,
/// global_load_ushort as LLVM selects for <2 x i8>); `words`: 4-byte
/// elements only (the per-element transfers).
LogicalResult checkMem(KernelLowering &L, Operation *op, MemRefType mt, VectorType vt,
                       bool words = true, bool *half = nullptr) {
  unsigned eb = memElementBytes(mt.getElementType());
  if (words ? elemBits(mt.getElementType()) != 32 : !eb)
    return L.unsupported(op, words ? "masked or out-of-bounds vector transfers are lowered "
                                     "on memrefs of 4-byte elements"
                                   : "vector memory accesses are lowered on memrefs of f16, "
                                     "bf16, f32, f64, i8, i16, i32, i64 elements");
  if (vt.getRank() > 1)
    return L.unsupported(op, "only vectors of rank 0 and 1 are loaded and stored");
  unsigned bits = (unsigned)vt.getNumElements() * elemBits(vt.getElementType());
  if (half && bits == 16) {
    *half = true;
    return success();
  }
  if (bits % 32)
    return L.unsupported(op, "the vector is not a whole number of 32-bit words (or 16 bits)");
  return success();
}

/// Known byte alignment of memref[idx] relative to its base (any element
/// size: knownByteAlign counts 4-byte elements).
uint64_t byteAlign(MemRefType mt, ValueRange idx) {
  return knownByteAlign(mt, idx) / 4 * memElementBytes(mt.getElementType());
}

/// One 16-bit value at byte offset `off` (global_load_ushort / ds_read_u16;
/// stores global_store_short / ds_write_b16), LowerMemory's forms.
RV loadHalf(KernelLowering &L, Value base, RV off) {
  SmallVector<NamedAttribute> attrs;
  Value voff = L.memOffset(off, !base, attrs);
  if (base)
    return RV::of(RV::V, L.inst("global_load_ushort", L.vT, {voff, base}, attrs));
  return RV::of(RV::V, L.inst("ds_read_u16", L.vT, {voff}, attrs));
}
void storeHalf(KernelLowering &L, Value base, RV off, RV v) {
  SmallVector<NamedAttribute> attrs;
  Value voff = L.memOffset(off, !base, attrs);
  Value data = L.toV(v);
  if (base)
    L.inst("global_store_short", {}, {voff, data, base}, attrs);
  else
    L.inst("ds_write_b16", {}, {voff, data}, attrs);
}

/// 32-bit words of `vt`.
unsigned wordsOf(VectorType vt) {
  return (unsigned)vt.getNumElements() * elemBits(vt.getElementType()) / 32;
}

/// The memref's size in dimension `d` as an RV.
FailureOr<RV> dimSize(KernelLowering &L, Operation *op, Value memref, unsigned d) {
  auto m = L.memrefOf(op, memref);
  if (failed(m))
    return failure();
  return L.memrefSize(*m, d);
}

/// Byte stride of the minor dimension of `memref` (4-byte elements) as an RV.
FailureOr<RV> minorByteStride(KernelLowering &L, Operation *op, Value memref) {
  auto m = L.memrefOf(op, memref);
  if (failed(m))
    return failure();
  return L.shl(L.memrefStride(*m, m->type.getRank() - 1), RV::imm(2));
}


/// Whether element `e` of a transfer starting at index `i0` along a
/// dimension of `size` is read/written: in bounds (unless the transfer is
/// known in bounds) and set in `mask` (when there is one). An immediate when
/// known.
FailureOr<RV> elementValid(KernelLowering &L, Operation *op, RV i0, RV size,
                                  bool inBounds, ArrayRef<RV> mask, int64_t e) {
  RV valid = RV::imm(1);
  if (!inBounds) {
    auto v = scalarOp(L, op->getLoc(), "arith.cmpi", {L.add(i0, RV::imm(e)), size},
                      {L.b.getIndexType(), L.b.getIndexType()}, L.b.getI1Type(),
                      {L.b.getNamedAttr("predicate", arith::CmpIPredicateAttr::get(
                                                         L.ctx, arith::CmpIPredicate::slt))});
    if (failed(v))
      return failure();
    valid = *v;
  }
  if (mask.empty())
    return valid;
  if (valid.k == RV::Imm)
    return valid.bits ? mask[e] : valid;
  return scalarOp(L, op->getLoc(), "arith.andi", {valid, mask[e]},
                  {L.b.getI1Type(), L.b.getI1Type()}, L.b.getI1Type(), {});
}

/// What a transfer that may leave its memref's minor dimension needs per
/// element: the mask's lanes (empty without one), the dimension's size, its
/// byte stride and the transfer's first index in it.
struct TransferEdge {
  SmallVector<RV> mask;
  RV size, stride, i0;
};

FailureOr<TransferEdge> edgeOf(KernelLowering &L, Operation *op, MemRefType mt, Value base,
                               ValueRange indices, Value maskValue) {
  TransferEdge t;
  if (maskValue) {
    auto m = getVec(L, maskValue);
    if (failed(m))
      return failure();
    t.mask = *m;
  }
  unsigned d = mt.getRank() - 1;
  auto size = dimSize(L, op, base, d);
  auto stride = minorByteStride(L, op, base);
  auto i0 = L.get(indices[d]);
  if (failed(size) || failed(stride) || failed(i0))
    return failure();
  t.size = *size;
  t.stride = *stride;
  t.i0 = *i0;
  return t;
}

LogicalResult lowerVectorTransfer(KernelLowering &L, Operation *op) {
  // ---- memory -------------------------------------------------------------
  if (auto ld = dyn_cast<vector::LoadOp>(op)) {
    auto vt = ld.getVectorType();
    bool half = false;
    if (failed(checkMem(L, op, ld.getMemRefType(), vt, false, &half)))
      return failure();
    auto a = L.address(op, ld.getBase(), ld.getIndices());
    if (failed(a))
      return failure();
    if (half) {
      L.vecs[ld] = {loadHalf(L, a->first, a->second)};
      return success();
    }
    L.vecs[ld] = loadWords(L, a->first, a->second, wordsOf(vt),
                           byteAlign(ld.getMemRefType(), ld.getIndices()),
                           elemBits(vt.getElementType()) == 32 &&
                               isa<FloatType>(vt.getElementType()));
    return success();
  }
  if (auto st = dyn_cast<vector::StoreOp>(op)) {
    auto vt = st.getVectorType();
    bool half = false;
    if (failed(checkMem(L, op, st.getMemRefType(), vt, false, &half)))
      return failure();
    auto a = L.address(op, st.getBase(), st.getIndices());
    auto v = getVec(L, st.getValueToStore());
    if (failed(a) || failed(v))
      return failure();
    if (half) {
      storeHalf(L, a->first, a->second, (*v)[0]);
      return success();
    }
    storeWords(L, a->first, a->second, *v, byteAlign(st.getMemRefType(), st.getIndices()));
    return success();
  }
  if (auto tr = dyn_cast<vector::TransferReadOp>(op)) {
    auto vt = tr.getVectorType();
    auto mt = dyn_cast<MemRefType>(tr.getBase().getType());
    if (!mt)
      return L.unsupported(op, "transfers from tensors are not lowered (bufferize first)");
    bool inBounds = tr.getInBoundsValues().empty() || tr.getInBoundsValues()[0];
    bool direct = inBounds && !tr.getMask();
    if (failed(checkMem(L, op, mt, vt, !direct)))
      return failure();
    if (!tr.getPermutationMap().isMinorIdentity())
      return L.unsupported(op, "only minor-identity permutation maps are lowered");
    auto a = L.address(op, tr.getBase(), tr.getIndices());
    if (failed(a))
      return failure();
    bool fl = elemBits(vt.getElementType()) == 32 && isa<FloatType>(vt.getElementType());
    uint64_t align = byteAlign(mt, tr.getIndices());
    if (direct) {
      L.vecs[tr] = loadWords(L, a->first, a->second, wordsOf(vt), align, fl);
      return success();
    }
    auto pad = L.get(tr.getPadding());
    if (failed(pad))
      return failure();
    auto ed = edgeOf(L, op, mt, tr.getBase(), tr.getIndices(), tr.getMask());
    if (failed(ed))
      return failure();
    auto [mask, size, stride, i0] = *ed;
    SmallVector<RV> out;
    for (int64_t e = 0; e < vt.getNumElements(); ++e) {
      auto validOr = elementValid(L, op, i0, size, inBounds, mask, e);
      if (failed(validOr))
        return failure();
      RV valid = *validOr;
      if (valid.k == RV::Imm && !valid.bits) {
        out.push_back(*pad);
        continue;
      }
      RV off = L.add(a->second, L.mul(stride, RV::imm(e)));
      if (valid.k == RV::Imm) {
        out.push_back(loadWords(L, a->first, off, 1, 4, fl)[0]);
        continue;
      }
      // Clamped: an invalid lane reads offset 0 of the memref.
      Value m = L.toMask(valid);
      Value safe = L.inst("v_cndmask_b32", L.vT, L.vOps({RV::imm(0), RV::of(RV::V, L.toV(off)),
                                                         RV::of(RV::Mask, m)}));
      RV loaded = loadWords(L, a->first, RV::of(RV::V, safe), 1, 4, fl)[0];
      out.push_back(RV::of(RV::V, L.inst("v_cndmask_b32", L.vT,
                                         L.vOps({*pad, loaded, RV::of(RV::Mask, m)})),
                           fl));
    }
    L.vecs[tr] = out;
    return success();
  }
  if (auto tw = dyn_cast<vector::TransferWriteOp>(op)) {
    auto vt = tw.getVectorType();
    auto mt = dyn_cast<MemRefType>(tw.getBase().getType());
    if (!mt)
      return L.unsupported(op, "transfers to tensors are not lowered (bufferize first)");
    bool inBounds = tw.getInBoundsValues().empty() || tw.getInBoundsValues()[0];
    bool direct = inBounds && !tw.getMask();
    if (failed(checkMem(L, op, mt, vt, !direct)))
      return failure();
    if (!tw.getPermutationMap().isMinorIdentity())
      return L.unsupported(op, "only minor-identity permutation maps are lowered");
    auto a = L.address(op, tw.getBase(), tw.getIndices());
    auto v = getVec(L, tw.getVector());
    if (failed(a) || failed(v))
      return failure();
    uint64_t align = byteAlign(mt, tw.getIndices());
    if (direct) {
      storeWords(L, a->first, a->second, *v, align);
      return success();
    }
    auto ed = edgeOf(L, op, mt, tw.getBase(), tw.getIndices(), tw.getMask());
    if (failed(ed))
      return failure();
    auto [mask, size, stride, i0] = *ed;
    for (int64_t e = 0; e < vt.getNumElements(); ++e) {
      auto validOr = elementValid(L, op, i0, size, inBounds, mask, e);
      if (failed(validOr))
        return failure();
      RV valid = *validOr;
      if (valid.k == RV::Imm && !valid.bits)
        continue;
      RV off = L.add(a->second, L.mul(stride, RV::imm(e)));
      if (valid.k == RV::Imm) {
        storeWords(L, a->first, off, {(*v)[e]}, 4);
        continue;
      }
      // Only the lanes whose element is valid store it.
      Value saved = L.inst("s_and_saveexec_b64", L.s2T, L.toMask(valid));
      storeWords(L, a->first, off, {(*v)[e]}, 4);
      L.inst("s_mov_b64", L.execT, saved);
    }
    return success();
  }
  return L.unsupported(op);
}

} // namespace

void populateVectorTransferLowering(LoweringTable &table) {
  table.addOps<vector::LoadOp, vector::StoreOp, vector::TransferReadOp,
               vector::TransferWriteOp>(lowerVectorTransfer);
}

} // namespace aster::lower
