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
// Needs before: the memref's address (LowerMemory.cpp). Guarantees after:
// the memory updated once per active lane; the result (when used) in a
// VGPR; other element widths are an error at the op.
//===----------------------------------------------------------------------===//
#include "lower/KernelLowering.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace aster::lower {

namespace {

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

LogicalResult lowerCasLoop(KernelLowering &L, memref::AtomicRMWOp a, Value base, RV off,
                           RV value, StringRef opName) {
  SmallVector<NamedAttribute> attrs;
  Value voff = L.memOffset(off, !base, attrs);
  Value saved = L.inst("s_mov_b64", L.s2T, L.execReg());
  Value old0 = base ? L.inst("global_load_dword", L.vT, {voff, base}, attrs)
                    : L.inst("ds_read_b32", L.vT, {voff}, attrs);
  Block *head = L.newBlock({L.vT});
  cf::BranchOp::create(L.b, L.loc, head, ValueRange{old0});
  L.start(head);
  Type et = a.getType();
  bool fl = isa<FloatType>(et);
  RV old = RV::of(RV::V, head->getArgument(0), fl);
  auto nv = scalarOp(L, a.getLoc(), opName, {old, value}, {et, et}, et, {});
  if (failed(nv))
    return failure();
  Value prev;
  if (base) {
    Value data = ConcatOp::create(L.b, L.loc, RegType::getVirtual(L.ctx, RegKind::VGPR, 2),
                                  ValueRange{L.toV(*nv), old.reg});
    prev = L.inst("global_atomic_cmpswap_rtn", L.vT, {voff, data, base}, attrs);
  } else {
    // ds_cmpst: if mem == data0 then mem = data1 (data0 the compare value).
    prev = L.inst("ds_cmpst_rtn_b32", L.vT, {voff, old.reg, L.toV(*nv)}, attrs);
  }
  Value done = L.inst("v_cmp_eq_u32", L.s2T, {prev, old.reg});
  L.inst("s_andn2_b64", L.execT, {L.execReg(), done});
  Block *latch = L.newBlock(), *exit = L.newBlock();
  L.branch("s_cbranch_execz", exit, {}, latch, {});
  L.start(latch);
  cf::BranchOp::create(L.b, L.loc, head, ValueRange{prev});
  L.start(exit);
  L.inst("s_mov_b64", L.execT, saved);
  if (!a->use_empty())
    L.vals[a] = old;
  return success();
}

LogicalResult lowerAtomicRMW(KernelLowering &L, Operation *op) {
  auto a = cast<memref::AtomicRMWOp>(op);
  auto mo = L.memrefOf(op, a.getMemref());
  if (failed(mo))
    return failure();
  if (mo->priv || mo->regs)
    return L.unsupported(op, "atomics on private memory are not lowered");
  auto addr = L.address(op, a.getMemref(), a.getIndices());
  auto v = L.get(a.getValue());
  if (failed(addr) || failed(v))
    return failure();
  if (!is32(a.getType()))
    return L.unsupported(op, "only 32-bit atomics are lowered");
  auto [base, off] = *addr;
  if (StringRef cas = casOpName(a.getKind()); !cas.empty())
    return lowerCasLoop(L, a, base, off, *v, cas);
  StringRef g, d;
  switch (a.getKind()) {
  case K::addi: g = "add", d = "add_u32"; break;
  case K::addf: g = "add_f32", d = "add_f32"; break;
  case K::maxs: g = "smax", d = "max_i32"; break;
  case K::mins: g = "smin", d = "min_i32"; break;
  case K::maxu: g = "umax", d = "max_u32"; break;
  case K::minu: g = "umin", d = "min_u32"; break;
  case K::andi: g = "and", d = "and_b32"; break;
  case K::ori: g = "or", d = "or_b32"; break;
  case K::xori: g = "xor", d = "xor_b32"; break;
  case K::assign: g = "swap", d = "wrxchg_b32"; break;
  default:
    return L.unsupported(op, "this atomic kind is not lowered");
  }
  bool rtn = !a->use_empty() || (!base && a.getKind() == K::assign);
  std::string mn;
  if (base) {
    mn = ("global_atomic_" + g + (rtn ? "_rtn" : "")).str();
  } else {
    // ds_<op>_rtn_<type>: the rtn goes before the type suffix.
    size_t us = d.rfind('_');
    mn = rtn ? ("ds_" + d.substr(0, us) + "_rtn" + d.substr(us)).str() : ("ds_" + d).str();
  }
  SmallVector<NamedAttribute> attrs;
  Value voff = L.memOffset(off, !base, attrs);
  SmallVector<Value> ops{voff, L.toV(*v)};
  if (base)
    ops.push_back(base);
  Value r = L.inst(mn, rtn ? L.vT : Type(), ops, attrs);
  if (rtn)
    L.vals[a] = RV::of(RV::V, r, isF32(a.getType()));
  return success();
}

} // namespace

void populateMemrefAtomicsLowering(LoweringTable &table) {
  table.add(memref::AtomicRMWOp::getOperationName(), lowerAtomicRMW);
}

} // namespace aster::lower
