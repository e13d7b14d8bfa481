//===- Uniformity.cpp - divergence of a GPU kernel's values --------------===//
// The rules and why the fixpoint ends: Uniformity.h.
#include "lower/Uniformity.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace aster::lower {

Uniformity::Uniformity(Operation *func) {
  // Private memory is per work-item (its loads differ between lanes); the
  // parameters of a non-kernel function come from any caller (VGPRs).
  if (auto g = dyn_cast<gpu::GPUFuncOp>(func)) {
    for (BlockArgument a : g.getPrivateAttributions())
      mark(a);
    if (!g.isKernel())
      for (BlockArgument a : g.getBody().front().getArguments().take_front(
               g.getFunctionType().getNumInputs()))
        mark(a);
  }
  bool changed = true;
  while (changed) {
    changed = false;
    func->walk([&](Operation *op) { changed |= visit(op); });
  }
}

bool Uniformity::visit(Operation *op) {
  bool changed = false;
  auto all = [&](ValueRange vs) {
    for (Value v : vs)
      changed |= mark(v);
  };
  auto anyDiv = [&](ValueRange vs) {
    for (Value v : vs)
      if (isDivergent(v))
        return true;
    return false;
  };
  if (isa<gpu::ThreadIdOp, gpu::LaneIdOp, gpu::ShuffleOp, memref::AtomicRMWOp,
          memref::GenericAtomicRMWOp, amdgpu::MFMAOp, memref::AllocaOp>(op)) {
    all(op->getResults());
    return changed;
  }
  if (auto r = dyn_cast<gpu::SubgroupReduceOp>(op)) {
    if (r.getClusterSize())
      all(op->getResults());
    return changed;
  }
  if (isa<gpu::AllReduceOp>(op))
    return changed;
  if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
    bool cond = isDivergent(ifOp.getCondition());
    for (unsigned i = 0; i < ifOp.getNumResults(); ++i) {
      bool d = cond;
      for (Region *r : {&ifOp.getThenRegion(), &ifOp.getElseRegion()})
        if (!r->empty())
          d |= isDivergent(cast<scf::YieldOp>(r->front().getTerminator()).getOperand(i));
      if (d)
        changed |= mark(ifOp.getResult(i));
    }
    return changed;
  }
  if (auto forOp = dyn_cast<scf::ForOp>(op)) {
    bool bounds = anyDiv({forOp.getLowerBound(), forOp.getUpperBound(), forOp.getStep()});
    if (bounds)
      changed |= mark(forOp.getInductionVar());
    auto yield = cast<scf::YieldOp>(forOp.getBody()->getTerminator());
    for (unsigned i = 0; i < forOp.getNumResults(); ++i)
      if (bounds || isDivergent(forOp.getInitArgs()[i]) || isDivergent(yield.getOperand(i)) ||
          isDivergent(forOp.getRegionIterArgs()[i])) {
        changed |= mark(forOp.getRegionIterArgs()[i]);
        changed |= mark(forOp.getResult(i));
      }
    return changed;
  }
  if (auto whileOp = dyn_cast<scf::WhileOp>(op)) {
    // A divergent condition: lanes leave in different iterations, so every
    // carried value and result may differ between lanes. Otherwise a
    // before-argument is divergent when its initial or yielded value is, an
    // after-argument / result when the value scf.condition forwards is.
    auto cond = whileOp.getConditionOp();
    auto yield = whileOp.getYieldOp();
    Block &before = whileOp.getBefore().front(), &after = whileOp.getAfter().front();
    if (isDivergent(cond.getCondition())) {
      all(before.getArguments());
      all(after.getArguments());
      all(op->getResults());
      return changed;
    }
    for (unsigned i = 0; i < before.getNumArguments(); ++i)
      if (isDivergent(whileOp.getInits()[i]) || isDivergent(yield.getOperand(i)))
        changed |= mark(before.getArgument(i));
    for (unsigned i = 0; i < after.getNumArguments(); ++i)
      if (isDivergent(cond.getArgs()[i])) {
        changed |= mark(after.getArgument(i));
        changed |= mark(whileOp.getResult(i));
      }
    return changed;
  }
  if (auto sc = dyn_cast<memref::AllocaScopeOp>(op)) {
    // Its results are its body's returned values (LowerMemory.cpp).
    auto ret = sc.getBodyRegion().front().getTerminator();
    for (unsigned i = 0; i < sc.getNumResults(); ++i)
      if (isDivergent(ret->getOperand(i)))
        changed |= mark(sc.getResult(i));
    return changed;
  }
  if (op->getNumRegions())
    return changed; // other region ops: their results stay as computed inside
  if (anyDiv(op->getOperands()))
    all(op->getResults());
  return changed;
}

} // namespace aster::lower
