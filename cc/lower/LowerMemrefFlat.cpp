//===- LowerMemrefFlat.cpp - generic (flat) memrefs of unknown memory -----===//
//
// A memref whose memory is not known where it is used: an arith.select of
// two memrefs of different memories (an LDS buffer cast to the generic
// space and a global argument, say). memory_space_cast alone keeps the
// source's memory (LowerMemrefViews.cpp: LLVM's InferAddressSpaces does the
// same); a select of two memrefs is a flat pointer, as llc-22 -mcpu=gfx942
// builds `select i1 %c, ptr %lds_as_flat, ptr %global_as_flat`:
//   - the flat address of each operand: global memory its pointer; LDS
//     {LDS byte address, high dword of src_shared_base} (llc-22's
//     addrspacecast 3 -> 0: `s_mov_b64 s[6:7], src_shared_base`, the high
//     dword with the LDS address); private memory {scratch byte offset,
//     high dword of src_private_base} (CDNA3 ISA 9.3 "Flat memory
//     instructions": the shared and private apertures);
//   - the pointer selected per dword (v_cndmask_b32, a VGPR pair: the flat
//     pointer lives in VGPRs, whichever the condition); the view's offset,
//     sizes and strides selected too (arith.select of each);
//   - memref.load / store through it: the byte offset added with
//     v_lshl_add_u64 (a constant one below 4096 in the offset field), then
//     flat_load_{ubyte,ushort,dword,dwordx2} /
//     flat_store_{byte,short,dword,dwordx2} (both vmcnt and lgkmcnt, as the
//     table says: amdgcn-waitcnt waits for both);
//   - vector accesses (LowerVectorTransfer.cpp, LowerVectorMasked.cpp)
//     through vec::memAccess: the global_* piece renamed flat_* at the
//     flat address (llc-22 selects flat_load_dwordx4 at any alignment).
// The flat memref is a MemArg whose ptrReg is a VGPR pair (global memrefs
// hold an SGPR pair): isFlat below; address() gives it only to callers
// that pass allowFlat (the vector accesses, vector.type_cast element
// accesses, atomics: LowerMemrefAtomics.cpp). A select of two type_cast
// views (memrefs of vectors) is a flat memref of their scalar sources' type
// (LowerVectorTypeCast.cpp indexes its leading dimensions). scf results and function parameters of unknown
// memory become flat memrefs too (LowerMemrefCarries.cpp).
// Needs before: both operands in mems (kernel arguments, workgroup or
// private memory, views, flat memrefs; not register-held allocas).
// Guarantees after: the select's result in mems; loads in vals.
// Registered by LowerMemrefViews.cpp's populate function (arith.select;
// other selects go to LowerArith.cpp).
//===----------------------------------------------------------------------===//
#include "lower/KernelLowering.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace aster::lower {

std::string memMnemonic(bool store, unsigned bytes, bool global, bool lds);

bool isFlat(KernelLowering &L, const MemArg &m) {
  return m.ptrReg && m.ptrReg.getType() == L.v2T;
}

/// The VGPR-pair address `ptr` + `off` (bytes, unsigned): a constant offset
/// below 4096 goes into the instruction's offset field (FLAT's 12-bit
/// unsigned offset on gfx9), any other is added with v_lshl_add_u64.
Value flatAddress(KernelLowering &L, Value ptr, RV off, SmallVectorImpl<NamedAttribute> &attrs) {
  if (off.k == RV::Imm && off.bits < 4096) {
    if (off.bits)
      attrs.push_back(L.b.getNamedAttr("offset", L.b.getI32IntegerAttr((int32_t)off.bits)));
    return ptr;
  }
  Value wide = ConcatOp::create(L.b, L.loc, L.v2T,
                                ValueRange{L.toV(off), L.inst("v_mov_b32", L.vT, L.cst(0))});
  return L.inst("v_lshl_add_u64", L.v2T, {ptr, L.cst(0), wide});
}

namespace vec {
/// One memory instruction at byte offset `off` of `base`: global memory
/// (an SGPR pair: `global` with the VGPR offset and saddr), a flat pointer
/// (a VGPR pair: `global` renamed flat_, at base + off) or LDS (null: `lds`).
/// `data`: the value stored (null for a load, whose result is of type `res`).
Value memAccess(KernelLowering &L, StringRef global, StringRef lds, Type res, Value base, RV off,
                Value data) {
  SmallVector<NamedAttribute> attrs;
  SmallVector<Value> ops;
  std::string mn = base ? global.str() : lds.str();
  if (base && base.getType() == L.v2T) {
    mn = "flat_" + mn.substr(mn.find('_') + 1);
    ops.push_back(flatAddress(L, base, off, attrs));
    if (data)
      ops.push_back(data);
  } else {
    ops.push_back(L.memOffset(off, !base, attrs));
    if (data)
      ops.push_back(data);
    if (base)
      ops.push_back(base);
  }
  return L.inst(mn, res, ops, attrs);
}
Value flatAt(KernelLowering &L, Value base, RV off) {
  if (off.k == RV::Imm && off.bits == 0)
    return base;
  SmallVector<NamedAttribute> none;
  Value wide = ConcatOp::create(L.b, L.loc, L.v2T,
                                ValueRange{L.toV(off), L.inst("v_mov_b32", L.vT, L.cst(0))});
  return L.inst("v_lshl_add_u64", L.v2T, {base, L.cst(0), wide});
}
} // namespace vec

/// The high dword of aperture `r` (src_shared_base / src_private_base),
/// read once in the prologue (llc-22 reads src_shared_base once per kernel
/// too) and reused.
RV apertureHigh(KernelLowering &L, SpecialReg r) {
  Type t = SpecialRegType::get(L.ctx, r);
  for (auto reg : L.entry->getOps<RegOp>())
    if (reg.getType() == t && reg->hasOneUse())
      for (Operation *mov : reg->getUsers())
        for (Operation *u : mov->getUsers())
          if (auto p = dyn_cast<PartOp>(u); p && p.getOffset() == 1)
            return RV::of(RV::S, p.getResult());
  return RV::of(RV::S, L.inPrologue([&] {
    Value reg = RegOp::create(L.b, L.loc, t);
    Value base = L.inst("s_mov_b64", L.s2T, reg);
    return (Value)PartOp::create(L.b, L.loc, L.sT, base, L.b.getI32IntegerAttr(1));
  }));
}

/// The two dwords of the flat address of memory `m` (its element 0 before
/// the view's offset).
FailureOr<std::pair<RV, RV>> flatBase(KernelLowering &L, Operation *op, const MemArg &m) {
  auto parts = [&](Value pair, RV::Kind k) {
    Type t = k == RV::V ? L.vT : L.sT;
    return std::pair{RV::of(k, PartOp::create(L.b, L.loc, t, pair, L.b.getI32IntegerAttr(0))),
                     RV::of(k, PartOp::create(L.b, L.loc, t, pair, L.b.getI32IntegerAttr(1)))};
  };
  if (isFlat(L, m))
    return parts(m.ptrReg, RV::V);
  if (m.regs)
    return L.unsupported(op, "an alloca held in registers has no address");
  auto aperture = [&](SpecialReg r) { return apertureHigh(L, r); };
  RV dyn = m.dynOffset.k == RV::None ? RV::imm(0) : m.dynOffset;
  if (m.lds)
    return std::pair{L.add(RV::imm(m.ldsOffset), dyn), aperture(SpecialReg::src_shared_base)};
  if (m.priv)
    return std::pair{L.add(RV::imm(m.privOffset), dyn), aperture(SpecialReg::src_private_base)};
  return parts(m.ptrReg ? m.ptrReg : L.loadPtr(m.ptr), RV::S);
}

namespace {

FailureOr<RV> selectIndex(KernelLowering &L, Operation *op, RV c, RV a, RV b) {
  if (a.k == RV::Imm && b.k == RV::Imm && a.bits == b.bits)
    return a;
  Type ix = L.b.getIndexType();
  return scalarOp(L, op->getLoc(), "arith.select", {c, a, b}, {L.b.getI1Type(), ix, ix}, ix, {});
}

LogicalResult lowerSelect(KernelLowering &L, Operation *op) {
  if (!isa<MemRefType>(op->getResult(0).getType()))
    return L.lowerArith(op);
  auto ma = L.memrefOf(op, op->getOperand(1));
  auto mb = L.memrefOf(op, op->getOperand(2));
  auto c = L.get(op->getOperand(0));
  if (failed(ma) || failed(mb) || failed(c))
    return failure();
  auto mt = cast<MemRefType>(op->getResult(0).getType());
  if (isa<VectorType>(mt.getElementType())) {
    // Two vector.type_cast views (memrefOf gives each its scalar source,
    // LowerVectorTypeCast.cpp): the flat memref is of the sources' type,
    // the vector element's accesses index its leading dimensions.
    MemRefType sa = ma->type, sb = mb->type;
    if (isa<VectorType>(sa.getElementType()) || sa.getShape() != sb.getShape() ||
        sa.getElementType() != sb.getElementType())
      return L.unsupported(op, "a select of memrefs of vectors is lowered for two "
                               "vector.type_cast views of memrefs of one shape");
    MemRefLayoutAttrInterface layout = sa.getLayout();
    if (sa.getLayout() != sb.getLayout()) {
      SmallVector<int64_t> dyn(sa.getRank(), ShapedType::kDynamic);
      layout = StridedLayoutAttr::get(L.ctx, ShapedType::kDynamic, dyn);
    }
    mt = MemRefType::get(sa.getShape(), sa.getElementType(), layout, mt.getMemorySpace());
  }
  MemArg r;
  r.type = mt;
  r.view = true;
  auto pa = flatBase(L, op, *ma), pb = flatBase(L, op, *mb);
  if (failed(pa) || failed(pb))
    return failure();
  Value mask = L.toMask(*c);
  auto sel = [&](RV x, RV y) {
    return L.inst("v_cndmask_b32", L.vT, L.vOps({y, x, RV::of(RV::Mask, mask)}));
  };
  Value lo = sel(pa->first, pb->first), hi = sel(pa->second, pb->second);
  r.ptrReg = ConcatOp::create(L.b, L.loc, L.v2T, ValueRange{lo, hi});
  auto off = selectIndex(L, op, *c, L.memrefOffset(*ma), L.memrefOffset(*mb));
  if (failed(off))
    return failure();
  r.viewOffset = *off;
  for (int64_t d = 0; d < mt.getRank(); ++d) {
    auto s = selectIndex(L, op, *c, L.memrefSize(*ma, d), L.memrefSize(*mb, d));
    auto t = selectIndex(L, op, *c, L.memrefStride(*ma, d), L.memrefStride(*mb, d));
    if (failed(s) || failed(t))
      return failure();
    r.viewSizes.push_back(*s);
    r.viewStrides.push_back(*t);
  }
  L.mems[op->getResult(0)] = r;
  return success();
}

} // namespace

LogicalResult lowerFlatAccess(KernelLowering &L, Operation *op, const MemArg &m) {
  auto ld = dyn_cast<memref::LoadOp>(op);
  auto st = dyn_cast<memref::StoreOp>(op);
  if (!ld && !st)
    return L.unsupported(op, "only memref.load / store reach a memref of unknown memory "
                             "(a flat pointer)");
  unsigned bytes = memElementBytes(m.type.getElementType());
  if (!bytes)
    return L.unsupported(op, "memref elements of this type are not lowered");
  ValueRange idx = ld ? ld.getIndices() : st.getIndices();
  RV lin = L.memrefOffset(m);
  for (unsigned i = 0; i < idx.size(); ++i) {
    auto x = L.get(idx[i]);
    if (failed(x))
      return failure();
    lin = L.add(lin, L.mul(*x, L.memrefStride(m, i)));
  }
  RV off = L.shl(lin, RV::imm(llvm::Log2_32(bytes)));
  SmallVector<NamedAttribute> attrs;
  Value addr = flatAddress(L, m.ptrReg, off, attrs);
  std::string mn = "flat_" + memMnemonic(!ld, bytes, true, false).substr(7);
  if (ld) {
    Type rt = bytes == 8 ? L.v2T : L.vT;
    Value v = L.inst(mn, rt, {addr}, attrs);
    L.vals[ld] = bytes == 8 ? L.fromV64(v) : RV::of(RV::V, v, isF32(ld.getType()));
    return success();
  }
  auto v = L.get(st.getValue());
  if (failed(v))
    return failure();
  L.inst(mn, {}, {addr, bytes == 8 ? L.toV64(*v) : L.toV(*v)}, attrs);
  return success();
}

void populateMemrefFlatLowering(LoweringTable &table) {
  table.add(arith::SelectOp::getOperationName(), lowerSelect);
}

} // namespace aster::lower
