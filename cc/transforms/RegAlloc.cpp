//===- RegAlloc.cpp - SSA register allocation of an amdgcn kernel --------===//
//
// Colouring in dominance order: blocks in dominator-tree preorder, ops in
// order; at each op the registers of operands used for the last time are
// freed, then each result takes the lowest free register, a range the free
// aligned place in the smallest partly taken aligned block (or a hinted
// one: the source of a move, the register of the block argument it is passed
// to). SSA interference graphs are chordal and this order is a perfect
// elimination order reversed, so without ranges, pinned registers or
// early-clobber results it uses exactly MaxLive registers. Occupancy is a
// bit set per class; no interference edges are built.
//
// Pinned (allocated-type) registers are precoloured: a virtual value never
// takes a unit that PinnedRegisters reports busy while the value is live.
//
//===----------------------------------------------------------------------===//
#include "transforms/RegAlloc.h"
#include "transforms/Liveness.h"
#include "transforms/ParallelCopy.h"
#include "transforms/PinnedRegisters.h"
#include "transforms/Spill.h"

#include "mlir/IR/Builders.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/IR/Dominance.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/DepthFirstIterator.h"

using namespace mlir;
using namespace aster::amdgcn;

namespace aster {

/// Bytes of private (scratch) memory one work-item may have: gfx9's
/// per-wave scratch size field counts up to 8191 KiB, shared by 64 lanes.
static constexpr unsigned kMaxPrivateSegment = 8191 * 1024 / 64;

/// Registers of each class the hardware has (gfx9: 256 VGPRs + 256 AGPRs in
/// the unified file, s0..s101; gfx12: no AGPRs, s0..s105).
static unsigned hwRegs(RegKind k, uint8_t target) {
  bool gfx12 = target == ISA::T_GFX1201;
  switch (k) {
  case RegKind::VGPR: return 256;
  case RegKind::SGPR: return gfx12 ? 106 : 102;
  case RegKind::AGPR: return gfx12 ? 0 : 256;
  }
  return 0;
}

static RegType virtualReg(Type t) {
  auto r = dyn_cast<RegType>(t);
  return r && r.isVirtual() ? r : RegType();
}
static RegType pinnedReg(Type t) {
  auto r = dyn_cast<RegType>(t);
  return r && !r.isVirtual() ? r : RegType();
}

namespace {

/// Occupied units of one class.
struct Occupancy {
  uint64_t bits[8] = {0};
  unsigned count = 0;
  bool isFree(unsigned r, unsigned w) const {
    for (unsigned u = r; u < r + w; ++u)
      if (bits[u / 64] >> (u % 64) & 1)
        return false;
    return true;
  }
  void set(unsigned r, unsigned w) {
    for (unsigned u = r; u < r + w; ++u)
      bits[u / 64] |= 1ull << (u % 64);
    count += w;
  }
  void clear(unsigned r, unsigned w) {
    for (unsigned u = r; u < r + w; ++u)
      bits[u / 64] &= ~(1ull << (u % 64));
    count -= w;
  }
  void reset() {
    for (auto &b : bits)
      b = 0;
    count = 0;
  }
  static constexpr unsigned kUnits = 512;
};

/// A value to spill; `early`: a load's result saved right after the load,
/// behind a wait, rather than at its first use.
struct SpillVictim {
  Value value;
  bool early;
};

/// How a result gets its register.
enum class Mode { Normal, Early, Forced };

class Allocator {
public:
  Allocator(KernelOp k, const RegAllocOptions &o,
            const llvm::DenseSet<Operation *> &spillCode)
      : kernel(k), opts(o), spillCode(spillCode) {}
  FailureOr<RegAllocStats> run();
  /// After a failed run: values whose spilling lets allocation go further
  /// (empty when the failure was diagnosed).
  ArrayRef<SpillVictim> spillVictims() const { return victims; }

private:
  LogicalResult checkInput();
  LogicalResult checkPinnedOverwrites();
  void computeOrder(SmallVectorImpl<unsigned> &order);
  LogicalResult colourBlock(unsigned b);
  int pick(unsigned id, int hint, int startOverride);
  void assign(unsigned id, unsigned r);
  void release(unsigned id);
  unsigned alignOf(RegType t) const;
  void notePressure(unsigned point, ArrayRef<unsigned> notLive = {});
  enum class Room { Retry, Skip, Fail };
  /// No register for value `id` at `at`: picks a value to spill and frees
  /// its register (Retry), or spills `id` itself (Skip), or emits the
  /// diagnostic (Fail).
  Room makeRoom(Operation *at, unsigned id);
  /// pick() until it succeeds, making room; false after a diagnostic.
  bool pickOrSpill(Operation *at, unsigned id, int hint, int startOverride);
  LogicalResult rewrite();
  LogicalResult insertEdgeCopies();

  KernelOp kernel;
  RegAllocOptions opts;
  uint8_t target = 0;
  unsigned limit[3];
  std::unique_ptr<Liveness> lv;
  std::unique_ptr<PinnedRegisters> pinned;
  std::vector<int> reg;         // per value id: register index, -1 if none yet
  Occupancy occ[3];
  RegAllocStats stats;
  /// Value id -> ids of block arguments it is passed to (hints).
  llvm::DenseMap<unsigned, SmallVector<unsigned, 1>> passedTo;
  /// Block argument id -> ids of values passed to it.
  llvm::DenseMap<unsigned, SmallVector<unsigned, 2>> incoming;
  /// Results whose tied source must be copied into them before the op:
  /// (op, operand index, result id).
  std::vector<std::tuple<Operation *, unsigned, unsigned>> tiedCopies;
  /// Moves between virtual registers that may become no-ops.
  std::vector<Operation *> moves;
  std::vector<Segment> segBuf;
  const llvm::DenseSet<Operation *> &spillCode;
  SmallVector<SpillVictim> victims;
  /// Per class and unit: the value id holding it, or -1.
  std::vector<int> owner[3];
  /// Per value: the block whose backward scan saw it last.
  std::vector<unsigned> stamp;
};

} // namespace

unsigned Allocator::alignOf(RegType t) const {
  return std::max(requiredRegAlign(t.getKind(), t.getWidth(), target),
                  t.getAlign());
}

LogicalResult Allocator::checkInput() {
  WalkResult wr = kernel.walk([&](Operation *op) -> WalkResult {
    if (op == kernel.getOperation())
      return WalkResult::advance();
    if (!getInstDesc(op) && !isa<RegOp, UndefOp, arith::ConstantOp, cf::BranchOp>(op)) {
      op->emitOpError("cannot be register-allocated (only amdgcn instructions, "
                      "amdgcn.reg/undef, constants and cf.br are)");
      return WalkResult::interrupt();
    }
    auto check = [&](Type t) {
      RegType r = pinnedReg(t);
      if (!r)
        return true;
      unsigned hw = hwRegs(r.getKind(), target);
      if (r.getIndex() + r.getWidth() > hw) {
        op->emitOpError("names ")
            << registerAsm(r) << " but the target has " << hw << " "
            << regKindName(r.getKind()) << "s";
        return false;
      }
      return true;
    };
    for (Type t : op->getOperandTypes())
      if (!check(t))
        return WalkResult::interrupt();
    for (Type t : op->getResultTypes())
      if (!check(t))
        return WalkResult::interrupt();
    for (Region &r : op->getRegions())
      if (!r.empty()) {
        op->emitOpError("has regions; register allocation needs a flat CFG of instructions");
        return WalkResult::interrupt();
      }
    return WalkResult::advance();
  });
  if (wr.wasInterrupted())
    return failure();
  for (Block &b : kernel.getBody())
    for (BlockArgument a : b.getArguments())
      if (!isa<RegType>(a.getType()))
        return emitError(a.getLoc(), "block argument of type ")
               << a.getType() << " cannot be register-allocated (VGPR, SGPR or AGPR only)";
  for (int k = 0; k < 3; ++k) {
    unsigned hw = hwRegs((RegKind)k, target);
    limit[k] = std::min(opts.maxRegs[k], hw);
  }
  return success();
}

/// A result of allocated type is the value of its register until that
/// register is written again; using it after that is a contradiction.
LogicalResult Allocator::checkPinnedOverwrites() {
  SmallVector<Segment, 4> segs;
  for (unsigned id = 0; id < lv->numValues(); ++id) {
    Value v = lv->value(id);
    RegType r = pinnedReg(v.getType());
    if (!r || isa<BlockArgument>(v) || v.use_empty())
      continue;
    segs.clear();
    lv->segments(id, segs);
    unsigned def = lv->defPoint(id);
    for (Segment s : segs)
      for (unsigned j = 0; j < r.getWidth(); ++j) {
        unsigned after = s.start == def ? def : s.start - 1;
        if (Operation *w = pinned->writerIn(r.getKind(), r.getIndex() + j,
                                            after, s.end)) {
          InFlightDiagnostic d = w->emitOpError("overwrites ")
                                 << regKindPrefix(r.getKind()) << r.getIndex() + j
                                 << ", which still holds a pinned value used later";
          d.attachNote(v.getLoc()) << "the value pinned to " << registerAsm(r)
                                   << " is defined here";
          return failure();
        }
      }
  }
  return success();
}

void Allocator::computeOrder(SmallVectorImpl<unsigned> &order) {
  const BlockNumbering &bn = lv->blocks();
  std::vector<bool> seen(bn.size(), false);
  Region &body = kernel.getBody();
  if (bn.size() > 1) {
    DominanceInfo dom(kernel);
    auto &tree = dom.getDomTree(&body);
    for (auto *node : llvm::depth_first(tree.getRootNode())) {
      unsigned b = bn.index(node->getBlock());
      seen[b] = true;
      order.push_back(b);
    }
  }
  for (unsigned b = 0; b < bn.size(); ++b) // unreachable blocks last
    if (!seen[b])
      order.push_back(b);
}

int Allocator::pick(unsigned id, int hint, int startOverride) {
  RegType t = cast<RegType>(lv->value(id).getType());
  unsigned k = (unsigned)t.getKind(), w = t.getWidth(), a = alignOf(t);
  bool segsReady = false;
  auto segs = [&]() -> ArrayRef<Segment> {
    if (!segsReady) {
      SmallVector<Segment, 4> s;
      lv->segments(id, s);
      if (startOverride >= 0 && !s.empty())
        s.front().start = std::min<unsigned>(s.front().start, startOverride);
      segBuf.assign(s.begin(), s.end());
      segsReady = true;
    }
    return segBuf;
  };
  auto ok = [&](unsigned r) {
    if (r % a || r + w > limit[k] || !occ[k].isFree(r, w))
      return false;
    if (!pinned->anyAtOrAbove(t.getKind(), r))
      return true;
    return !pinned->conflicts(t.getKind(), r, w, segs());
  };
  if (hint >= 0 && ok(hint))
    return hint;
  if (w == 1) { // the lowest: then no register above MaxLive is used
    for (unsigned r = 0; r + w <= limit[k]; r += a)
      if (ok(r))
        return r;
    return -1;
  }
  // A range takes the free aligned place in the smallest aligned block
  // (of 2, 4, ... times its width) that is already partly taken, so that
  // wider aligned ranges stay free (MFMA results next to their operands).
  auto taken = [&](unsigned u) {
    if (u >= limit[k] || !occ[k].isFree(u, 1))
      return true;
    return pinned->anyAtOrAbove(t.getKind(), u) &&
           pinned->conflicts(t.getKind(), u, 1, segs());
  };
  constexpr unsigned kLevels = 4; // blocks of up to 16 times the range
  int best = -1;
  unsigned bestLevel = ~0u;
  for (unsigned r = 0; r + w <= limit[k]; r += a) {
    if (!ok(r))
      continue;
    unsigned level = 0;
    for (unsigned s = 2 * std::max(w, a); level < kLevels; s *= 2, ++level) {
      unsigned b = r - r % s;
      bool partly = false;
      for (unsigned u = b; u < b + s && !partly; ++u)
        partly = (u < r || u >= r + w) && taken(u);
      if (partly)
        break;
    }
    if (level < bestLevel)
      best = r, bestLevel = level;
    if (level == 0)
      break;
  }
  return best;
}

void Allocator::assign(unsigned id, unsigned r) {
  RegType t = cast<RegType>(lv->value(id).getType());
  reg[id] = r;
  occ[(int)t.getKind()].set(r, t.getWidth());
  for (unsigned u = r; u < r + t.getWidth(); ++u)
    owner[(int)t.getKind()][u] = id;
}

void Allocator::release(unsigned id) {
  if (reg[id] < 0)
    return;
  RegType t = cast<RegType>(lv->value(id).getType());
  occ[(int)t.getKind()].clear(reg[id], t.getWidth());
  for (unsigned u = reg[id]; u < reg[id] + t.getWidth(); ++u)
    owner[(int)t.getKind()][u] = -1;
}

/// MaxLive is the program's: registers of values live (SSA) after each write
/// point plus busy pinned units, not what allocation constraints add (an
/// unread load result held until a wait, in `notLive`).
void Allocator::notePressure(unsigned point, ArrayRef<unsigned> notLive) {
  for (int k = 0; k < 3; ++k) {
    unsigned n = occ[k].count;
    for (unsigned id : notLive) {
      RegType t = cast<RegType>(lv->value(id).getType());
      if ((int)t.getKind() == k)
        n -= t.getWidth();
    }
    if (pinned->extent((RegKind)k))
      n += pinned->busyCount((RegKind)k)[point];
    stats.maxLive[k] = std::max(stats.maxLive[k], n);
  }
}

/// Whether `target` has scratch instructions (spill slots in memory).
static bool hasScratch(uint8_t target) {
  return ISA::lookup("scratch_store_dword")->validOn(target);
}

/// A spill slot in an AGPR (made by spillToAGPR: only spill code reads it),
/// which can move to scratch memory on targets with scratch instructions.
static bool isAgprSlot(Value v, uint8_t target,
                       const llvm::DenseSet<Operation *> &spillCode) {
  Operation *def = v.getDefiningOp();
  const ISA::InstDesc *d = def ? getInstDesc(def) : nullptr;
  return d && spillCode.contains(def) &&
         StringRef(d->mnemonic) == "v_accvgpr_write_b32" && hasScratch(target) &&
         llvm::all_of(v.getUsers(), [&](Operation *u) { return spillCode.contains(u); });
}

/// Whether spilling `v` (saving it once, reloading before each use) is
/// supported: a virtual value neither produced by spill code nor spilled
/// already that is a 32-bit VGPR (to an AGPR, on targets with AGPRs), a
/// 32-bit SGPR (to a VGPR lane), or, on targets with scratch, a VGPR range
/// of up to 4 or an AGPR (to scratch memory); or an AGPR slot (to scratch). A load's result must be
/// read in its own block (it is saved there, once it has arrived).
static bool spillable(Value v, uint8_t target,
                      const llvm::DenseSet<Operation *> &spillCode) {
  if (isAgprSlot(v, target, spillCode))
    return true;
  RegType t = virtualReg(v.getType());
  if (!t)
    return false;
  bool single = t.getWidth() == 1 && t.getKind() != RegKind::AGPR &&
                !(t.getKind() == RegKind::VGPR && target == ISA::T_GFX1201);
  if (!single && !(hasScratch(target) && scratchSpillWidth(v)))
    return false;
  Operation *def = v.getDefiningOp();
  if (def && spillCode.contains(def))
    return false;
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
          bool readBefore = llvm::any_of(ov.getUsers(), [&](Operation *u) {
            return u->getBlock() == here && def->isBeforeInBlock(u) &&
                   u->isBeforeInBlock(at);
          });
          if (!readBefore) {
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
          bool readBefore = llvm::any_of(v.getUsers(), [&](Operation *u) {
            return u->getBlock() == here && def->isBeforeInBlock(u) &&
                   u->isBeforeInBlock(at);
          });
          if (!readBefore) {
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

LogicalResult Allocator::colourBlock(unsigned b) {
  const BlockNumbering &bn = lv->blocks();
  Block *blk = bn.block(b);
  for (int c = 0; c < 3; ++c) {
    occ[c].reset();
    owner[c].assign(Occupancy::kUnits, -1);
  }
  for (unsigned id : lv->liveIn(b))
    if (reg[id] >= 0 && virtualReg(lv->value(id).getType()))
      assign(id, reg[id]);
  // Which operands die at each op (not used later here, not live-out), and
  // which results are never used.
  // Flat lists, op j's entries at killAt[j] / deadAt[j] (no allocation per
  // op); ids from Liveness's per-op arrays (no hashing).
  unsigned n = bn.numOpsIn(b), first = bn.firstOpIndex(b);
  std::vector<unsigned> killFlat, deadFlat;
  killFlat.reserve(n);
  std::vector<std::pair<unsigned, unsigned>> killAt(n), deadAt(n);
  unsigned j = n;
  while (j-- > 0) {
    Operation &op = *bn.op(first + j);
    deadAt[j].first = deadFlat.size();
    for (int id : lv->resultIds(first + j))
      if (id >= 0 && stamp[id] != b && !lv->isLiveOut(id, b))
        deadFlat.push_back(id);
    deadAt[j].second = deadFlat.size();
    killAt[j].first = killFlat.size();
    ArrayRef<int> opIds = lv->operandIds(first + j);
    for (unsigned oi = 0; oi < opIds.size(); ++oi) {
      int id = opIds[oi];
      if (id < 0 || stamp[id] == b)
        continue;
      stamp[id] = b;
      if (!lv->isLiveOut(id, b) && virtualReg(op.getOperand(oi).getType()))
        killFlat.push_back(id);
    }
    killAt[j].second = killFlat.size();
  }
  auto slice = [](const std::vector<unsigned> &flat, std::pair<unsigned, unsigned> at) {
    return ArrayRef<unsigned>(flat).slice(at.first, at.second - at.first);
  };
  // Block arguments: hinted to a register of a value passed to them.
  SmallVector<unsigned> deadArgs;
  for (BlockArgument a : blk->getArguments()) {
    int id = lv->idOf(a);
    if (id < 0 || !virtualReg(a.getType()))
      continue;
    int hint = -1;
    for (unsigned in : incoming.lookup(id))
      if (reg[in] >= 0) {
        hint = reg[in];
        break;
      }
    if (!pickOrSpill(&blk->front(), id, hint, -1))
      return failure();
    if (stamp[id] != b && !lv->isLiveOut(id, b))
      deadArgs.push_back(id);
  }
  for (unsigned id : deadArgs)
    release(id);
  notePressure(bn.begin(b));
  // Unread load results: their register is written when the load returns.
  SmallVector<unsigned> inFlight;
  unsigned i = bn.firstOpIndex(b);
  for (j = 0; j < n;) {
    Operation &op = *bn.op(i);
    const ISA::InstDesc *d = getInstDesc(&op);
    ArrayRef<unsigned> kills = slice(killFlat, killAt[j]);
    ArrayRef<int> opIds = lv->operandIds(i);
    auto killed = [&](unsigned id) { return llvm::is_contained(kills, id); };
    // Operand index of each source slot (absent optional sources skipped).
    SmallVector<int, 8> tiedOperand(op.getNumResults(), -1);
    bool earlyAll = false;
    if (d) {
      int opt = d->optionalSrc();
      bool optPresent = op.getNumOperands() >= d->numSrcs;
      for (unsigned s = 0, oi = 0; s < d->numSrcs; ++s) {
        if ((int)s == opt && !optPresent)
          continue;
        if (d->srcs()[s].tiedTo >= 0 && d->srcs()[s].tiedTo < (int)tiedOperand.size())
          tiedOperand[d->srcs()[s].tiedTo] = oi;
        ++oi;
      }
      earlyAll = d->has(ISA::PROP_MFMA);
    }
    SmallVector<std::pair<unsigned, Mode>, 2> results;
    for (unsigned ri = 0; ri < op.getNumResults(); ++ri) {
      Value r = op.getResult(ri);
      RegType rt = virtualReg(r.getType());
      if (!rt)
        continue;
      unsigned id = lv->resultIds(i)[ri];
      Mode mode = earlyAll ? Mode::Early : Mode::Normal;
      if (tiedOperand[ri] >= 0) {
        Value src = op.getOperand(tiedOperand[ri]);
        int sid = opIds[tiedOperand[ri]];
        bool srcVirtual = sid >= 0 && virtualReg(src.getType());
        int at = -1;
        if (srcVirtual && killed(sid))
          at = reg[sid];
        else if (RegType p = pinnedReg(src.getType()))
          at = p.getIndex();
        mode = Mode::Early;
        if (at >= 0 && at % alignOf(rt) == 0 &&
            at + rt.getWidth() <= limit[(int)rt.getKind()]) {
          SmallVector<Segment, 4> segs;
          lv->segments(id, segs);
          if (!pinned->conflicts(rt.getKind(), at, rt.getWidth(), segs)) {
            mode = Mode::Forced;
            reg[id] = at;
          }
        }
        if (mode == Mode::Early)
          tiedCopies.push_back({&op, (unsigned)tiedOperand[ri], id});
      } else if (earlyAll && op.getNumOperands() > 2) {
        // MFMA: the result may not partially overlap a source, but may be
        // exactly the accumulator (src2) it replaces.
        Value acc = op.getOperand(2);
        int sid = opIds[2];
        if (sid >= 0 && acc.getType() == r.getType() && killed(sid) && reg[sid] >= 0 &&
            acc != op.getOperand(0) && acc != op.getOperand(1)) {
          SmallVector<Segment, 4> segs;
          lv->segments(id, segs);
          if (!pinned->conflicts(rt.getKind(), reg[sid], rt.getWidth(), segs)) {
            mode = Mode::Forced;
            reg[id] = reg[sid];
          }
        }
      } else if (!earlyAll && rt.getWidth() > 1) {
        for (unsigned k : kills)
          if (cast<RegType>(lv->value(k).getType()).getWidth() != rt.getWidth())
            mode = Mode::Early;
      }
      results.push_back({id, mode});
    }
    // 1. Early-clobber results: live while the operands are read.
    for (auto [id, mode] : results)
      if (mode == Mode::Early) {
        if (!pickOrSpill(&op, id, -1, 2 * i))
          return failure();
      }
    // 2. Operands read for the last time.
    for (unsigned k : kills)
      release(k);
    // 3. Tied results reuse their source's register.
    for (auto [id, mode] : results)
      if (mode == Mode::Forced) {
        RegType rt = cast<RegType>(lv->value(id).getType());
        if (!occ[(int)rt.getKind()].isFree(reg[id], rt.getWidth()))
          return op.emitOpError("tied result cannot take its source's register ")
                 << regKindPrefix(rt.getKind()) << reg[id]
                 << ": another live value holds it";
        assign(id, reg[id]);
      }
    // 4. The others, with hints.
    for (auto [id, mode] : results) {
      if (mode != Mode::Normal)
        continue;
      int hint = -1;
      if (d && op.getNumOperands() == 1 && op.getNumResults() == 1 &&
          op.getAttrs().empty() &&
          (StringRef(d->mnemonic) == "v_mov_b32" || StringRef(d->mnemonic) == "s_mov_b32" ||
           StringRef(d->mnemonic) == "v_accvgpr_mov_b32" ||
           StringRef(d->mnemonic) == "s_mov_b64" || StringRef(d->mnemonic) == "v_mov_b64")) {
        Value src = op.getOperand(0);
        int sid = opIds[0];
        if (sid >= 0 && src.getType() == lv->value(id).getType() && reg[sid] >= 0) {
          hint = reg[sid];
          moves.push_back(&op);
        }
      }
      if (hint < 0)
        for (unsigned arg : passedTo.lookup(id))
          if (reg[arg] >= 0) {
            hint = reg[arg];
            break;
          }
      if (!pickOrSpill(&op, id, hint, -1))
        return failure();
    }
    notePressure(2 * i + 1, inFlight);
    // 5. Results nobody reads free their register right after the write;
    // a load's only when a wait may have seen it arrive.
    bool load = d && d->has(ISA::PROP_MAYLOAD);
    for (unsigned id : slice(deadFlat, deadAt[j]))
      if (virtualReg(lv->value(id).getType()))
        (load ? inFlight.push_back(id) : release(id));
    if (d && d->has(ISA::PROP_WAITCNT)) {
      for (unsigned id : inFlight)
        release(id);
      inFlight.clear();
    }
    ++i, ++j;
  }
  return success();
}

FailureOr<RegAllocStats> Allocator::run() {
  auto mod = kernel->getParentOfType<KernelModuleOp>();
  target = mod ? mod.getTargetBit() : ISA::T_GFX942;
  if (failed(checkInput()))
    return failure();
  Region &body = kernel.getBody();
  lv = std::make_unique<Liveness>(body, [](Value v) {
    if (!isa<RegType>(v.getType()))
      return false;
    if (auto r = v.getDefiningOp<RegOp>())
      return false;
    if (isa<BlockArgument>(v) && pinnedReg(v.getType()))
      return false;
    return true;
  });
  pinned = std::make_unique<PinnedRegisters>(body, lv->blocks());
  if (failed(checkPinnedOverwrites()))
    return failure();
  reg.assign(lv->numValues(), -1);
  stamp.assign(lv->numValues(), ~0u);
  // Hints between block arguments and the values passed to them.
  for (Block &b : body) {
    if (b.empty())
      continue;
    Operation *term = &b.back();
    for (unsigned s = 0; s < term->getNumSuccessors(); ++s) {
      auto [first, count] = successorOperandRange(term, s);
      Block *dest = term->getSuccessor(s);
      for (unsigned k = 0; k < count && k < dest->getNumArguments(); ++k) {
        int from = lv->idOf(term->getOperand(first + k));
        int to = lv->idOf(dest->getArgument(k));
        if (from >= 0 && to >= 0) {
          passedTo[from].push_back(to);
          incoming[to].push_back(from);
        }
      }
    }
  }
  SmallVector<unsigned> order;
  computeOrder(order);
  for (unsigned b : order)
    if (failed(colourBlock(b)))
      return failure();
  if (!victims.empty())
    return failure(); // spill them, then allocate again
  for (unsigned id = 0; id < lv->numValues(); ++id)
    if (reg[id] < 0 && virtualReg(lv->value(id).getType()))
      return emitError(lv->value(id).getLoc(),
                       "virtual register not allocated: its definition is in "
                       "a block not reachable from the entry"),
             failure();
  if (failed(rewrite()))
    return failure();
  return stats;
}

LogicalResult Allocator::rewrite() {
  MLIRContext *ctx = kernel.getContext();
  // Types: every virtual value takes its register.
  for (unsigned id = 0; id < lv->numValues(); ++id) {
    Value v = lv->value(id);
    if (RegType t = virtualReg(v.getType()))
      v.setType(t.withIndex(reg[id]));
  }
  // Tied sources that stay live: copy them into the result's register first.
  for (auto [op, oi, id] : tiedCopies) {
    RegType dst = cast<RegType>(lv->value(id).getType());
    RegType src = dyn_cast<RegType>(op->getOperand(oi).getType());
    if (!src)
      return op->emitOpError("tied source is not a register");
    OpBuilder b(op);
    SmallVector<std::pair<unsigned, unsigned>> mv;
    for (unsigned j = 0; j < dst.getWidth(); ++j)
      mv.push_back({dst.getIndex() + j, src.getIndex() + j});
    auto n = emitParallelCopy(b, op->getLoc(), dst.getKind(), mv, -1);
    if (failed(n))
      return op->emitOpError("cannot copy its tied source");
    stats.copies += *n;
    op->setOperand(oi, RegOp::create(b, op->getLoc(), dst).getResult());
  }
  if (failed(insertEdgeCopies()))
    return failure();
  // Moves whose source and destination ended up in the same register.
  for (Operation *op : moves)
    if (op->getResult(0).getType() == op->getOperand(0).getType()) {
      op->getResult(0).replaceAllUsesWith(op->getOperand(0));
      op->erase();
    }
  // Registers used: highest index + 1 of every register in the kernel.
  auto note = [&](Type t) {
    if (RegType r = pinnedReg(t))
      stats.used[(int)r.getKind()] =
          std::max<unsigned>(stats.used[(int)r.getKind()], r.getIndex() + r.getWidth());
  };
  kernel.walk([&](Operation *op) {
    for (Type t : op->getResultTypes())
      note(t);
    for (Type t : op->getOperandTypes())
      note(t);
  });
  (void)ctx;
  return success();
}

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
      OpBuilder b(term);
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

FailureOr<RegAllocStats> allocateRegisters(KernelOp kernel,
                                           const RegAllocOptions &opts) {
  llvm::DenseSet<Operation *> spillCode;
  unsigned spills = 0, scratchSpills = 0, scratchBytes = 0, scratchBase = 0;
  if (auto ps = kernel->getAttrOfType<IntegerAttr>("private_segment"))
    scratchBase = llvm::alignTo(ps.getInt(), 4);
  auto mod = kernel->getParentOfType<KernelModuleOp>();
  uint8_t target = mod ? mod.getTargetBit() : ISA::T_GFX942;
  // Scratch slots, after the kernel's own private data: the next one at
  // byte `scratchBase + scratchBytes`; the private segment grows with them.
  // A range's slot is aligned to its size (8 or 16 bytes).
  auto newSlot = [&](Value v, unsigned dwords) -> FailureOr<unsigned> {
    unsigned offset = llvm::alignTo(scratchBase + scratchBytes,
                                    dwords == 1 ? 4 : dwords == 2 ? 8 : 16);
    scratchBytes = offset - scratchBase;
    if (offset + 4 * dwords > kMaxPrivateSegment)
      return emitError(v.getLoc(), "spilling this value needs more than the ")
             << kMaxPrivateSegment << " bytes of scratch memory a work-item can have",
             failure();
    scratchBytes += 4 * dwords;
    ++scratchSpills;
    kernel->setAttr("private_segment", Builder(kernel.getContext())
                                           .getI32IntegerAttr(offset + 4 * dwords));
    return offset;
  };
  // Each round spills values not spilled before (makeRoom only picks a value
  // that is not spilled yet: one whose spilling frees its register where it
  // is picked, or an operand of an op whose range result cannot fit) and
  // spill code is never spilled again except an AGPR slot, once, to
  // scratch: the rounds end.
  // `spilled` checks that promise instead of looping on a broken one.
  llvm::DenseSet<Value> spilled;
  while (true) {
    Allocator a(kernel, opts, spillCode);
    FailureOr<RegAllocStats> st = a.run();
    if (succeeded(st)) {
      st->spills = spills;
      st->scratchSpills = scratchSpills;
      return st;
    }
    if (a.spillVictims().empty())
      return failure();
    for (auto [v, early] : a.spillVictims()) {
      if (isAgprSlot(v, target, spillCode)) {
        FailureOr<unsigned> offset = newSlot(v, 1);
        if (failed(offset))
          return failure();
        spillSlotToScratch(v.getDefiningOp(), *offset, spillCode);
        continue;
      }
      // (A slot is erased above, so only values whose definitions stay are
      // remembered.)
      if (!spilled.insert(v).second) {
        emitError(v.getLoc(), "register allocation would spill this value a second "
                              "time (internal error; please report)");
        return failure();
      }
      RegType t = cast<RegType>(v.getType());
      ++spills;
      if (t.getKind() == RegKind::SGPR) {
        spillToVGPRLane(v, spillCode, early);
      } else if (t.getKind() == RegKind::VGPR && t.getWidth() == 1) {
        spillToAGPR(v, spillCode, early);
      } else {
        FailureOr<unsigned> offset = newSlot(v, scratchSpillWidth(v));
        if (failed(offset))
          return failure();
        spillToScratch(v, *offset, spillCode, early);
      }
    }
  }
}

} // namespace aster
