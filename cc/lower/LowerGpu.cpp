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

#include "mlir/Dialect/MemRef/IR/MemRef.h"

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

StringRef KernelLowering::reduceInst(gpu::AllReduceOperation k, bool fl) {
  using K = gpu::AllReduceOperation;
  switch (k) {
  case K::ADD: return fl ? "v_add_f32" : "v_add_u32";
  case K::MUL: return fl ? "v_mul_f32" : "v_mul_lo_u32";
  case K::MINUI: return "v_min_u32";
  case K::MINSI: return "v_min_i32";
  case K::MAXUI: return "v_max_u32";
  case K::MAXSI: return "v_max_i32";
  case K::MINNUMF: return "v_min_f32";
  case K::MAXNUMF: return "v_max_f32";
  case K::AND: return "v_and_b32";
  case K::OR: return "v_or_b32";
  case K::XOR: return "v_xor_b32";
  default: return "";
  }
}

// Butterfly over the lanes of a wave: after step k every lane holds the
// reduction of its 2^k-lane group (ds_swizzle within 32 lanes, then
// ds_bpermute across the halves). Needs every lane of the wave active.
FailureOr<Value> KernelLowering::waveReduce(Value acc, unsigned cluster,
                                            function_ref<FailureOr<Value>(Value, Value)> combine) {
  for (unsigned k = 1; k < std::min(cluster, 32u); k <<= 1) {
    // ds_swizzle bit mode: offset = and_mask | or_mask << 5 | xor_mask << 10
    // (CDNA3 ISA 12.13.x, "DS_SWIZZLE_B32": bit 15 clear = bitmask mode).
    unsigned pattern = 0x1f | (k << 10);
    Value other = inst("ds_swizzle_b32", vT, {acc},
                       {b.getNamedAttr("offset", b.getI32IntegerAttr(pattern))});
    auto c = combine(acc, other);
    if (failed(c))
      return failure();
    acc = *c;
  }
  if (cluster < 64)
    return acc;
  Value xaddr = valu("v_xor_b32", {RV::imm(128), RV::of(RV::V, laneByteAddr())}, false).reg;
  Value other = inst("ds_bpermute_b32", vT, {xaddr, acc});
  return combine(acc, other);
}

unsigned KernelLowering::staticLdsEnd() {
  auto a = kernel->getAttrOfType<IntegerAttr>("lds");
  return a ? (unsigned)(a.getInt() + 15) / 16 * 16 : 0;
}

// gpu.all_reduce across the workgroup: each wave reduces its 64 lanes
// (waveReduce: the op's kind or its region as the combining function), one
// value per wave goes to LDS scratch at wave * 4 (every lane writes the
// wave's value), s_barrier, then every lane combines the waves' values in
// wave order. The scratch (one dword per wave, 16-byte aligned) is reserved
// per all_reduce at the end of the static LDS (setupInterface: reserveLds).
// Needs: known_block_size a multiple of 64 work-items (whole waves), every
// work-item reaching the op (the gpu dialect's rule), 32-bit values.
LogicalResult KernelLowering::lowerAllReduce(gpu::AllReduceOp r) {
  Operation *op = r;
  if (!is32(r.getType()))
    return unsupported(op, "only reductions of 32-bit values are lowered");
  auto known = fn.getKnownBlockSizeAttr();
  unsigned threads = known ? known[0] * known[1] * known[2] : 0;
  if (!threads || threads % 64)
    return unsupported(op, "needs known_block_size, a multiple of 64 work-items");
  if (op->getParentOp() != fn.getOperation())
    return unsupported(op, "only at the top level of the kernel body (every work-item "
                           "reaches it)");
  auto x = get(r.getValue());
  if (failed(x))
    return failure();
  bool fl = isF32(r.getType());
  std::function<FailureOr<Value>(Value, Value)> combine;
  if (r.getOp()) {
    StringRef mn = reduceInst(*r.getOp(), fl);
    if (mn.empty())
      return unsupported(op, "this reduction kind is not lowered");
    combine = [this, mn](Value a, Value c) -> FailureOr<Value> { return inst(mn, vT, {a, c}); };
  } else {
    // The region: its two block arguments bound to the operands, its ops
    // lowered at each use, its gpu.yield's operand the result.
    Block &body = r.getBody().front();
    combine = [this, &body, fl](Value a, Value c) -> FailureOr<Value> {
      vals[body.getArgument(0)] = RV::of(RV::V, a, fl);
      vals[body.getArgument(1)] = RV::of(RV::V, c, fl);
      cse.clear(); // the block's values are new at each use
      if (failed(lowerBlock(body)))
        return failure();
      auto y = get(body.getTerminator()->getOperand(0));
      if (failed(y))
        return failure();
      return toV(*y);
    };
  }
  auto acc = waveReduce(toV(*x), 64, combine);
  if (failed(acc))
    return failure();
  unsigned waves = threads / 64;
  if (waves == 1) {
    vals[r] = RV::of(RV::S, inst("v_readfirstlane_b32", sT, *acc), fl);
    return success();
  }
  unsigned base = allReduceScratch.lookup(op);
  // The wave's index * 4: the linear work-item id / 64 * 4.
  RV tid = RV::of(RV::V, tid0);
  if (packedIds) {
    RV tx = RV::of(RV::V, inst("v_bfe_u32", vT, {tid0, cst(0), cst(10)}));
    RV ty = RV::of(RV::V, inst("v_bfe_u32", vT, {tid0, cst(10), cst(10)}));
    RV tz = RV::of(RV::V, inst("v_bfe_u32", vT, {tid0, cst(20), cst(10)}));
    tid = add(tx, mul(add(ty, mul(tz, RV::imm(known[1]))), RV::imm(known[0])));
  }
  Value w4 = inst("v_and_b32", vT, {toV(RV::imm(~63u)), toV(tid)});
  w4 = inst("v_lshrrev_b32", vT, {cst(4), w4});
  inst("ds_write_b32", {}, {w4, *acc}, {b.getNamedAttr("offset", b.getI32IntegerAttr(base))});
  inst("s_waitcnt", {}, {}, {b.getNamedAttr("lgkmcnt", b.getI32IntegerAttr(0))});
  inst("s_barrier", {}, {});
  Value zero = inst("v_mov_b32", vT, cst(0));
  Value sum;
  for (unsigned w = 0; w < waves; ++w) {
    Value v = inst("ds_read_b32", vT, {zero},
                   {b.getNamedAttr("offset", b.getI32IntegerAttr(base + 4 * w))});
    if (!w) {
      sum = v;
      continue;
    }
    auto c = combine(sum, v);
    if (failed(c))
      return failure();
    sum = *c;
  }
  vals[r] = RV::of(RV::S, inst("v_readfirstlane_b32", sT, sum), fl);
  return success();
}

void KernelLowering::reserveLds(unsigned &lds) {
  auto known = fn.getKnownBlockSizeAttr();
  unsigned waves = known ? (unsigned)(known[0] * known[1] * known[2] + 63) / 64 : 16;
  fn.walk([&](gpu::AllReduceOp r) {
    if (waves > 1) {
      lds = (lds + 15) / 16 * 16;
      allReduceScratch[r] = lds;
      lds += 4 * waves;
    }
  });
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
    // The hidden argument hidden_block_count_<d> (setupInterface), loaded
    // with the other kernel arguments.
    vals[t] = loadScalar(blockCount[d], false);
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
    StringRef mn = reduceInst(r.getOp(), fl);
    if (mn.empty())
      return unsupported(op, "this reduction kind is not lowered");
    auto combine = [&](Value a, Value c) -> FailureOr<Value> { return inst(mn, vT, {a, c}); };
    auto acc = waveReduce(toV(*x), cluster, combine);
    if (failed(acc))
      return failure();
    vals[r] = cluster < 64 ? RV::of(RV::V, *acc, fl)
                           : RV::of(RV::S, inst("v_readfirstlane_b32", sT, *acc), fl);
    return success();
  }
  if (auto r = dyn_cast<gpu::AllReduceOp>(op))
    return lowerAllReduce(r);
  if (isa<gpu::YieldOp>(op)) // an all_reduce region's result (lowerAllReduce)
    return success();
  if (auto d = dyn_cast<gpu::DynamicSharedMemoryOp>(op)) {
    // The dynamic LDS begins where the static LDS (attributions, reduction
    // scratch) ends, 16-byte aligned; its size is the launch's
    // (aster.launch(..., dynamic_lds=bytes)).
    MemArg m;
    m.type = cast<MemRefType>(d.getType());
    m.lds = true;
    m.ldsOffset = staticLdsEnd();
    mems[d] = m;
    return success();
  }
  return unsupported(op);
}

// memref.view of workgroup memory (gpu.dynamic_shared_memory's byte buffer,
// as upstream kernels type it): the same LDS at a constant byte shift, with
// the view's static type.
static LogicalResult lowerLdsView(KernelLowering &k, Operation *op) {
  auto v = cast<memref::ViewOp>(op);
  auto it = k.mems.find(v.getSource());
  if (it == k.mems.end() || !it->second.lds)
    return k.unsupported(op, "only views of workgroup memory (gpu.dynamic_shared_memory) "
                             "are lowered");
  auto shift = k.get(v.getByteShift());
  if (failed(shift))
    return failure();
  if (shift->k != RV::Imm)
    return k.unsupported(op, "the byte shift must be a constant");
  if (!v.getSizes().empty() || !v.getType().hasStaticShape())
    return k.unsupported(op, "only views of a static shape are lowered");
  MemArg m = it->second;
  m.type = v.getType();
  m.ldsOffset += shift->bits;
  k.mems[v] = m;
  return success();
}

void populateGpuLowering(LoweringTable &table) {
  table.add("gpu", [](KernelLowering &k, Operation *op) { return k.lowerGpu(op); });
  table.add("memref.view", lowerLdsView);
}

} // namespace aster::lower
