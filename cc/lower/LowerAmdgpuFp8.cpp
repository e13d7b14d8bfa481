//===- LowerAmdgpuFp8.cpp - amdgpu 8-bit float conversions ---------------===//
//
// The packed fp8/bf8 conversions of gfx942 (FNUZ formats: f8E4M3FNUZ,
// f8E5M2FNUZ) and gfx950 (the same instructions read/write the OCP formats
// f8E4M3FN, f8E5M2; CDNA4 ISA "VOP1"/"VOP3" fp8 conversions), as upstream's
// AMDGPUToROCDL maps them to rocdl.cvt.* and llc-22 selects those:
//   ext_packed_fp8 src[i] -> f32: v_cvt_f32_{fp8,bf8} of the source word,
//     byte i chosen by the SDWA form's src0_sel:BYTE_i (i = 0: the VOP1
//     form); -> vector<2xf32>: v_cvt_pk_f32_{fp8,bf8} of word i (i = 1: the
//     SDWA form's src0_sel:WORD_1).
//   packed_trunc_2xfp8 a, b into existing[word w] -> v_cvt_pk_{fp8,bf8}_f32
//     a, b with vdst tied to existing's word (op_sel[2] = w: the high word;
//     the other word kept). A missing b converts 0 (upstream passes undef);
//     a missing existing is 0.
//   packed_stoch_round_fp8 x + s into existing[i] -> v_cvt_sr_{fp8,bf8}_f32
//     x, s with vdst tied to existing (op_sel[3:2] = i: the byte written).
// A vector of 4 8-bit floats is one packed word here: the word
// vector.bitcast of a vector<1xi32> holds (LowerVectorShape); a vector of
// separate bytes (one RV per element) is packed first.
//
// Needs before: operands lowered. Guarantees after: results in vals / vecs
// (an 8-bit float vector result as its one word); a format the target does
// not convert is an error at the op.
//===----------------------------------------------------------------------===//
#include "lower/KernelLowering.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"

namespace aster::lower {

namespace {

/// "fp8" / "bf8" for the 8-bit float type the target converts, else "".
std::string fp8Name(KernelLowering &L, Type t) {
  bool gfx950 = L.km.getTarget() == "gfx950";
  if (gfx950 ? isa<Float8E4M3FNType>(t) : isa<Float8E4M3FNUZType>(t)) return "fp8";
  if (gfx950 ? isa<Float8E5M2Type>(t) : isa<Float8E5M2FNUZType>(t)) return "bf8";
  return "";
}

LogicalResult badFormat(KernelLowering &L, Operation *op, Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << t;
  return L.unsupported(op, L.km.getTarget() + " converts " +
                               (L.km.getTarget() == "gfx950" ? "f8E4M3FN and f8E5M2"
                                                             : "f8E4M3FNUZ and f8E5M2FNUZ") +
                               ", not " + s);
}

/// The packed word (VGPR) holding the 8-bit floats of `v` (a scalar or a
/// vector of up to 4), element k in byte k.
FailureOr<Value> packedWord(KernelLowering &L, Value v) {
  if (!isa<VectorType>(v.getType())) {
    auto r = L.get(v);
    if (failed(r))
      return failure();
    return L.toV(*r);
  }
  auto it = L.vecs.find(v);
  if (it == L.vecs.end())
    return (FailureOr<Value>)L.fn.emitOpError("uses a vector value amdgcn-lower does not know");
  ArrayRef<RV> es = it->second;
  if (es.size() == 1)
    return L.toV(es[0]);
  Value acc;
  for (unsigned k = 0; k < es.size(); ++k) {
    Value byte = L.inst("v_and_b32", L.vT, {L.cst(0xff), L.toV(es[k])});
    acc = k == 0 ? byte : L.inst("v_lshl_or_b32", L.vT, {byte, L.cst(8 * k), acc});
  }
  return acc;
}

LogicalResult lowerExt(KernelLowering &L, Operation *o) {
  auto op = cast<amdgpu::ExtPackedFp8Op>(o);
  Type et = getElementTypeOrSelf(op.getSource().getType());
  std::string f = fp8Name(L, et);
  if (f.empty())
    return badFormat(L, op, et);
  auto w = packedWord(L, op.getSource());
  if (failed(w))
    return failure();
  unsigned i = op.getIndex();
  if (isa<VectorType>(op.getRes().getType())) {
    if (i > 1)
      return L.unsupported(op, "two floats come from word 0 or 1");
    Type t2 = L.v2T;
    Value r = i == 0 ? L.inst("v_cvt_pk_f32_" + f, t2, *w)
                     : L.inst("v_cvt_pk_f32_" + f + "_sdwa", t2, *w,
                              {L.b.getNamedAttr("src0_sel", L.b.getI32IntegerAttr(5))});
    SmallVector<RV> out;
    for (unsigned k = 0; k < 2; ++k)
      out.push_back(
          RV::of(RV::V, PartOp::create(L.b, L.loc, L.vT, r, L.b.getI32IntegerAttr(k)), true));
    L.vecs[op.getRes()] = out;
    return success();
  }
  Value r = i == 0 ? L.inst("v_cvt_f32_" + f, L.vT, *w)
                   : L.inst("v_cvt_f32_" + f + "_sdwa", L.vT, *w,
                            {L.b.getNamedAttr("src0_sel", L.b.getI32IntegerAttr(i))});
  L.vals[op.getRes()] = RV::of(RV::V, r, true);
  return success();
}

/// The word `existing` holds (0 when absent), as a fresh VGPR to tie.
FailureOr<Value> existingWord(KernelLowering &L, Value existing) {
  if (!existing)
    return L.inst("v_mov_b32", L.vT, L.cst(0));
  return packedWord(L, existing);
}

LogicalResult lowerTrunc(KernelLowering &L, Operation *o) {
  auto op = cast<amdgpu::PackedTrunc2xFp8Op>(o);
  Type et = getElementTypeOrSelf(op.getRes().getType());
  std::string f = fp8Name(L, et);
  if (f.empty())
    return badFormat(L, op, et);
  auto a = L.get(op.getSourceA());
  if (failed(a))
    return failure();
  RV b = RV::imm(0, true);
  if (op.getSourceB()) {
    auto bb = L.get(op.getSourceB());
    if (failed(bb))
      return failure();
    b = *bb;
  }
  auto ex = existingWord(L, op.getExisting());
  if (failed(ex))
    return failure();
  SmallVector<Value> ops = L.vOps({*a, b});
  ops.push_back(*ex);
  SmallVector<NamedAttribute> mods;
  if (op.getWordIndex())
    mods.push_back(L.b.getNamedAttr("op_sel", L.b.getI32IntegerAttr(4)));
  Value r = L.inst("v_cvt_pk_" + f + "_f32", L.vT, ops, mods);
  L.vecs[op.getRes()] = {RV::of(RV::V, r)};
  return success();
}

LogicalResult lowerStochRound(KernelLowering &L, Operation *o) {
  auto op = cast<amdgpu::PackedStochRoundFp8Op>(o);
  Type et = getElementTypeOrSelf(op.getRes().getType());
  std::string f = fp8Name(L, et);
  if (f.empty())
    return badFormat(L, op, et);
  auto x = L.get(op.getSource()), s = L.get(op.getStochiasticParam());
  if (failed(x) || failed(s))
    return failure();
  auto ex = existingWord(L, op.getExisting());
  if (failed(ex))
    return failure();
  SmallVector<Value> ops = L.vOps({*x, *s});
  ops.push_back(*ex);
  unsigned i = op.getStoreIndex();
  SmallVector<NamedAttribute> mods;
  if (i)
    mods.push_back(L.b.getNamedAttr("op_sel", L.b.getI32IntegerAttr((i & 1) << 2 | (i >> 1) << 3)));
  Value r = L.inst("v_cvt_sr_" + f + "_f32", L.vT, ops, mods);
  L.vecs[op.getRes()] = {RV::of(RV::V, r)};
  return success();
}

} // namespace

void populateAmdgpuFp8Lowering(LoweringTable &table) {
  table.addOps<amdgpu::ExtPackedFp8Op>(lowerExt);
  table.addOps<amdgpu::PackedTrunc2xFp8Op>(lowerTrunc);
  table.addOps<amdgpu::PackedStochRoundFp8Op>(lowerStochRound);
}

} // namespace aster::lower
