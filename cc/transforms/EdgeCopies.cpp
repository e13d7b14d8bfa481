//===- EdgeCopies.cpp - moves for block arguments on branch edges --------- ===//
//
// After colouring: where an incoming value and its block argument got
// different registers, a parallel copy on the edge (critical edges split).
//
//===----------------------------------------------------------------------===//
#include "transforms/Allocator.h"

namespace aster {
namespace regalloc {

/// Whether scc is read in `b` (from `from` on, or its start) before any
/// instruction writes it: then it is live there and must not be clobbered.
static bool readsSccFirst(Block *b, Operation *from = nullptr) {
  for (Operation &op : *b) {
    if (from && &op != from && op.isBeforeInBlock(from))
      continue;
    const ISA::InstDesc *d = getInstDesc(&op);
    if (!d)
      continue;
    if (d->implicitUses & ISA::IMP_SCC)
      return true;
    if (d->implicitDefs & ISA::IMP_SCC)
      return false;
  }
  return false;
}

LogicalResult Allocator::insertEdgeCopies() {
  Region &body = kernel.getBody();
  SmallVector<Block *> blocks;
  for (Block &b : body)
    blocks.push_back(&b);
  for (Block *p : blocks) {
    if (p->empty())
      continue;
    Operation *term = &p->back();
    for (unsigned s = 0; s < term->getNumSuccessors(); ++s) {
      Block *dest = term->getSuccessor(s);
      auto [first, count] = successorOperandRange(term, s);
      SmallVector<std::pair<unsigned, unsigned>> mv[3];
      SmallVector<Value> newOps;
      bool any = false;
      for (unsigned k = 0; k < count; ++k) {
        Value from = term->getOperand(first + k);
        RegType ft = dyn_cast<RegType>(from.getType());
        RegType tt = dyn_cast<RegType>(dest->getArgument(k).getType());
        newOps.push_back(from);
        if (!ft || !tt || ft == tt)
          continue;
        any = true;
        for (unsigned j = 0; j < tt.getWidth(); ++j)
          mv[(int)tt.getKind()].push_back({tt.getIndex() + j, ft.getIndex() + j});
      }
      if (!any)
        continue;
      // A free unit per class for breaking cycles: not held by any value
      // live into `dest`, its arguments or the values passed.
      const BlockNumbering &bn = lv->blocks();
      unsigned db = bn.index(dest), pb = bn.index(p);
      int temp[3] = {-1, -1, -1};
      for (int c = 0; c < 3; ++c) {
        if (mv[c].empty())
          continue;
        Occupancy busy;
        auto hold = [&](Type t) {
          if (RegType r = pinnedReg(t); r && (int)r.getKind() == c)
            for (unsigned u = r.getIndex(); u < r.getIndex() + r.getWidth(); ++u)
              if (busy.isFree(u, 1))
                busy.set(u, 1);
        };
        for (unsigned id : lv->liveIn(db))
          hold(lv->value(id).getType());
        for (BlockArgument a : dest->getArguments())
          hold(a.getType());
        for (Value v : newOps)
          hold(v.getType());
        for (unsigned u = 0; u < limit[c]; ++u)
          if (busy.isFree(u, 1) &&
              !pinned->busyAt((RegKind)c, u, 1, bn.end(pb)) &&
              !pinned->busyAt((RegKind)c, u, 1, bn.begin(db))) {
            temp[c] = u;
            break;
          }
      }
      OpBuilder b(term, &inserted);
      Block *split = nullptr;
      if (term->getNumSuccessors() > 1) {
        split = new Block();
        if (s + 1 == term->getNumSuccessors())
          body.getBlocks().insertAfter(Region::iterator(p), split);
        else
          body.push_back(split);
        b.setInsertionPointToStart(split);
      }
      for (int c = 0; c < 3; ++c) {
        if (mv[c].empty())
          continue;
        auto n = emitParallelCopy(b, term->getLoc(), (RegKind)c, mv[c], temp[c],
                                  !readsSccFirst(dest) && (split || !readsSccFirst(p, term)));
        if (failed(n))
          return term->emitOpError("needs a free ")
                 << regKindName((RegKind)c)
                 << " to exchange registers on the edge to a block argument, and none is left";
        stats.copies += *n;
      }
      for (unsigned k = 0; k < count; ++k) {
        Type tt = dest->getArgument(k).getType();
        if (newOps[k].getType() != tt)
          newOps[k] = RegOp::create(b, term->getLoc(), tt).getResult();
      }
      if (split) {
        cf::BranchOp::create(b, term->getLoc(), dest, newOps);
        term->setSuccessor(split, s);
        setSuccessorOperands(term, s, {});
      } else {
        setSuccessorOperands(term, s, newOps);
      }
    }
  }
  return success();
}

} // namespace regalloc
} // namespace aster
