//===- WaitcntPreheader.cpp - vmcnt(0) once in a loop's preheader ---------===//
//
// Part of amdgcn-waitcnt (Waitcnt.cpp runs it before its fixpoint): loops
// whose reads of a VGPR loaded before them would wait in every iteration for
// the loop's own stores (gfx9: stores count on vmcnt, in order) get
// `s_waitcnt vmcnt(0)` once at the end of their preheader, after LLVM's
// SIInsertWaitcnts::shouldFlushVmCnt (its first case).
// Needs before: the Analysis of the kernel filled (ops, units, blockOps in
// region order; WaitcntAnalysis.h), blocks and their indices. Guarantees
// after: the preheader terminators to put the wait before, none that has one
// placed already (kFlushAttr); nothing is changed here.
//===----------------------------------------------------------------------===//
#include "transforms/WaitcntAnalysis.h"

#include "mlir/IR/OpDefinition.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;

namespace aster::waitcnt {

/// Blocks ending a loop preheader where vmcnt is better waited for to 0
/// once than in every iteration (LLVM's SIInsertWaitcnts, shouldFlushVmCnt,
/// its first case, for targets that count stores on vmcnt as gfx9 does):
/// the loop [h, p] (blocks in region order, p branching back to h) has
/// vector-memory stores but no vector-memory access writing a register,
/// and reads a VGPR written outside it by a vector-memory access (pending
/// when the loop starts) and not inside it. Otherwise every iteration's
/// read of that VGPR would wait for the loop's own earlier stores too
/// (vmcnt is in order). The preheader is h's one predecessor outside the
/// loop; its terminator gets `s_waitcnt vmcnt(0)` before it.
SmallVector<Operation *> preheaderFlushes(const Analysis &an, const Model &m,
                                          ArrayRef<Block *> blocks,
                                          const llvm::DenseMap<Block *, unsigned> &index) {
  SmallVector<Operation *> out;
  int vm = m.counter("vmcnt");
  if (vm < 0 || m.split)
    return out;
  auto isVm = [&](const OpInfo &o) { return (o.ev.any() >> vm) & 1; };
  for (unsigned p = 0; p < blocks.size(); ++p)
    for (Block *succ : blocks[p]->getSuccessors()) {
      unsigned h = index.lookup(succ);
      if (h > p)
        continue;
      Block *pre = nullptr;
      bool single = true;
      for (Block *pred : succ->getPredecessors()) {
        unsigned pi = index.lookup(pred);
        if (pi >= h && pi <= p)
          continue;
        single &= !pre || pre == pred;
        pre = pred;
      }
      if (!pre || !single || pre->empty() || !pre->back().hasTrait<OpTrait::IsTerminator>())
        continue;
      unsigned lo = an.blockOps[h].first, hi = an.blockOps[p].second;
      bool store = false, bad = false;
      llvm::DenseSet<uint32_t> written;
      for (unsigned i = lo; i < hi && !bad; ++i) {
        const OpInfo &o = an.ops[i];
        bad = o.kind == Kind::Call || o.kind == Kind::Opaque || (isVm(o) && o.nWrites);
        store |= isVm(o) && !o.nWrites;
        for (unsigned k = 0; k < o.nWrites; ++k)
          written.insert(an.units[o.first + o.nReads + k]);
      }
      if (bad || !store)
        continue;
      llvm::DenseSet<uint32_t> loadedOutside;
      for (unsigned i = 0; i < an.ops.size(); ++i) {
        const OpInfo &o = an.ops[i];
        if ((i >= lo && i < hi) || !isVm(o))
          continue;
        for (unsigned k = 0; k < o.nWrites; ++k) {
          uint32_t u = an.units[o.first + o.nReads + k];
          if (u < kBaseA)
            loadedOutside.insert(u);
        }
      }
      bool reads = false;
      for (unsigned i = lo; i < hi && !reads; ++i) {
        const OpInfo &o = an.ops[i];
        for (unsigned k = 0; k < o.nReads && !reads; ++k) {
          uint32_t u = an.units[o.first + k];
          reads = loadedOutside.contains(u) && !written.contains(u);
        }
      }
      Operation *term = &pre->back();
      Operation *prev = term->getPrevNode();
      bool already = prev && prev->hasAttr(kFlushAttr);
      if (reads && !already && !llvm::is_contained(out, term))
        out.push_back(term);
    }
  return out;
}
} // namespace aster::waitcnt
