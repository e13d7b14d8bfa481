//===- LowerVectorUtil.cpp - shared helpers of the vector lowering --------===//
// What each does: LowerVectorUtil.h; the representation: LowerVectorUtil.h.
#include "lower/LowerVectorUtil.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

namespace aster::lower::vec {

unsigned elemBits(Type t) {
  if (t.isIndex())
    return 32;
  return t.getIntOrFloatBitWidth();
}

/// RVs (words) a value of vector type `vt` is held in.
unsigned numWords(VectorType vt) {
  unsigned bits = elemBits(vt.getElementType());
  unsigned n = (unsigned)vt.getNumElements();
  // i1 and 32-bit: one each; 8 / 16 / 64-bit: packed into dwords (the held
  // form, LowerVectorUtil.h: four i8 or two f16 per word, an i64 / f64 two).
  return bits == 1 || bits == 32 ? n : (n * bits + 31) / 32;
}

/// Largest power of two known to divide the index value `v` (at most 2^20).
uint64_t knownAlign(Value v, unsigned depth) {
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

bool perElement(VectorType vt) {
  unsigned bits = elemBits(vt.getElementType());
  return bits == 1 || bits == 8 || bits == 16 || bits == 32 || bits == 64;
}

/// The elements a word packed by packElements below was built from, read
/// off its v_perm_b32 ops: perm(hi, lo, 0x05040100) is the low halves of lo
/// and hi; perm(b, a, 0x0c0c0400) the low bytes of a and b, zeros above;
/// perm(p1, p0, 0x05040100) of two such the four bytes; perm(c, p0,
/// 0x0c040100) three. Any word so built holds exactly those elements (their
/// bits above the element are unspecified either way), so the next op reads
/// them instead of unpacking, and the pack is dead unless the word is read
/// (eraseDeadMoves). Empty when `w` is not such a word.
static SmallVector<RV, 4> packedElements(const RV &w, unsigned bits) {
  auto sel = [](Value x, uint32_t want) -> Operation * {
    Operation *p = x.getDefiningOp();
    if (!p || !p->getName().getStringRef().ends_with(".v_perm_b32") || p->getNumOperands() != 3)
      return nullptr;
    Operation *m = p->getOperand(2).getDefiningOp();
    if (m && m->getName().getStringRef().ends_with(".v_mov_b32") && m->getNumOperands() == 1)
      m = m->getOperand(0).getDefiningOp();
    auto c = dyn_cast_or_null<arith::ConstantOp>(m);
    auto i = c ? dyn_cast<IntegerAttr>(c.getValue()) : IntegerAttr();
    return i && uint32_t(i.getValue().getZExtValue()) == want ? p : nullptr;
  };
  SmallVector<Value, 4> vs;
  if (w.k != RV::V)
    return {};
  if (bits == 16) {
    if (Operation *p = sel(w.reg, 0x05040100))
      vs = {p->getOperand(1), p->getOperand(0)};
  } else if (Operation *p = sel(w.reg, 0x05040100)) {
    Operation *a = sel(p->getOperand(1), 0x0c0c0400), *b = sel(p->getOperand(0), 0x0c0c0400);
    if (a && b)
      vs = {a->getOperand(1), a->getOperand(0), b->getOperand(1), b->getOperand(0)};
  } else if (Operation *p = sel(w.reg, 0x0c040100)) {
    if (Operation *a = sel(p->getOperand(1), 0x0c0c0400))
      vs = {a->getOperand(1), a->getOperand(0), p->getOperand(0)};
  } else if (Operation *p = sel(w.reg, 0x0c0c0400)) {
    vs = {p->getOperand(1), p->getOperand(0)};
  }
  SmallVector<RV, 4> out;
  for (Value x : vs) {
    auto t = dyn_cast<RegType>(x.getType());
    if (!t || !t.isVirtual() || (t.getKind() != RegKind::VGPR && t.getKind() != RegKind::SGPR))
      return {};
    out.push_back(RV::of(t.getKind() == RegKind::VGPR ? RV::V : RV::S, x));
  }
  return out;
}

FailureOr<SmallVector<RV>> elementsOf(KernelLowering &L, Operation *op, Value v) {
  auto vt = cast<VectorType>(v.getType());
  auto ws = getVec(L, v);
  if (failed(ws))
    return failure();
  unsigned bits = elemBits(vt.getElementType());
  if (bits == 32 || bits == 1)
    return *ws;
  SmallVector<RV> out;
  int64_t n = vt.getNumElements();
  if (bits == 64) {
    if ((int64_t)ws->size() != 2 * n)
      return L.unsupported(op, "a 64-bit vector not held as two words per element");
    for (int64_t k = 0; k < n; ++k)
      out.push_back(L.pair((*ws)[2 * k], (*ws)[2 * k + 1]));
    return out;
  }
  if (bits == 8) { // four per word, element k at bit 8 * (k % 4)
    SmallVector<RV, 4> known;
    for (int64_t k = 0; k < n; ++k) {
      RV w = (*ws)[k / 4];
      unsigned sh = 8 * (k % 4);
      if (k % 4 == 0)
        known = packedElements(w, 8);
      if (k % 4 < (int64_t)known.size())
        out.push_back(known[k % 4]);
      else if (!sh)
        out.push_back(w);
      else if (w.k == RV::Imm)
        out.push_back(RV::imm(w.bits >> sh));
      else if (w.k == RV::S)
        out.push_back(RV::of(RV::S, L.inst("s_lshr_b32", L.sT, {w.reg, L.cst(sh)})));
      else
        out.push_back(L.valu("v_lshrrev_b32", {RV::imm(sh), w}, false));
    }
    return out;
  }
  if (bits != 16)
    return L.unsupported(op, "vectors of " + Twine(bits) +
                                 "-bit elements are only loaded, stored and bitcast");
  SmallVector<RV, 4> known;
  for (int64_t k = 0; k < n; ++k) {
    RV w = (*ws)[k / 2];
    if (k % 2 == 0)
      known = packedElements(w, 16);
    if (k % 2 < (int64_t)known.size()) {
      out.push_back(known[k % 2]);
      continue;
    }
    if (k % 2 == 0) {
      out.push_back(w);
      continue;
    }
    if (w.k == RV::Imm)
      out.push_back(RV::imm(w.bits >> 16));
    else if (w.k == RV::S)
      out.push_back(RV::of(RV::S, L.inst("s_lshr_b32", L.sT, {w.reg, L.cst(16)})));
    else
      out.push_back(L.valu("v_lshrrev_b32", {RV::imm(16), w}, false));
  }
  return out;
}

SmallVector<RV> packElements(KernelLowering &L, VectorType vt, ArrayRef<RV> elems) {
  unsigned bits = elemBits(vt.getElementType());
  if (bits == 32 || bits == 1)
    return SmallVector<RV>(elems);
  SmallVector<RV> out;
  if (bits == 64) {
    for (const RV &e : elems) {
      out.push_back(KernelLowering::lo(e));
      out.push_back(KernelLowering::hi(e));
    }
    return out;
  }
  // v_perm_b32 D, S0, S1, sel: byte i of D is byte sel[i] of {S0, S1} (0-3
  // S1, 4-7 S0, 12 zero; CDNA3 ISA, V_PERM_B32). llc-22 -mcpu=gfx942 packs
  // a v2i16 this way (v_perm_b32 with selector 0x5040100 in an SGPR).
  auto perm = [&](RV hi, RV lo, uint32_t sel) {
    return L.valu("v_perm_b32", {hi, lo, RV::imm(sel)}, false);
  };
  auto anyVector = [](ArrayRef<RV> es) {
    return llvm::any_of(es, [](const RV &e) { return !e.scalar(); });
  };
  if (bits == 8) { // four per word: (e0 & 0xff) | (e1 & 0xff) << 8 | ...
    for (size_t k = 0; k < elems.size(); k += 4) {
      ArrayRef<RV> group = elems.slice(k, std::min<size_t>(4, elems.size() - k));
      if (group.size() > 1 && anyVector(group)) {
        // the low bytes of two elements, zeros above; then two such pairs
        // (or a pair and the third byte) into one word: 2 or 3 v_perm_b32
        // where the masks and shifts took 2 per byte.
        RV w = perm(group[1], group[0], 0x0c0c0400);
        if (group.size() == 3)
          w = perm(group[2], w, 0x0c040100);
        else if (group.size() == 4)
          w = perm(perm(group[3], group[2], 0x0c0c0400), w, 0x05040100);
        out.push_back(w);
        continue;
      }
      RV w = elems[k];
      bool masked = false;
      for (size_t j = 1; j < 4 && k + j < elems.size(); ++j) {
        RV e = elems[k + j];
        if (!masked) // the bits above the first byte are unspecified
          w = L.ibin("s_and_b32", "v_and_b32", false, w, RV::imm(0xff),
                     [](uint32_t a, uint32_t c) { return a & c; });
        masked = true;
        if (j < 3)
          e = L.ibin("s_and_b32", "v_and_b32", false, e, RV::imm(0xff),
                     [](uint32_t a, uint32_t c) { return a & c; });
        if (e.k == RV::Imm && w.k == RV::Imm) {
          w = RV::imm(w.bits | e.bits << (8 * j));
        } else if (e.scalar() && w.scalar()) {
          RV sh = L.ibin("s_lshl_b32", "", false, e, RV::imm(8 * j), nullptr);
          w = L.ibin("s_or_b32", "", false, w, sh, nullptr);
        } else {
          w = L.valu("v_lshl_or_b32", {e, RV::imm(8 * j), w}, false);
        }
      }
      out.push_back(w);
    }
    return out;
  }
  for (size_t k = 0; k < elems.size(); k += 2) {
    RV lo = elems[k];
    if (k + 1 == elems.size()) {
      out.push_back(lo);
      break;
    }
    RV hi = elems[k + 1];
    if (lo.k == RV::Imm && hi.k == RV::Imm) {
      out.push_back(RV::imm((lo.bits & 0xffff) | hi.bits << 16));
    } else if (lo.scalar() && hi.scalar()) {
      // s_pack_ll_b32_b16: the low halves of both operands.
      out.push_back(RV::of(RV::S, L.inst("s_pack_ll_b32_b16", L.sT, {L.sOp(lo), L.sOp(hi)})));
    } else {
      out.push_back(perm(hi, lo, 0x05040100)); // the low halves of lo and hi
    }
  }
  return out;
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
  bool flat = base && base.getType() == L.v2T;
  // A flat pointer's address once; each chunk at its offset field.
  Value at = flat && words > 1 ? flatAt(L, base, off) : base;
  for (unsigned w = 0; w < words;) {
    unsigned n = std::min(4u, words - w);
    if (!base) // ds_read_b128 / b64 need 16 / 8-byte alignment (CDNA3 ISA, LDS)
      n = align >= 16 && n >= 4 ? 4 : align >= 8 && n >= 2 ? 2 : 1;
    else if (n == 3 && words - w > 3)
      n = 3;
    static const char *const g[] = {"", "global_load_dword", "global_load_dwordx2",
                                    "global_load_dwordx3", "global_load_dwordx4"};
    static const char *const s[] = {"", "ds_read_b32", "ds_read_b64", "", "ds_read_b128"};
    RV o = flat && words > 1 ? RV::imm(4 * w) : L.add(off, RV::imm(4 * w));
    Value r = memAccess(L, g[n], s[n], rangeT(L, n), at, o, {});
    for (RV p : partsOf(L, r, n, isFloat))
      out.push_back(p);
    w += n;
  }
  return out;
}

void storeWords(KernelLowering &L, Value base, RV off, ArrayRef<RV> words, uint64_t align) {
  bool flat = base && base.getType() == L.v2T;
  Value at = flat && words.size() > 1 ? flatAt(L, base, off) : base;
  for (unsigned w = 0; w < words.size();) {
    unsigned n = std::min<unsigned>(4, words.size() - w);
    if (!base)
      n = align >= 16 && n >= 4 ? 4 : align >= 8 && n >= 2 ? 2 : 1;
    Value data = concat(L, words.slice(w, n));
    static const char *const g[] = {"", "global_store_dword", "global_store_dwordx2",
                                    "global_store_dwordx3", "global_store_dwordx4"};
    static const char *const s[] = {"", "ds_write_b32", "ds_write_b64", "", "ds_write_b128"};
    RV o = flat && words.size() > 1 ? RV::imm(4 * w) : L.add(off, RV::imm(4 * w));
    memAccess(L, g[n], s[n], {}, at, o, data);
    w += n;
  }
}

} // namespace aster::lower::vec
