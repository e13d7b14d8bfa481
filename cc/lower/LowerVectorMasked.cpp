//===- LowerVectorMasked.cpp - per-element and odd-sized vector accesses --===//
//
// The vector memory accesses that are not whole 32-bit words moved in
// chunks (LowerVectorTransfer.cpp takes those):
//
//   odd sizes       a vector of N bytes that is not a multiple of 4
//                   (vector<3xi8>, vector<3xf16>, vector<5xi8>, vector<1xi8>,
//                   vector<2xi8>): the whole words first (LowerVectorUtil's
//                   loadWords / storeWords), then a 16-bit piece and / or a
//                   byte: 3 bytes = global_load_ushort + global_load_ubyte
//                   at +2 (LDS ds_read_u16 + ds_read_u8), 6 = dword +
//                   ushort, 5 = dword + ubyte, as llc-22 -mcpu=gfx942
//                   splits <3 x i8> / <3 x half> / <5 x i8> at align 1 / 2
//                   (its output for those loads and stores: the lit test
//                   tests/lit/lower/vector-masked-narrow.mlir lists it). The
//                   tail word is ushort | ubyte << 16 (v_lshl_or_b32); a
//                   store writes its low half with global_store_short and
//                   byte 2 with global_store_byte_d16_hi (ds_write_b8_d16_hi).
//   per element     out-of-bounds or masked transfer_read / transfer_write
//                   of any element size memory ops lower (1, 2, 4, 8
//                   bytes): element e at byte i0 + e * stride * bytes is
//                   loaded with the element's own instruction
//                   (global_load_ubyte / ushort / dword / dwordx2, ds_read_u8
//                   ... b64); a lane whose element is out of bounds (index >=
//                   the minor dimension's size) or masked off loads offset 0
//                   of the memref instead (clamped: the memref must not be
//                   empty) and takes the padding (v_cndmask_b32 per dword);
//                   the elements are then packed as the vector is held
//                   (LowerVectorUtil.h). A write stores each element under
//                   EXEC &= valid (s_and_saveexec_b64, EXEC restored). LLVM
//                   builds the same transfers as llvm.masked.load / store
//                   that its ScalarizeMaskedMemIntrin turns into a branch
//                   per element: the same elements read and written.
//
// Needs before: the memref and indices lowered (address()), the mask and
// the vector to store in vecs; rank-1 transfers along the minor dimension.
// Guarantees after: the loaded vector in vecs in the held form; anything
// else an error naming what is missing.
//===----------------------------------------------------------------------===//
#include "lower/LowerVectorUtil.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace aster::lower {

std::string memMnemonic(bool store, unsigned bytes, bool global, bool lds);

namespace vec {

namespace {

/// One load / store of `bytes` (1, 2) bytes at byte offset `off`.
RV loadPiece(KernelLowering &L, Value base, RV off, unsigned bytes) {
  return RV::of(RV::V, memAccess(L, memMnemonic(false, bytes, true, false),
                                 memMnemonic(false, bytes, false, true), L.vT, base, off, {}));
}

void storePiece(KernelLowering &L, Value base, RV off, Value data, StringRef global,
                StringRef lds) {
  memAccess(L, global, lds, {}, base, off, data);
}

} // namespace

SmallVector<RV> loadBytes(KernelLowering &L, Value base, RV off, unsigned bytes, uint64_t align,
                          bool isFloat) {
  SmallVector<RV> out = loadWords(L, base, off, bytes / 4, align, isFloat);
  unsigned rem = bytes % 4;
  if (!rem)
    return out;
  RV at = L.add(off, RV::imm(bytes & ~3u));
  if (rem == 1 || rem == 2) {
    out.push_back(loadPiece(L, base, at, rem));
    return out;
  }
  RV lo = loadPiece(L, base, at, 2);
  RV hi = loadPiece(L, base, L.add(at, RV::imm(2)), 1);
  out.push_back(L.valu("v_lshl_or_b32", {hi, RV::imm(16), lo}, false));
  return out;
}

void storeBytes(KernelLowering &L, Value base, RV off, ArrayRef<RV> words, unsigned bytes,
                uint64_t align) {
  storeWords(L, base, off, words.take_front(bytes / 4), align);
  unsigned rem = bytes % 4;
  if (!rem)
    return;
  RV at = L.add(off, RV::imm(bytes & ~3u));
  Value tail = L.toV(words[bytes / 4]);
  if (rem == 1)
    return storePiece(L, base, at, tail, "global_store_byte", "ds_write_b8");
  storePiece(L, base, at, tail, "global_store_short", "ds_write_b16");
  if (rem == 3)
    storePiece(L, base, L.add(at, RV::imm(2)), tail, "global_store_byte_d16_hi",
               "ds_write_b8_d16_hi");
}

namespace {

/// Whether element `e` of a transfer starting at index `i0` along a
/// dimension of `size` is read / written: in bounds (unless the transfer is
/// known in bounds) and set in `mask` (when there is one). An immediate when
/// known.
FailureOr<RV> elementValid(KernelLowering &L, Operation *op, RV i0, RV size, bool inBounds,
                           ArrayRef<RV> mask, int64_t e) {
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
/// element: the mask's lanes (empty without one), the dimension's size, the
/// byte stride of its elements and the transfer's first index in it.
struct Edge {
  SmallVector<RV> mask;
  RV size, stride, i0;
};

FailureOr<Edge> edgeOf(KernelLowering &L, Operation *op, MemRefType mt, Value memref,
                       ValueRange indices, Value maskValue) {
  Edge t;
  if (maskValue) {
    auto m = getVec(L, maskValue);
    if (failed(m))
      return failure();
    t.mask = *m;
  }
  auto m = L.memrefOf(op, memref);
  auto i0 = L.get(indices.back());
  if (failed(m) || failed(i0))
    return failure();
  unsigned d = mt.getRank() - 1;
  t.size = L.memrefSize(*m, d);
  t.stride = L.shl(L.memrefStride(*m, d),
                   RV::imm(llvm::Log2_32(memElementBytes(mt.getElementType()))));
  t.i0 = *i0;
  return t;
}

/// v_cndmask_b32 of one dword: `a` where `m` is set, else `b`.
RV select(KernelLowering &L, Value m, RV a, RV b) {
  return RV::of(RV::V, L.inst("v_cndmask_b32", L.vT, L.vOps({b, a, RV::of(RV::Mask, m)})),
                a.isFloat);
}

} // namespace

LogicalResult transferPerElement(KernelLowering &L, Operation *op) {
  auto tr = dyn_cast<vector::TransferReadOp>(op);
  auto tw = dyn_cast<vector::TransferWriteOp>(op);
  Value memref = tr ? tr.getBase() : tw.getBase();
  auto mt = cast<MemRefType>(memref.getType());
  VectorType vt = tr ? tr.getVectorType() : tw.getVectorType();
  ValueRange indices = tr ? tr.getIndices() : tw.getIndices();
  unsigned eb = memElementBytes(mt.getElementType());
  if (!eb || eb * 8 != elemBits(vt.getElementType()))
    return L.unsupported(op, "masked or out-of-bounds transfers are lowered on memrefs of f16, "
                             "bf16, f32, f64, i8, i16, i32, i64 elements of the vector's type");
  if (vt.getRank() != 1)
    return L.unsupported(op, "only vectors of rank 1 are transferred element by element");
  auto inb = tr ? tr.getInBoundsValues() : tw.getInBoundsValues();
  bool inBounds = inb.empty() || inb[0];
  auto a = L.address(op, memref, indices, /*allowPrivate=*/false, /*allowFlat=*/true);
  if (failed(a))
    return failure();
  auto ed = edgeOf(L, op, mt, memref, indices, tr ? tr.getMask() : tw.getMask());
  if (failed(ed))
    return failure();
  Value base = a->first;
  RV off0 = a->second, stride = ed->stride;
  bool fl = eb == 4 && isa<FloatType>(vt.getElementType());
  auto offsetOf = [&](int64_t e) { return L.add(off0, L.mul(stride, RV::imm(e))); };
  if (tr) {
    auto pad = L.get(tr.getPadding());
    if (failed(pad))
      return failure();
    SmallVector<RV> elems;
    for (int64_t e = 0; e < vt.getNumElements(); ++e) {
      auto validOr = elementValid(L, op, ed->i0, ed->size, inBounds, ed->mask, e);
      if (failed(validOr))
        return failure();
      RV valid = *validOr;
      if (valid.k == RV::Imm && !valid.bits) {
        elems.push_back(*pad);
        continue;
      }
      RV off = offsetOf(e);
      Value m;
      if (valid.k != RV::Imm) { // clamped: an invalid lane reads offset 0
        m = L.toMask(valid);
        off = select(L, m, RV::of(RV::V, L.toV(off)), RV::imm(0));
      }
      Type rt = eb == 8 ? L.v2T : L.vT;
      Value r = memAccess(L, memMnemonic(false, eb, true, false), memMnemonic(false, eb, false, true),
                          rt, base, off, {});
      RV x = eb == 8 ? L.fromV64(r) : RV::of(RV::V, r, fl);
      if (m)
        x = eb == 8 ? L.pair(select(L, m, KernelLowering::lo(x), KernelLowering::lo(*pad)),
                             select(L, m, KernelLowering::hi(x), KernelLowering::hi(*pad)))
                    : select(L, m, x, *pad);
      elems.push_back(x);
    }
    L.vecs[tr] = packElements(L, vt, elems);
    return success();
  }
  auto elems = elementsOf(L, op, tw.getVector());
  if (failed(elems))
    return failure();
  for (int64_t e = 0; e < vt.getNumElements(); ++e) {
    auto validOr = elementValid(L, op, ed->i0, ed->size, inBounds, ed->mask, e);
    if (failed(validOr))
      return failure();
    RV valid = *validOr;
    if (valid.k == RV::Imm && !valid.bits)
      continue;
    Value saved;
    if (valid.k != RV::Imm) // only the lanes whose element is valid store it
      saved = L.inst("s_and_saveexec_b64", L.s2T, L.toMask(valid));
    RV x = (*elems)[e];
    Value data = eb == 8 ? L.toV64(x) : L.toV(x);
    memAccess(L, memMnemonic(true, eb, true, false), memMnemonic(true, eb, false, true), {}, base,
              offsetOf(e), data);
    if (saved)
      L.inst("s_mov_b64", L.execT, saved);
  }
  return success();
}

} // namespace vec
} // namespace aster::lower
