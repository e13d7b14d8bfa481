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
//
// An irreducible loop (a cycle entered at several blocks) is first made
// reducible by node splitting, as the textbook remedy does (and LLVM's
// FixIrreducible avoids only to bound code growth): for a strongly
// connected set of blocks with entries H (the first in block order) and
// E1..Ek, the blocks each Ei reaches inside the set without passing H are
// cloned and the outside edges into Ei go to the clone of Ei, so the cycle
// has one header H and transformCFGToSCF lifts it to a plain loop instead
// of multiplexing its entries through a selector variable in an
// scf.while (which runs every entry's body under its own EXEC mask on
// each trip). Skipped (the selector form stays) when a value of a cloned
// block is used outside the cloned blocks (its dominance would break) or
// the function would grow past a bound.
//
// Needs before: a gpu.func whose blocks end in cf.br, cf.cond_br, cf.switch
// or gpu.return. Guarantees after: a one-block body (or an error at the
// first terminator it cannot lift, naming it; the function unchanged).
// Also lowers ub.poison (any value: the immediate 0), and rewrites the
// structured ops LowerControlFlow.cpp does not take (scf.index_switch,
// scf.execute_region, scf.forall, scf.parallel; rewriteStructured) into
// scf.if / scf.for, in one-block bodies too.
//===----------------------------------------------------------------------===//
#include "lower/KernelLowering.h"
#include "lower/LowerVectorUtil.h"

#include "mlir/Conversion/ControlFlowToSCF/ControlFlowToSCF.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/RegionGraphTraits.h"
#include "mlir/Transforms/CFGToSCF.h"

#include "llvm/ADT/SCCIterator.h"
#include "llvm/ADT/SetVector.h"

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

/// One node-splitting step (the header above) on the first irreducible
/// cycle of `body`; whether it changed the region.
bool splitOneIrreducibleCycle(Region &body) {
  DenseMap<Block *, unsigned> order;
  for (Block &blk : body)
    order[&blk] = order.size();
  for (auto it = llvm::scc_begin(&body); !it.isAtEnd(); ++it) {
    const std::vector<Block *> &scc = *it;
    if (scc.size() < 2)
      continue;
    llvm::SmallPtrSet<Block *, 8> in(scc.begin(), scc.end());
    SmallVector<Block *> entries;
    for (Block *blk : scc)
      if (blk->isEntryBlock() ||
          llvm::any_of(blk->getPredecessors(), [&](Block *p) { return !in.contains(p); }))
        entries.push_back(blk);
    if (entries.size() < 2)
      continue;
    llvm::sort(entries, [&](Block *a, Block *c) { return order[a] < order[c]; });
    Block *header = entries.front();
    Block *e = entries[1];
    // The blocks e reaches in the cycle without passing the header, in
    // breadth-first order (a block's dominating definitions come first).
    llvm::SetVector<Block *> reach;
    reach.insert(e);
    for (unsigned i = 0; i < reach.size(); ++i)
      for (Block *succ : reach[i]->getSuccessors())
        if (succ != header && in.contains(succ))
          reach.insert(succ);
    if (reach.size() > 32)
      return false;
    // Every use of a value of those blocks is in them.
    for (Block *blk : reach) {
      auto usedOutside = [&](Value v) {
        return llvm::any_of(v.getUsers(), [&](Operation *u) {
          Block *ub = body.findAncestorBlockInRegion(*u->getBlock());
          return !ub || !reach.contains(ub);
        });
      };
      if (llvm::any_of(blk->getArguments(), usedOutside))
        return false;
      for (Operation &op : *blk)
        if (llvm::any_of(op.getResults(), usedOutside))
          return false;
    }
    IRMapping map;
    SmallVector<Block *> clones;
    for (Block *blk : reach) {
      Block *c = new Block();
      body.push_back(c);
      for (BlockArgument a : blk->getArguments())
        map.map(a, c->addArgument(a.getType(), a.getLoc()));
      map.map(blk, c);
      clones.push_back(c);
    }
    for (auto [blk, c] : llvm::zip(reach, clones))
      for (Operation &op : *blk)
        c->push_back(op.clone(map));
    // Operands defined in a later-cloned block (not in breadth-first
    // dominance order): remapped now that every clone exists.
    for (Block *c : clones)
      c->walk([&](Operation *op) {
        for (OpOperand &o : op->getOpOperands())
          if (Value m = map.lookupOrNull(o.get()))
            o.set(m);
      });
    // The outside edges into e now enter its clone.
    for (Block *p : llvm::to_vector(e->getPredecessors())) {
      if (in.contains(p))
        continue;
      Operation *t = p->getTerminator();
      for (unsigned i = 0; i < t->getNumSuccessors(); ++i)
        if (t->getSuccessor(i) == e)
          t->setSuccessor(clones.front(), i);
    }
    return true;
  }
  return false;
}

} // namespace

/// The structured ops the scf lowering does not take, rewritten into ones
/// it does (upstream IR in, upstream IR out): scf.index_switch as nested
/// scf.if (switchToIfs), a one-block scf.execute_region inlined (upstream's
/// canonicalization), scf.forall on memrefs as nested scf.for (upstream's
/// forallToForLoop), scf.parallel as nested scf.for carrying its reductions
/// (upstream's scf-to-cf ParallelLowering pattern, on the parallel ops only:
/// the loops it makes stay scf.for).
LogicalResult rewriteStructured(gpu::GPUFuncOp fn) {
  MLIRContext *ctx = fn.getContext();
  SmallVector<Operation *> regions, parallels;
  SmallVector<scf::ForallOp> foralls;
  fn.walk([&](Operation *op) {
    if (isa<scf::ExecuteRegionOp>(op))
      regions.push_back(op);
    if (isa<scf::ParallelOp>(op))
      parallels.push_back(op);
    if (auto f = dyn_cast<scf::ForallOp>(op))
      foralls.push_back(f);
  });
  if (!regions.empty()) {
    RewritePatternSet patterns(ctx);
    scf::ExecuteRegionOp::getCanonicalizationPatterns(patterns, ctx);
    (void)applyOpPatternsGreedily(regions, std::move(patterns));
  }
  IRRewriter rw(ctx);
  for (scf::ForallOp f : llvm::reverse(foralls)) {
    if (!f.getOutputs().empty())
      return f.emitOpError("cannot be lowered to amdgcn: scf.forall on tensors (bufferize first)");
    rw.setInsertionPoint(f);
    if (failed(scf::forallToForLoop(rw, f)))
      return f.emitOpError("cannot be lowered to amdgcn: upstream's forall-to-for failed");
  }
  if (!parallels.empty()) {
    RewritePatternSet patterns(ctx);
    populateSCFToControlFlowConversionPatterns(patterns);
    GreedyRewriteConfig cfg;
    cfg.setStrictness(GreedyRewriteStrictness::ExistingOps);
    (void)applyOpPatternsGreedily(parallels, std::move(patterns), cfg);
  }
  SmallVector<scf::IndexSwitchOp> switches;
  fn.walk([&](scf::IndexSwitchOp sw) { switches.push_back(sw); });
  for (scf::IndexSwitchOp sw : llvm::reverse(switches))
    if (failed(switchToIfs(sw)))
      return failure();
  return success();
}

LogicalResult structurizeKernelCFG(gpu::GPUFuncOp fn) {
  if (fn.getBody().hasOneBlock())
    return rewriteStructured(fn);
  for (Block &blk : fn.getBody()) {
    Operation *t = blk.getTerminator();
    if (!t || !isa<cf::BranchOp, cf::CondBranchOp, cf::SwitchOp, gpu::ReturnOp>(t))
      return (t ? t : fn.getOperation())
          ->emitOpError("cannot be lowered to amdgcn: a kernel's blocks must end in "
                        "cf.br, cf.cond_br, cf.switch or gpu.return");
  }
  // On a clone: the transformation leaves its input unspecified on failure.
  auto clone = cast<gpu::GPUFuncOp>(fn->clone());
  // Irreducible cycles made reducible first (bounded: each step clones at
  // most 32 blocks, at most 8 steps).
  for (unsigned step = 0; step < 8 && splitOneIrreducibleCycle(clone.getBody()); ++step) {
  }
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
  return rewriteStructured(fn);
}

void populateCFGLowering(LoweringTable &table) {
  // A value undefined on the paths that reach its use: any bits do.
  table.add("ub.poison", [](KernelLowering &k, Operation *op) {
    Value r = op->getResult(0);
    if (auto vt = dyn_cast<VectorType>(r.getType())) { // e.g. upstream's vector rewrites
      unsigned bits = vec::elemBits(vt.getElementType());
      k.vecs[r] = SmallVector<RV>(bits == 64 ? 2 * vt.getNumElements() : vec::numWords(vt),
                                  RV::imm(0));
      return success();
    }
    k.vals[r] = is64(r.getType()) ? KernelLowering::imm64(0) : RV::imm(0);
    return success();
  });
}

} // namespace aster::lower
