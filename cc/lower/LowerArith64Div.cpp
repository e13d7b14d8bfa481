//===- LowerArith64Div.cpp - i64 division and remainder -------------------===//
//
// arith.divui / remui / divsi / remsi on i64, as LLVM's AMDGPU backend
// expands a 64-bit udivrem (AMDGPUTargetLowering::LowerUDIVREM64, the
// unsigned Newton-Raphson of Rodeheffer's "Software Integer Division"):
//   1. a 64-bit reciprocal estimate from f32: f = fma(f32(d.hi), 2^32,
//      f32(d.lo)); r = v_rcp_f32(f) * 0x5f7ffffc (just below 2^64);
//      t = trunc(r * 2^-32); lo = fma(t, -2^32, r); rcp = (u32(lo), u32(t));
//   2. two rounds of rcp += mulhi(rcp, (-d) * rcp) (64-bit products);
//   3. q = mulhi(n, rcp), rem = n - q * d, then at most two corrections
//      (rem >= d: q += 1, rem -= d).
// Checked (tests/py/lower_suite_arith64b.py) on random and edge operands
// against NumPy and LLVM's build of the same kernel: integer results are
// unique, so any correct expansion has the same bits. LLVM also guards the
// expansion with a 32-bit division when both high dwords are 0
// (BypassSlowDivision); this lowering always runs the 64-bit path
// (straight-line code, no branch). Signed ops divide the magnitudes
// ((v ^ s) - s with s the sign spread to 64 bits) and give the quotient the
// sign sx ^ sy, the remainder the dividend's sign, as LLVM's LowerSDIVREM.
// Everything is VALU (a uniform division's result is a VGPR pair). A
// division and a remainder of the same operands in one block share one
// expansion.
// Needs before: the operands lowered (wide RVs). Guarantees after: the
// quotient or remainder as a wide VGPR RV.
//===----------------------------------------------------------------------===//
#include "lower/KernelLowering.h"

namespace aster::lower {

namespace {

/// 64-bit VALU helpers on vgpr<?x2> ranges.
struct Wide {
  KernelLowering &L;
  Value zero;
  explicit Wide(KernelLowering &l) : L(l) { zero = L.toV64(KernelLowering::imm64(0)); }
  Value lo(Value p) { return PartOp::create(L.b, L.loc, L.vT, p, L.b.getI32IntegerAttr(0)); }
  Value hi(Value p) { return PartOp::create(L.b, L.loc, L.vT, p, L.b.getI32IntegerAttr(1)); }
  Value join(Value l, Value h) { return ConcatOp::create(L.b, L.loc, L.v2T, ValueRange{l, h}); }
  Value add(Value x, Value y) { return L.inst("v_lshl_add_u64", L.v2T, {x, L.cst(0), y}); }
  Value sub(Value x, Value y) {
    Operation *l = L.instN("v_sub_co_u32", {L.vT, L.s2T}, {lo(x), lo(y)});
    Operation *h = L.instN("v_subb_co_u32", {L.vT, L.s2T}, {hi(x), hi(y), l->getResult(1)});
    return join(l->getResult(0), h->getResult(0));
  }
  Value xor64(Value x, Value s) {
    return join(L.inst("v_xor_b32", L.vT, {lo(x), lo(s)}), L.inst("v_xor_b32", L.vT, {hi(x), hi(s)}));
  }
  /// a * b + c (32 x 32 + 64 -> 64).
  Value mad(Value a, Value b, Value c) {
    return L.instN("v_mad_u64_u32", {L.v2T, L.s2T}, {a, b, c})->getResult(0);
  }
  /// The low 64 bits of x * y.
  Value mulLo(Value x, Value y) {
    Value p = mad(lo(x), lo(y), zero);
    Value c1 = L.inst("v_mul_lo_u32", L.vT, {hi(x), lo(y)});
    Value c2 = L.inst("v_mul_lo_u32", L.vT, {lo(x), hi(y)});
    return join(lo(p), L.inst("v_add3_u32", L.vT, {hi(p), c1, c2}));
  }
  /// The high 64 bits of the 128-bit x * y.
  Value mulHi(Value x, Value y) {
    Value h00 = L.inst("v_mul_hi_u32", L.vT, {lo(x), lo(y)});
    Value t = mad(lo(x), hi(y), join(h00, L.toV(RV::imm(0))));      // x0 y1 + (x0 y0 >> 32)
    Value u = mad(hi(x), lo(y), join(lo(t), L.toV(RV::imm(0))));   // x1 y0 + low(t)
    Operation *s = L.instN("v_add_co_u32", {L.vT, L.s2T}, {hi(t), hi(u)});
    Operation *c = L.instN("v_addc_co_u32", {L.vT, L.s2T}, {L.cst(0), L.cst(0), s->getResult(1)});
    return mad(hi(x), hi(y), join(s->getResult(0), c->getResult(0)));
  }
  Value select(Value mask, Value t, Value f) {
    return join(L.inst("v_cndmask_b32", L.vT, {lo(f), lo(t), mask}),
                L.inst("v_cndmask_b32", L.vT, {hi(f), hi(t), mask}));
  }
  Value f32(uint32_t bits) { return L.toV(RV::imm(bits, true)); }

  /// {n / d, n % d} (unsigned).
  std::pair<Value, Value> udivrem(Value n, Value d) {
    Value fl = L.inst("v_cvt_f32_u32", L.vT, lo(d));
    Value fh = L.inst("v_cvt_f32_u32", L.vT, hi(d));
    Value f = L.inst("v_fma_f32", L.vT, {fh, f32(0x4f800000), fl});       // 2^32
    Value r = L.inst("v_rcp_f32", L.vT, f);
    r = L.inst("v_mul_f32", L.vT, {f32(0x5f7ffffc), r});                   // ~2^64
    Value t = L.inst("v_trunc_f32", L.vT, L.inst("v_mul_f32", L.vT, {f32(0x2f800000), r}));
    Value rl = L.inst("v_fma_f32", L.vT, {t, f32(0xcf800000), r});        // -2^32
    Value rcp = join(L.inst("v_cvt_u32_f32", L.vT, rl), L.inst("v_cvt_u32_f32", L.vT, t));
    Value negd = sub(zero, d);
    for (int i = 0; i < 2; ++i)
      rcp = add(rcp, mulHi(rcp, mulLo(negd, rcp)));
    Value q = mulHi(n, rcp);
    Value rem = sub(n, mulLo(q, d));
    Value one = L.toV64(KernelLowering::imm64(1));
    for (int i = 0; i < 2; ++i) {
      Value ge = L.inst("v_cmp_ge_u64", L.s2T, {rem, d});
      q = select(ge, add(q, one), q);
      rem = select(ge, sub(rem, d), rem);
    }
    return {q, rem};
  }
  /// The sign of x spread to 64 bits (0 or -1).
  Value sign(Value x) {
    Value s = L.inst("v_ashrrev_i32", L.vT, {L.cst(31), hi(x)});
    return join(s, s);
  }
};

} // namespace

/// i64 divui / remui / divsi / remsi (LowerArith64.cpp calls it).
RV lowerDivRem64(KernelLowering &L, Operation *op, RV x, RV y) {
  Wide w(L);
  bool isSigned = isa<arith::DivSIOp, arith::RemSIOp>(op);
  bool isDiv = isa<arith::DivSIOp, arith::DivUIOp>(op);
  Value n = L.toV64(x), d = L.toV64(y);
  // A division and a remainder of the same operands in one block share the
  // expansion (as LLVM's udivrem / sdivrem node): the block-local cache
  // `cse` (cleared when a block starts) keeps {quotient, remainder} of the
  // (magnitudes of the) operands.
  static const char kU[] = "udivrem64", kS[] = "sdivrem64";
  auto key = std::make_tuple(isSigned ? kS : kU, (int)RV::V, n.getAsOpaquePointer(), 0u,
                             (int)RV::V, d.getAsOpaquePointer(), 0u);
  auto cached = [&](function_ref<std::pair<Value, Value>()> make) -> std::pair<Value, Value> {
    if (auto it = L.cse.find(key); it != L.cse.end())
      return {it->second.reg, it->second.hiReg};
    auto qr = make();
    RV e = RV::of(RV::V, qr.first);
    e.hiReg = qr.second;
    L.cse[key] = e;
    return qr;
  };
  if (!isSigned) {
    auto [q, r] = cached([&] { return w.udivrem(n, d); });
    return L.fromV64(isDiv ? q : r);
  }
  Value sx = w.sign(n), sy = w.sign(d);
  auto [q, r] = cached([&] {
    Value an = w.sub(w.xor64(n, sx), sx), ad = w.sub(w.xor64(d, sy), sy);
    return w.udivrem(an, ad);
  });
  Value s = isDiv ? w.xor64(sx, sy) : sx;
  return L.fromV64(w.sub(w.xor64(isDiv ? q : r, s), s));
}

} // namespace aster::lower
