//===- Waitcnt.cpp - s_waitcnt insertion over the CFG ----------------------===//
//
// A forward dataflow over the kernel's blocks. Per counter c the walk keeps
// ub[c] (ordered instructions of c issued so far) and lb[c] (those known to
// have completed); a tracked unit (a hardware register, or before
// allocation a virtual value) pending on c holds the ub[c] of the
// instruction that writes it. It has completed once lb[c] reaches that
// number; to read it, a wait for c of ub[c] - seq (the ordered instructions
// issued after it, which are certainly still in flight while it is) is
// enough. Unordered pending writes need a wait of 0.
//
// Block entry states are kept relative (ages ub - seq, pending counts
// ub - lb), capped at the counter maxima, so that merging predecessors
// (union of pending writes, smallest age, largest pending count) reaches a
// fixpoint around loops. The walk of a block decides its waits from its
// entry state alone, so the fixpoint walks and the inserting walk agree.
//
// Before the fixpoint, loops whose reads of a VGPR loaded before them would
// wait in every iteration for the loop's own stores (gfx9: stores count on
// vmcnt, in order) get vmcnt(0) once at the end of their preheader
// (preheaderFlushes, after LLVM's SIInsertWaitcnts::shouldFlushVmCnt); the
// analysis then runs again with those waits as written ones.
//
//===----------------------------------------------------------------------===//
#include "transforms/Waitcnt.h"
#include "transforms/HazardRules.h"
#include "transforms/WaitcntModel.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace aster::amdgcn;
using namespace aster::waitcnt;

namespace aster {

namespace {
using hazards::RegFile;
using hazards::RegRange;

// Register units: v0-511, a0-511, s0-127, the special registers (HazardRules),
// then one for the LDS written by loads straight to LDS (global_load_lds_*):
// written by those, read by every LDS access and s_barrier.
constexpr unsigned kBaseA = 512, kBaseS = 1024, kBaseSpecial = 1152, kLdsDma = 1160,
                   kRegUnits = 1161;
constexpr uint8_t kNone = 0xFF;
/// Marks the vmcnt(0) waits placed at loop preheaders (preheaderFlushes).
constexpr llvm::StringLiteral kFlushAttr = "aster.preheader_flush";

unsigned unitBase(RegFile f) {
  switch (f) {
  case RegFile::V: return 0;
  case RegFile::A: return kBaseA;
  case RegFile::S: return kBaseS;
  case RegFile::Special: return kBaseSpecial;
  }
  return 0;
}
unsigned unitLimit(RegFile f) {
  switch (f) {
  case RegFile::V: return kBaseA;
  case RegFile::A: return kBaseS;
  case RegFile::S: return kBaseSpecial;
  case RegFile::Special: return kLdsDma;
  }
  return 0;
}

enum class Kind : uint8_t {
  Plain,
  Wait,
  Barrier,
  Opaque, ///< amdgcn.data text no table row names, or a return: waits for all in flight
  Call,   ///< s_swappc_b64: the callee waits at its entry and before returning
  End     ///< s_endpgm: nothing is in flight after it (for code after it)
};

/// What the walk needs of one op, computed once.
struct OpInfo {
  Operation *op;
  uint32_t first;          ///< its units in Analysis::units: reads, then writes
  uint16_t nReads, nWrites;
  Events ev;               ///< counters it increments
  Kind kind = Kind::Plain;
  bool flat = false;       ///< a FLAT access (may reach LDS)
  bool deadDef = false;    ///< defines a virtual value nobody reads
  uint8_t wait[kMaxCounters]; ///< Kind::Wait: the count per counter, or kNone
};

/// A pending write at a block entry, relative to the entry.
struct Entry {
  uint32_t unit;
  uint8_t age[kMaxCounters]; ///< ordered instructions issued after it, or kNone
  uint8_t unord;             ///< counters it is pending on out of order
  bool operator==(const Entry &o) const {
    return unit == o.unit && unord == o.unord &&
           std::equal(age, age + kMaxCounters, o.age);
  }
};
struct BlockState {
  bool reached = false;
  uint8_t pend[kMaxCounters] = {}; ///< ordered instructions possibly in flight
  uint8_t anyUnord = 0;            ///< counters with an unordered one in flight
  bool flatLds = false;            ///< a FLAT access in flight
  uint8_t unknown = 0;             ///< counters with accesses of a caller in flight
  std::vector<Entry> entries;      ///< sorted by unit
};

/// Adds `from` (a predecessor's tail) to `into`. True if `into` changed.
/// `out` is scratch space (swapped with into.entries).
bool merge(BlockState &into, const BlockState &from, std::vector<Entry> &out) {
  if (!into.reached) {
    into = from;
    into.reached = true;
    return true;
  }
  bool changed = false;
  for (unsigned c = 0; c < kMaxCounters; ++c)
    if (from.pend[c] > into.pend[c]) {
      into.pend[c] = from.pend[c];
      changed = true;
    }
  if ((into.anyUnord | from.anyUnord) != into.anyUnord || (from.flatLds && !into.flatLds) ||
      (into.unknown | from.unknown) != into.unknown)
    changed = true;
  into.anyUnord |= from.anyUnord;
  into.unknown |= from.unknown;
  into.flatLds |= from.flatLds;
  out.clear();
  auto a = into.entries.begin(), ae = into.entries.end();
  auto b = from.entries.begin(), be = from.entries.end();
  while (a != ae || b != be) {
    if (b == be || (a != ae && a->unit < b->unit)) {
      out.push_back(*a++);
    } else if (a == ae || b->unit < a->unit) {
      out.push_back(*b++);
      changed = true;
    } else {
      Entry e = *a;
      for (unsigned c = 0; c < kMaxCounters; ++c)
        e.age[c] = std::min(e.age[c], b->age[c]);
      e.unord |= b->unord;
      changed |= !(e == *a);
      out.push_back(e);
      ++a, ++b;
    }
  }
  into.entries.swap(out);
  return changed;
}

struct Analysis {
  const Model &m;
  std::vector<OpInfo> ops;
  std::vector<uint32_t> units;
  /// Per block (in region order), its ops [begin, end) in `ops`.
  std::vector<std::pair<unsigned, unsigned>> blockOps;
  unsigned numUnits = kRegUnits;

  // The walk's state.
  uint32_t ub[kMaxCounters], lb[kMaxCounters];
  std::vector<uint32_t> seq;   ///< numUnits * kMaxCounters; 0: not pending
  std::vector<uint8_t> unord;  ///< numUnits
  std::vector<uint8_t> touched;
  std::vector<uint32_t> touchedList, unordList, deadPending;
  uint8_t anyUnord = 0;
  bool flatLds = false;
  uint8_t unknown = 0; ///< BlockState::unknown

  /// What a callee waits for at its entry and before it returns: 0 on every
  /// counter but storecnt (a wait per counter, kNone for the others).
  uint8_t callWait[kMaxCounters];
  uint8_t callMask = 0;

  explicit Analysis(const Model &m) : m(m) {
    std::fill_n(callWait, kMaxCounters, kNone);
    for (unsigned c = 0; c < m.numCounters; ++c)
      if (m.name[c] != "storecnt") {
        callWait[c] = 0;
        callMask |= 1u << c;
      }
  }

  void touch(uint32_t u) {
    if (!touched[u]) {
      touched[u] = 1;
      touchedList.push_back(u);
    }
  }

  void start(const BlockState &s) {
    for (uint32_t u : touchedList) {
      touched[u] = 0;
      unord[u] = 0;
      std::fill_n(&seq[u * kMaxCounters], kMaxCounters, 0);
    }
    touchedList.clear();
    unordList.clear();
    deadPending.clear();
    for (unsigned c = 0; c < kMaxCounters; ++c) {
      ub[c] = 1u << 20;
      lb[c] = ub[c] - s.pend[c];
    }
    anyUnord = s.anyUnord;
    flatLds = s.flatLds;
    unknown = s.unknown;
    for (const Entry &e : s.entries) {
      touch(e.unit);
      for (unsigned c = 0; c < kMaxCounters; ++c)
        if (e.age[c] != kNone)
          seq[e.unit * kMaxCounters + c] = ub[c] - e.age[c];
      if ((unord[e.unit] = e.unord))
        unordList.push_back(e.unit);
    }
  }

  void tail(BlockState &s) const {
    s.reached = true;
    s.entries.clear();
    for (unsigned c = 0; c < m.numCounters; ++c)
      s.pend[c] = std::min<uint32_t>(ub[c] - lb[c], m.max[c]);
    s.anyUnord = anyUnord;
    s.flatLds = flatLds;
    s.unknown = unknown;
    for (uint32_t u : touchedList) {
      Entry e{u, {kNone, kNone, kNone, kNone}, unord[u]};
      bool any = e.unord;
      for (unsigned c = 0; c < m.numCounters; ++c) {
        uint32_t q = seq[u * kMaxCounters + c];
        if (q > lb[c]) {
          e.age[c] = std::min<uint32_t>(ub[c] - q, m.max[c] - 1);
          any = true;
        }
      }
      if (any)
        s.entries.push_back(e);
    }
    llvm::sort(s.entries, [](const Entry &a, const Entry &b) { return a.unit < b.unit; });
  }

  /// Adds to `need` what reading (or, with `writer`, overwriting) `u` needs.
  void needFor(uint32_t u, const OpInfo *writer, uint8_t *need) const {
    for (unsigned c = 0; c < m.numCounters; ++c) {
      uint32_t q = seq[u * kMaxCounters + c];
      if (q <= lb[c])
        continue;
      // A later access of the same ordered counter writes after it.
      if (writer && (writer->ev.ordered >> c & 1))
        continue;
      need[c] = std::min<uint32_t>(need[c], std::min(ub[c] - q, m.max[c] - 1));
    }
    if (uint8_t un = unord[u])
      for (unsigned c = 0; c < m.numCounters; ++c)
        if (un >> c & 1)
          need[c] = 0;
  }

  /// The wait `w` (count per counter or kNone) executes.
  void apply(const uint8_t *w) {
    bool zero = false;
    for (unsigned c = 0; c < m.numCounters; ++c) {
      if (w[c] == kNone || w[c] >= m.max[c])
        continue; // a saturated counter at its maximum guarantees nothing
      if (ub[c] - lb[c] > w[c])
        lb[c] = ub[c] - w[c];
      if (w[c] == 0) {
        zero = true;
        anyUnord &= ~(1u << c);
        unknown &= ~(1u << c);
        if ((int)c == m.lds)
          flatLds = false;
        for (uint32_t u : unordList)
          unord[u] &= ~(1u << c);
      }
    }
    if (zero)
      llvm::erase_if(unordList, [&](uint32_t u) { return !unord[u]; });
  }

  /// `o` issues: its writes become pending (or complete, for non-memory ops).
  void issue(const OpInfo &o) {
    for (unsigned c = 0; c < m.numCounters; ++c)
      if (o.ev.ordered >> c & 1)
        ++ub[c];
    anyUnord |= o.ev.unordered;
    flatLds |= o.flat;
    const uint32_t *w = &units[o.first + o.nReads];
    for (unsigned i = 0; i < o.nWrites; ++i) {
      uint32_t u = w[i];
      if (!o.ev.any()) {
        if (touched[u]) {
          std::fill_n(&seq[u * kMaxCounters], kMaxCounters, 0);
          unord[u] = 0;
        }
        continue;
      }
      touch(u);
      for (unsigned c = 0; c < kMaxCounters; ++c)
        seq[u * kMaxCounters + c] = (o.ev.ordered >> c & 1) ? ub[c] : 0;
      if ((unord[u] = o.ev.unordered))
        unordList.push_back(u);
      if (o.deadDef)
        deadPending.push_back(u);
    }
  }

  /// Walks block ops [begin, end) from `s`; `insert(i, wait)` is called for
  /// each wait the walk decides to put before ops[i].
  template <typename Fn>
  void walk(const BlockState &s, unsigned begin, unsigned end, BlockState &out, Fn insert) {
    start(s);
    for (unsigned i = begin; i < end; ++i) {
      const OpInfo &o = ops[i];
      if (o.kind == Kind::Wait) {
        apply(o.wait);
        continue;
      }
      if (o.kind == Kind::End) {
        for (unsigned c = 0; c < m.numCounters; ++c)
          lb[c] = ub[c];
        for (uint32_t u : unordList)
          unord[u] = 0;
        unordList.clear();
        anyUnord = 0;
        flatLds = false;
        unknown = 0;
        continue;
      }
      uint8_t need[kMaxCounters] = {kNone, kNone, kNone, kNone};
      const uint32_t *r = &units[o.first];
      for (unsigned k = 0; k < o.nReads; ++k)
        needFor(r[k], nullptr, need);
      for (unsigned k = 0; k < o.nWrites; ++k)
        needFor(r[o.nReads + k], &o, need);
      for (uint32_t u : deadPending)
        needFor(u, nullptr, need);
      deadPending.clear();
      if (o.kind == Kind::Barrier && m.lds >= 0 &&
          (ub[m.lds] > lb[m.lds] || flatLds))
        need[m.lds] = 0;
      if (o.kind == Kind::Opaque)
        for (unsigned c = 0; c < m.numCounters; ++c)
          if (ub[c] > lb[c] || (anyUnord >> c & 1))
            need[c] = 0;
      // A caller's accesses may be in flight: the first instruction that
      // touches a register or counts waits for them.
      if (unknown && (o.nReads || o.nWrites || o.ev.any() || o.kind != Kind::Plain))
        for (unsigned c = 0; c < m.numCounters; ++c)
          if (unknown >> c & 1)
            need[c] = 0;
      if (std::any_of(need, need + kMaxCounters, [](uint8_t n) { return n != kNone; })) {
        insert(i, need);
        apply(need);
      }
      issue(o);
      if (o.kind == Kind::Call)
        apply(callWait); // the callee waited before returning
    }
    tail(out);
  }
};

/// The wait counts an existing wait instruction states.
void readWait(Operation *op, const ISA::InstDesc &d, const Model &m, uint8_t *w) {
  std::fill_n(w, kMaxCounters, kNone);
  auto count = [&](StringRef attr) -> uint8_t {
    auto a = op->getAttrOfType<IntegerAttr>(attr);
    return a ? (uint8_t)std::min<int64_t>(a.getInt(), 254) : kNone;
  };
  if (!m.split) {
    for (unsigned c = 0; c < m.numCounters; ++c)
      w[c] = count(m.name[c]);
    return;
  }
  int c = m.counter(StringRef(d.mnemonic).drop_front(strlen("s_wait_")));
  if (c >= 0) {
    uint8_t n = count("imm");
    w[c] = n == kNone ? 0 : n; // an absent immediate is 0
  }
}
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
} // namespace

FailureOr<WaitcntStats> insertWaits(Operation *kernel) {
  auto mod = kernel->getParentOfType<KernelModuleOp>();
  uint8_t target = mod ? mod.getTargetBit() : 0;
  Model m = Model::get(target);
  WaitcntStats stats;
  for (unsigned c = 0; c < m.numCounters; ++c)
    stats.perCounter.push_back({m.name[c], 0});
  if (!m.numCounters)
    return stats;
  Region &body = kernel->getRegion(0);
  // The AMDGPU calling convention as LLVM's SIInsertWaitcnts implements it
  // (LLVM 22, gfx942: clang-22 puts `s_waitcnt vmcnt(0) expcnt(0)
  // lgkmcnt(0)` first in every non-kernel function): a callee waits at its
  // entry for everything its caller may have in flight and, before it
  // returns (s_setpc_b64), for everything it has in flight; a caller waits
  // before s_swappc_b64 only for the registers the call reads or writes
  // (target and return address), and nothing is in flight after it. On
  // gfx1201 storecnt is not waited for at a function's entry nor assumed
  // zero after a call (LLVM leaves STORE_CNT out of both).
  const ISA::InstDesc *swappc = ISA::lookup("s_swappc_b64"),
                      *setpc = ISA::lookup("s_setpc_b64");


  Analysis an(m);
  llvm::DenseMap<Value, uint32_t> valueUnit;
  auto unitOfValue = [&](Value v) -> uint32_t {
    if (auto p = v.getDefiningOp<PartOp>())
      v = p.getSource(); // reading a part reads the range's registers
    auto [it, fresh] = valueUnit.try_emplace(v, an.numUnits);
    if (fresh)
      ++an.numUnits;
    return it->second;
  };
  auto isVirtual = [](Type t) {
    auto r = dyn_cast<RegType>(t);
    return r && r.isVirtual();
  };
  auto addRange = [&](const RegRange &r) {
    unsigned base = unitBase(r.file), lim = unitLimit(r.file);
    for (unsigned i = r.lo; i <= r.hi && base + i < lim; ++i)
      an.units.push_back(base + i);
  };
  std::vector<int16_t> evCache(ISA::instructions().size(), -1);
  std::vector<Events> evStore;
  bool ok = true;
  for (Block &b : body) {
    unsigned begin = an.ops.size();
    for (Operation &op : llvm::make_early_inc_range(b)) {
      const ISA::InstDesc *d = getInstDesc(&op);
      // amdgcn-regalloc's own waits go: this analysis places them.
      if (d && d->has(ISA::PROP_WAITCNT) && op.hasAttr(kSpillWaitAttr)) {
        op.erase();
        ++stats.replaced;
        continue;
      }
      OpInfo o{};
      o.op = &op;
      o.first = an.units.size();
      if (!d && op.getName().getStringRef() == "amdgcn.data") {
        // Raised code kept as text: read from its text; if no row of the
        // table names it, it waits for everything in flight (what it
        // accesses is unknown). Data words without text do not execute.
        auto text = op.getAttrOfType<StringAttr>("text");
        SmallVector<RegRange, 4> reads, writes;
        const ISA::InstDesc *row =
            text ? describeText(text.getValue(), reads, writes) : nullptr;
        if (text && !row)
          o.kind = Kind::Opaque;
        if (row) {
          std::string missing;
          m.events(*row, o.ev, missing);
          o.flat = row->enc == ISA::Enc::FLAT;
          for (const RegRange &r : reads)
            addRange(r);
          hazards::addImplicit(row->implicitUses, addRange);
          o.nReads = an.units.size() - o.first;
          for (const RegRange &r : writes)
            addRange(r);
          hazards::addImplicit(row->implicitDefs, addRange);
          o.nWrites = an.units.size() - o.first - o.nReads;
        }
        an.ops.push_back(o);
        continue;
      }
      if (d) {
        int16_t &ci = evCache[d->index()];
        if (ci < 0) {
          Events e;
          std::string missing;
          if (!m.events(*d, e, missing)) {
            op.emitOpError("counts on ")
                << missing << ", which " << ISA::targetName(target)
                << " has no wait instruction for in aster's table (amdgcn-waitcnt)";
            ok = false;
          }
          ci = evStore.size();
          evStore.push_back(e);
        }
        o.ev = evStore[ci];
        o.flat = d->enc == ISA::Enc::FLAT;
        if (d->has(ISA::PROP_WAITCNT)) {
          o.kind = Kind::Wait;
          readWait(&op, *d, m, o.wait);
          ++stats.author;
        } else if (d->has(ISA::PROP_BARRIER)) {
          o.kind = Kind::Barrier;
        } else if (d == setpc) { // a return (a terminator, but not the end)
          o.kind = Kind::Opaque;
        } else if (d == swappc) {
          o.kind = Kind::Call;
        } else if (d->has(ISA::PROP_TERMINATOR) && !d->successors) {
          o.kind = Kind::End;
        }
      }
      // Reads: an instruction's sources in registers (its branch operands
      // are not read once allocated) and implicit uses; virtual values read
      // by any op (a copy may be made there), a part by its range.
      bool branch = d && d->successors;
      for (Value v : op.getOperands()) {
        if (isVirtual(v.getType())) {
          if (!isa<PartOp>(op))
            an.units.push_back(unitOfValue(v));
        } else if (d && !branch) {
          if (auto r = hazards::rangeOf(v.getType()))
            addRange(*r);
        }
      }
      if (d) {
        hazards::addImplicit(d->implicitUses, addRange);
        if (d->enc == ISA::Enc::DS || o.kind == Kind::Barrier)
          an.units.push_back(kLdsDma);
      }
      o.nReads = an.units.size() - o.first;
      for (Value res : op.getResults()) {
        if (isVirtual(res.getType())) {
          if (isa<PartOp>(op))
            continue;
          an.units.push_back(unitOfValue(res));
          if (o.ev.any() && res.use_empty())
            o.deadDef = true;
        } else if (d) {
          if (auto r = hazards::rangeOf(res.getType()))
            addRange(*r);
        }
      }
      if (d) {
        hazards::addImplicit(d->implicitDefs, addRange);
        if (d->has(ISA::PROP_VMEM) && d->has(ISA::PROP_LDS))
          an.units.push_back(kLdsDma);
      }
      o.nWrites = an.units.size() - o.first - o.nReads;
      an.ops.push_back(o);
    }
    an.blockOps.push_back({begin, (unsigned)an.ops.size()});
  }
  if (!ok)
    return failure();
  an.seq.assign((size_t)an.numUnits * kMaxCounters, 0);
  an.unord.assign(an.numUnits, 0);
  an.touched.assign(an.numUnits, 0);

  // Entry states to a fixpoint (ages only shrink, pending counts and sets
  // only grow, all bounded by the counter maxima): blocks are walked in
  // region order, again only when their entry state changed. Each walk
  // records the waits it decides; a block's last walk had its final entry
  // state, so its record is what gets inserted.
  unsigned numBlocks = an.blockOps.size();
  llvm::DenseMap<Block *, unsigned> blockIndex;
  blockIndex.reserve(numBlocks);
  std::vector<Block *> blocks;
  for (Block &b : body) {
    blockIndex[&b] = blocks.size();
    blocks.push_back(&b);
  }
  // Loop preheaders where vmcnt is flushed once (preheaderFlushes): the
  // waits go in, then the analysis runs again with them as written ones.
  if (SmallVector<Operation *> terms = preheaderFlushes(an, m, blocks, blockIndex);
      !terms.empty()) {
    OpBuilder fb(kernel->getContext());
    OperationName waitName = getInstOpName(kernel->getContext(), *ISA::lookup("s_waitcnt"));
    for (Operation *term : terms) {
      fb.setInsertionPoint(term);
      OperationState st(term->getLoc(), waitName);
      st.addAttribute("vmcnt", fb.getI32IntegerAttr(0));
      st.addAttribute(kFlushAttr, fb.getUnitAttr());
      fb.create(st);
    }
    FailureOr<WaitcntStats> again = insertWaits(kernel);
    kernel->walk([](Operation *op) { op->removeAttr(kFlushAttr); });
    if (succeeded(again)) {
      again->replaced += stats.replaced;
      again->inserted += terms.size();
      again->author -= terms.size();
      int vm = m.counter("vmcnt");
      again->perCounter[vm].second += terms.size();
    }
    return again;
  }
  std::vector<BlockState> entry(numBlocks);
  std::vector<uint8_t> dirty(numBlocks, 0);
  struct Decision {
    unsigned op;
    uint8_t need[kMaxCounters];
  };
  // Waits decided, by walk; a block's last walk is recorded[bi].
  std::vector<Decision> decided;
  std::vector<std::pair<unsigned, unsigned>> recorded(numBlocks, {0, 0});
  BlockState t;
  std::vector<Entry> scratch;
  if (numBlocks) {
    entry[0].reached = true;
    if (isa<DeviceFunctionOp>(kernel))
      entry[0].unknown = an.callMask;
    dirty[0] = 1;
  }
  for (bool again = numBlocks > 0; again;) {
    again = false;
    for (unsigned bi = 0; bi < numBlocks; ++bi) {
      if (!dirty[bi])
        continue;
      dirty[bi] = 0;
      unsigned first = decided.size();
      auto [begin, end] = an.blockOps[bi];
      an.walk(entry[bi], begin, end, t, [&](unsigned i, const uint8_t *need) {
        Decision d{i, {}};
        std::copy(need, need + kMaxCounters, d.need);
        decided.push_back(d);
      });
      recorded[bi] = {first, (unsigned)decided.size()};
      for (Block *succ : blocks[bi]->getSuccessors()) {
        unsigned si = blockIndex[succ];
        if (merge(entry[si], t, scratch)) {
          dirty[si] = 1;
          again |= si <= bi; // an earlier block: another sweep
        }
      }
    }
  }

  // Insertion of the recorded waits (unreachable blocks have none: nothing
  // is known to be in flight there).
  MLIRContext *ctx = kernel->getContext();
  OpBuilder builder(ctx);
  const ISA::InstDesc *gfx9Wait = ISA::lookup("s_waitcnt");
  SmallVector<OperationName, kMaxCounters> splitWait;
  if (m.split)
    for (unsigned c = 0; c < m.numCounters; ++c)
      splitWait.push_back(getInstOpName(ctx, *ISA::lookup("s_wait_" + m.name[c])));
  OperationName gfx9Name = gfx9Wait ? getInstOpName(ctx, *gfx9Wait) : OperationName("", ctx);
  StringAttr imm = builder.getStringAttr("imm");
  SmallVector<StringAttr, kMaxCounters> fieldName;
  for (unsigned c = 0; c < m.numCounters; ++c)
    fieldName.push_back(builder.getStringAttr(m.name[c]));
  // The attribute dictionaries of the waits, made once each.
  llvm::DenseMap<uint64_t, DictionaryAttr> dicts;
  auto dictFor = [&](ArrayRef<NamedAttribute> attrs) {
    uint64_t key = 0;
    for (const NamedAttribute &a : attrs) {
      unsigned c = a.getName() == imm ? kMaxCounters
                                      : llvm::find(fieldName, a.getName()) - fieldName.begin();
      key = key * 1024 + (c + 1) * 256 + cast<IntegerAttr>(a.getValue()).getInt();
    }
    DictionaryAttr &d = dicts[key];
    if (!d)
      d = builder.getDictionaryAttr(attrs);
    return d;
  };
  for (auto [first, last] : recorded)
    for (const Decision &d : ArrayRef<Decision>(decided).slice(first, last - first)) {
      Operation *before = an.ops[d.op].op;
      builder.setInsertionPoint(before);
      auto make = [&](OperationName name, ArrayRef<NamedAttribute> attrs) {
        OperationState st(before->getLoc(), name);
        st.attributes = NamedAttrList(dictFor(attrs));
        builder.create(st);
        ++stats.inserted;
      };
      SmallVector<NamedAttribute, kMaxCounters> fields;
      for (unsigned c = 0; c < m.numCounters; ++c) {
        if (d.need[c] == kNone)
          continue;
        ++stats.perCounter[c].second;
        IntegerAttr n = builder.getI32IntegerAttr(d.need[c]);
        if (m.split)
          make(splitWait[c], NamedAttribute(imm, n));
        else
          fields.push_back(NamedAttribute(fieldName[c], n));
      }
      if (!fields.empty())
        make(gfx9Name, fields);
    }
  return stats;
}

} // namespace aster
