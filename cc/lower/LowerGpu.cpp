//===- LowerGpu.cpp - gpu ids, dims, barrier, shuffle, reductions ---------===//
//
// Thread ids come from v0 (packed 10:10:10 when several dimensions are
// used), block ids from the SGPRs the kernel descriptor enables, block and
// grid dims from the known sizes or the HSA dispatch packet. Shuffles are
// ds_bpermute_b32 at a computed source lane, wave reductions a butterfly of
// ds_swizzle_b32 then one ds_bpermute_b32 across the halves.
// Needs before: setupInterface (the id/dispatch registers) and the operands
// lowered. Guarantees after: one RV per result; any other gpu op is an error
// naming it.
//===----------------------------------------------------------------------===//
#include "lower/KernelLowering.h"

namespace aster::lower {

RV KernelLowering::laneId() {
  // Once per kernel, in the entry block (all lanes are on there).
  if (!lane)
    lane = inPrologue([&] {
      Value lo = inst("v_mbcnt_lo_u32_b32", vT, {cst(-1), cst(0)});
      return inst("v_mbcnt_hi_u32_b32", vT, {cst(-1), lo});
    });
  return RV::of(RV::V, lane);
}

Value KernelLowering::laneByteAddr() {
  if (!laneAddr) {
    Value l = laneId().reg;
    laneAddr = inPrologue([&] { return inst("v_lshlrev_b32", vT, {cst(2), l}); });
  }
  return laneAddr;
}

LogicalResult KernelLowering::lowerGpu(Operation *op) {
  auto known = fn.getKnownBlockSizeAttr();
  if (auto t = dyn_cast<gpu::ThreadIdOp>(op)) {
    unsigned d = (unsigned)t.getDimension();
    if (known && known[d] == 1) {
      vals[t] = RV::imm(0);
    } else if (!packedIds) {
      vals[t] = RV::of(RV::V, tid0);
    } else {
      vals[t] = RV::of(RV::V, inPrologue([&] {
                         return inst("v_bfe_u32", vT, {tid0, cst(10 * d), cst(10)});
                       }));
    }
    return success();
  }
  if (auto t = dyn_cast<gpu::BlockIdOp>(op)) {
    vals[t] = RV::of(RV::S, wgid[(unsigned)t.getDimension()]);
    return success();
  }
  if (auto t = dyn_cast<gpu::BlockDimOp>(op)) {
    unsigned d = (unsigned)t.getDimension();
    if (known) {
      vals[t] = RV::imm(known[d]);
      return success();
    }
    // hsa_kernel_dispatch_packet_t: workgroup_size_x/y/z are u16 at bytes
    // 4, 6, 8 (HSA Platform System Architecture Spec 1.2, 2.9.6).
    // The load in the entry block, the field extracted where it is used
    // (the load's latency hides behind the other argument loads).
    Value w = inPrologue([&] { return inst("s_load_dword", sT, {dispatchPtr, cst(d == 2 ? 8 : 4)}); });
    RV word = RV::of(RV::S, w);
    vals[t] = d == 1 ? ibin("s_lshr_b32", "v_lshrrev_b32", true, word, RV::imm(16), nullptr)
                     : ibin("s_and_b32", "v_and_b32", false, word, RV::imm(0xffff), nullptr);
    return success();
  }
  if (auto t = dyn_cast<gpu::GridDimOp>(op)) {
    unsigned d = (unsigned)t.getDimension();
    if (auto kg = fn.getKnownGridSizeAttr()) {
      vals[t] = RV::imm(kg[d]);
      return success();
    }
    // grid_size_x/y/z (work-items) are u32 at bytes 12, 16, 20 of the
    // dispatch packet (same section); blocks = grid / block when the block
    // size is a known power of two.
    if (!known || (known[d] & (known[d] - 1)))
      return unsupported(op, "needs known_block_size (a power of two) on the kernel");
    vals[t] = RV::of(RV::S, inPrologue([&] {
                       Value g = inst("s_load_dword", sT, {dispatchPtr, cst(12 + 4 * d)});
                       return inst("s_lshr_b32", sT, {g, cst(llvm::countr_zero((unsigned)known[d]))});
                     }));
    return success();
  }
  if (auto t = dyn_cast<gpu::LaneIdOp>(op)) {
    vals[t] = laneId();
    return success();
  }
  if (auto t = dyn_cast<gpu::SubgroupSizeOp>(op)) {
    vals[t] = RV::imm(64);
    return success();
  }
  if (isa<gpu::BarrierOp>(op)) {
    // Workgroup release/acquire around the barrier: every memory access of
    // this wave done first (LLVM's AMDGPUUsage memory model, GFX942,
    // "fence release workgroup": s_waitcnt vmcnt(0) lgkmcnt(0)).
    inst("s_waitcnt", {}, {}, {b.getNamedAttr("vmcnt", b.getI32IntegerAttr(0)),
                               b.getNamedAttr("lgkmcnt", b.getI32IntegerAttr(0))});
    inst("s_barrier", {}, {});
    return success();
  }
  if (isa<gpu::ReturnOp>(op)) {
    if (op->getParentOp() != fn.getOperation())
      return unsupported(op, "gpu.return only ends the kernel body");
    inst("s_endpgm", {}, {});
    return success();
  }
  if (auto s = dyn_cast<gpu::ShuffleOp>(op)) {
    if (!is32(s.getValue().getType()))
      return unsupported(op, "only 32-bit values are shuffled");
    auto v = get(s.getValue()), off = get(s.getOffset()), w = get(s.getWidth());
    if (failed(v) || failed(off) || failed(w))
      return failure();
    if (w->k != RV::Imm || !w->bits || (w->bits & (w->bits - 1)) || w->bits > 64)
      return unsupported(op, "the width must be a constant power of two up to 64");
    // gpu.shuffle as MLIR's ROCDL lowering defines it (GPUToROCDL
    // "GPUShuffleOpLowering"): the source lane is lane ^ offset (xor),
    // offset (idx: a lane of the wave, not of the segment), lane + offset
    // (down), lane - offset (up); it is valid when below the end of this
    // lane's segment of `width` lanes, (lane + width) & -width; an invalid
    // lane reads its own value. (NVVM's shfl reads idx within the segment;
    // we follow the AMD lowering.)
    if (s.getMode() == gpu::ShuffleMode::XOR && off->k == RV::Imm && off->bits < w->bits) {
      // lane ^ c stays in its segment: valid everywhere; the byte address
      // is (lane * 4) ^ (c * 4).
      Value addr = valu("v_xor_b32", {RV::imm(off->bits * 4), RV::of(RV::V, laneByteAddr())}, false).reg;
      Value r = inst("ds_bpermute_b32", vT, {addr, toV(*v)});
      vals[s.getShuffleResult()] = RV::of(RV::V, r, v->isFloat);
      vals[s.getValid()] = RV::imm(1);
      return success();
    }
    RV lane = laneId();
    RV dst;
    switch (s.getMode()) {
    case gpu::ShuffleMode::XOR:
      dst = ibin("s_xor_b32", "v_xor_b32", false, lane, *off, nullptr);
      break;
    case gpu::ShuffleMode::IDX:
      dst = *off;
      break;
    case gpu::ShuffleMode::DOWN:
      dst = add(lane, *off);
      break;
    case gpu::ShuffleMode::UP:
      dst = ibin("s_sub_u32", "v_sub_u32", false, lane, *off, nullptr);
      break;
    }
    RV segEnd = ibin("s_and_b32", "v_and_b32", false, add(lane, *w), RV::imm(-w->bits), nullptr);
    Value valid;
    Value src;
    {
      valid = inst("v_cmp_lt_u32", s2T, vOps({dst, segEnd}));
      src = inst("v_cndmask_b32", vT, {toV(lane), toV(dst), valid});
    }
    Value addr = inst("v_lshlrev_b32", vT, {cst(2), src});
    Value r = inst("ds_bpermute_b32", vT, {addr, toV(*v)});
    vals[s.getShuffleResult()] = RV::of(RV::V, r, v->isFloat);
    vals[s.getValid()] = RV::of(RV::Mask, valid);
    return success();
  }
  if (auto r = dyn_cast<gpu::SubgroupReduceOp>(op)) {
    if (!is32(r.getType()))
      return unsupported(op, "only reductions of 32-bit values are lowered");
    // A cluster: aligned groups of `size` consecutive lanes (stride 1), each
    // reduced on its own; the result differs between clusters (a VGPR).
    unsigned cluster = r.getClusterSize().value_or(64);
    if (r.getClusterStride() != 1)
      return unsupported(op, "only clusters of consecutive lanes (stride 1) are lowered");
    if (cluster > 64)
      return unsupported(op, "clusters are at most the 64 lanes of a wave");
    auto x = get(r.getValue());
    if (failed(x))
      return failure();
    bool fl = isF32(r.getType());
    using K = gpu::AllReduceOperation;
    StringRef mn;
    switch (r.getOp()) {
    case K::ADD: mn = fl ? "v_add_f32" : "v_add_u32"; break;
    case K::MUL: mn = fl ? "v_mul_f32" : "v_mul_lo_u32"; break;
    case K::MINUI: mn = "v_min_u32"; break;
    case K::MINSI: mn = "v_min_i32"; break;
    case K::MAXUI: mn = "v_max_u32"; break;
    case K::MAXSI: mn = "v_max_i32"; break;
    case K::MINNUMF: mn = "v_min_f32"; break;
    case K::MAXNUMF: mn = "v_max_f32"; break;
    case K::AND: mn = "v_and_b32"; break;
    case K::OR: mn = "v_or_b32"; break;
    case K::XOR: mn = "v_xor_b32"; break;
    default: return unsupported(op, "this reduction kind is not lowered");
    }
    // Butterfly over the 64 lanes: after step k every lane holds the
    // reduction of its 2^k-lane group (ds_swizzle within 32 lanes, then
    // ds_bpermute across the halves).
    Value acc = toV(*x);
    for (unsigned k = 1; k < std::min(cluster, 32u); k <<= 1) {
      // ds_swizzle bit mode: offset = and_mask | or_mask << 5 | xor_mask << 10
      // (CDNA3 ISA 12.13.x, "DS_SWIZZLE_B32": bit 15 clear = bitmask mode).
      unsigned pattern = 0x1f | (k << 10);
      Value other = inst("ds_swizzle_b32", vT, {acc},
                         {b.getNamedAttr("offset", b.getI32IntegerAttr(pattern))});
      acc = inst(mn, vT, {acc, other});
    }
    if (cluster < 64) {
      vals[r] = RV::of(RV::V, acc, fl);
      return success();
    }
    Value xaddr = valu("v_xor_b32", {RV::imm(128), RV::of(RV::V, laneByteAddr())}, false).reg;
    Value other = inst("ds_bpermute_b32", vT, {xaddr, acc});
    acc = inst(mn, vT, {acc, other});
    vals[r] = RV::of(RV::S, inst("v_readfirstlane_b32", sT, acc), fl);
    return success();
  }
  return unsupported(op);
}

void populateGpuLowering(LoweringTable &table) {
  table.add("gpu", [](KernelLowering &k, Operation *op) { return k.lowerGpu(op); });
}

} // namespace aster::lower
