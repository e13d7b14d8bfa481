//===- LowerVector.cpp - vector dialect ops to amdgcn instructions --------===//
//
// A vector value is held as its elements, flattened in row-major order
// (KernelLowering::vecs): one RV per element for 32-bit elements (f32, i32,
// index) and i1 (an immediate, SGPR or lane mask like a scalar i1); 16-bit
// elements (f16, bf16) two per 32-bit word, the lower index in the low half
// (the memory layout), so such vectors are only loaded, stored, bitcast and
// passed to MFMA (LowerAmdgpu.cpp) whole.
//
//   vector.load / transfer_read (in bounds) -> global_load_dword[x2|x3|x4]
//     in chunks of 16 bytes (global memory needs 4-byte alignment only, the
//     HSA default unaligned mode); LDS: ds_read_b128 / b64 where the byte
//     offset is known to be 16- / 8-byte aligned (knownAlign below), else
//     ds_read_b32 per word. Stores alike.
//   transfer_read out of bounds / masked: per element, lanes whose element
//     is out of bounds (index >= the memref's size in the minor dimension)
//     or masked off load from offset 0 of the memref instead (clamped) and
//     take the padding: v_cndmask_b32(pad, loaded, valid). The memref must
//     not be empty. transfer_write masked: each element stored under
//     EXEC &= valid (s_and_saveexec_b64, restored after).
//   broadcast, from_elements, extract / insert / extract_strided_slice (static
//     positions), shape_cast, bitcast: moves of element RVs, no instruction.
//   elementwise arith / math on vectors, vector.fma, create_mask: the scalar
//     op per element, lowered by its own dialect file (scalarOp below), so
//     SALU/VALU choice, folding and errors are the scalar ones.
//   scf.for / scf.if carrying vectors: rewritten first (scalarizeVectorCarries,
//     an upstream-IR rewrite that keeps the module valid) to carry the
//     vector's 32-bit words as scalars: vector.bitcast to i32 words where
//     the elements are not 32-bit, vector.extract per word at the yield,
//     vector.from_elements (+ bitcast back) at the uses: moves, no code.
//   vector.reduction: a left fold of the elements (and the accumulator
//     first), in order, with the kind's scalar arith op: LLVM's
//     llvm.vector.reduce.fadd without reassoc is ordered the same way.
//
// Needs before: operands lowered; transfers with minor-identity maps on
// vectors of rank 1; memrefs of 4-byte elements (LowerMemory's address()).
// Guarantees after: every vector result in vecs; anything else an error at
// the op naming what is missing.
//===----------------------------------------------------------------------===//
#include "lower/KernelLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace aster::lower {

namespace {

unsigned elemBits(Type t) {
  if (t.isIndex())
    return 32;
  return t.getIntOrFloatBitWidth();
}

/// RVs (words) a value of vector type `vt` is held in.
unsigned numWords(VectorType vt) {
  unsigned bits = elemBits(vt.getElementType());
  unsigned n = (unsigned)vt.getNumElements();
  return bits == 16 ? (n + 1) / 2 : n;
}

/// Largest power of two known to divide the index value `v` (at most 2^20).
uint64_t knownAlign(Value v, unsigned depth = 0) {
  constexpr uint64_t kMax = 1u << 20;
  if (depth > 8)
    return 1;
  APInt c;
  if (auto k = v.getDefiningOp<arith::ConstantOp>())
    if (auto i = dyn_cast<IntegerAttr>(k.getValue())) {
      uint64_t x = i.getValue().getZExtValue();
      return x ? std::min<uint64_t>(x & -x, kMax) : kMax;
    }
  Operation *d = v.getDefiningOp();
  if (!d)
    return 1;
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp, arith::ExtUIOp>(d))
    return knownAlign(d->getOperand(0), depth + 1);
  if (isa<arith::MulIOp>(d))
    return std::min(kMax, knownAlign(d->getOperand(0), depth + 1) *
                              knownAlign(d->getOperand(1), depth + 1));
  if (isa<arith::AddIOp, arith::SubIOp>(d))
    return std::min(knownAlign(d->getOperand(0), depth + 1),
                    knownAlign(d->getOperand(1), depth + 1));
  if (isa<arith::ShLIOp>(d))
    if (auto k = d->getOperand(1).getDefiningOp<arith::ConstantOp>())
      if (auto i = dyn_cast<IntegerAttr>(k.getValue()))
        return std::min(kMax, knownAlign(d->getOperand(0), depth + 1)
                                  << std::min<uint64_t>(i.getInt(), 20));
  return 1;
}

/// Known byte alignment of the address of memref[idx] relative to the
/// memref's base (4-byte elements).
uint64_t knownByteAlign(MemRefType mt, ValueRange idx) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(mt.getStridesAndOffset(strides, offset)))
    return 4;
  auto pow2 = [](int64_t x) -> uint64_t { return x ? (uint64_t)(x & -x) : 1u << 20; };
  uint64_t a = ShapedType::isDynamic(offset) ? 1 : pow2(offset);
  for (unsigned i = 0; i < idx.size(); ++i) {
    uint64_t s = ShapedType::isDynamic(strides[i]) ? 1 : pow2(strides[i]);
    a = std::min(a, knownAlign(idx[i]) * s);
  }
  return 4 * std::min<uint64_t>(a, 1u << 20);
}

Type rangeT(KernelLowering &L, unsigned n) {
  return n == 1 ? L.vT : (Type)RegType::getVirtual(L.ctx, RegKind::VGPR, n);
}

/// The words of range `r` (n registers) as single VGPRs.
SmallVector<RV> partsOf(KernelLowering &L, Value r, unsigned n, bool isFloat) {
  SmallVector<RV> out;
  if (n == 1) {
    out.push_back(RV::of(RV::V, r, isFloat));
    return out;
  }
  for (unsigned i = 0; i < n; ++i)
    out.push_back(RV::of(RV::V, PartOp::create(L.b, L.loc, L.vT, r, L.b.getI32IntegerAttr(i)),
                         isFloat));
  return out;
}

/// A range of VGPRs holding `words` in order.
Value concat(KernelLowering &L, ArrayRef<RV> words) {
  SmallVector<Value> regs;
  for (const RV &w : words)
    regs.push_back(L.toV(w));
  if (regs.size() == 1)
    return regs[0];
  return ConcatOp::create(L.b, L.loc, rangeT(L, regs.size()), regs);
}

FailureOr<SmallVector<RV>> getVec(KernelLowering &L, Value v) {
  auto it = L.vecs.find(v);
  if (it != L.vecs.end())
    return it->second;
  if (Operation *d = v.getDefiningOp())
    return d->emitOpError("was not lowered before its use (a vector value)");
  return L.fn.emitOpError("uses a vector value amdgcn-lower does not know");
}

LogicalResult only32(KernelLowering &L, Operation *op, VectorType vt) {
  unsigned bits = elemBits(vt.getElementType());
  if (bits == 32 || bits == 1)
    return success();
  return L.unsupported(op, "vectors of " + Twine(bits) +
                               "-bit elements are only loaded, stored, bitcast and used "
                               "as MFMA operands");
}

/// Loads `words` 32-bit words at byte offset `off` of memory `base` (null:
/// LDS), in chunks as wide as `align` (bytes) allows.
SmallVector<RV> loadWords(KernelLowering &L, Value base, RV off, unsigned words,
                          uint64_t align, bool isFloat) {
  SmallVector<RV> out;
  for (unsigned w = 0; w < words;) {
    unsigned n = std::min(4u, words - w);
    if (!base) // ds_read_b128 / b64 need 16 / 8-byte alignment (CDNA3 ISA, LDS)
      n = align >= 16 && n >= 4 ? 4 : align >= 8 && n >= 2 ? 2 : 1;
    else if (n == 3 && words - w > 3)
      n = 3;
    SmallVector<NamedAttribute> attrs;
    Value voff = L.memOffset(L.add(off, RV::imm(4 * w)), !base, attrs);
    static const char *const g[] = {"", "global_load_dword", "global_load_dwordx2",
                                    "global_load_dwordx3", "global_load_dwordx4"};
    static const char *const s[] = {"", "ds_read_b32", "ds_read_b64", "", "ds_read_b128"};
    Value r = base ? L.inst(g[n], rangeT(L, n), {voff, base}, attrs)
                   : L.inst(s[n], rangeT(L, n), {voff}, attrs);
    for (RV p : partsOf(L, r, n, isFloat))
      out.push_back(p);
    w += n;
  }
  return out;
}

void storeWords(KernelLowering &L, Value base, RV off, ArrayRef<RV> words, uint64_t align) {
  for (unsigned w = 0; w < words.size();) {
    unsigned n = std::min<unsigned>(4, words.size() - w);
    if (!base)
      n = align >= 16 && n >= 4 ? 4 : align >= 8 && n >= 2 ? 2 : 1;
    SmallVector<NamedAttribute> attrs;
    Value voff = L.memOffset(L.add(off, RV::imm(4 * w)), !base, attrs);
    Value data = concat(L, words.slice(w, n));
    static const char *const g[] = {"", "global_store_dword", "global_store_dwordx2",
                                    "global_store_dwordx3", "global_store_dwordx4"};
    static const char *const s[] = {"", "ds_write_b32", "ds_write_b64", "", "ds_write_b128"};
    if (base)
      L.inst(g[n], {}, {voff, data, base}, attrs);
    else
      L.inst(s[n], {}, {voff, data}, attrs);
    w += n;
  }
}

LogicalResult checkMem(KernelLowering &L, Operation *op, MemRefType mt, VectorType vt) {
  if (elemBits(mt.getElementType()) != 32)
    return L.unsupported(op, "vector memory accesses are lowered on memrefs of 4-byte elements");
  if (vt.getRank() != 1)
    return L.unsupported(op, "only vectors of rank 1 are loaded and stored");
  if (numWords(vt) * 32 != (unsigned)vt.getNumElements() * elemBits(vt.getElementType()))
    return L.unsupported(op, "the vector is not a whole number of 32-bit words");
  return success();
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

} // namespace

/// Lowers a scalar `name` op on `operands` (of `types`) to `result` type by
/// the scalar lowering of its dialect (a placeholder op with the source
/// op's location, erased after).
FailureOr<RV> scalarOp(KernelLowering &L, Location at, StringRef name, ArrayRef<RV> operands,
                       TypeRange types, Type result, ArrayRef<NamedAttribute> attrs) {
  Block tmp;
  for (Type t : types)
    tmp.addArgument(t, at);
  OperationState st(at, name);
  st.addOperands(tmp.getArguments());
  st.addTypes(result);
  st.addAttributes(attrs);
  OpBuilder ob(L.ctx);
  ob.setInsertionPointToEnd(&tmp);
  Operation *op = ob.create(st);
  for (auto [a, r] : llvm::zip(tmp.getArguments(), operands))
    L.vals[a] = r;
  LogicalResult ok = L.lowerOp(op);
  FailureOr<RV> out = failure();
  if (succeeded(ok))
    out = L.vals.lookup(op->getResult(0));
  for (BlockArgument a : tmp.getArguments())
    L.vals.erase(a);
  L.vals.erase(op->getResult(0));
  op->erase();
  return out;
}

/// Whether element `e` of a transfer starting at index `i0` along a
/// dimension of `size` is read/written: in bounds (unless the transfer is
/// known in bounds) and set in `mask` (when there is one). An immediate when
/// known.
static FailureOr<RV> elementValid(KernelLowering &L, Operation *op, RV i0, RV size,
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


/// An arith / math op on vectors: its scalar op per element.
LogicalResult lowerElementwise(KernelLowering &L, Operation *op) {
  if (op->getNumResults() != 1)
    return L.unsupported(op);
  auto vt = dyn_cast<VectorType>(op->getResult(0).getType());
  if (!vt)
    return L.unsupported(op, "a vector operand with a scalar result");
  if (auto c = dyn_cast<arith::ConstantOp>(op)) {
    auto dense = dyn_cast<DenseElementsAttr>(c.getValue());
    if (failed(only32(L, op, vt)))
      return failure();
    if (!dense)
      return L.unsupported(op, "not a dense constant");
    SmallVector<RV> out;
    bool fl = isa<FloatType>(vt.getElementType());
    if (fl)
      for (APFloat f : dense.getValues<APFloat>())
        out.push_back(RV::imm((uint32_t)f.bitcastToAPInt().getZExtValue(), true));
    else
      for (APInt i : dense.getValues<APInt>())
        out.push_back(RV::imm((uint32_t)i.getZExtValue() & (vt.getElementType().isInteger(1) ? 1u : ~0u)));
    L.vecs[c] = out;
    return success();
  }
  if (failed(only32(L, op, vt)))
    return failure();
  SmallVector<Type> types;
  SmallVector<SmallVector<RV>> ins;
  for (Value v : op->getOperands()) {
    if (auto ovt = dyn_cast<VectorType>(v.getType())) {
      if (failed(only32(L, op, ovt)))
        return failure();
      auto e = getVec(L, v);
      if (failed(e))
        return failure();
      ins.push_back(*e);
      types.push_back(ovt.getElementType());
    } else {
      auto r = L.get(v);
      if (failed(r))
        return failure();
      ins.push_back(SmallVector<RV>(vt.getNumElements(), *r));
      types.push_back(v.getType());
    }
  }
  StringRef name = op->getName().getStringRef();
  if (isa<vector::FMAOp>(op))
    name = math::FmaOp::getOperationName();
  SmallVector<RV> out;
  for (int64_t e = 0; e < vt.getNumElements(); ++e) {
    SmallVector<RV> xs;
    for (auto &in : ins)
      xs.push_back(in[e]);
    auto r = scalarOp(L, op->getLoc(), name, xs, types, vt.getElementType(), op->getAttrs());
    if (failed(r))
      return failure();
    out.push_back(*r);
  }
  L.vecs[op->getResult(0)] = out;
  return success();
}

namespace {

StringRef reductionOpName(vector::CombiningKind k, bool fl) {
  using K = vector::CombiningKind;
  switch (k) {
  case K::ADD: return fl ? "arith.addf" : "arith.addi";
  case K::MUL: return fl ? "arith.mulf" : "arith.muli";
  case K::MINUI: return "arith.minui";
  case K::MINSI: return "arith.minsi";
  case K::MAXUI: return "arith.maxui";
  case K::MAXSI: return "arith.maxsi";
  case K::MINNUMF: return "arith.minnumf";
  case K::MAXNUMF: return "arith.maxnumf";
  case K::MINIMUMF: return "arith.minimumf";
  case K::MAXIMUMF: return "arith.maximumf";
  case K::AND: return "arith.andi";
  case K::OR: return "arith.ori";
  case K::XOR: return "arith.xori";
  }
  return "";
}

LogicalResult lowerVectorOp(KernelLowering &L, Operation *op) {
  // ---- memory -------------------------------------------------------------
  if (auto ld = dyn_cast<vector::LoadOp>(op)) {
    auto vt = ld.getVectorType();
    if (failed(checkMem(L, op, ld.getMemRefType(), vt)))
      return failure();
    auto a = L.address(op, ld.getBase(), ld.getIndices());
    if (failed(a))
      return failure();
    L.vecs[ld] = loadWords(L, a->first, a->second, numWords(vt),
                           knownByteAlign(ld.getMemRefType(), ld.getIndices()),
                           isa<FloatType>(vt.getElementType()));
    return success();
  }
  if (auto st = dyn_cast<vector::StoreOp>(op)) {
    auto vt = st.getVectorType();
    if (failed(checkMem(L, op, st.getMemRefType(), vt)))
      return failure();
    auto a = L.address(op, st.getBase(), st.getIndices());
    auto v = getVec(L, st.getValueToStore());
    if (failed(a) || failed(v))
      return failure();
    storeWords(L, a->first, a->second, *v, knownByteAlign(st.getMemRefType(), st.getIndices()));
    return success();
  }
  if (auto tr = dyn_cast<vector::TransferReadOp>(op)) {
    auto vt = tr.getVectorType();
    auto mt = dyn_cast<MemRefType>(tr.getBase().getType());
    if (!mt)
      return L.unsupported(op, "transfers from tensors are not lowered (bufferize first)");
    if (failed(checkMem(L, op, mt, vt)))
      return failure();
    if (!tr.getPermutationMap().isMinorIdentity())
      return L.unsupported(op, "only minor-identity permutation maps are lowered");
    auto a = L.address(op, tr.getBase(), tr.getIndices());
    if (failed(a))
      return failure();
    bool fl = isa<FloatType>(vt.getElementType());
    uint64_t align = knownByteAlign(mt, tr.getIndices());
    bool inBounds = tr.getInBoundsValues().empty() || tr.getInBoundsValues()[0];
    if (inBounds && !tr.getMask()) {
      L.vecs[tr] = loadWords(L, a->first, a->second, numWords(vt), align, fl);
      return success();
    }
    auto pad = L.get(tr.getPadding());
    if (failed(pad))
      return failure();
    SmallVector<RV> mask;
    if (tr.getMask()) {
      auto m = getVec(L, tr.getMask());
      if (failed(m))
        return failure();
      mask = *m;
    }
    unsigned d = mt.getRank() - 1;
    auto size = dimSize(L, op, tr.getBase(), d);
    auto stride = minorByteStride(L, op, tr.getBase());
    auto i0 = L.get(tr.getIndices()[d]);
    if (failed(size) || failed(stride) || failed(i0))
      return failure();
    SmallVector<RV> out;
    for (int64_t e = 0; e < vt.getNumElements(); ++e) {
      auto validOr = elementValid(L, op, *i0, *size, inBounds, mask, e);
      if (failed(validOr))
        return failure();
      RV valid = *validOr;
      if (valid.k == RV::Imm && !valid.bits) {
        out.push_back(*pad);
        continue;
      }
      RV off = L.add(a->second, L.mul(*stride, RV::imm(e)));
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
    if (failed(checkMem(L, op, mt, vt)))
      return failure();
    if (!tw.getPermutationMap().isMinorIdentity())
      return L.unsupported(op, "only minor-identity permutation maps are lowered");
    auto a = L.address(op, tw.getBase(), tw.getIndices());
    auto v = getVec(L, tw.getVector());
    if (failed(a) || failed(v))
      return failure();
    uint64_t align = knownByteAlign(mt, tw.getIndices());
    bool inBounds = tw.getInBoundsValues().empty() || tw.getInBoundsValues()[0];
    if (inBounds && !tw.getMask()) {
      storeWords(L, a->first, a->second, *v, align);
      return success();
    }
    SmallVector<RV> mask;
    if (tw.getMask()) {
      auto m = getVec(L, tw.getMask());
      if (failed(m))
        return failure();
      mask = *m;
    }
    unsigned d = mt.getRank() - 1;
    auto size = dimSize(L, op, tw.getBase(), d);
    auto stride = minorByteStride(L, op, tw.getBase());
    auto i0 = L.get(tw.getIndices()[d]);
    if (failed(size) || failed(stride) || failed(i0))
      return failure();
    for (int64_t e = 0; e < vt.getNumElements(); ++e) {
      auto validOr = elementValid(L, op, *i0, *size, inBounds, mask, e);
      if (failed(validOr))
        return failure();
      RV valid = *validOr;
      if (valid.k == RV::Imm && !valid.bits)
        continue;
      RV off = L.add(a->second, L.mul(*stride, RV::imm(e)));
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
  // ---- moves of elements -------------------------------------------------
  if (auto bc = dyn_cast<vector::BroadcastOp>(op)) {
    auto vt = bc.getResultVectorType();
    if (failed(only32(L, op, vt)))
      return failure();
    SmallVector<RV> src;
    if (auto svt = dyn_cast<VectorType>(bc.getSourceType())) {
      if (svt.getShape() != vt.getShape().take_back(svt.getRank()))
        return L.unsupported(op, "only broadcasts that add leading dimensions are lowered");
      auto e = getVec(L, bc.getSource());
      if (failed(e))
        return failure();
      src = *e;
    } else {
      auto r = L.get(bc.getSource());
      if (failed(r))
        return failure();
      src.push_back(*r);
    }
    SmallVector<RV> out;
    while (out.size() < (size_t)vt.getNumElements())
      out.append(src.begin(), src.end());
    L.vecs[bc] = out;
    return success();
  }
  if (auto fe = dyn_cast<vector::FromElementsOp>(op)) {
    if (failed(only32(L, op, fe.getType())))
      return failure();
    SmallVector<RV> out;
    for (Value v : fe.getElements()) {
      auto r = L.get(v);
      if (failed(r))
        return failure();
      out.push_back(*r);
    }
    L.vecs[fe] = out;
    return success();
  }
  if (isa<vector::ExtractOp, vector::InsertOp>(op)) {
    auto ex = dyn_cast<vector::ExtractOp>(op);
    auto in = dyn_cast<vector::InsertOp>(op);
    VectorType vt = ex ? ex.getSourceVectorType() : in.getDestVectorType();
    if (failed(only32(L, op, vt)))
      return failure();
    bool dynamic = ex ? !ex.getDynamicPosition().empty() : !in.getDynamicPosition().empty();
    if (dynamic)
      return L.unsupported(op, "only static positions are lowered");
    ArrayRef<int64_t> pos = ex ? ex.getStaticPosition() : in.getStaticPosition();
    int64_t inner = 1, lin = 0;
    for (int64_t d = 0; d < vt.getRank(); ++d) {
      if (d >= (int64_t)pos.size())
        inner *= vt.getDimSize(d);
    }
    for (int64_t d = 0; d < (int64_t)pos.size(); ++d) {
      int64_t below = 1;
      for (int64_t e = d + 1; e < vt.getRank(); ++e)
        below *= vt.getDimSize(e);
      lin += pos[d] * below;
    }
    auto src = getVec(L, ex ? ex.getSource() : in.getDest());
    if (failed(src))
      return failure();
    if (ex) {
      if (isa<VectorType>(ex.getType()))
        L.vecs[ex] = SmallVector<RV>(ArrayRef<RV>(*src).slice(lin, inner));
      else
        L.vals[ex.getResult()] = (*src)[lin];
      return success();
    }
    SmallVector<RV> out = *src;
    if (isa<VectorType>(in.getValueToStoreType())) {
      auto v = getVec(L, in.getValueToStore());
      if (failed(v))
        return failure();
      for (int64_t i = 0; i < inner; ++i)
        out[lin + i] = (*v)[i];
    } else {
      auto v = L.get(in.getValueToStore());
      if (failed(v))
        return failure();
      out[lin] = *v;
    }
    L.vecs[in] = out;
    return success();
  }
  if (auto ss = dyn_cast<vector::ExtractStridedSliceOp>(op)) {
    auto vt = ss.getSourceVectorType();
    if (failed(only32(L, op, vt)) || vt.getRank() != 1)
      return vt.getRank() != 1 ? L.unsupported(op, "only rank-1 slices are lowered") : failure();
    auto src = getVec(L, ss.getSource());
    if (failed(src))
      return failure();
    int64_t off = cast<IntegerAttr>(ss.getOffsets()[0]).getInt();
    int64_t n = cast<IntegerAttr>(ss.getSizes()[0]).getInt();
    int64_t step = cast<IntegerAttr>(ss.getStrides()[0]).getInt();
    SmallVector<RV> out;
    for (int64_t i = 0; i < n; ++i)
      out.push_back((*src)[off + i * step]);
    L.vecs[ss] = out;
    return success();
  }
  if (isa<vector::ShapeCastOp, vector::BitCastOp>(op)) {
    auto src = getVec(L, op->getOperand(0));
    if (failed(src))
      return failure();
    auto from = cast<VectorType>(op->getOperand(0).getType());
    auto to = cast<VectorType>(op->getResult(0).getType());
    unsigned fb = elemBits(from.getElementType()), tb = elemBits(to.getElementType());
    if (fb == 1 || tb == 1 || (fb != tb && (fb * from.getNumElements()) % 32))
      return L.unsupported(op, "only casts between vectors of whole 32-bit words are lowered");
    SmallVector<RV> out = *src;
    for (RV &r : out)
      r.isFloat = isa<FloatType>(to.getElementType()) && tb == 32;
    L.vecs[op->getResult(0)] = out;
    return success();
  }
  if (auto cm = dyn_cast<vector::ConstantMaskOp>(op)) {
    auto vt = cm.getVectorType();
    if (vt.getRank() != 1)
      return L.unsupported(op, "only rank-1 masks are lowered");
    int64_t k = cm.getMaskDimSizes()[0];
    SmallVector<RV> out;
    for (int64_t e = 0; e < vt.getNumElements(); ++e)
      out.push_back(RV::imm(e < k));
    L.vecs[cm] = out;
    return success();
  }
  if (auto cm = dyn_cast<vector::CreateMaskOp>(op)) {
    auto vt = cm.getVectorType();
    if (vt.getRank() != 1)
      return L.unsupported(op, "only rank-1 masks are lowered");
    auto n = L.get(cm.getOperand(0));
    if (failed(n))
      return failure();
    SmallVector<RV> out;
    for (int64_t e = 0; e < vt.getNumElements(); ++e) {
      auto c = scalarOp(L, op->getLoc(), "arith.cmpi", {RV::imm(e), *n},
                        {L.b.getIndexType(), L.b.getIndexType()}, L.b.getI1Type(),
                        {L.b.getNamedAttr("predicate", arith::CmpIPredicateAttr::get(
                                                           L.ctx, arith::CmpIPredicate::slt))});
      if (failed(c))
        return failure();
      out.push_back(*c);
    }
    L.vecs[cm] = out;
    return success();
  }
  if (isa<vector::FMAOp>(op))
    return lowerElementwise(L, op);
  if (auto red = dyn_cast<vector::ReductionOp>(op)) {
    auto vt = red.getSourceVectorType();
    if (failed(only32(L, op, vt)))
      return failure();
    auto src = getVec(L, red.getVector());
    if (failed(src))
      return failure();
    Type et = vt.getElementType();
    StringRef name = reductionOpName(red.getKind(), isa<FloatType>(et));
    SmallVector<RV> xs(*src);
    RV acc;
    size_t first = 0;
    if (red.getAcc()) {
      auto a = L.get(red.getAcc());
      if (failed(a))
        return failure();
      acc = *a;
    } else {
      acc = xs[0];
      first = 1;
    }
    for (size_t i = first; i < xs.size(); ++i) {
      auto r = scalarOp(L, op->getLoc(), name, {acc, xs[i]}, {et, et}, et, {});
      if (failed(r))
        return failure();
      acc = *r;
    }
    L.vals[red.getResult()] = acc;
    return success();
  }
  return L.unsupported(op);
}

} // namespace

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

} // namespace

void scalarizeVectorCarries(gpu::GPUFuncOp fn) {
  SmallVector<scf::ForOp> fors;
  fn.walk([&](scf::ForOp f) { fors.push_back(f); });
  for (scf::ForOp f : fors)   // post-order: inner loops first
    scalarizeFor(f);
}

void populateVectorLowering(LoweringTable &table) {
  table.add(vector::VectorDialect::getDialectNamespace(), lowerVectorOp);
}

} // namespace aster::lower
