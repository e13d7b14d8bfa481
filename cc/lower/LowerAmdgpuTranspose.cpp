//===- LowerAmdgpuTranspose.cpp - amdgpu.transpose_load (gfx950) ----------===//
//
//   amdgpu.transpose_load %lds[i] -> vector<4x16-bit> : ds_read_b64_tr_b16,
//     vector<8xi8-sized> : ds_read_b64_tr_b8, vector<16xi4> : ds_read_b64_tr_b4,
//     vector<16xi6-sized> : ds_read_b96_tr_b6 (CDNA4 ISA "DS_READ_B64_TR_B*":
//     the wave reads a matrix and each lane gets a row of its transpose), at
//     the LDS byte address of %lds[i], as upstream's AMDGPUToROCDL maps the
//     op to rocdl.ds.read.tr* and llc-22 -mcpu=gfx950 selects them. gfx950
//     only (the table says): an error on gfx942.
//   The result's words go to vecs (16-bit elements two per word, 8-bit and
//   narrower ones packed, as vector.bitcast holds them).
//
// Needs before: %lds a workgroup memref. Guarantees after: the result in vecs.
//===----------------------------------------------------------------------===//
#include "lower/KernelLowering.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"

namespace aster::lower {

namespace {

LogicalResult lowerTransposeLoad(KernelLowering &L, Operation *o) {
  auto op = cast<amdgpu::TransposeLoadOp>(o);
  auto vt = cast<VectorType>(op.getResult().getType());
  unsigned bits = vt.getElementType().getIntOrFloatBitWidth(), n = vt.getNumElements();
  std::string mn = bits == 16 && n == 4  ? "ds_read_b64_tr_b16"
                   : bits == 8 && n == 8 ? "ds_read_b64_tr_b8"
                   : bits == 4 && n == 16 ? "ds_read_b64_tr_b4"
                   : bits == 6 && n == 16 ? "ds_read_b96_tr_b6"
                                          : "";
  if (mn.empty())
    return L.unsupported(op, "no transposing LDS read returns this vector type");
  const ISA::InstDesc *d = ISA::lookup(mn);
  if (!d || !d->validOn(L.km.getTargetBit()))
    return L.unsupported(op, mn + " is not an instruction of " + L.km.getTarget() +
                                 " (gfx950 has it)");
  auto a = L.address(op, op.getSrc(), op.getSrcIndices());
  if (failed(a))
    return failure();
  if (a->first)
    return L.unsupported(op, "transposing loads read LDS (a workgroup memref) only");
  unsigned w = d->dsts()[0].width;
  Value r = L.inst(mn, RegType::getVirtual(L.ctx, RegKind::VGPR, w, w == 2 ? 2 : 1),
                   {L.toV(a->second)});
  SmallVector<RV> out;
  for (unsigned i = 0; i < w; ++i)
    out.push_back(RV::of(RV::V, PartOp::create(L.b, L.loc, L.vT, r, L.b.getI32IntegerAttr(i))));
  L.vecs[op.getResult()] = out;
  return success();
}

} // namespace

void populateAmdgpuTransposeLowering(LoweringTable &table) {
  table.addOps<amdgpu::TransposeLoadOp>(lowerTransposeLoad);
}

} // namespace aster::lower
