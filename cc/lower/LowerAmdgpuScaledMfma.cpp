//===- LowerAmdgpuScaledMfma.cpp - amdgpu.scaled_mfma to v_mfma_scale_* ---===//
//
//   amdgpu.scaled_mfma MxNxK (sa[ia] * a) * (sb[ib] * b) + c (gfx950) ->
//     v_mfma_scale_f32_{16x16x128,32x32x64}_f8f6f4[_a<wa>_b<wb>] a, b, c,
//     sa, sb, as upstream's AMDGPUToROCDL builds rocdl.mfma.scale.f32.* and
//     llc-22 -mcpu=gfx950 selects it:
//   * cbsz / blgp = A's / B's format (CDNA4 ISA "VOP3P-MAI", the f8f6f4
//     format codes: 0 fp8 = f8E4M3FN, 1 bf8 = f8E5M2, 2 fp6 = f6E2M3FN,
//     3 bf6 = f6E3M2FN, 4 fp4 = f4E2M1FN); the source widths follow (32
//     values: 8 registers of fp8/bf8, 6 of fp6/bf6, 4 of fp4), naming the
//     instruction table's form (_a<wa>_b<wb> unless both are 8).
//   * the scales: one E8M0 byte per lane of A and of B, byte ia of sa's
//     word (op_sel[0] = ia & 1, op_sel_hi[0] = ia >> 1; B: bit 1 of each).
//     A vector<4xf8E8M0FNU> is its packed word; a scalar f8E8M0FNU is
//     zero-extended to a word (upstream's zext: a scalar read at byte 1-3
//     reads 0, i.e. 2^-127, as LLVM's build does).
//   * c packed into a VGPR range, the result split back (amdgcn.part).
//
// Needs before: operands lowered; narrow-float vectors held as packed 32-bit
// words (LowerVectorUtil.h). Guarantees after: the result in vecs; a target
// other than gfx950 or a type without an f8f6f4 format an error at the op.
//===----------------------------------------------------------------------===//
#include "lower/AmdgpuWords.h"
#include "lower/LowerVectorUtil.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"

namespace aster::lower {

namespace {

/// (format code, registers of 32 values) of an f8f6f4 element type.
std::optional<std::pair<unsigned, unsigned>> f8f6f4(Type t) {
  if (isa<Float8E4M3FNType>(t)) return std::pair{0u, 8u};
  if (isa<Float8E5M2Type>(t)) return std::pair{1u, 8u};
  if (isa<Float6E2M3FNType>(t)) return std::pair{2u, 6u};
  if (isa<Float6E3M2FNType>(t)) return std::pair{3u, 6u};
  if (isa<Float4E2M1FNType>(t)) return std::pair{4u, 4u};
  return std::nullopt;
}

/// The scale operand as a VGPR word whose byte `idx` is the scale.
FailureOr<Value> scaleWord(KernelLowering &L, Value s, unsigned idx) {
  if (isa<VectorType>(s.getType())) {
    auto ws = vec::getVec(L, s);
    if (failed(ws))
      return failure();
    return L.toV((*ws)[0]);
  }
  auto r = L.get(s);
  if (failed(r))
    return failure();
  if (r->k == RV::Imm)
    return L.toV(RV::imm(r->bits & 0xff));
  if (idx == 0) // byte 0 is the value; the bits above are not read
    return L.toV(*r);
  return L.inst("v_and_b32", L.vT, {L.cst(0xff), L.toV(*r)});
}

LogicalResult lowerScaledMfma(KernelLowering &L, Operation *o) {
  auto op = cast<amdgpu::ScaledMFMAOp>(o);
  if (L.km.getTarget() != "gfx950")
    return L.unsupported(op, "v_mfma_scale_f32_*_f8f6f4 is a gfx950 instruction, not " +
                                 L.km.getTarget() + "'s");
  auto fa = f8f6f4(getElementTypeOrSelf(op.getSourceA().getType()));
  auto fb = f8f6f4(getElementTypeOrSelf(op.getSourceB().getType()));
  if (!fa || !fb)
    return L.unsupported(op, "A and B must be f8E4M3FN, f8E5M2, f6E2M3FN, f6E3M2FN or f4E2M1FN");
  unsigned wa = fa->second, wb = fb->second;
  std::string mn = ("v_mfma_scale_f32_" + Twine(op.getM()) + "x" + Twine(op.getN()) + "x" +
                    Twine(op.getK()) + "_f8f6f4" +
                    (wa == 8 && wb == 8 ? Twine("") : "_a" + Twine(wa) + "_b" + Twine(wb)))
                       .str();
  const ISA::InstDesc *d = ISA::lookup(mn);
  if (!d)
    return L.unsupported(op, "the instruction table has no " + mn);
  auto a = operandWords(L, op.getSourceA()), b = operandWords(L, op.getSourceB()),
       c = operandWords(L, op.getDestC());
  if (failed(a) || failed(b) || failed(c))
    return failure();
  unsigned dw = d->dsts()[0].width;
  if (a->size() != wa || b->size() != wb || c->size() != dw)
    return L.unsupported(op, mn + " takes " + Twine(wa) + " and " + Twine(wb) +
                                 "-register sources and a " + Twine(dw) +
                                 "-register accumulator");
  unsigned ia = op.getScalesIdxA(), ib = op.getScalesIdxB();
  auto sa = scaleWord(L, op.getScalesA(), ia), sb = scaleWord(L, op.getScalesB(), ib);
  if (failed(sa) || failed(sb))
    return failure();
  SmallVector<NamedAttribute> mods;
  if (fa->first)
    mods.push_back(L.b.getNamedAttr("cbsz", L.b.getI32IntegerAttr(fa->first)));
  if (fb->first)
    mods.push_back(L.b.getNamedAttr("blgp", L.b.getI32IntegerAttr(fb->first)));
  mods.push_back(
      L.b.getNamedAttr("op_sel", L.b.getI32IntegerAttr((ia & 1) | (ib & 1) << 1)));
  mods.push_back(
      L.b.getNamedAttr("op_sel_hi", L.b.getI32IntegerAttr((ia >> 1) | (ib >> 1) << 1)));
  Value r = L.inst(mn, vec::rangeT(L, dw),
                   {vec::concat(L, *a), vec::concat(L, *b), vec::concat(L, *c), *sa, *sb}, mods);
  SmallVector<RV> out;
  for (unsigned i = 0; i < dw; ++i)
    out.push_back(
        RV::of(RV::V, PartOp::create(L.b, L.loc, L.vT, r, L.b.getI32IntegerAttr(i)), true));
  L.vecs[op.getDestD()] = out;
  return success();
}

} // namespace

void populateAmdgpuScaledMfmaLowering(LoweringTable &table) {
  table.addOps<amdgpu::ScaledMFMAOp>(lowerScaledMfma);
}

} // namespace aster::lower
