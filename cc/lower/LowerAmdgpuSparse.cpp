//===- LowerAmdgpuSparse.cpp - amdgpu.sparse_mfma to v_smfmac_* ------------===//
//
//   amdgpu.sparse_mfma MxNxK a * b + c sparse(idx) {cbsz, abid} ->
//     the instruction table's v_smfmac_<c>_<M>x<N>x<K>_<a>[_<b>] a, b, idx
//     with vdst tied to c, as upstream's AMDGPUToROCDL builds rocdl.smfmac.*
//     and llc-22 selects it (gfx942: 16x16x32 / 32x32x16 of f16 and bf16,
//     16x16x64 / 32x32x32 of i8 and fp8/bf8; gfx950 adds twice the K):
//   * A holds the 2:4-compressed rows (two values of every four k), B the
//     dense columns, idx the 2-bit position of each of A's values in its
//     group of four (AMD CDNA3 ISA, "Sparse Matrix Multiply-Accumulate" /
//     CDNA4 ISA "SMFMAC": the index VGPR); cbsz / abid select the index set
//     (cbsz 0: abid's set) and go to the instruction's fields unchanged.
//   * 8-bit floats name A's and B's formats as for amdgpu.mfma (fp8 / bf8:
//     the FNUZ types on gfx942, the OCP ones on gfx950).
//   * a, b and c are packed into VGPR ranges (amdgcn.concat of their
//     words), the index is its one packed word (vector<4xi8> /
//     vector<2xi16>), the result split back into words (amdgcn.part).
//
// Needs before: operands lowered (vectors in KernelLowering::vecs).
// Guarantees after: the result in vecs; a shape or type the target has no
// instruction for an error at the op naming it.
//===----------------------------------------------------------------------===//
#include "lower/AmdgpuWords.h"
#include "lower/LowerVectorUtil.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"

namespace aster::lower {

namespace {

LogicalResult lowerSparseMfma(KernelLowering &L, Operation *o) {
  auto op = cast<amdgpu::SparseMFMAOp>(o);
  bool gfx950 = L.km.getTarget() == "gfx950";
  std::string as = mfmaTypeName(getElementTypeOrSelf(op.getSourceA().getType()), gfx950);
  std::string bs = mfmaTypeName(getElementTypeOrSelf(op.getSourceB().getType()), gfx950);
  if (as.empty() || bs.empty())
    return L.unsupported(op, "no sparse MFMA of these element types on " + L.km.getTarget() +
                                 (gfx950 ? " (8-bit floats: f8E4M3FN, f8E5M2)"
                                         : " (8-bit floats: f8E4M3FNUZ, f8E5M2FNUZ)"));
  bool f8 = as == "fp8" || as == "bf8";
  if (f8 != (bs == "fp8" || bs == "bf8") || (!f8 && as != bs))
    return L.unsupported(op, "A and B element types do not name one sparse MFMA");
  Type cElem = getElementTypeOrSelf(op.getDestC().getType());
  std::string mn = ("v_smfmac_" + Twine(cElem.isInteger(32) ? "i32" : "f32") + "_" +
                    Twine(op.getM()) + "x" + Twine(op.getN()) + "x" + Twine(op.getK()) + "_" + as +
                    (f8 ? "_" + bs : ""))
                       .str();
  const ISA::InstDesc *d = ISA::lookup(mn);
  if (!d)
    return L.unsupported(op, "the instruction table has no " + mn);
  if (!d->validOn(L.km.getTargetBit()))
    return L.unsupported(op, mn + " is not an instruction of " + L.km.getTarget());
  auto a = operandWords(L, op.getSourceA()), b = operandWords(L, op.getSourceB()),
       c = operandWords(L, op.getDestC()), ix = operandWords(L, op.getSparseIdx());
  if (failed(a) || failed(b) || failed(c) || failed(ix))
    return failure();
  unsigned aw = d->srcs()[0].width, bw = d->srcs()[1].width, dw = d->dsts()[0].width;
  if (a->size() != aw || b->size() != bw || c->size() != dw || ix->size() != 1)
    return L.unsupported(op, mn + " takes a " + Twine(aw) + "-register A, a " + Twine(bw) +
                                 "-register B, a " + Twine(dw) +
                                 "-register accumulator and one index register");
  SmallVector<NamedAttribute> mods;
  if (op.getCbsz())
    mods.push_back(L.b.getNamedAttr("cbsz", L.b.getI32IntegerAttr(op.getCbsz())));
  if (op.getAbid())
    mods.push_back(L.b.getNamedAttr("abid", L.b.getI32IntegerAttr(op.getAbid())));
  // vdst is tied to the accumulator: a fresh range (concat) holds c.
  Value acc = vec::concat(L, *c);
  if (dw == 1)
    acc = L.inst("v_mov_b32", L.vT, acc);
  Value r = L.inst(mn, vec::rangeT(L, dw),
                   {vec::concat(L, *a), vec::concat(L, *b), L.toV((*ix)[0]), acc}, mods);
  bool fl = !cElem.isInteger(32);
  SmallVector<RV> out;
  for (unsigned i = 0; i < dw; ++i)
    out.push_back(
        RV::of(RV::V, PartOp::create(L.b, L.loc, L.vT, r, L.b.getI32IntegerAttr(i)), fl));
  L.vecs[op.getDestD()] = out;
  return success();
}

} // namespace

void populateAmdgpuSparseLowering(LoweringTable &table) {
  table.addOps<amdgpu::SparseMFMAOp>(lowerSparseMfma);
}

} // namespace aster::lower
