//===- LowerAmdgpuDpp.cpp - amdgpu.dpp / permlane_swap: lane permutes ----===//
//
//   amdgpu.dpp %old %src kind(arg) {row_mask, bank_mask, bound_ctrl}
//     -> v_mov_b32_dpp per dword of the value, dpp_ctrl as upstream's
//     AMDGPUToROCDL encodes `kind` (LLVM's AMDGPU::DPP::DppCtrl; CDNA3 ISA
//     "DPP_CTRL Enumeration"): quad_perm [p0..p3] = p0 | p1 << 2 | p2 << 4 |
//     p3 << 6, row_shl n = 0x100 + n, row_shr n = 0x110 + n, row_ror n =
//     0x120 + n, wave_shl 0x130, wave_rol 0x134, wave_shr 0x138, wave_ror
//     0x13c, row_mirror 0x140, row_half_mirror 0x141, row_bcast_15 0x142,
//     row_bcast_31 0x143. Lanes the instruction does not write keep `old`
//     (rows / banks off in row_mask / bank_mask; an invalid or disabled
//     source lane without bound_ctrl); bound_ctrl reads 0 there instead.
//     LLVM ties `old` to vdst (llvm.amdgcn.update.dpp); aster's SSA registers
//     have no such tie for v_mov_b32_dpp, so the same result is built as
//       data  = v_mov_b32_dpp src    (bound_ctrl:1, all rows and banks)
//       valid = v_mov_b32_dpp 1      (the same; 0 where the source lane is
//               invalid or disabled)          -- only without bound_ctrl
//       r     = valid ? data : old              -- only without bound_ctrl
//       r     = (row, bank on) ? r : old        -- only with a partial mask
//     (v_cmp + v_cndmask_b32; the row/bank lanes a 64-bit constant mask).
//     Values narrower than a dword move in the low bits of theirs (the high
//     bits are unspecified in KernelLowering's narrow scalars); 64-bit
//     values and vectors per dword.
//   amdgpu.permlane_swap %src 16|32 (gfx950) -> v_permlane16_swap_b32 /
//     v_permlane32_swap_b32 with vdst = vsrc = a copy of each dword (the
//     odd rows of vdst trade places with the even rows of vsrc, CDNA4 ISA),
//     then as upstream's AMDGPUToROCDL (mlir-opt-22 on the audit's probe):
//     result = vdst' == src ? vsrc' : vdst' (v_cmp_eq_u32 + v_cndmask_b32),
//     which is src of lane l ^ 16 (l ^ 32). fetch_inactive / bound_ctrl
//     become the VOP3 form's fi:1 / bound_ctrl:1 (as llc-22 -mcpu=gfx950
//     selects v_permlane16_swap_b32_e64 ... bound_ctrl:1 fi:1 for upstream's
//     rocdl.permlane16.swap with both set); they only change what an
//     inactive source lane gives.
//
// Needs before: operands lowered. Guarantees after: the result in vals / vecs.
//===----------------------------------------------------------------------===//
#include "lower/AmdgpuWords.h"
#include "lower/KernelLowering.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"

namespace aster::lower {

namespace {

/// Stores the dwords `ws` as the value `res` (the shape operandWords read).
void setDwords(KernelLowering &L, Value res, ArrayRef<RV> ws) {
  if (isa<VectorType>(res.getType()))
    L.vecs[res] = SmallVector<RV>(ws);
  else if (ws.size() == 2)
    L.vals[res] = L.pair(ws[0], ws[1]);
  else
    L.vals[res] = ws[0];
}

FailureOr<unsigned> dppCtrl(KernelLowering &L, amdgpu::DPPOp op) {
  auto arg = op.getPermArgument();
  auto intArg = [&]() -> int64_t {
    auto i = arg ? dyn_cast<IntegerAttr>(*arg) : IntegerAttr();
    return i ? i.getInt() : -1;
  };
  using K = amdgpu::DPPPerm;
  switch (op.getKind()) {
  case K::quad_perm: {
    auto a = arg ? dyn_cast<ArrayAttr>(*arg) : ArrayAttr();
    if (!a || a.size() != 4)
      return L.unsupported(op, "quad_perm needs 4 lane numbers");
    unsigned c = 0;
    for (unsigned i = 0; i < 4; ++i)
      c |= (cast<IntegerAttr>(a[i]).getInt() & 3) << (2 * i);
    return c;
  }
  case K::row_shl:
  case K::row_shr:
  case K::row_ror: {
    int64_t n = intArg();
    if (n < 1 || n > 15)
      return L.unsupported(op, "row shifts and rotates take 1 to 15 lanes");
    unsigned base = op.getKind() == K::row_shl ? 0x100 : op.getKind() == K::row_shr ? 0x110 : 0x120;
    return base + (unsigned)n;
  }
  case K::wave_shl: return 0x130u;
  case K::wave_rol: return 0x134u;
  case K::wave_shr: return 0x138u;
  case K::wave_ror: return 0x13cu;
  case K::row_mirror: return 0x140u;
  case K::row_half_mirror: return 0x141u;
  case K::row_bcast_15: return 0x142u;
  case K::row_bcast_31: return 0x143u;
  }
  return L.unsupported(op, "unknown DPP kind");
}

LogicalResult lowerDpp(KernelLowering &L, Operation *o) {
  auto op = cast<amdgpu::DPPOp>(o);
  auto ctrl = dppCtrl(L, op);
  if (failed(ctrl))
    return failure();
  auto olds = operandWords(L, op.getOld()), srcs = operandWords(L, op.getSrc());
  if (failed(olds) || failed(srcs))
    return failure();
  if (olds->size() != srcs->size())
    return L.unsupported(op, "old and src are held in different numbers of dwords");
  SmallVector<NamedAttribute> mods{
      L.b.getNamedAttr("dpp_ctrl", L.b.getI32IntegerAttr(*ctrl)),
      L.b.getNamedAttr("bound_ctrl", L.b.getI32IntegerAttr(1))};
  unsigned rowMask = op.getRowMask() & 0xf, bankMask = op.getBankMask() & 0xf;
  // Lanes written: rows on in row_mask whose bank (lane % 16 / 4) is on.
  uint64_t written = 0;
  for (unsigned l = 0; l < 64; ++l)
    if ((rowMask >> (l / 16) & 1) && (bankMask >> (l % 16 / 4) & 1))
      written |= 1ull << l;
  Value valid;
  if (!op.getBoundCtrl()) {
    Value one = L.inst("v_mov_b32", L.vT, L.cst(1));
    Value v = L.inst("v_mov_b32_dpp", L.vT, {one}, mods);
    valid = L.inst("v_cmp_ne_u32", L.s2T, {L.cst(0), v});
  }
  Value keep;
  if (written != ~0ull) {
    Value lo = L.inst("s_mov_b32", L.sT, L.cst((uint32_t)written));
    Value hi = L.inst("s_mov_b32", L.sT, L.cst((uint32_t)(written >> 32)));
    keep = ConcatOp::create(L.b, L.loc, L.s2T, ValueRange{lo, hi});
  }
  SmallVector<RV> out;
  for (auto [old, src] : llvm::zip(*olds, *srcs)) {
    Value r = L.inst("v_mov_b32_dpp", L.vT, {L.toV(src)}, mods);
    if (valid || keep) {
      Value o = L.toV(old);
      if (valid)
        r = L.inst("v_cndmask_b32", L.vT, {o, r, valid});
      if (keep)
        r = L.inst("v_cndmask_b32", L.vT, {o, r, keep});
    }
    out.push_back(RV::of(RV::V, r, src.isFloat));
  }
  setDwords(L, op.getResult(), out);
  return success();
}

LogicalResult lowerPermlaneSwap(KernelLowering &L, Operation *o) {
  auto op = cast<amdgpu::PermlaneSwapOp>(o);
  unsigned len = op.getRowLength();
  std::string mn = len == 16 ? "v_permlane16_swap_b32" : "v_permlane32_swap_b32";
  const ISA::InstDesc *d = ISA::lookup(mn);
  if (!d || !d->validOn(L.km.getTargetBit()))
    return L.unsupported(op, mn + " is not an instruction of " + L.km.getTarget() +
                                 " (gfx950 has it)");
  SmallVector<NamedAttribute> mods;
  if (op.getBoundCtrl())
    mods.push_back(L.b.getNamedAttr("bound_ctrl", L.b.getI32IntegerAttr(1)));
  if (op.getFetchInactive())
    mods.push_back(L.b.getNamedAttr("fi", L.b.getI32IntegerAttr(1)));
  auto ws = operandWords(L, op.getSrc());
  if (failed(ws))
    return failure();
  SmallVector<RV> out;
  for (const RV &w : *ws) {
    Value v = L.toV(w);
    Value c = L.inst("v_mov_b32", L.vT, v);
    Operation *sw = createInstOp(L.b, L.loc, mn, ValueRange{v, c}, TypeRange{L.vT, L.vT}, mods);
    Value d = sw->getResult(0), s = sw->getResult(1);
    Value same = L.inst("v_cmp_eq_u32", L.s2T, {d, v});
    out.push_back(RV::of(RV::V, L.inst("v_cndmask_b32", L.vT, {d, s, same}), w.isFloat));
  }
  setDwords(L, op.getResult(), out);
  return success();
}

} // namespace

void populateAmdgpuDppLowering(LoweringTable &table) {
  table.addOps<amdgpu::DPPOp>(lowerDpp);
  table.addOps<amdgpu::PermlaneSwapOp>(lowerPermlaneSwap);
}

} // namespace aster::lower
