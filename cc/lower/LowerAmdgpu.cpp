//===- LowerAmdgpu.cpp - amdgpu dialect ops to amdgcn instructions --------===//
//
//   amdgpu.mfma MxNxK (blocks) a * b + c -> the instruction table's
//     v_mfma_<c type>_<M>x<N>x<K>[_<blocks>b]_<a type> (the table says
//     whether the target has it and its operand widths). a, b and c are
//     packed into VGPR ranges (amdgcn.concat), the result split back into
//     words (amdgcn.part). cbsz/abid/blgp other than 0/none and
//     reducePrecision are errors.
//   amdgpu.lds_barrier -> s_waitcnt lgkmcnt(0); s_barrier (what MLIR's
//     AMDGPUToROCDL emits for gfx9: LDS writes done before the barrier).
//   amdgpu.raw_buffer_load / raw_buffer_store -> buffer_load/store_dword[xN]
//     offen through a buffer resource (V#) made from the memref: base = the
//     memref's aligned pointer, stride 0 (raw), num_records = the memref's
//     size in bytes (max over d of size(d) * stride(d) * 4), word 3 =
//     0x27000, as MLIR's AMDGPUToROCDL builds it for gfx9 (DST_SEL_XYZW,
//     DATA_FORMAT 32). vaddr = (the memref.load index + indexOffset) * 4,
//     soffset = sgprOffset * 4 (not bounds checked, CDNA3 ISA "Buffer
//     Instructions": the range check is on vaddr + inst offset against
//     num_records). An out-of-range load returns 0 and an out-of-range store
//     is dropped (the ISA's raw-buffer rules; the emulator implements them).
//     boundsCheck = false is lowered the same (gfx9 always checks).
//
// Needs before: operands lowered (vector values in KernelLowering::vecs,
// LowerVector.cpp); buffer ops on kernel-argument memrefs of 4-byte elements.
// Guarantees after: results in vals / vecs; anything else is an error at the
// op naming it.
//===----------------------------------------------------------------------===//
#include "lower/KernelLowering.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace aster::lower {

namespace {

unsigned bitsOf(Type t) { return t.isIndex() ? 32 : t.getIntOrFloatBitWidth(); }

/// The 32-bit words of an MFMA operand (a vector in vecs, or a scalar).
FailureOr<SmallVector<RV>> words(KernelLowering &L, Value v) {
  if (isa<VectorType>(v.getType())) {
    auto it = L.vecs.find(v);
    if (it == L.vecs.end())
      return L.fn.emitOpError("uses a vector value amdgcn-lower does not know");
    return it->second;
  }
  auto r = L.get(v);
  if (failed(r))
    return failure();
  return SmallVector<RV>{*r};
}

Value range(KernelLowering &L, ArrayRef<RV> ws) {
  SmallVector<Value> regs;
  for (const RV &w : ws)
    regs.push_back(L.toV(w));
  if (regs.size() == 1)
    return regs[0];
  return ConcatOp::create(L.b, L.loc, RegType::getVirtual(L.ctx, RegKind::VGPR, regs.size()),
                          regs);
}

std::string typeSuffix(Type t) {
  if (t.isF32()) return "f32";
  if (t.isF16()) return "f16";
  if (t.isBF16()) return "bf16";
  if (t.isF64()) return "f64";
  if (t.isInteger(8)) return "i8";
  if (t.isInteger(32)) return "i32";
  return "";
}

LogicalResult lowerMfma(KernelLowering &L, amdgpu::MFMAOp op) {
  if (op.getCbsz() || op.getAbid() || op.getBlgp() != amdgpu::MFMAPermB::none ||
      op.getReducePrecision())
    return L.unsupported(op, "cbsz, abid, blgp and reducePrecision are not lowered");
  Type aElem = getElementTypeOrSelf(op.getSourceA().getType());
  Type cElem = getElementTypeOrSelf(op.getDestC().getType());
  std::string mn = ("v_mfma_" + typeSuffix(cElem) + "_" + Twine(op.getM()) + "x" +
                    Twine(op.getN()) + "x" + Twine(op.getK()) +
                    (op.getBlocks() > 1 ? "_" + Twine(op.getBlocks()) + "b" : Twine("")) + "_" +
                    typeSuffix(aElem))
                       .str();
  const ISA::InstDesc *d = ISA::lookup(mn);
  if (!d)
    return L.unsupported(op, "the instruction table has no " + mn);
  if (!d->validOn(L.km.getTargetBit()))
    return L.unsupported(op, mn + " is not an instruction of " + L.km.getTarget());
  auto a = words(L, op.getSourceA()), b = words(L, op.getSourceB()),
       c = words(L, op.getDestC());
  if (failed(a) || failed(b) || failed(c))
    return failure();
  unsigned abw = d->srcs()[0].width, dw = d->dsts()[0].width;
  if (a->size() != abw || b->size() != abw || c->size() != dw)
    return L.unsupported(op, mn + " takes " + Twine(abw) + "-register sources and a " +
                                 Twine(dw) + "-register accumulator");
  Type resT = dw == 1 ? L.vT : (Type)RegType::getVirtual(L.ctx, RegKind::VGPR, dw);
  Value r = L.inst(mn, resT, {range(L, *a), range(L, *b), range(L, *c)});
  bool fl = isa<FloatType>(cElem);
  SmallVector<RV> out;
  if (dw == 1)
    out.push_back(RV::of(RV::V, r, fl));
  else
    for (unsigned i = 0; i < dw; ++i)
      out.push_back(
          RV::of(RV::V, PartOp::create(L.b, L.loc, L.vT, r, L.b.getI32IntegerAttr(i)), fl));
  if (isa<VectorType>(op.getDestD().getType()))
    L.vecs[op.getDestD()] = out;
  else
    L.vals[op.getDestD()] = out[0];
  return success();
}

/// The buffer resource (4 SGPRs) of kernel-argument memref `m`.
FailureOr<Value> resource(KernelLowering &L, Operation *op, Value m) {
  auto it = L.mems.find(m);
  if (it == L.mems.end() || it->second.lds || it->second.view || it->second.priv ||
      it->second.regs)
    return L.unsupported(op, "buffer resources are made from kernel-argument memrefs only");
  const MemArg &ma = it->second;
  auto mt = ma.type;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(mt.getStridesAndOffset(strides, offset)))
    return L.unsupported(op, "the memref layout is not strided");
  // num_records: max over d of size(d) * stride(d), in bytes.
  RV records = RV::imm(mt.getRank() == 0 ? 4 : 0);
  for (int64_t d = 0; d < mt.getRank(); ++d) {
    RV size = mt.isDynamicDim(d) ? L.loadScalar(ma.sizes[d], false)
                                 : RV::imm((uint32_t)mt.getDimSize(d));
    RV stride = ShapedType::isDynamic(strides[d]) ? L.loadScalar(ma.strides[d], false)
                                                  : RV::imm((uint32_t)strides[d]);
    RV bytes = L.shl(L.mul(size, stride), RV::imm(2));
    records = d == 0 ? bytes
                     : L.ibin("s_max_u32", "v_max_u32", false, records, bytes,
                              [](uint32_t x, uint32_t y) { return std::max(x, y); });
  }
  Value ptr = L.loadPtr(ma.ptr);
  Value lo = PartOp::create(L.b, L.loc, L.sT, ptr, L.b.getI32IntegerAttr(0));
  Value hi = PartOp::create(L.b, L.loc, L.sT, ptr, L.b.getI32IntegerAttr(1));
  // Word 1: base[47:32] in bits 15:0, stride 0 in bits 29:16 (raw buffer).
  Value w1 = L.inst("s_and_b32", L.sT, {hi, L.cst(0xffff)});
  Value w2 = L.toS(records);
  Value w3 = L.inst("s_mov_b32", L.sT, L.cst(0x27000));
  Value w0 = L.inst("s_mov_b32", L.sT, lo);
  return (Value)ConcatOp::create(L.b, L.loc, RegType::getVirtual(L.ctx, RegKind::SGPR, 4, 4),
                                 ValueRange{w0, w1, w2, w3});
}

template <typename BufOp>
FailureOr<std::tuple<Value, Value, Value>> bufferAddress(KernelLowering &L, BufOp op) {
  auto mt = op.getMemref().getType();
  if (bitsOf(mt.getElementType()) != 32)
    return L.unsupported(op, "buffer accesses are lowered on memrefs of 4-byte elements");
  auto rsrc = resource(L, op, op.getMemref());
  if (failed(rsrc))
    return failure();
  auto a = L.address(op, op.getMemref(), op.getIndices());
  if (failed(a))
    return failure();
  RV off = a->second;
  if (auto io = op.getIndexOffset())
    off = L.add(off, RV::imm(*io * 4));
  Value voff = L.toV(off);
  Value soff;
  if (op.getSgprOffset()) {
    auto s = L.get(op.getSgprOffset());
    if (failed(s))
      return failure();
    soff = L.toS(L.shl(*s, RV::imm(2)));
  } else {
    soff = L.cst(0);
  }
  return std::tuple{*rsrc, voff, soff};
}

LogicalResult lowerAmdgpuOp(KernelLowering &L, Operation *op) {
  if (auto m = dyn_cast<amdgpu::MFMAOp>(op))
    return lowerMfma(L, m);
  if (isa<amdgpu::LDSBarrierOp>(op)) {
    L.inst("s_waitcnt", {}, {}, {L.b.getNamedAttr("lgkmcnt", L.b.getI32IntegerAttr(0))});
    L.inst("s_barrier", {}, {});
    return success();
  }
  static const char *const loads[] = {"", "buffer_load_dword", "buffer_load_dwordx2",
                                      "buffer_load_dwordx3", "buffer_load_dwordx4"};
  static const char *const stores[] = {"", "buffer_store_dword", "buffer_store_dwordx2",
                                       "buffer_store_dwordx3", "buffer_store_dwordx4"};
  NamedAttribute offen = L.b.getNamedAttr("offen", L.b.getUnitAttr());
  if (auto ld = dyn_cast<amdgpu::RawBufferLoadOp>(op)) {
    Type t = ld.getValue().getType();
    auto vt = dyn_cast<VectorType>(t);
    unsigned n = vt ? vt.getNumElements() : 1;
    if (bitsOf(getElementTypeOrSelf(t)) != 32 || n > 4)
      return L.unsupported(op, "only 1 to 4 elements of 32 bits are loaded");
    auto a = bufferAddress(L, ld);
    if (failed(a))
      return failure();
    auto [rsrc, voff, soff] = *a;
    Type resT = n == 1 ? L.vT : (Type)RegType::getVirtual(L.ctx, RegKind::VGPR, n);
    Value r = L.inst(loads[n], resT, {voff, rsrc, soff}, {offen});
    bool fl = isa<FloatType>(getElementTypeOrSelf(t));
    if (!vt) {
      L.vals[ld.getValue()] = RV::of(RV::V, r, fl);
      return success();
    }
    SmallVector<RV> out;
    for (unsigned i = 0; i < n; ++i)
      out.push_back(RV::of(RV::V, n == 1 ? r : (Value)PartOp::create(L.b, L.loc, L.vT, r,
                                                                      L.b.getI32IntegerAttr(i)),
                           fl));
    L.vecs[ld.getValue()] = out;
    return success();
  }
  if (auto st = dyn_cast<amdgpu::RawBufferStoreOp>(op)) {
    Type t = st.getValue().getType();
    auto vt = dyn_cast<VectorType>(t);
    unsigned n = vt ? vt.getNumElements() : 1;
    if (bitsOf(getElementTypeOrSelf(t)) != 32 || n > 4)
      return L.unsupported(op, "only 1 to 4 elements of 32 bits are stored");
    auto ws = words(L, st.getValue());
    if (failed(ws))
      return failure();
    auto a = bufferAddress(L, st);
    if (failed(a))
      return failure();
    auto [rsrc, voff, soff] = *a;
    L.inst(stores[n], {}, {range(L, *ws), voff, rsrc, soff}, {offen});
    return success();
  }
  return L.unsupported(op);
}

} // namespace

void populateAmdgpuLowering(LoweringTable &table) {
  table.add(amdgpu::AMDGPUDialect::getDialectNamespace(), lowerAmdgpuOp);
}

} // namespace aster::lower
