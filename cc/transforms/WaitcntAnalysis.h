//===- WaitcntAnalysis.h - amdgcn-waitcnt's dataflow state (internal) -----===//
//
// The types Waitcnt.cpp's analysis walks with, shared with the loop
// preheader flush (WaitcntPreheader.cpp); internal to amdgcn-waitcnt (only
// its .cpp files include it). The algorithm: Waitcnt.cpp's header.
//   OpInfo      what the walk needs of one op (its register units read and
//               written in Analysis::units, the counters it increments)
//   Entry, BlockState  a block's entry state, relative to the entry (ages,
//               pending counts), capped at the counter maxima
//   Analysis    the ops and units of one kernel and the walk of a block
//               (start, needFor, apply, issue, tail)
// Needs before: ops filled by insertWaits (Waitcnt.cpp) in region order,
// blockOps per block. Guarantees after: Analysis::walk decides a block's
// waits from its entry state alone (the fixpoint walks and the inserting
// walk agree).
//===----------------------------------------------------------------------===//
#ifndef ASTER_TRANSFORMS_WAITCNTANALYSIS_H
#define ASTER_TRANSFORMS_WAITCNTANALYSIS_H

#include "transforms/WaitcntModel.h"

#include "mlir/IR/Operation.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <vector>

namespace aster::waitcnt {

// Register units: v0-511, a0-511, s0-127, the special registers (HazardRules),
// then one for the LDS written by loads straight to LDS (global_load_lds_*):
// written by those, read by every LDS access and s_barrier.
constexpr unsigned kBaseA = 512, kBaseS = 1024, kBaseSpecial = 1152, kLdsDma = 1160,
                   kRegUnits = 1161;
constexpr uint8_t kNone = 0xFF;
/// Marks the vmcnt(0) waits placed at loop preheaders (preheaderFlushes).
constexpr llvm::StringLiteral kFlushAttr = "aster.preheader_flush";

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
  mlir::Operation *op;
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

/// The terminators of loop preheaders that get `s_waitcnt vmcnt(0)`
/// (WaitcntPreheader.cpp states the rule).
llvm::SmallVector<mlir::Operation *>
preheaderFlushes(const Analysis &an, const Model &m, llvm::ArrayRef<mlir::Block *> blocks,
                 const llvm::DenseMap<mlir::Block *, unsigned> &index);

} // namespace aster::waitcnt

#endif
