//===- LowerMemrefAtomics.cpp - memref.atomic_rmw -------------------------===//
//
// Kinds with a gfx9 atomic instruction (addi, addf, maxs, mins, maxu, minu,
// andi, ori, xori, assign on 32-bit elements): one global_atomic_* /
// ds_* per access; the returning form (sc0 set, ds_*_rtn) only when the
// pre-op value is used.
//
// The other kinds (mulf, muli, minimumf, maximumf, minnumf, maxnumf: gfx942
// has no f32 min/max or multiply atomic, CDNA3 ISA section 9 "FLAT, Global
// and Scratch" lists its atomics) are a compare-and-swap loop, as LLVM's
// AtomicExpand pass expands an atomicrmw the target cannot do
// (AtomicExpandPass.cpp, "expandAtomicRMWToCmpXchg"):
//
//     saved = exec
//     old0  = global_load_dword [addr]      (ds_read_b32 in LDS)
//   head(old):
//     new  = op(old, value)                 (the kind's arith op, lowered as such)
//     prev = global_atomic_cmpswap_rtn [addr], {new, old}   (ds_cmpst_rtn_b32)
//     exec &= ~(prev == old)                (a lane whose swap happened leaves)
//     s_cbranch_execz exit
//     -> head(prev)
//   exit:
//     exec = saved; the result (the pre-op value) is `old` of the lane's
//     last iteration.
// Compares are of the bits (v_cmp_eq_u32), as cmpxchg compares, so a NaN
// in memory does not loop forever.
//
// Other widths:
//   64-bit (i64, f64): the _x2 / _u64 / _i64 / _b64 atomics (add, smin,
//     smax, umin, umax, and, or, xor, swap; f64 add: global_atomic_add_f64 /
//     ds_add_f64, which gfx90a+ has: CDNA3 ISA section 9 and 12); the rest a
//     loop as above on the pair (global_load_dwordx2,
//     global_atomic_cmpswap_x2 returning / ds_cmpst_rtn_b64, v_cmp_eq_u64).
//   8- and 16-bit (i8, i16, f16, bf16): every kind a loop on the containing
//     dword, as AtomicExpand's partword expansion does
//     ("expandPartwordAtomicRMW"/"createMaskInstrs": the dword at addr & ~3,
//     the element at bit 8 * (addr & 3)): the element extracted by a shift,
//     combined, put back with v_bfi_b32 under the element's mask, the dword
//     swapped as above.
// memref.generic_atomic_rmw: the same loops with its region as the
// operation (the region's argument the value in memory, its
// memref.atomic_yield the new one).
//
// A flat memref (memory unknown where it is used: LowerMemrefFlat.cpp): the
// same choices with flat_* at the flat address (a VGPR pair; the byte
// offset added with v_lshl_add_u64 or in the 12-bit offset field):
// flat_atomic_add / smax / add_f32 / swap ... [sc0 when returning], the
// loops with flat_load_dword and flat_atomic_cmpswap (8- and 16-bit
// elements: the dword at address & ~3). These are what llc-22 -mcpu=gfx942
// selects for an addrspace(0) atomicrmw at agent scope (or at system scope
// with !amdgpu.no.fine.grained.memory and !amdgpu.no.remote.memory); for
// upstream's build of memref.atomic_rmw (system scope, no metadata) llc-22
// expands every kind but add, xchg and cmpxchg to a cmpswap loop, for flat
// and global pointers alike (fine-grained or PCIe-remote memory may not
// do the others). We follow the agent-scope selection, as for global
// memory above: one choice per kind whatever the memory; the results agree
// (tests/py/lower_suite_mem_carries.py runs both builds). 64-bit elements
// through a flat memref: llc-22 first tests each address against the
// private aperture (64-bit flat atomics do not reach scratch: its
// "atomicrmw.check.private" blocks); here per lane (flatWide): the private
// lanes a scratch load, the operation, a scratch store, the others the
// flat atomic (or loop) under EXEC masks. f64 addf through a flat pointer:
// the loop (llc-22 splits off LDS lanes for ds_add_f64 as well).
//
// Private memory (an alloca in scratch): a load, the operation, a store
// (privateAtomic below; per-lane memory needs no atomicity); an alloca held
// in registers (constant indices, LowerMemory.cpp): the element's value.
//
// Needs before: the memref's address (LowerMemory.cpp). Guarantees after:
// the memory updated once per active lane; the result (when used) in a
// VGPR (pair).
//===----------------------------------------------------------------------===//
#include "lower/KernelLowering.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace aster::lower {

// LowerMemory.cpp: the load / store mnemonic of `bytes` bytes; a register
// alloca's element at constant indices (-1: none).
std::string memMnemonic(bool store, unsigned bytes, bool global, bool lds);
int64_t regIndex(KernelLowering &L, MemRefType mt, ValueRange idx);
// LowerMemrefFlat.cpp: a flat memref; the VGPR-pair address ptr + off.
bool isFlat(KernelLowering &L, const MemArg &m);
Value flatAddress(KernelLowering &L, Value ptr, RV off, SmallVectorImpl<NamedAttribute> &attrs);
RV apertureHigh(KernelLowering &L, SpecialReg r);
namespace vec {
Value flatAt(KernelLowering &L, Value base, RV off);
}

namespace {

/// An atomic on private memory (an alloca in scratch): each work-item's
/// private memory is its own, so the atomic is a plain load, the
/// operation, a store (what LLVM's AMDGPU backend makes of an atomicrmw on
/// addrspace(5): AMDGPUTargetLowering::shouldExpandAtomicRMWInIR answers
/// NotAtomic for private pointers). The result is the loaded value.
LogicalResult privateAtomic(KernelLowering &L, Operation *op, Value memref, ValueRange idx,
                            Type et, function_ref<FailureOr<RV>(RV)> compute) {
  auto mo = L.memrefOf(op, memref);
  if (failed(mo))
    return failure();
  if (mo->regs) { // an alloca held in registers: the element's value updated
    int64_t e = regIndex(L, mo->type, idx);
    if (e < 0)
      return L.unsupported(op, "an index out of the alloca's bounds");
    RV old = L.regAllocas[mo->regsId][e];
    auto nv = compute(old);
    if (failed(nv))
      return failure();
    L.regAllocas[mo->regsId][e] = *nv;
    if (!op->use_empty())
      L.vals[op->getResult(0)] = old;
    return success();
  }
  auto addr = L.address(op, memref, idx, /*allowPrivate=*/true);
  if (failed(addr))
    return failure();
  unsigned bytes = memElementBytes(et);
  SmallVector<NamedAttribute> attrs;
  Value voff = L.memOffset(addr->second, false, attrs);
  Value r = L.inst(memMnemonic(false, bytes, false, false), bytes == 8 ? L.v2T : L.vT, {voff},
                   attrs);
  RV old = bytes == 8 ? L.fromV64(r) : RV::of(RV::V, r, isF32(et));
  auto nv = compute(old);
  if (failed(nv))
    return failure();
  L.inst(memMnemonic(true, bytes, false, false), {},
         {voff, bytes == 8 ? L.toV64(*nv) : L.toV(*nv)}, attrs);
  if (!op->use_empty())
    L.vals[op->getResult(0)] = old;
  return success();
}

using K = arith::AtomicRMWKind;

/// The arith op a compare-and-swap loop computes for `k`, or "".
StringRef casOpName(K k) {
  switch (k) {
  case K::mulf: return "arith.mulf";
  case K::muli: return "arith.muli";
  case K::minimumf: return "arith.minimumf";
  case K::maximumf: return "arith.maximumf";
  case K::minnumf: return "arith.minnumf";
  case K::maxnumf: return "arith.maxnumf";
  default: return "";
  }
}

/// The arith op of any kind but assign (the CAS loop's and private
/// memory's operation), or "".
StringRef rmwArith(K k) {
  if (StringRef c = casOpName(k); !c.empty())
    return c;
  switch (k) {
  case K::addi: return "arith.addi";
  case K::addf: return "arith.addf";
  case K::maxs: return "arith.maxsi";
  case K::mins: return "arith.minsi";
  case K::maxu: return "arith.maxui";
  case K::minu: return "arith.minui";
  case K::andi: return "arith.andi";
  case K::ori: return "arith.ori";
  case K::xori: return "arith.xori";
  default: return "";
  }
}

/// The compare-and-swap loop (the layout above) for an element of `et` at
/// (base, off), the new value computed from the old by `compute`; the
/// result (the pre-op value) is the old value of the lane's last iteration.
LogicalResult casLoop(KernelLowering &L, Operation *op, Value base, RV off, Type et,
                      function_ref<FailureOr<RV>(RV)> compute) {
  unsigned bytes = memElementBytes(et);
  bool wide = bytes == 8, part = bytes < 4;
  bool fl = isF32(et);
  // base: an SGPR pair (global_*), a VGPR pair (a flat pointer: flat_*) or
  // null (LDS: ds_*).
  bool flat = base && base.getType() == L.v2T;
  SmallVector<NamedAttribute> attrs;
  // A sub-dword element: the dword holding it and its bit position.
  RV shift;
  Value mask, faddr;
  if (part && flat) {
    // The full flat address first (its low bits are the element's place).
    Value at = vec::flatAt(L, base, off);
    Value lo = PartOp::create(L.b, L.loc, L.vT, at, L.b.getI32IntegerAttr(0));
    Value hi = PartOp::create(L.b, L.loc, L.vT, at, L.b.getI32IntegerAttr(1));
    shift = L.shl(L.ibin("s_and_b32", "v_and_b32", false, RV::of(RV::V, lo), RV::imm(3), nullptr),
                  RV::imm(3));
    RV lo4 = L.ibin("s_and_b32", "v_and_b32", false, RV::of(RV::V, lo), RV::imm(~3u), nullptr);
    faddr = ConcatOp::create(L.b, L.loc, L.v2T, ValueRange{L.toV(lo4), hi});
  } else if (part) {
    shift = L.shl(L.ibin("s_and_b32", "v_and_b32", false, off, RV::imm(3), nullptr), RV::imm(3));
    off = L.ibin("s_and_b32", "v_and_b32", false, off, RV::imm(~3u), nullptr);
  } else if (flat) {
    faddr = flatAddress(L, base, off, attrs);
  }
  if (part)
    mask = L.inst("v_lshlrev_b32", L.vT,
                  L.vOps({shift, RV::imm(bytes == 2 ? 0xffff : 0xff)}));
  Value voff = flat ? faddr : L.memOffset(off, !base, attrs);
  Type t = wide ? L.v2T : L.vT;
  Value saved = L.inst("s_mov_b64", L.s2T, L.execReg());
  Value old0 = flat ? L.inst(wide ? "flat_load_dwordx2" : "flat_load_dword", t, {voff}, attrs)
               : base ? L.inst(wide ? "global_load_dwordx2" : "global_load_dword", t,
                               {voff, base}, attrs)
                      : L.inst(wide ? "ds_read_b64" : "ds_read_b32", t, {voff}, attrs);
  Block *head = L.newBlock({t});
  cf::BranchOp::create(L.b, L.loc, head, ValueRange{old0});
  L.start(head);
  Value oldReg = head->getArgument(0);
  RV old = wide ? L.fromV64(oldReg)
           : part ? RV::of(RV::V, L.inst("v_lshrrev_b32", L.vT, L.vOps({shift, RV::of(RV::V, oldReg)})))
                  : RV::of(RV::V, oldReg, fl);
  auto nv = compute(old);
  if (failed(nv))
    return failure();
  Value newReg;
  if (wide) {
    newReg = L.toV64(*nv);
  } else if (part) {
    Value placed = L.inst("v_lshlrev_b32", L.vT, L.vOps({shift, *nv}));
    newReg = L.inst("v_bfi_b32", L.vT, {mask, placed, oldReg});
  } else {
    newReg = L.toV(*nv);
  }
  Value prev;
  if (base) {
    auto split = [&](Value v) -> SmallVector<Value, 2> {
      if (!wide)
        return {v};
      return {PartOp::create(L.b, L.loc, L.vT, v, L.b.getI32IntegerAttr(0)),
              PartOp::create(L.b, L.loc, L.vT, v, L.b.getI32IntegerAttr(1))};
    };
    SmallVector<Value> words;
    for (Value v : split(newReg))
      words.push_back(v);
    for (Value v : split(oldReg))
      words.push_back(v);
    Value data = ConcatOp::create(L.b, L.loc,
                                  RegType::getVirtual(L.ctx, RegKind::VGPR, wide ? 4 : 2, 2),
                                  words);
    if (flat)
      prev = L.inst(wide ? "flat_atomic_cmpswap_x2_rtn" : "flat_atomic_cmpswap_rtn", t,
                    {voff, data}, attrs);
    else
      prev = L.inst(wide ? "global_atomic_cmpswap_x2_rtn" : "global_atomic_cmpswap_rtn", t,
                    {voff, data, base}, attrs);
  } else {
    // ds_cmpst: if mem == data0 then mem = data1 (data0 the compare value).
    prev = L.inst(wide ? "ds_cmpst_rtn_b64" : "ds_cmpst_rtn_b32", t, {voff, oldReg, newReg},
                  attrs);
  }
  Value done = L.inst(wide ? "v_cmp_eq_u64" : "v_cmp_eq_u32", L.s2T, {prev, oldReg});
  L.inst("s_andn2_b64", L.execT, {L.execReg(), done});
  Block *latch = L.newBlock(), *exit = L.newBlock();
  L.branch("s_cbranch_execz", exit, {}, latch, {});
  L.start(latch);
  cf::BranchOp::create(L.b, L.loc, head, ValueRange{prev});
  L.start(exit);
  L.inst("s_mov_b64", L.execT, saved);
  if (!op->use_empty())
    L.vals[op->getResult(0)] = old;
  return success();
}

/// A 64-bit atomic through a flat pointer, as llc-22 expands one
/// ("atomicrmw.check.private"): the lanes whose address is in the private
/// aperture (high dword == src_private_base[63:32]) do a scratch load, the
/// operation (`compute`) and a scratch store at the low dword (the scratch
/// offset); the others `atomic` at the flat address. The result merged per
/// lane with v_cndmask_b32.
LogicalResult flatWide(KernelLowering &L, Operation *op, Value base, RV off,
                       function_ref<LogicalResult(Value, RV)> atomic,
                       function_ref<FailureOr<RV>(RV)> compute) {
  Value at = vec::flatAt(L, base, off);
  Value lo = PartOp::create(L.b, L.loc, L.vT, at, L.b.getI32IntegerAttr(0));
  Value hi = PartOp::create(L.b, L.loc, L.vT, at, L.b.getI32IntegerAttr(1));
  RV privHi = apertureHigh(L, SpecialReg::src_private_base);
  Value saved = L.inst("s_mov_b64", L.s2T, L.execReg());
  Value isPriv = L.inst("v_cmp_eq_u32", L.s2T, L.vOps({RV::of(RV::V, hi), privHi}));
  // Each part runs under its own EXEC (L.inst empties the block's value
  // cache at each EXEC write: a pair joined in one part holds only its lanes).
  L.inst("s_andn2_b64", L.execT, {saved, isPriv});
  if (failed(atomic(at, RV::imm(0))))
    return failure();
  bool used = op->getNumResults() && !op->use_empty();
  RV r1 = used ? L.vals[op->getResult(0)] : RV();
  L.inst("s_and_b64", L.execT, {saved, isPriv});
  Value old = L.inst("scratch_load_dwordx2_nosaddr", L.v2T, {lo});
  auto nv = compute(L.fromV64(old));
  if (failed(nv))
    return failure();
  L.inst("scratch_store_dwordx2_nosaddr", {}, {lo, L.toV64(*nv)});
  L.inst("s_mov_b64", L.execT, saved);
  if (used) {
    Value r = L.toV64(r1);
    SmallVector<Value, 2> w;
    for (int i = 0; i < 2; ++i) {
      Value x = PartOp::create(L.b, L.loc, L.vT, old, L.b.getI32IntegerAttr(i));
      Value y = PartOp::create(L.b, L.loc, L.vT, r, L.b.getI32IntegerAttr(i));
      w.push_back(L.inst("v_cndmask_b32", L.vT,
                         L.vOps({RV::of(RV::V, y), RV::of(RV::V, x),
                                 RV::of(RV::Mask, isPriv)})));
    }
    L.vals[op->getResult(0)] =
        L.fromV64(ConcatOp::create(L.b, L.loc, L.v2T, ValueRange{w[0], w[1]}));
  }
  return success();
}

/// The element type's width is one memory ops lower (1, 2, 4, 8 bytes).
LogicalResult checkAtomicType(KernelLowering &L, Operation *op, Type et) {
  if (!memElementBytes(et))
    return L.unsupported(op, "atomics on elements of 8, 16, 32 or 64 bits are lowered");
  return success();
}

LogicalResult lowerAtomicRMW(KernelLowering &L, Operation *op) {
  auto a = cast<memref::AtomicRMWOp>(op);
  auto mo = L.memrefOf(op, a.getMemref());
  if (failed(mo))
    return failure();
  Type et = a.getType();
  if (failed(checkAtomicType(L, op, et)))
    return failure();
  auto v = L.get(a.getValue());
  if (failed(v))
    return failure();
  if (mo->priv || mo->regs) {
    StringRef an = rmwArith(a.getKind());
    if (an.empty() && a.getKind() != K::assign)
      return L.unsupported(op, "this atomic kind is not lowered");
    RV value = *v;
    Location at = op->getLoc();
    return privateAtomic(L, op, a.getMemref(), a.getIndices(), et, [&](RV old) -> FailureOr<RV> {
      if (an.empty()) // assign
        return value;
      return scalarOp(L, at, an, {old, value}, {et, et}, et, {});
    });
  }
  bool flat = isFlat(L, *mo);
  auto addr = L.address(op, a.getMemref(), a.getIndices(), false, flat);
  if (failed(addr))
    return failure();
  auto [base, off] = *addr;
  unsigned bytes = memElementBytes(et);
  bool wide = bytes == 8;
  StringRef g, d;
  switch (a.getKind()) {
  case K::addi: g = wide ? "add_x2" : "add", d = wide ? "add_u64" : "add_u32"; break;
  case K::addf:
    if (et.isF32() || et.isF64())
      g = wide ? "add_f64" : "add_f32", d = wide ? "add_f64" : "add_f32";
    break;
  case K::maxs: g = wide ? "smax_x2" : "smax", d = wide ? "max_i64" : "max_i32"; break;
  case K::mins: g = wide ? "smin_x2" : "smin", d = wide ? "min_i64" : "min_i32"; break;
  case K::maxu: g = wide ? "umax_x2" : "umax", d = wide ? "max_u64" : "max_u32"; break;
  case K::minu: g = wide ? "umin_x2" : "umin", d = wide ? "min_u64" : "min_u32"; break;
  case K::andi: g = wide ? "and_x2" : "and", d = wide ? "and_b64" : "and_b32"; break;
  case K::ori: g = wide ? "or_x2" : "or", d = wide ? "or_b64" : "or_b32"; break;
  case K::xori: g = wide ? "xor_x2" : "xor", d = wide ? "xor_b64" : "xor_b32"; break;
  case K::assign: g = wide ? "swap_x2" : "swap", d = wide ? "wrxchg_b64" : "wrxchg_b32"; break;
  default: break;
  }
  // f64 add through a flat pointer: llc-22 tests the shared aperture too and
  // issues ds_add_f64 / global_atomic_add_f64 (no flat_atomic_add_f64 to
  // LDS); here the compare-and-swap loop (flat_atomic_cmpswap_x2 reaches
  // both, as llc-22 selects it for other flat 64-bit kinds).
  if (flat && wide && a.getKind() == K::addf)
    g = "";
  StringRef cas = rmwArith(a.getKind());
  if (cas.empty() && a.getKind() != K::assign)
    return L.unsupported(op, "this atomic kind is not lowered");
  RV value = *v;
  Location at = op->getLoc();
  auto compute = [&](RV old) -> FailureOr<RV> {
    if (cas.empty()) // assign
      return value;
    return scalarOp(L, at, cas, {old, value}, {et, et}, et, {});
  };
  auto emit = [&](Value base, RV off) -> LogicalResult {
    // Sub-dword elements and kinds without an instruction: a CAS loop on the
    // kind's arith op.
    if (bytes < 4 || g.empty())
      return casLoop(L, op, base, off, et, compute);
    bool rtn = !a->use_empty() || (!base && a.getKind() == K::assign);
    std::string mn;
    if (flat) {
      mn = ("flat_atomic_" + g + (rtn ? "_rtn" : "")).str();
    } else if (base) {
      mn = ("global_atomic_" + g + (rtn ? "_rtn" : "")).str();
    } else {
      // ds_<op>_rtn_<type>: the rtn goes before the type suffix.
      size_t us = d.rfind('_');
      mn = rtn ? ("ds_" + d.substr(0, us) + "_rtn" + d.substr(us)).str() : ("ds_" + d).str();
    }
    SmallVector<NamedAttribute> attrs;
    Value voff = flat ? flatAddress(L, base, off, attrs) : L.memOffset(off, !base, attrs);
    SmallVector<Value> ops{voff, wide ? L.toV64(value) : L.toV(value)};
    if (base && !flat)
      ops.push_back(base);
    Type rt = wide ? L.v2T : L.vT;
    Value r = L.inst(mn, rtn ? rt : Type(), ops, attrs);
    if (rtn && !a->use_empty())
      L.vals[a] = wide ? L.fromV64(r) : RV::of(RV::V, r, isF32(et));
    return success();
  };
  if (flat && wide)
    return flatWide(L, op, base, off, emit, compute);
  return emit(base, off);
}

/// memref.generic_atomic_rmw: the CAS loop with the region as the operation.
LogicalResult lowerGenericAtomicRMW(KernelLowering &L, Operation *op) {
  auto a = cast<memref::GenericAtomicRMWOp>(op);
  auto mo = L.memrefOf(op, a.getMemref());
  if (failed(mo))
    return failure();
  Type et = a.getResult().getType();
  if (failed(checkAtomicType(L, op, et)))
    return failure();
  Block &body = a.getAtomicBody().front();
  auto compute = [&](RV old) -> FailureOr<RV> {
    L.vals[body.getArgument(0)] = old;
    L.cse.clear();
    if (failed(L.lowerBlock(body)))
      return failure();
    return L.get(body.getTerminator()->getOperand(0));
  };
  if (mo->priv || mo->regs)
    return privateAtomic(L, op, a.getMemref(), a.getIndices(), et, compute);
  bool flat = isFlat(L, *mo);
  auto addr = L.address(op, a.getMemref(), a.getIndices(), false, flat);
  if (failed(addr))
    return failure();
  auto loop = [&](Value base, RV off) { return casLoop(L, op, base, off, et, compute); };
  if (flat && memElementBytes(et) == 8)
    return flatWide(L, op, addr->first, addr->second, loop, compute);
  return loop(addr->first, addr->second);
}

} // namespace

void populateMemrefAtomicsLowering(LoweringTable &table) {
  table.add(memref::AtomicRMWOp::getOperationName(), lowerAtomicRMW);
  table.add(memref::GenericAtomicRMWOp::getOperationName(), lowerGenericAtomicRMW);
  // The region's result (lowerGenericAtomicRMW reads its operand).
  table.add(memref::AtomicYieldOp::getOperationName(),
            [](KernelLowering &, Operation *) { return success(); });
}

} // namespace aster::lower
