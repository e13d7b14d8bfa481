//===- LowerAmdgpuMfma.cpp - amdgpu.mfma to v_mfma_* ----------------------===//
//
//   amdgpu.mfma MxNxK (blocks) a * b + c -> the instruction table's
//     v_mfma_<c>_<M>x<N>x<K>[_<blocks>b]_<a>[_<b>] (the table says whether
//     the target has it and its operand widths), named as upstream's
//     AMDGPUToROCDL picks the intrinsic: 8-bit floats name A's and B's
//     formats (fp8 = f8E4M3FNUZ on gfx942 / f8E4M3FN on gfx950, bf8 =
//     f8E5M2FNUZ / f8E5M2); f32 sources with reducePrecision are xf32
//     (gfx942 only: gfx950 dropped v_mfma_f32_*_xf32, an error there).
//   a, b and c are packed into VGPR ranges (amdgcn.concat of their words:
//     vectors as LowerVectorUtil.h holds them, an f64 scalar as its two
//     dwords), the result split back into words (amdgcn.part).
//   cbsz, abid -> the instruction's cbsz / abid fields; blgp -> blgp (its
//     enum value is the field, AMD's matrix instruction calculator: 1 lane %
//     32, ... 7 the 4th group of 16 lanes). f64 MFMAs carry no blgp (the
//     field is the neg bits there, CDNA3 ISA "VOP3P-MAI"): negateA / B / C
//     -> neg:[a,b,c], as AMDGPUToROCDL folds them into the blgp operand of
//     the f64 intrinsic (llc-22 prints neg:[...]); a blgp on f64 is an error
//     (the op's verifier allows negate* on f64 only).
//
// Needs before: operands lowered (vector values in KernelLowering::vecs).
// Guarantees after: the result in vals (a scalar f32/i32: one word; f64: a
// wide pair) or vecs; anything else an error at the op naming it.
//===----------------------------------------------------------------------===//
#include "lower/AmdgpuWords.h"
#include "lower/KernelLowering.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"

namespace aster::lower {

namespace {

Value vrange(KernelLowering &L, ArrayRef<RV> ws) {
  SmallVector<Value> regs;
  for (const RV &w : ws)
    regs.push_back(L.toV(w));
  if (regs.size() == 1)
    return regs[0];
  return ConcatOp::create(L.b, L.loc, RegType::getVirtual(L.ctx, RegKind::VGPR, regs.size()),
                          regs);
}

LogicalResult lowerMfma(KernelLowering &L, Operation *o) {
  auto op = cast<amdgpu::MFMAOp>(o);
  bool gfx950 = L.km.getTarget() == "gfx950";
  Type aElem = getElementTypeOrSelf(op.getSourceA().getType());
  Type bElem = getElementTypeOrSelf(op.getSourceB().getType());
  Type cElem = getElementTypeOrSelf(op.getDestC().getType());
  std::string as = mfmaTypeName(aElem, gfx950), bs = mfmaTypeName(bElem, gfx950);
  if (as.empty() || bs.empty())
    return L.unsupported(op, "no MFMA of " + Twine(as.empty() ? "A" : "B") +
                                 " elements of this type on " + L.km.getTarget());
  bool f8 = as == "fp8" || as == "bf8";
  if (f8 != (bs == "fp8" || bs == "bf8") || (!f8 && as != bs))
    return L.unsupported(op, "A and B element types do not name one MFMA");
  if (op.getReducePrecision() && aElem.isF32())
    as = "xf32";
  std::string mn = ("v_mfma_" + mfmaTypeName(cElem, gfx950) + "_" + Twine(op.getM()) + "x" +
                    Twine(op.getN()) + "x" + Twine(op.getK()) +
                    (op.getBlocks() > 1 ? "_" + Twine(op.getBlocks()) + "b" : Twine("")) + "_" +
                    as + (f8 ? "_" + bs : ""))
                       .str();
  const ISA::InstDesc *d = ISA::lookup(mn);
  if (!d)
    return L.unsupported(op, "the instruction table has no " + mn);
  if (!d->validOn(L.km.getTargetBit()))
    return L.unsupported(op, mn + " is not an instruction of " + L.km.getTarget());
  auto a = operandWords(L, op.getSourceA()), b = operandWords(L, op.getSourceB()),
       c = operandWords(L, op.getDestC());
  if (failed(a) || failed(b) || failed(c))
    return failure();
  unsigned abw = d->srcs()[0].width, dw = d->dsts()[0].width;
  if (a->size() != abw || b->size() != abw || c->size() != dw)
    return L.unsupported(op, mn + " takes " + Twine(abw) + "-register sources and a " +
                                 Twine(dw) + "-register accumulator");
  SmallVector<NamedAttribute> mods;
  if (op.getCbsz())
    mods.push_back(L.b.getNamedAttr("cbsz", L.b.getI32IntegerAttr(op.getCbsz())));
  if (op.getAbid())
    mods.push_back(L.b.getNamedAttr("abid", L.b.getI32IntegerAttr(op.getAbid())));
  unsigned blgp = (unsigned)op.getBlgp();
  if (cElem.isF64()) {
    if (blgp)
      return L.unsupported(op, "f64 MFMAs have no blgp (the field negates the sources)");
    unsigned neg = (op.getNegateA() ? 1 : 0) | (op.getNegateB() ? 2 : 0) |
                   (op.getNegateC() ? 4 : 0);
    if (neg)
      mods.push_back(L.b.getNamedAttr("neg", L.b.getI32IntegerAttr(neg)));
  } else if (blgp) {
    mods.push_back(L.b.getNamedAttr("blgp", L.b.getI32IntegerAttr(blgp)));
  }
  Type resT = dw == 1                         ? L.vT
              : cElem.isF64() && dw == 2        ? L.v2T
                                                : (Type)RegType::getVirtual(L.ctx, RegKind::VGPR, dw);
  Value r = L.inst(mn, resT, {vrange(L, *a), vrange(L, *b), vrange(L, *c)}, mods);
  bool fl = isa<FloatType>(cElem) && !cElem.isF64();
  SmallVector<RV> out;
  if (dw == 1)
    out.push_back(RV::of(RV::V, r, fl));
  else
    for (unsigned i = 0; i < dw; ++i)
      out.push_back(
          RV::of(RV::V, PartOp::create(L.b, L.loc, L.vT, r, L.b.getI32IntegerAttr(i)), fl));
  if (isa<VectorType>(op.getDestD().getType()))
    L.vecs[op.getDestD()] = out;
  else if (cElem.isF64())
    L.vals[op.getDestD()] = L.fromV64(r);
  else
    L.vals[op.getDestD()] = out[0];
  return success();
}

} // namespace

// The gfx950 MX conversions and MFMAs and the sparse MFMAs register with
// the other MFMAs (LowerAmdgpuScaled.cpp, LowerAmdgpuScaledMfma.cpp,
// LowerAmdgpuSparse.cpp): no Lowerings.def line, so adding them did not
// change the header every cc/lower file includes.
void populateAmdgpuScaledLowering(LoweringTable &table);
void populateAmdgpuScaledMfmaLowering(LoweringTable &table);
void populateAmdgpuSparseLowering(LoweringTable &table);

void populateAmdgpuMfmaLowering(LoweringTable &table) {
  table.addOps<amdgpu::MFMAOp>(lowerMfma);
  populateAmdgpuScaledLowering(table);
  populateAmdgpuScaledMfmaLowering(table);
  populateAmdgpuSparseLowering(table);
}

} // namespace aster::lower
