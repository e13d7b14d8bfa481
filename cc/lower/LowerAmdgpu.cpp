//===- LowerAmdgpu.cpp - amdgpu dialect ops to amdgcn instructions --------===//
//
//   amdgpu.mfma: LowerAmdgpuMfma.cpp.
//   amdgpu.sched_barrier -> amdgcn.sched_barrier (aster's scheduler fence).
//   amdgpu.memory_counter_wait -> s_waitcnt (load/store: vmcnt, ds: lgkmcnt).
//   amdgpu.swizzle_bitmode -> ds_swizzle_b32 (bit mode offset), per dword.
//   amdgpu.raw_buffer_atomic_{fadd,fmax,smax,umin,cmpswap} -> buffer_atomic_*
//     offen through the same V# as the loads below (cmpswap returning).
//   amdgpu.lds_barrier -> s_waitcnt lgkmcnt(0); s_barrier (what MLIR's
//     AMDGPUToROCDL emits for gfx9: LDS writes done before the barrier).
//   amdgpu.raw_buffer_load / raw_buffer_store -> buffer_load_ubyte / ushort /
//     dword[xN] (stores: byte / short / dword[xN]) by the bytes moved (1, 2,
//     4, 8, 12, 16: 8/16-bit scalars, vectors of f16/bf16/i16/i8, f64/i64)
//     offen through a buffer resource (V#) made from the memref: base = the
//     memref's aligned pointer, stride 0 (raw), num_records = the memref's
//     size in bytes (max over d of size(d) * stride(d) * element bytes),
//     word 3 = 0x27000, as MLIR's AMDGPUToROCDL builds it for gfx9
//     (DST_SEL_XYZW, DATA_FORMAT 32; LowerAmdgpuBuffer.h). vaddr = (the
//     memref.load index + indexOffset) * element bytes, soffset = sgprOffset
//     * element bytes (not bounds checked, CDNA3 ISA "Buffer
//     Instructions": the range check is on vaddr + inst offset against
//     num_records). An out-of-range load returns 0 and an out-of-range store
//     is dropped (the ISA's raw-buffer rules; the emulator implements them).
//     boundsCheck = false is lowered the same (gfx9 always checks).
//
// Needs before: operands lowered (vector values in KernelLowering::vecs,
// LowerVectorUtil.h); buffer ops on kernel-argument memrefs.
// Guarantees after: results in vals / vecs; anything else is an error at the
// op naming it.
//===----------------------------------------------------------------------===//
#include "lower/LowerAmdgpuBuffer.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace aster::lower {

FailureOr<Value> bufferResource(KernelLowering &L, Operation *op, Value m, RV baseBytes,
                                std::optional<RV> numRecords) {
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
  unsigned eb = memElementBytes(mt.getElementType());
  if (!eb)
    return L.unsupported(op, "memref elements of this type are not lowered");
  RV records = RV::imm(mt.getRank() == 0 ? eb : 0);
  for (int64_t d = 0; d < mt.getRank(); ++d) {
    RV size = mt.isDynamicDim(d) ? L.loadScalar(ma.sizes[d], false)
                                 : RV::imm((uint32_t)mt.getDimSize(d));
    RV stride = ShapedType::isDynamic(strides[d]) ? L.loadScalar(ma.strides[d], false)
                                                  : RV::imm((uint32_t)strides[d]);
    RV bytes = L.shl(L.mul(size, stride), RV::imm(llvm::Log2_32(eb)));
    records = d == 0 ? bytes
                     : L.ibin("s_max_u32", "v_max_u32", false, records, bytes,
                              [](uint32_t x, uint32_t y) { return std::max(x, y); });
  }
  if (numRecords)
    records = *numRecords;
  Value ptr = L.loadPtr(ma.ptr);
  Value lo = PartOp::create(L.b, L.loc, L.sT, ptr, L.b.getI32IntegerAttr(0));
  Value hi = PartOp::create(L.b, L.loc, L.sT, ptr, L.b.getI32IntegerAttr(1));
  if (!(baseBytes.k == RV::Imm && baseBytes.bits == 0)) {
    // base + baseBytes (a uniform byte offset), carried into the high half.
    lo = L.inst("s_add_u32", L.sT, {lo, L.sOp(baseBytes)});
    hi = L.inst("s_addc_u32", L.sT, {hi, L.cst(0)});
  }
  // Word 1: base[47:32] in bits 15:0, stride 0 in bits 29:16 (raw buffer).
  Value w1 = L.inst("s_and_b32", L.sT, {hi, L.cst(0xffff)});
  Value w2 = L.toS(records);
  Value w3 = L.inst("s_mov_b32", L.sT, L.cst(0x27000));
  Value w0 = L.inst("s_mov_b32", L.sT, lo);
  return (Value)ConcatOp::create(L.b, L.loc, RegType::getVirtual(L.ctx, RegKind::SGPR, 4, 4),
                                 ValueRange{w0, w1, w2, w3});
}

unsigned bufferAccessBytes(Type t) {
  auto vt = dyn_cast<VectorType>(t);
  Type et = getElementTypeOrSelf(t);
  if (!et.isIntOrFloat() || et.getIntOrFloatBitWidth() % 8)
    return 0;
  unsigned b = (vt ? vt.getNumElements() : 1) * et.getIntOrFloatBitWidth() / 8;
  return b == 1 || b == 2 || b == 4 || b == 8 || b == 12 || b == 16 ? b : 0;
}

std::string bufferMnemonic(bool store, unsigned bytes) {
  static const char *const ld[] = {"", "buffer_load_ubyte", "buffer_load_ushort", "",
                                   "buffer_load_dword"};
  static const char *const stv[] = {"", "buffer_store_byte", "buffer_store_short", "",
                                    "buffer_store_dword"};
  if (bytes <= 4)
    return store ? stv[bytes] : ld[bytes];
  return std::string(store ? "buffer_store_dwordx" : "buffer_load_dwordx") +
         std::to_string(bytes / 4);
}

LogicalResult emitBufferLoad(KernelLowering &L, Operation *op, Value result, Value rsrc,
                             Value voff, Value soff) {
  Type t = result.getType();
  unsigned bytes = bufferAccessBytes(t);
  if (!bytes)
    return L.unsupported(op, "only 1, 2, 4, 8, 12 or 16 bytes are loaded at once");
  NamedAttribute offen = L.b.getNamedAttr("offen", L.b.getUnitAttr());
  unsigned n = (bytes + 3) / 4;
  Type resT = n == 1 ? L.vT : n == 2 ? L.v2T : (Type)RegType::getVirtual(L.ctx, RegKind::VGPR, n);
  Value r = L.inst(bufferMnemonic(false, bytes), resT, {voff, rsrc, soff}, {offen});
  bool fl = getElementTypeOrSelf(t).isF32();
  if (!isa<VectorType>(t)) {
    L.vals[result] = is64(t) ? L.fromV64(r) : RV::of(RV::V, r, fl);
    return success();
  }
  SmallVector<RV> out;
  for (unsigned i = 0; i < n; ++i)
    out.push_back(RV::of(
        RV::V, n == 1 ? r : (Value)PartOp::create(L.b, L.loc, L.vT, r, L.b.getI32IntegerAttr(i)),
        fl));
  L.vecs[result] = out;
  return success();
}

LogicalResult emitBufferStore(KernelLowering &L, Operation *op, Value value, Value rsrc,
                              Value voff, Value soff) {
  Type t = value.getType();
  unsigned bytes = bufferAccessBytes(t);
  if (!bytes)
    return L.unsupported(op, "only 1, 2, 4, 8, 12 or 16 bytes are stored at once");
  NamedAttribute offen = L.b.getNamedAttr("offen", L.b.getUnitAttr());
  Value data;
  if (isa<VectorType>(t)) {
    auto it = L.vecs.find(value);
    if (it == L.vecs.end())
      return L.fn.emitOpError("uses a vector value amdgcn-lower does not know");
    SmallVector<Value> regs;
    for (const RV &w : it->second)
      regs.push_back(L.toV(w));
    data = regs.size() == 1 ? regs[0]
                            : (Value)ConcatOp::create(
                                  L.b, L.loc, RegType::getVirtual(L.ctx, RegKind::VGPR, regs.size()),
                                  regs);
  } else {
    auto v = L.get(value);
    if (failed(v))
      return failure();
    data = is64(t) ? L.toV64(*v) : L.toV(*v);
  }
  L.inst(bufferMnemonic(true, bytes), {}, {data, voff, rsrc, soff}, {offen});
  return success();
}

namespace {

template <typename BufOp>
FailureOr<std::tuple<Value, Value, Value>> bufferAddress(KernelLowering &L, BufOp op) {
  auto mt = op.getMemref().getType();
  unsigned eb = memElementBytes(mt.getElementType());
  if (!eb)
    return L.unsupported(op, "buffer accesses of this element type are not lowered");
  auto rsrc = bufferResource(L, op, op.getMemref());
  if (failed(rsrc))
    return failure();
  auto a = L.address(op, op.getMemref(), op.getIndices());
  if (failed(a))
    return failure();
  RV off = a->second;
  if (auto io = op.getIndexOffset())
    off = L.add(off, RV::imm(*io * eb));
  Value voff = L.toV(off);
  Value soff;
  if (op.getSgprOffset()) {
    auto s = L.get(op.getSgprOffset());
    if (failed(s))
      return failure();
    soff = L.toS(L.shl(*s, RV::imm(llvm::Log2_32(eb))));
  } else {
    soff = L.cst(0);
  }
  return std::tuple{*rsrc, voff, soff};
}

/// raw_buffer_atomic_fadd / fmax / smax / umin (32-bit values; fadd and
/// fmax of f64 too): buffer_atomic_<op>[_x2] offen through the memref's V#
/// (as the loads above), no result. gfx942 has no buffer_atomic_max_f32:
/// an error, as in LLVM 22 (llc-22 -mcpu=gfx942 stops on
/// llvm.amdgcn.raw.ptr.buffer.atomic.fmax.f32 with "Cannot select
/// AMDGPUISD::BUFFER_ATOMIC_FMAX": no compare-and-swap loop either).
template <typename AtomicOp>
LogicalResult lowerBufferAtomicAs(KernelLowering &L, AtomicOp a, StringRef mn32,
                                  StringRef mn64) {
  Type t = a.getValue().getType();
  bool wide = is64(t);
  StringRef mn = wide ? mn64 : mn32;
  if (!t.isIntOrFloat() || (!wide && t.getIntOrFloatBitWidth() != 32) || mn.empty())
    return L.unsupported(a, "gfx942 has no buffer atomic for this type (LLVM 22 cannot "
                            "select it either: no CAS loop)");
  auto v = L.get(a.getValue());
  if (failed(v))
    return failure();
  auto addr = bufferAddress(L, a);
  if (failed(addr))
    return failure();
  auto [rsrc, voff, soff] = *addr;
  Value data = wide ? L.toV64(*v) : L.toV(*v);
  L.inst(mn, {}, {data, voff, rsrc, soff}, {L.b.getNamedAttr("offen", L.b.getUnitAttr())});
  return success();
}

LogicalResult lowerBufferAtomic(KernelLowering &L, Operation *op) {
  if (auto a = dyn_cast<amdgpu::RawBufferAtomicFaddOp>(op))
    return lowerBufferAtomicAs(L, a, a.getValue().getType().isF32() ? "buffer_atomic_add_f32" : "",
                               "buffer_atomic_add_f64");
  if (auto a = dyn_cast<amdgpu::RawBufferAtomicFmaxOp>(op))
    return lowerBufferAtomicAs(L, a, "", a.getValue().getType().isF64() ? "buffer_atomic_max_f64" : "");
  if (auto a = dyn_cast<amdgpu::RawBufferAtomicSmaxOp>(op))
    return lowerBufferAtomicAs(L, a, "buffer_atomic_smax", "buffer_atomic_smax_x2");
  auto a = cast<amdgpu::RawBufferAtomicUminOp>(op);
  return lowerBufferAtomicAs(L, a, "buffer_atomic_umin", "buffer_atomic_umin_x2");
}

/// raw_buffer_atomic_cmpswap: buffer_atomic_cmpswap[_x2] offen returning
/// (sc0), data = {src, cmp}; the result is the memory's value before.
LogicalResult lowerBufferCmpswap(KernelLowering &L, amdgpu::RawBufferAtomicCmpswapOp a) {
  Type t = a.getSrc().getType();
  bool wide = is64(t);
  if (!t.isIntOrFloat() || (!wide && t.getIntOrFloatBitWidth() != 32))
    return L.unsupported(a, "only 32- and 64-bit values are swapped");
  auto s = L.get(a.getSrc()), c = L.get(a.getCmp());
  if (failed(s) || failed(c))
    return failure();
  auto addr = bufferAddress(L, a);
  if (failed(addr))
    return failure();
  auto [rsrc, voff, soff] = *addr;
  SmallVector<Value> words;
  for (RV x : {*s, *c}) {
    if (wide) {
      words.push_back(L.toV(KernelLowering::lo(x)));
      words.push_back(L.toV(KernelLowering::hi(x)));
    } else {
      words.push_back(L.toV(x));
    }
  }
  Value data = ConcatOp::create(L.b, L.loc,
                                RegType::getVirtual(L.ctx, RegKind::VGPR, wide ? 4 : 2, 2), words);
  // The result is the whole tied range (the old value in its first half).
  Type rt = RegType::getVirtual(L.ctx, RegKind::VGPR, wide ? 4 : 2, 2);
  Value r = L.inst(wide ? "buffer_atomic_cmpswap_x2_rtn" : "buffer_atomic_cmpswap_rtn", rt,
                   {voff, rsrc, soff, data}, // vdata_in: tied, last
                   {L.b.getNamedAttr("offen", L.b.getUnitAttr())});
  Value lo = PartOp::create(L.b, L.loc, wide ? L.v2T : L.vT, r, L.b.getI32IntegerAttr(0));
  L.vals[a.getResult()] = wide ? L.fromV64(lo) : RV::of(RV::V, lo, t.isF32());
  return success();
}

LogicalResult lowerAmdgpuOp(KernelLowering &L, Operation *op) {
  if (isa<amdgpu::LDSBarrierOp>(op)) {
    L.inst("s_waitcnt", {}, {}, {L.b.getNamedAttr("lgkmcnt", L.b.getI32IntegerAttr(0))});
    L.inst("s_barrier", {}, {});
    return success();
  }
  NamedAttribute offen = L.b.getNamedAttr("offen", L.b.getUnitAttr());
  if (auto ld = dyn_cast<amdgpu::RawBufferLoadOp>(op)) {
    if (!bufferAccessBytes(ld.getValue().getType()))
      return L.unsupported(op, "only 1, 2, 4, 8, 12 or 16 bytes are loaded at once");
    auto a = bufferAddress(L, ld);
    if (failed(a))
      return failure();
    auto [rsrc, voff, soff] = *a;
    return emitBufferLoad(L, op, ld.getValue(), rsrc, voff, soff);
  }
  if (auto st = dyn_cast<amdgpu::RawBufferStoreOp>(op)) {
    if (!bufferAccessBytes(st.getValue().getType()))
      return L.unsupported(op, "only 1, 2, 4, 8, 12 or 16 bytes are stored at once");
    auto a = bufferAddress(L, st);
    if (failed(a))
      return failure();
    auto [rsrc, voff, soff] = *a;
    return emitBufferStore(L, op, st.getValue(), rsrc, voff, soff);
  }
  if (isa<amdgpu::SchedBarrierOp>(op)) {
    // aster's scheduler fence (amdgcn.sched_barrier): nothing crosses it. A
    // mask allowing some kinds through is kept as the full fence (stricter
    // than asked, never wrong); LLVM emits no instruction either.
    SchedBarrierOp::create(L.b, L.loc);
    return success();
  }
  if (auto w = dyn_cast<amdgpu::MemoryCounterWaitOp>(op)) {
    // gfx9 counters (as AMDGPUToROCDL maps them before gfx12): loads and
    // stores share vmcnt (the smaller count), ds is lgkmcnt, exp expcnt.
    SmallVector<NamedAttribute> attrs;
    std::optional<uint32_t> vm;
    if (auto l = w.getLoad())
      vm = *l;
    if (auto s = w.getStore())
      vm = vm ? std::min(*vm, (uint32_t)*s) : (uint32_t)*s;
    if (vm)
      attrs.push_back(L.b.getNamedAttr("vmcnt", L.b.getI32IntegerAttr(std::min(*vm, 63u))));
    if (auto d = w.getDs())
      attrs.push_back(L.b.getNamedAttr("lgkmcnt", L.b.getI32IntegerAttr(std::min(*d, 15u))));
    if (auto e = w.getExp())
      attrs.push_back(L.b.getNamedAttr("expcnt", L.b.getI32IntegerAttr(std::min(*e, 7u))));
    if (w.getTensor())
      return L.unsupported(op, "gfx9 has no tensor counter");
    if (!attrs.empty())
      L.inst("s_waitcnt", {}, {}, attrs);
    return success();
  }
  if (auto sw = dyn_cast<amdgpu::SwizzleBitModeOp>(op)) {
    // ds_swizzle_b32 in bit mode: offset = and | or << 5 | xor << 10 (CDNA3
    // ISA, DS_SWIZZLE_B32; bit 15 clear), per dword of the value.
    auto v = L.get(sw.getSrc());
    if (failed(v))
      return failure();
    unsigned pattern = (sw.getAndMask() & 0x1f) | (sw.getOrMask() & 0x1f) << 5 |
                       (sw.getXorMask() & 0x1f) << 10;
    auto one = [&](RV x) {
      return RV::of(RV::V, L.inst("ds_swizzle_b32", L.vT, {L.toV(x)},
                                  {L.b.getNamedAttr("offset", L.b.getI32IntegerAttr(pattern))}),
                    x.isFloat);
    };
    Type t = sw.getSrc().getType();
    if (!t.isIntOrFloat() || t.getIntOrFloatBitWidth() > 64)
      return L.unsupported(op, "only scalars of up to 64 bits are swizzled");
    L.vals[sw.getResult()] = v->wide ? L.pair(one(KernelLowering::lo(*v)),
                                              one(KernelLowering::hi(*v)))
                                     : one(*v);
    return success();
  }
  if (isa<amdgpu::RawBufferAtomicFaddOp, amdgpu::RawBufferAtomicFmaxOp,
          amdgpu::RawBufferAtomicSmaxOp, amdgpu::RawBufferAtomicUminOp>(op))
    return lowerBufferAtomic(L, op);
  if (auto cs = dyn_cast<amdgpu::RawBufferAtomicCmpswapOp>(op))
    return lowerBufferCmpswap(L, cs);
  return L.unsupported(op);
}

} // namespace

void populateAmdgpuLowering(LoweringTable &table) {
  table.add(amdgpu::AMDGPUDialect::getDialectNamespace(), lowerAmdgpuOp);
}

} // namespace aster::lower
