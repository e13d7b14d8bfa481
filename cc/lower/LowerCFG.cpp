//===- LowerCFG.cpp - unstructured control flow to scf, before lowering ---===//
//
// A kernel body of several blocks (cf.br / cf.cond_br / cf.switch between
// them) is lifted to structured control flow first with upstream's
// transformCFGToSCF (mlir/Transforms/CFGToSCF.h, the algorithm behind
// `mlir-opt --lift-cf-to-scf`, which itself only visits func.func): every
// CFG, reducible or not, becomes scf.if / scf.while / scf.index_switch, with
// ub.poison for values undefined on some paths. scf.index_switch is then
// rewritten as nested scf.if (an arith.cmpi eq per case). Upstream IR in,
// upstream IR out: the lowering of scf (LowerControlFlow.cpp) then gives
// uniform branches on SCC and divergent ones under EXEC masks, as LLVM's
// structurizer does for the same CFG.
// Needs before: a gpu.func whose blocks end in cf.br, cf.cond_br, cf.switch
// or gpu.return. Guarantees after: a one-block body (or an error at the
// first terminator it cannot lift, naming it; the function unchanged).
// Also lowers ub.poison (any value: the immediate 0).
//===----------------------------------------------------------------------===//
#include "lower/KernelLowering.h"

#include "mlir/Conversion/ControlFlowToSCF/ControlFlowToSCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Transforms/CFGToSCF.h"

namespace aster::lower {

namespace {

/// Upstream's cf -> scf interface, with gpu.return as the terminator after
/// a lifted infinite loop (upstream's knows only func.return).
struct KernelCFGToSCF : ControlFlowToSCFTransformation {
  FailureOr<Operation *> createUnreachableTerminator(Location loc, OpBuilder &builder,
                                                     Region &) override {
    return gpu::ReturnOp::create(builder, loc).getOperation();
  }
};

/// scf.index_switch as nested scf.if on arg == case (in case order, the
/// default last).
LogicalResult switchToIfs(scf::IndexSwitchOp sw) {
  auto cases = sw.getCases();
  if (cases.empty())
    return sw.emitOpError("cannot be lowered to amdgcn: a switch without cases");
  OpBuilder b(sw);
  Location loc = sw.getLoc();
  scf::IfOp first;
  for (unsigned i = 0; i < cases.size(); ++i) {
    Value c = arith::ConstantIndexOp::create(b, loc, cases[i]);
    Value eq = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, sw.getArg(), c);
    auto ifOp = scf::IfOp::create(b, loc, sw.getResultTypes(), eq, false, false);
    ifOp.getThenRegion().takeBody(sw.getCaseRegions()[i]);
    if (i + 1 == cases.size()) {
      ifOp.getElseRegion().takeBody(sw.getDefaultRegion());
    } else {
      Block *blk = b.createBlock(&ifOp.getElseRegion());
      b.setInsertionPointToEnd(blk);
    }
    if (i == 0) {
      first = ifOp;
    } else {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointAfter(ifOp);
      scf::YieldOp::create(b, loc, ifOp.getResults());
    }
  }
  sw.replaceAllUsesWith(first.getResults());
  sw.erase();
  return success();
}

} // namespace

LogicalResult structurizeKernelCFG(gpu::GPUFuncOp fn) {
  if (fn.getBody().hasOneBlock())
    return success();
  for (Block &blk : fn.getBody()) {
    Operation *t = blk.getTerminator();
    if (!t || !isa<cf::BranchOp, cf::CondBranchOp, cf::SwitchOp, gpu::ReturnOp>(t))
      return (t ? t : fn.getOperation())
          ->emitOpError("cannot be lowered to amdgcn: a kernel's blocks must end in "
                        "cf.br, cf.cond_br, cf.switch or gpu.return");
  }
  // On a clone: the transformation leaves its input unspecified on failure.
  auto clone = cast<gpu::GPUFuncOp>(fn->clone());
  KernelCFGToSCF iface;
  DominanceInfo dom(clone);
  FailureOr<bool> lifted = transformCFGToSCF(clone.getBody(), iface, dom);
  if (failed(lifted) || !clone.getBody().hasOneBlock()) {
    clone->erase();
    return fn.getBody().front().getTerminator()->emitOpError(
        "cannot be lowered to amdgcn: this control flow could not be lifted to scf");
  }
  SmallVector<scf::IndexSwitchOp> switches;
  clone.walk([&](scf::IndexSwitchOp sw) { switches.push_back(sw); });
  for (scf::IndexSwitchOp sw : llvm::reverse(switches))
    if (failed(switchToIfs(sw))) {
      clone->erase();
      return failure();
    }
  fn.getBody().takeBody(clone.getBody());
  clone->erase();
  return success();
}

void populateCFGLowering(LoweringTable &table) {
  // A value undefined on the paths that reach its use: any bits do.
  table.add("ub.poison", [](KernelLowering &k, Operation *op) {
    Value r = op->getResult(0);
    k.vals[r] = is64(r.getType()) ? KernelLowering::imm64(0) : RV::imm(0);
    return success();
  });
}

} // namespace aster::lower
