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

// gpu.all_reduce across the workgroup: each wave reduces its lanes (the
// op's kind or its region as the combining function), one value per wave
// goes to LDS scratch at wave * 4 (wave * 8 for 64-bit values; every lane
// writes the wave's value), s_barrier, then every lane combines the waves'
// values in wave order. The scratch (16-byte aligned) is reserved per
// all_reduce at the end of the static LDS (setupInterface: reserveLds; 16
// waves when the block size is not known).
//   64-bit values (i64, f64): each dword moved by its own ds_swizzle /
//     ds_bpermute, combined by the 64-bit arith lowering (LowerArith64.cpp).
//   block size: known_block_size, else the dispatch packet's
//     workgroup_size_x/y/z (as gpu.block_dim reads it); then the number of
//     waves is a uniform loop count (s_cmp / s_cbranch_scc1 over the slots).
//   partial waves (a block size not known to be whole waves): the work-items
//     of the last wave are a prefix of its lanes. Step k of the butterfly
//     reads the first lane of the partner's k-lane group, (lane & ~(k-1)) ^ k
//     (ds_swizzle's and/xor masks), and combines only when that lane exists
//     (its linear id < the block size): by induction every existing lane
//     then holds the reduction of the existing lanes of its 2k-lane group.
//   control flow: the gpu dialect requires every work-item of the workgroup
//     to execute the op, so inside scf.if / scf.for / scf.while (a region
//     every work-item enters: uniform in fact, whatever Uniformity says) EXEC
//     holds every existing lane and the above applies; inside a loop a
//     second s_barrier after the reads keeps the next iteration's writes of
//     the scratch from overtaking a slower wave's reads.
//   8- and 16-bit values (i8, i16, f16, bf16): the dword holding the value
//     moves as a 32-bit one (the upper bits unspecified) and each step is the
//     type's arith op (LowerArith16.cpp), as LLVM's build of upstream's
//     rewrite combines its 16-bit shuffles' values.
// Needs: every work-item reaching the op (the op's semantics), 8-, 16-, 32-
// or 64-bit values.
namespace {

using ARK = gpu::AllReduceOperation;

/// The arith op of a reduction kind for element type `t`, or "".
StringRef reduceArith(ARK k, Type t) {
  bool fl = isa<FloatType>(t);
  switch (k) {
  case ARK::ADD: return fl ? "arith.addf" : "arith.addi";
  case ARK::MUL: return fl ? "arith.mulf" : "arith.muli";
  case ARK::MINUI: return "arith.minui";
  case ARK::MINSI: return "arith.minsi";
  case ARK::MAXUI: return "arith.maxui";
  case ARK::MAXSI: return "arith.maxsi";
  case ARK::MINNUMF: return "arith.minnumf";
  case ARK::MAXNUMF: return "arith.maxnumf";
  case ARK::MINIMUMF: return "arith.minimumf";
  case ARK::MAXIMUMF: return "arith.maximumf";
  case ARK::AND: return "arith.andi";
  case ARK::OR: return "arith.ori";
  case ARK::XOR: return "arith.xori";
  }
  return "";
}

/// A 32- or 64-bit value's dwords in VGPRs.
SmallVector<Value, 2> vDwords(KernelLowering &L, RV x) {
  if (!x.wide)
    return {L.toV(x)};
  return {L.toV(KernelLowering::lo(x)), L.toV(KernelLowering::hi(x))};
}
RV fromDwords(KernelLowering &L, ArrayRef<Value> d, bool fl) {
  if (d.size() == 1)
    return RV::of(RV::V, d[0], fl);
  return L.pair(RV::of(RV::V, d[0]), RV::of(RV::V, d[1]));
}

/// The block size (work-items) as a uniform value: known_block_size, else
/// the dispatch packet's u16 fields (HSA Platform System Architecture Spec
/// 1.2, 2.9.6: workgroup_size_x/y/z at bytes 4, 6, 8).
RV blockDimOf(KernelLowering &L, unsigned d) {
  if (auto known = L.fn.getKnownBlockSizeAttr())
    return RV::imm(known[d]);
  Value w = L.inPrologue(
      [&] { return L.inst("s_load_dword", L.sT, {L.dispatchPtr, L.cst(d == 2 ? 8 : 4)}); });
  RV word = RV::of(RV::S, w);
  return d == 1 ? L.ibin("s_lshr_b32", "v_lshrrev_b32", true, word, RV::imm(16), nullptr)
                : L.ibin("s_and_b32", "v_and_b32", false, word, RV::imm(0xffff), nullptr);
}

} // namespace

LogicalResult KernelLowering::lowerAllReduce(gpu::AllReduceOp r) {
  Operation *op = r;
  Type et = r.getType();
  if (func) // a non-kernel function (LowerFunction.cpp): no workgroup of its own
    return unsupported(op, "a workgroup reduction needs the kernel's work-item ids and LDS "
                           "(not in a function)");
  if (!is32(et) && !is64(et) && !isNarrow(et))
    return unsupported(op, "only reductions of 8-, 16-, 32- and 64-bit values are lowered");
  bool wide = is64(et);
  // 8- and 16-bit values move as the dword holding them (ds_swizzle,
  // ds_bpermute and the LDS slot take 32 bits; the upper bits unspecified)
  // and combine by their own arith lowering (LowerArith16.cpp).
  bool narrow = isNarrow(et);
  auto known = fn.getKnownBlockSizeAttr();
  unsigned threads = known ? known[0] * known[1] * known[2] : 0;
  // Whole waves: no lane checks in the butterfly.
  bool whole = threads && threads % 64 == 0;
  auto x = get(r.getValue());
  if (failed(x))
    return failure();
  bool fl = isF32(et);
  std::function<FailureOr<RV>(RV, RV)> combine;
  if (r.getOp()) {
    StringRef mn = wide || narrow ? StringRef() : reduceInst(*r.getOp(), fl);
    StringRef an = reduceArith(*r.getOp(), et);
    if (mn.empty() && an.empty())
      return unsupported(op, "this reduction kind is not lowered");
    Location at = op->getLoc();
    combine = [this, mn, an, et, fl, at](RV a, RV c) -> FailureOr<RV> {
      if (!mn.empty())
        return RV::of(RV::V, inst(mn, vT, {toV(a), toV(c)}), fl);
      return scalarOp(*this, at, an, {a, c}, {et, et}, et, {});
    };
  } else {
    // The region: its two block arguments bound to the operands, its ops
    // lowered at each use, its gpu.yield's operand the result.
    Block &body = r.getBody().front();
    combine = [this, &body](RV a, RV c) -> FailureOr<RV> {
      vals[body.getArgument(0)] = a;
      vals[body.getArgument(1)] = c;
      cse.clear(); // the block's values are new at each use
      if (failed(lowerBlock(body)))
        return failure();
      return get(body.getTerminator()->getOperand(0));
    };
  }
  auto combineV = [&](RV a, RV c) -> FailureOr<SmallVector<Value, 2>> {
    auto y = combine(a, c);
    if (failed(y))
      return failure();
    return vDwords(*this, *y);
  };

  // The linear work-item id (needed for the wave index and the lane checks).
  RV bx = blockDimOf(*this, 0), by = blockDimOf(*this, 1), bz = blockDimOf(*this, 2);
  RV tid = RV::of(RV::V, tid0);
  if (packedIds) {
    RV tx = RV::of(RV::V, inst("v_bfe_u32", vT, {tid0, cst(0), cst(10)}));
    RV ty = RV::of(RV::V, inst("v_bfe_u32", vT, {tid0, cst(10), cst(10)}));
    RV tz = RV::of(RV::V, inst("v_bfe_u32", vT, {tid0, cst(20), cst(10)}));
    tid = add(tx, mul(add(ty, mul(tz, by)), bx));
  }
  RV n = known ? RV::imm(threads) : mul(mul(bx, by), bz);
  // Lanes whose linear id is below `limit` exist: n - (tid & ~63).
  RV waveBase;
  Value limit;
  if (!whole || !known || threads > 64)
    waveBase = RV::of(RV::V, inst("v_and_b32", vT, {toV(RV::imm(~63u)), toV(tid)}));
  if (!whole)
    limit = inst("v_sub_u32", vT, vOps({n, waveBase}));

  SmallVector<Value, 2> acc = vDwords(*this, *x);
  Value lanes = laneId().reg;
  for (unsigned k = 1; k < 64; k <<= 1) {
    SmallVector<Value, 2> other;
    Value srcLane;
    if (k < 32) {
      // ds_swizzle bit mode: offset = and_mask | or_mask << 5 | xor_mask << 10
      // (CDNA3 ISA 12.13.x, "DS_SWIZZLE_B32": bit 15 clear = bitmask mode);
      // with whole waves lane ^ k (every lane of the group holds its value).
      unsigned andMask = whole ? 0x1f : 0x1f & ~(k - 1);
      unsigned pattern = andMask | (k << 10);
      for (Value d : acc)
        other.push_back(inst("ds_swizzle_b32", vT, {d},
                             {b.getNamedAttr("offset", b.getI32IntegerAttr(pattern))}));
      if (!whole) {
        Value g = k > 1 ? inst("v_and_b32", vT, {cst(~(k - 1)), lanes}) : lanes;
        srcLane = inst("v_xor_b32", vT, {cst(k), g});
      }
    } else {
      Value xaddr = whole ? valu("v_xor_b32", {RV::imm(128), RV::of(RV::V, laneByteAddr())},
                                 false).reg
                          : inst("v_xor_b32", vT, {toV(RV::imm(128)),
                                                    inst("v_and_b32", vT, {toV(RV::imm(128)),
                                                                           laneByteAddr()})});
      for (Value d : acc)
        other.push_back(inst("ds_bpermute_b32", vT, {xaddr, d}));
      if (!whole)
        srcLane = inst("v_lshrrev_b32", vT, {cst(2), xaddr});
    }
    auto c = combineV(fromDwords(*this, acc, fl), fromDwords(*this, other, fl));
    if (failed(c))
      return failure();
    if (whole) {
      acc = *c;
      continue;
    }
    Value valid = inst("v_cmp_lt_u32", s2T, {srcLane, limit});
    for (unsigned i = 0; i < acc.size(); ++i)
      acc[i] = inst("v_cndmask_b32", vT, {acc[i], (*c)[i], valid});
  }
  auto result = [&](ArrayRef<Value> d) {
    SmallVector<Value, 2> s;
    for (Value v : d)
      s.push_back(inst("v_readfirstlane_b32", sT, v));
    vals[r] = wide ? pair(RV::of(RV::S, s[0]), RV::of(RV::S, s[1])) : RV::of(RV::S, s[0], fl);
  };
  if (known && threads <= 64) {
    result(acc);
    return success();
  }
  unsigned base = allReduceScratch.lookup(op);
  unsigned bytes = wide ? 8 : 4;
  // The wave's slot: (tid & ~63) / 64 * bytes.
  Value slot = inst("v_lshrrev_b32", vT, {cst(wide ? 3 : 4), toV(waveBase)});
  auto ldsAttr = [&](unsigned off) {
    return SmallVector<NamedAttribute>{b.getNamedAttr("offset", b.getI32IntegerAttr(off))};
  };
  if (wide)
    inst("ds_write_b64", {}, {slot, ConcatOp::create(b, loc, v2T, acc)}, ldsAttr(base));
  else
    inst("ds_write_b32", {}, {slot, acc[0]}, ldsAttr(base));
  inst("s_waitcnt", {}, {}, {b.getNamedAttr("lgkmcnt", b.getI32IntegerAttr(0))});
  inst("s_barrier", {}, {});
  auto readSlot = [&](Value addr, unsigned off) -> SmallVector<Value, 2> {
    if (!wide)
      return {inst("ds_read_b32", vT, {addr}, ldsAttr(off))};
    RV v = fromV64(inst("ds_read_b64", v2T, {addr}, ldsAttr(off)));
    return vDwords(*this, v);
  };
  Value zero = inst("v_mov_b32", vT, cst(0));
  SmallVector<Value, 2> sum = readSlot(zero, base);
  if (known) {
    for (unsigned w = 1; w < (threads + 63) / 64; ++w) {
      auto c = combineV(fromDwords(*this, sum, fl),
                        fromDwords(*this, readSlot(zero, base + bytes * w), fl));
      if (failed(c))
        return failure();
      sum = *c;
    }
  } else {
    // A uniform loop over waves 1 .. ceil(n / 64) - 1:
    //   s_cmp_lt_u32 1, waves; s_cbranch_scc0 exit(sum)
    //   body(sum, w): sum = combine(sum, slot w); w += 1;
    //     s_cmp_lt_u32 w, waves; s_cbranch_scc1 body(sum, w) / exit(sum)
    Value waves = inst("s_lshr_b32", sT, {sOp(add(n, RV::imm(63))), cst(6)});
    SmallVector<Type> carried(sum.size(), vT);
    SmallVector<Type> bodyTypes(carried);
    bodyTypes.push_back(sT);
    Block *bodyB = newBlock(bodyTypes), *exit = newBlock(carried);
    Value one = inst("s_mov_b32", sT, cst(1));
    inst("s_cmp_lt_u32", {}, {one, waves});
    SmallVector<Value> entryArgs(sum.begin(), sum.end());
    SmallVector<Value> bodyArgs(entryArgs);
    bodyArgs.push_back(one);
    branch("s_cbranch_scc0", exit, entryArgs, bodyB, bodyArgs);
    start(bodyB);
    SmallVector<Value, 2> cur;
    for (unsigned i = 0; i < sum.size(); ++i)
      cur.push_back(bodyB->getArgument(i));
    Value w = bodyB->getArgument(sum.size());
    Value addr = inst("v_mov_b32", vT, inst("s_lshl_b32", sT, {w, cst(wide ? 3 : 2)}));
    auto c = combineV(fromDwords(*this, cur, fl), fromDwords(*this, readSlot(addr, base), fl));
    if (failed(c))
      return failure();
    Value w1 = inst("s_add_u32", sT, {w, cst(1)});
    inst("s_cmp_lt_u32", {}, {w1, waves});
    SmallVector<Value> next(c->begin(), c->end());
    SmallVector<Value> back(next);
    back.push_back(w1);
    branch("s_cbranch_scc1", bodyB, back, exit, next);
    start(exit);
    sum.clear();
    for (unsigned i = 0; i < carried.size(); ++i)
      sum.push_back(exit->getArgument(i));
  }
  // In a loop the next execution rewrites the scratch: every wave has read it first.
  if (op->getParentOfType<scf::ForOp>() || op->getParentOfType<scf::WhileOp>()) {
    inst("s_waitcnt", {}, {}, {b.getNamedAttr("lgkmcnt", b.getI32IntegerAttr(0))});
    inst("s_barrier", {}, {});
  }
  result(sum);
  return success();
}

void KernelLowering::reserveLds(unsigned &lds) {
  auto known = fn.getKnownBlockSizeAttr();
  unsigned waves = known ? (unsigned)(known[0] * known[1] * known[2] + 63) / 64 : 16;
  fn.walk([&](gpu::AllReduceOp r) {
    if (waves > 1 || !known) {
      lds = (lds + 15) / 16 * 16;
      allReduceScratch[r] = lds;
      lds += (is64(r.getType()) ? 8 : 4) * waves;
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
    Type et = r.getType();
    if (!is32(et) && !isNarrow(et))
      return unsupported(op, "only reductions of 8-, 16- and 32-bit values are lowered");
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
    // 8- and 16-bit values: moved as their dword, combined by their own
    // arith lowering (LowerArith16.cpp), as for gpu.all_reduce.
    bool narrow = isNarrow(et);
    StringRef mn = narrow ? reduceArith(r.getOp(), et) : reduceInst(r.getOp(), fl);
    if (mn.empty())
      return unsupported(op, "this reduction kind is not lowered");
    Location at = op->getLoc();
    auto combine = [&](Value a, Value c) -> FailureOr<Value> {
      if (!narrow)
        return inst(mn, vT, {a, c});
      auto y = scalarOp(*this, at, mn, {RV::of(RV::V, a), RV::of(RV::V, c)}, {et, et}, et, {});
      if (failed(y))
        return failure();
      return toV(*y);
    };
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
