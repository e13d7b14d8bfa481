//===- SpillChoice.cpp - which value to spill when a class runs out ------- ===//
//
// makeRoom: the live value whose next use is furthest away and whose spilling
// frees a register at this point; each value is spilled at most once.
//
//===----------------------------------------------------------------------===//
#include "transforms/Allocator.h"

namespace aster {
namespace regalloc {

bool hasScratch(uint8_t target) {
  return ISA::lookup("scratch_store_dword")->validOn(target);
}

SpillPlace spillPlace(RegType t, uint8_t target) {
  if (t.getKind() == RegKind::SGPR)
    return SpillPlace::Lanes;
  if (t.getKind() == RegKind::VGPR && t.getWidth() == 1 && hwRegs(RegKind::AGPR, target))
    return SpillPlace::AGPR;
  // gfx940/gfx950 scratch loads and stores take VGPR or AGPR data.
  return hasScratch(target) ? SpillPlace::Scratch : SpillPlace::None;
}

/// A spill slot in an AGPR (made by spillToAGPR: only spill code reads it),
/// which can move to scratch memory on targets with scratch instructions.
bool isAgprSlot(Value v, uint8_t target,
                       const llvm::DenseSet<Operation *> &spillCode) {
  Operation *def = v.getDefiningOp();
  const ISA::InstDesc *d = def ? getInstDesc(def) : nullptr;
  return d && spillCode.contains(def) &&
         StringRef(d->mnemonic) == "v_accvgpr_write_b32" && hasScratch(target) &&
         llvm::all_of(v.getUsers(), [&](Operation *u) { return spillCode.contains(u); });
}

/// Whether spilling `v` (saving it once, reloading before each use) is
/// supported: a virtual value neither produced by spill code nor spilled
/// already that is a 32-bit VGPR (to an AGPR, on targets with AGPRs), an
/// SGPR (range; to lanes of a VGPR), or, on targets with scratch, a VGPR or
/// AGPR (range; to scratch memory); or an AGPR slot (to scratch).
/// A load's result must be read in its own block (it is saved there, once it
/// has arrived).
/// Whether `v`, defined by `def` in the block of `at` before it, is read
/// between the two (a load's result is saved at its first such read).
static bool readBetween(Value v, Operation *def, Operation *at) {
  return llvm::any_of(v.getUsers(), [&](Operation *u) {
    return u->getBlock() == at->getBlock() && def->isBeforeInBlock(u) &&
           u->isBeforeInBlock(at);
  });
}

static bool spillable(Value v, uint8_t target,
                      const llvm::DenseSet<Operation *> &spillCode) {
  if (isAgprSlot(v, target, spillCode))
    return true;
  RegType t = virtualReg(v.getType());
  if (!t)
    return false;
  if (spillPlace(t, target) == SpillPlace::None)
    return false;
  Operation *def = v.getDefiningOp();
  if (def && (spillCode.contains(def) || isa<PartOp>(def)))
    return false; // a part is read right after it is named
  // Spilled already (a load's result stays live up to its save at its
  // first use).
  if (llvm::any_of(v.getUsers(), [&](Operation *u) { return spillCode.contains(u); }))
    return false;
  if (def) {
    const ISA::InstDesc *d = getInstDesc(def);
    if (d && d->has(ISA::PROP_MAYLOAD) &&
        llvm::none_of(v.getUsers(), [&](Operation *u) {
          return u->getBlock() == def->getBlock();
        }))
      return false;
  }
  return true;
}

bool Allocator::pickOrSpill(Operation *at, unsigned id, int hint, int startOverride) {
  while (true) {
    int r = pick(id, hint, startOverride);
    if (r >= 0) {
      assign(id, r);
      return true;
    }
    switch (makeRoom(at, id)) {
    case Room::Retry: continue;
    case Room::Skip: return true;
    case Room::Fail: return false;
    }
  }
}

Allocator::Room Allocator::makeRoom(Operation *at, unsigned id) {
  RegType t = cast<RegType>(lv->value(id).getType());
  unsigned k = (unsigned)t.getKind();
  // Spill the live value of this class whose next use is furthest away
  // (Belady), never one the op itself reads or writes. A value is a
  // candidate only if, once spilled, it no longer holds a register here:
  // then every victim strictly lowers the pressure where it was chosen, and
  // a spilled value (live only from its definition to its save and from each
  // reload to its use) is never chosen again, so the rounds of
  // allocateRegisters end (each spills a value not spilled before).
  {
    bool atBlockStart = isa<BlockArgument>(lv->value(id));
    Block *here = atBlockStart ? cast<BlockArgument>(lv->value(id)).getOwner()
                               : at->getBlock();
    bool canWait = ISA::lookup("s_waitcnt")->validOn(target);
    // Candidate -> whether its save must move up to right after its load
    // (behind a wait) to free the register here.
    llvm::SmallDenseMap<unsigned, bool, 16> cands;
    for (int o : owner[k]) {
      if (o < 0 || (unsigned)o == id || cands.count(o) ||
          !spillable(lv->value(o), target, spillCode))
        continue;
      Value ov = lv->value(o);
      bool early = false;
      if (auto arg = dyn_cast<BlockArgument>(ov)) {
        // Saved at the start of its block: live there all the same.
        if (atBlockStart && arg.getOwner() == here)
          continue;
      } else if (Operation *def = ov.getDefiningOp(); def && !atBlockStart) {
        if (def == at)
          continue; // saved right after `at`: still written by it
        const ISA::InstDesc *d = getInstDesc(def);
        if (d && d->has(ISA::PROP_MAYLOAD) && !isAgprSlot(ov, target, spillCode) &&
            def->getBlock() == here && def->isBeforeInBlock(at)) {
          // A load's result is saved at its first use; before that use it
          // stays live unless it is saved right after a wait for the load.
          if (!readBetween(ov, def, at)) {
            if (!canWait)
              continue;
            early = true;
          }
        }
      }
      cands[o] = early;
    }
    if (!atBlockStart)
      for (Value v : at->getOperands())
        if (int o = lv->idOf(v); o >= 0)
          cands.erase(o);
    if (cands.empty() && isAgprSlot(lv->value(id), target, spillCode)) {
      victims.push_back({lv->value(id), false}); // no AGPR left: the slot goes to scratch
      return Room::Skip;
    }
    if (!cands.empty()) {
      // Distance (in ops) to the next use in this block; not used again
      // here, or not within kLookahead ops, is furthest. A value that needs
      // an early save (a wait) is taken only when no other is left.
      constexpr unsigned kLookahead = 1024;
      llvm::DenseMap<unsigned, unsigned> next;
      unsigned dist = 0;
      for (Operation *op = atBlockStart ? at : at->getNextNode();
           op && dist < kLookahead && next.size() < cands.size();
           op = op->getNextNode(), ++dist)
        for (Value v : op->getOperands())
          if (int o = lv->idOf(v); o >= 0 && cands.count(o))
            next.try_emplace(o, dist);
      unsigned best = 0, bestDist = 0;
      bool bestEarly = true, first = true;
      for (auto [c, early] : cands) {
        unsigned dd = next.count(c) ? next[c] : ~0u;
        if (first || (bestEarly && !early) ||
            (early == bestEarly && (dd > bestDist || (dd == bestDist && c < best)))) {
          best = c, bestDist = dd, bestEarly = early, first = false;
        }
      }
      // Spilled everywhere in the next round; for now its register is free.
      victims.push_back({lv->value(best), bestEarly});
      release(best);
      reg[best] = -1;
      return Room::Retry;
    }
    // A range with no aligned place although only the op's own operands
    // are left: spilled, each is reloaded right before the op into a place
    // chosen there (pick keeps wide aligned ranges free). Each is spilled
    // once (neither a reload nor a value already saved is spillable), so
    // the rounds still end.
    bool any = false;
    if (t.getWidth() > 1 && !atBlockStart)
      for (Value v : at->getOperands()) {
        int o = lv->idOf(v);
        RegType ot = virtualReg(v.getType());
        if (o < 0 || (unsigned)o == id || reg[o] < 0 || !ot ||
            (unsigned)ot.getKind() != k || !spillable(v, target, spillCode) ||
            isAgprSlot(v, target, spillCode) ||
            llvm::any_of(victims, [&](const SpillVictim &x) { return x.value == v; }))
          continue;
        bool early = false;
        Operation *def = v.getDefiningOp();
        const ISA::InstDesc *d = def ? getInstDesc(def) : nullptr;
        if (d && d->has(ISA::PROP_MAYLOAD) && def->getBlock() == here) {
          if (!readBetween(v, def, at)) {
            if (!canWait)
              continue;
            early = true;
          }
        }
        victims.push_back({v, early});
        any = true;
      }
    if (any)
      return Room::Fail;
  }
  // Values chosen earlier in this round may make room here once spilled:
  // the next round decides (it spills at least those, never again).
  if (!victims.empty())
    return Room::Fail;
  auto d = at->emitOpError("needs a free ")
           << (t.getWidth() > 1 ? "range of " + std::to_string(t.getWidth()) + " "
                                : std::string())
           << regKindName(t.getKind()) << (t.getWidth() > 1 ? "s" : "")
           << " (aligned to " << alignOf(t) << ") but " << occ[k].count
           << " of the " << limit[k] << " allowed are live here";
  if (pinned->extent(t.getKind()))
    d << " and pinned registers block the rest";
  return Room::Fail;
}

} // namespace regalloc
} // namespace aster
