//===- LowerAmdgpuFatBuffer.cpp - fat raw buffers, gather_to_lds ----------===//
//
//   amdgpu.fat_raw_buffer_cast %m -> no instruction: the result is %m's
//     memory (its MemArg), accessed through a buffer resource. As upstream's
//     AMDGPUToROCDL builds it (rocdl.make.buffer.rsrc; mlir-opt-22 on the
//     audit's probe: base = the aligned pointer, stride 0, num_records = the
//     memref's bytes, flags 0x27000 = 159744): num_records = validBytes when
//     given, else max over d of size(d) * stride(d) * element bytes;
//     resetOffset adds the memref's offset (elements) to the base and the
//     result's offset is 0. boundsCheck = false is lowered the same (gfx9
//     always checks, as for raw_buffer_load). cacheSwizzleStride only
//     changes cache behaviour (the op's documentation), not values; a
//     non-constant or non-zero one is an error here (not lowered).
//   memref.load / memref.store on a memref of
//     #amdgpu.address_space<fat_raw_buffer> (the cast's result) ->
//     buffer_load / buffer_store offen (LowerAmdgpuBuffer.h) at the element's
//     byte offset, so an out-of-range load reads 0 and an out-of-range store
//     is dropped (the ISA's raw-buffer rules, the emulator's too). Other
//     memrefs: KernelLowering::lowerMemref (LowerMemory.cpp), unchanged.
//   amdgpu.gather_to_lds %src[i], %dst[j] : T (gfx942/gfx950) ->
//     m0 = the LDS byte address of %dst[j] (lane 0's: s_readfirstlane when
//     divergent), global_load_lds_{ubyte,ushort,dword,dwordx3,dwordx4}
//     (1, 2, 4, 12, 16 bytes; dwordx3/x4 gfx950 only) of %src[i] per lane:
//     lane l's data lands at m0 + l * max(4, bytes) (CDNA3 ISA "Global Load
//     LDS"; what llc-22 selects for llvm.amdgcn.global.load.lds). The
//     waitcnt pass orders later LDS reads after it (vmcnt, LDS DMA).
//     From a fat buffer (the cast's result): buffer_load_<size> offen lds
//     through its V# (llc-22 for rocdl.raw.ptr.buffer.load.lds), m0 as
//     above: an out-of-range lane's slot gets 0 (the raw-buffer rules).
//
// Needs before: kernel-argument memrefs (global); dst a workgroup memref.
// Guarantees after: loads' results in vals; anything else an error at the op.
//===----------------------------------------------------------------------===//
#include "lower/LowerAmdgpuBuffer.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace aster::lower {

namespace {

bool isFatBuffer(Type t) {
  auto mt = dyn_cast<MemRefType>(t);
  auto as = mt ? dyn_cast_or_null<amdgpu::AddressSpaceAttr>(mt.getMemorySpace())
               : amdgpu::AddressSpaceAttr();
  return as && as.getValue() == amdgpu::AddressSpace::FatRawBuffer;
}

LogicalResult lowerCast(KernelLowering &L, Operation *o) {
  auto op = cast<amdgpu::FatRawBufferCastOp>(o);
  auto it = L.mems.find(op.getSource());
  if (it == L.mems.end() || it->second.lds || it->second.view || it->second.priv ||
      it->second.regs)
    return L.unsupported(op, "fat buffers are made from kernel-argument memrefs only");
  if (Value s = op.getCacheSwizzleStride()) {
    APInt c;
    if (!matchPattern(s, m_ConstantInt(&c)) || !c.isZero())
      return L.unsupported(op, "cacheSwizzleStride is not lowered");
  }
  MemArg m = it->second;
  m.type = op.getResult().getType();
  L.mems[op.getResult()] = m;
  return success();
}

/// (rsrc, voff, soff) of memref[idx] through the fat buffer `mem`.
FailureOr<std::tuple<Value, Value, Value>> fatAddress(KernelLowering &L, Operation *op, Value mem,
                                                      ValueRange idx) {
  auto cast = mem.getDefiningOp<amdgpu::FatRawBufferCastOp>();
  if (!cast)
    return L.unsupported(op, "only the result of amdgpu.fat_raw_buffer_cast is accessed as a "
                             "fat buffer");
  auto srcT = cast.getSource().getType();
  unsigned eb = memElementBytes(srcT.getElementType());
  RV base = RV::imm(0);
  if (cast.getResetOffset()) {
    SmallVector<int64_t> strides;
    int64_t off;
    if (failed(srcT.getStridesAndOffset(strides, off)) || ShapedType::isDynamic(off))
      return L.unsupported(op, "resetOffset of a dynamic offset is not lowered");
    base = RV::imm((uint32_t)(off * eb));
  }
  std::optional<RV> records;
  if (Value vb = cast.getValidBytes()) {
    auto r = L.get(vb);
    if (failed(r))
      return failure();
    records = KernelLowering::lo(*r);
  }
  auto rsrc = bufferResource(L, op, mem, base, records);
  if (failed(rsrc))
    return failure();
  auto a = L.address(op, mem, idx);
  if (failed(a))
    return failure();
  return std::tuple{*rsrc, L.toV(a->second), L.cst(0)};
}

LogicalResult lowerLoadStore(KernelLowering &L, Operation *op) {
  if (auto ld = dyn_cast<memref::LoadOp>(op); ld && isFatBuffer(ld.getMemRef().getType())) {
    auto a = fatAddress(L, op, ld.getMemRef(), ld.getIndices());
    if (failed(a))
      return failure();
    auto [rsrc, voff, soff] = *a;
    return emitBufferLoad(L, op, ld.getResult(), rsrc, voff, soff);
  }
  if (auto st = dyn_cast<memref::StoreOp>(op); st && isFatBuffer(st.getMemRef().getType())) {
    auto a = fatAddress(L, op, st.getMemRef(), st.getIndices());
    if (failed(a))
      return failure();
    auto [rsrc, voff, soff] = *a;
    return emitBufferStore(L, op, st.getValue(), rsrc, voff, soff);
  }
  return L.lowerMemref(op);
}

LogicalResult lowerGatherToLds(KernelLowering &L, Operation *o) {
  auto op = cast<amdgpu::GatherToLDSOp>(o);
  Type t = op.getTransferType();
  unsigned bytes = bufferAccessBytes(t);
  static const char *const names[] = {"", "ubyte", "ushort", "", "dword", "", "", "", "",
                                      "", "", "", "dwordx3", "", "", "", "dwordx4"};
  std::string mn = bytes && bytes != 8 ? std::string("global_load_lds_") + names[bytes] : "";
  const ISA::InstDesc *d = mn.empty() ? nullptr : ISA::lookup(mn);
  if (!d || !d->validOn(L.km.getTargetBit()))
    return L.unsupported(op, "no global_load_lds of " + Twine(bytes) + " bytes on " +
                                 L.km.getTarget());
  if (isFatBuffer(op.getSrc().getType())) {
    // buffer_load_<size> ... offen lds through the fat buffer's V# (llc-22:
    // the same for rocdl.raw.ptr.buffer.load.lds); out-of-range lanes write 0.
    std::string bmn = std::string("buffer_load_") + names[bytes] + "_lds";
    const ISA::InstDesc *bd = ISA::lookup(bmn);
    if (!bd || !bd->validOn(L.km.getTargetBit()))
      return L.unsupported(op, "no " + bmn + " on " + L.km.getTarget());
    auto dst = L.address(op, op.getDst(), op.getDstIndices());
    if (failed(dst))
      return failure();
    if (dst->first)
      return L.unsupported(op, "the destination must be LDS");
    auto a = fatAddress(L, op, op.getSrc(), op.getSrcIndices());
    if (failed(a))
      return failure();
    auto [rsrc, voff, soff] = *a;
    Type m0T = SpecialRegType::get(L.ctx, SpecialReg::m0);
    L.inst("s_mov_b32", m0T, L.toS(dst->second));
    L.inst(bmn, {}, {voff, rsrc, soff}, {L.b.getNamedAttr("offen", L.b.getUnitAttr())});
    return success();
  }
  auto src = L.address(op, op.getSrc(), op.getSrcIndices());
  auto dst = L.address(op, op.getDst(), op.getDstIndices());
  if (failed(src) || failed(dst))
    return failure();
  if (!src->first || dst->first)
    return L.unsupported(op, "the source must be global memory and the destination LDS");
  Type m0T = SpecialRegType::get(L.ctx, SpecialReg::m0);
  L.inst("s_mov_b32", m0T, L.toS(dst->second));
  L.inst(mn, {}, {L.toV(src->second), src->first});
  return success();
}

} // namespace

void populateAmdgpuFatBufferLowering(LoweringTable &table) {
  table.addOps<amdgpu::FatRawBufferCastOp>(lowerCast);
  table.addOps<memref::LoadOp, memref::StoreOp>(lowerLoadStore);
  table.addOps<amdgpu::GatherToLDSOp>(lowerGatherToLds);
}

} // namespace aster::lower
