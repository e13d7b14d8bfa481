//===- LowerAmdgpuScaled.cpp - gfx950 MX (block-scaled) conversions -------===//
//
// gfx950's scaled conversions between f32/f16/bf16 and the OCP 8- and 4-bit
// formats (CDNA4 ISA "VOP3" V_CVT_SCALEF32_*), as upstream's AMDGPUToROCDL
// maps the ops to rocdl.cvt.scalef32.* and llc-22 -mcpu=gfx950 selects them
// (read off llc-22's assembly of the same kernels; the selector bits below):
//   scaled_ext_packed src[i], scale -> vector<2 x f32|f16|bf16>:
//     v_cvt_scalef32_pk_{f32,f16,bf16}_{fp8,bf8,fp4} src, scale with
//     op_sel = i (fp8/bf8: word i of the packed source, i <= 1; fp4: byte i,
//     i <= 3). A source of fewer elements than a word holds is zero-padded
//     (upstream: insertelement into a zero vector): the missing bits are
//     masked off.
//   packed_scaled_trunc src into existing[i], scale -> the existing word
//     (0 when absent: upstream's zero) with word i (fp8/bf8, i <= 1) or byte
//     i (fp4, i <= 3) replaced: v_cvt_scalef32_pk_{fp8,bf8,fp4}_{f32,f16,
//     bf16}, vdst tied to the existing word; f32 sources are two operands
//     (a one-element source converts 0 as the second), f16/bf16 one packed
//     word (its high half zeroed when the source has one element). The
//     selector: op_sel[3] for fp8/bf8 from f32, op_sel[3:2] = i otherwise
//     (llc-22 prints op_sel:[0,0,0,1] for pk_fp8_f32 word 1, [0,0,1] for
//     pk_bf8_f16 word 1, [0,0,1,1] for pk_fp4_* byte 3).
// The scale is an f32 (upstream's operand; the instruction multiplies the
// converted value by it on the way out of the narrow format and divides by it
// on the way in: the emulator's SemScaleCvt.cpp, checked against ml_dtypes).
//
// Needs before: operands lowered; narrow-float vectors held as packed 32-bit
// words (LowerVectorUtil.h). Guarantees after: results in vecs (a vector<2x
// f32> as two words, 16-bit pairs and narrow-float vectors as one word); a
// target other than gfx950, an index out of range or a format the op's
// verifier allows but no instruction converts is an error at the op.
//===----------------------------------------------------------------------===//
#include "lower/LowerVectorUtil.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"

namespace aster::lower {

namespace {

/// "fp8" / "bf8" / "fp4" for an OCP narrow float type, else "".
std::string mxName(Type t) {
  if (isa<Float8E4M3FNType>(t)) return "fp8";
  if (isa<Float8E5M2Type>(t)) return "bf8";
  if (isa<Float4E2M1FNType>(t)) return "fp4";
  return "";
}

/// "f32" / "f16" / "bf16".
std::string wideName(Type t) {
  if (t.isF32()) return "f32";
  if (t.isF16()) return "f16";
  if (t.isBF16()) return "bf16";
  return "";
}

LogicalResult needGfx950(KernelLowering &L, Operation *op) {
  if (L.km.getTarget() == "gfx950")
    return success();
  return L.unsupported(op, "the scaled (MX) conversions are gfx950 instructions, not " +
                               L.km.getTarget() + "'s");
}

/// The one packed word of narrow-float vector `v` as a VGPR, bits above its
/// `n` elements of `bits` bits cleared when `n` does not fill the word.
FailureOr<Value> packedWord(KernelLowering &L, Operation *op, Value v) {
  auto vt = cast<VectorType>(v.getType());
  auto ws = vec::getVec(L, v);
  if (failed(ws))
    return failure();
  if (ws->size() != 1)
    return L.unsupported(op, "a narrow-float vector of one 32-bit word is lowered");
  unsigned used = vt.getNumElements() * vt.getElementTypeBitWidth();
  RV w = (*ws)[0];
  if (used < 32)
    return L.inst("v_and_b32", L.vT, {L.cst((1u << used) - 1), L.toV(w)});
  return L.toV(w);
}

LogicalResult lowerScaledExt(KernelLowering &L, Operation *o) {
  auto op = cast<amdgpu::ScaledExtPackedOp>(o);
  if (failed(needGfx950(L, op)))
    return failure();
  auto st = cast<VectorType>(op.getSource().getType());
  auto rt = cast<VectorType>(op.getRes().getType());
  std::string from = mxName(st.getElementType()), to = wideName(rt.getElementType());
  if (from.empty() || to.empty())
    return L.unsupported(op, "no scaled conversion between these types");
  unsigned i = op.getIndex();
  if (i > (from == "fp4" ? 3u : 1u))
    return L.unsupported(op, from == "fp4" ? "four-bit pairs come from byte 0 to 3"
                                           : "eight-bit pairs come from word 0 or 1");
  auto w = packedWord(L, op, op.getSource());
  auto s = L.get(op.getScale());
  if (failed(w) || failed(s))
    return failure();
  SmallVector<Value> ops = L.vOps({RV::of(RV::V, *w), *s});
  SmallVector<NamedAttribute> mods;
  if (i)
    mods.push_back(L.b.getNamedAttr("op_sel", L.b.getI32IntegerAttr(i)));
  std::string mn = "v_cvt_scalef32_pk_" + to + "_" + from;
  if (to == "f32") {
    Value r = L.inst(mn, L.v2T, ops, mods);
    SmallVector<RV> out;
    for (unsigned k = 0; k < 2; ++k)
      out.push_back(
          RV::of(RV::V, PartOp::create(L.b, L.loc, L.vT, r, L.b.getI32IntegerAttr(k)), true));
    L.vecs[op.getRes()] = out;
  } else {
    L.vecs[op.getRes()] = {RV::of(RV::V, L.inst(mn, L.vT, ops, mods))};
  }
  return success();
}

LogicalResult lowerScaledTrunc(KernelLowering &L, Operation *o) {
  auto op = cast<amdgpu::PackedScaledTruncOp>(o);
  if (failed(needGfx950(L, op)))
    return failure();
  auto st = cast<VectorType>(op.getSource().getType());
  auto rt = cast<VectorType>(op.getRes().getType());
  std::string from = wideName(st.getElementType()), to = mxName(rt.getElementType());
  if (from.empty() || to.empty())
    return L.unsupported(op, "no scaled conversion between these types");
  unsigned i = op.getIndex();
  if (i > (to == "fp4" ? 3u : 1u))
    return L.unsupported(op, to == "fp4" ? "four-bit pairs go to byte 0 to 3"
                                         : "eight-bit pairs go to word 0 or 1");
  auto src = vec::getVec(L, op.getSource());
  auto s = L.get(op.getScale());
  if (failed(src) || failed(s))
    return failure();
  Value ex;
  if (op.getExisting()) {
    auto e = packedWord(L, op, op.getExisting());
    if (failed(e))
      return failure();
    // A fresh copy: vdst is tied (written in place).
    ex = L.inst("v_mov_b32", L.vT, *e);
  } else {
    ex = L.inst("v_mov_b32", L.vT, L.cst(0));
  }
  SmallVector<Value> ops;
  unsigned opsel;
  if (from == "f32") {
    RV a = (*src)[0], b2 = src->size() > 1 ? (*src)[1] : RV::imm(0, true);
    ops = L.vOps({a, b2, *s});
    opsel = to == "fp4" ? i << 2 : i << 3;
  } else {
    RV w = (*src)[0];
    if (st.getNumElements() == 1)
      w = RV::of(RV::V, L.inst("v_and_b32", L.vT, {L.cst(0xffff), L.toV(w)}));
    ops = L.vOps({w, *s});
    opsel = i << 2;
  }
  ops.push_back(ex);
  SmallVector<NamedAttribute> mods;
  if (opsel)
    mods.push_back(L.b.getNamedAttr("op_sel", L.b.getI32IntegerAttr(opsel)));
  Value r = L.inst("v_cvt_scalef32_pk_" + to + "_" + from, L.vT, ops, mods);
  L.vecs[op.getRes()] = {RV::of(RV::V, r)};
  return success();
}

} // namespace

void populateAmdgpuScaledLowering(LoweringTable &table) {
  table.addOps<amdgpu::ScaledExtPackedOp>(lowerScaledExt);
  table.addOps<amdgpu::PackedScaledTruncOp>(lowerScaledTrunc);
}

} // namespace aster::lower
