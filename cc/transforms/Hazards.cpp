//===- Hazards.cpp - s_nop wait states between dependent instructions -----===//
#include "transforms/Hazards.h"
#include "transforms/HazardRules.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"

#include <deque>

using namespace mlir;
using namespace aster::amdgcn;
using namespace aster::hazards;

namespace aster {

namespace {
/// A recent instruction and the wait states issued since it.
struct Event {
  const InstFacts *facts;
  unsigned dist;
};
/// The recent instructions before a point, and the open soft clause.
struct History {
  SmallVector<Event, 16> events;
  Clause clause;
};

/// `n` more wait states pass (s_nops): events that no rule can reach any
/// more go, and the clause ends.
void advance(History &h, unsigned n) {
  if (!n)
    return;
  for (Event &e : h.events)
    e.dist += n;
  llvm::erase_if(h.events, [](const Event &e) { return e.dist >= e.facts->reach; });
  h.clause = Clause();
}

/// `f` issues: it counts for the events before it and becomes one.
void issue(History &h, const InstFacts &f) {
  if (!f.waitStates)
    return;
  Clause clause = std::move(h.clause);
  advance(h, f.waitStates);
  clause.add(f);
  h.clause = std::move(clause);
  if (f.producer)
    h.events.push_back({&f, 0});
}

/// Wait states still missing before `f`, for the hazards to pad (those
/// with `pad` on either instruction).
unsigned missing(const History &h, const InstFacts &f, uint8_t target) {
  unsigned need = f.pad || h.clause.pad ? clauseWaitStates(h.clause, f) : 0;
  for (const Event &e : h.events) {
    // A call or return: whatever the other side does first is covered.
    if (f.boundary && (f.pad || e.facts->pad) && e.facts->reach > e.dist) {
      need = std::max(need, unsigned(e.facts->reach) - e.dist);
      continue;
    }
    if ((!f.pad && !e.facts->pad) || !mayInteract(*e.facts, f))
      continue;
    unsigned r = requiredWaitStates(*e.facts, f, target);
    if (r > e.dist)
      need = std::max(need, r - e.dist);
  }
  return need;
}

/// Adds `tail` to `into` (keeping each instruction's smallest distance).
/// Returns true if `into` changed.
bool merge(History &into, const History &tail) {
  bool changed = false;
  for (const Event &e : tail.events) {
    auto it = llvm::find_if(into.events,
                            [&](const Event &x) { return x.facts == e.facts; });
    if (it == into.events.end()) {
      into.events.push_back(e);
      changed = true;
    } else if (e.dist < it->dist) {
      it->dist = e.dist;
      changed = true;
    }
  }
  // The clause only grows with the events; it needs no separate fixpoint
  // test beyond a change of kind or size.
  size_t before = into.clause.defs.size() + into.clause.uses.size();
  auto kind = into.clause.kind;
  into.clause.merge(tail.clause);
  changed |= into.clause.kind != kind ||
             into.clause.defs.size() + into.clause.uses.size() != before;
  return changed;
}
} // namespace

unsigned insertHazardNops(Operation *kernel, function_ref<bool(Operation *)> mayPad) {
  auto mod = kernel->getParentOfType<KernelModuleOp>();
  uint8_t target = mod ? mod.getTargetBit() : 0;
  if (target != ISA::T_GFX942 && target != ISA::T_GFX950)
    return 0;
  Region &body = kernel->getRegion(0);

  bool branches = false;
  for (Block &b : body)
    branches |= b.getNumSuccessors() > 0;
  auto factsOf = [&](Operation &op) {
    InstFacts f = describe(&op, target);
    f.pad = f.waitStates && mayPad(&op);
    return f;
  };

  // With branches, the facts of every op, computed once (block tails reach
  // any block, and the fixpoint walks the ops several times). Without, they
  // are computed as the walk below reaches each op and dropped once no
  // recent event points at them, so the memory held stays bounded by the
  // rules' reach, not by the kernel's size. std::deque: stable addresses
  // (events point at the facts) under push_back and pop_front.
  std::deque<InstFacts> facts;
  if (branches)
    for (Block &b : body)
      for (Operation &op : b)
        facts.push_back(factsOf(op));

  // Block entry states: the worst case over the predecessors' tails, to a
  // fixpoint (distances only shrink and events only join, so it ends).
  DenseMap<Block *, History> entry;
  for (bool changed = branches; changed;) {
    changed = false;
    size_t next = 0;
    for (Block &b : body) {
      History h = entry[&b];
      for (size_t e = next + b.getOperations().size(); next < e; ++next)
        issue(h, facts[next]);
      for (Block *succ : b.getSuccessors())
        changed |= merge(entry[succ], h);
    }
  }

  // Insertion, block by block from its entry state. Inserted nops only add
  // distance, so the tails used above stay a worst case.
  unsigned inserted = 0;
  MLIRContext *ctx = kernel->getContext();
  OperationName nopName = getInstOpName(ctx, *ISA::lookup("s_nop"));
  OpBuilder builder(ctx);
  size_t next = 0;
  for (Block &b : body) {
    History h = branches ? entry[&b] : History();
    for (Operation &op : b) {
      if (!branches)
        facts.push_back(factsOf(op));
      const InstFacts &f = branches ? facts[next++] : facts.back();
      unsigned need = f.waitStates ? missing(h, f, target) : 0;
      if (need) {
        builder.setInsertionPoint(&op);
        advance(h, need);
        // At most 16 wait states per s_nop (s_nop 15: its 4-bit field on
        // gfx9; LLVM 22 emits e.g. s_nop 10 for gfx942 MFMA results).
        for (; need; ++inserted) {
          unsigned n = std::min(need, 16u);
          OperationState st(op.getLoc(), nopName);
          st.addAttribute("imm", builder.getI32IntegerAttr(n - 1));
          builder.create(st);
          need -= n;
        }
      }
      issue(h, f);
      // Events are kept oldest first: the facts before the oldest one are
      // referenced no more.
      if (!branches)
        while (!facts.empty() &&
               (h.events.empty() || &facts.front() != h.events.front().facts))
          facts.pop_front();
    }
  }
  return inserted;
}

} // namespace aster
