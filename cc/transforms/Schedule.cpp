//===- Schedule.cpp - list scheduling of each region of each block --------===//
//
// Top-down list scheduling of one region (ScheduleGraph.h) on a model of one
// wave issuing in order on its SIMD: one instruction per issue period, the
// VALU port, the transcendental unit and the matrix core busy for their
// cycles, a reader waiting for its producers' latencies (Costs.h, the timing
// model's facts). At each step the candidates are the best ready op of each
// unit group (MFMA, transcendental, the rest: a few of these): latency first
// takes the one issuing earliest, then an MFMA (the matrix core is free: keep
// it busy), then the longest path to the region's end (its height), unless it would take the live registers of a class past its
// limit while another does not; pressure first takes the one adding the
// fewest live registers, then as latency first.
//
//===----------------------------------------------------------------------===//
#include "transforms/Schedule.h"
#include "transforms/Liveness.h"
#include "transforms/ScheduleGraph.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <algorithm>
#include <array>
#include <queue>

using namespace mlir;
using namespace aster::amdgcn;

namespace aster {

using namespace sched;
using emu::timing::Params;

namespace {

/// Virtual register classes (VGPR, SGPR, AGPR) and widths.
int classOf(Type t, unsigned &width) {
  auto r = dyn_cast<RegType>(t);
  if (!r || !r.isVirtual())
    return -1;
  width = r.getWidth();
  return (int)r.getKind();
}

/// The issue state of one wave on its SIMD.
struct Machine {
  const Params &P;
  uint64_t now = 0; ///< earliest issue of the next instruction
  uint64_t valuFree = 0, transFree = 0, mfmaFree = 0;

  uint64_t earliest(const Node &n, uint64_t ready) const {
    if (!n.slot)
      return ready;
    uint64_t t = std::max(now, ready);
    if (n.valuBusy)
      t = std::max(t, valuFree);
    if (n.unit == Unit::TRANS)
      t = std::max(t, transFree);
    if (n.unit == Unit::MFMA)
      t = std::max(t, mfmaFree);
    return t;
  }
  void issue(const Node &n, uint64_t t) {
    if (!n.slot)
      return;
    now = t + P.issuePeriod;
    valuFree = t + n.valuBusy;
    if (n.unit == Unit::TRANS)
      transFree = t + n.unitBusy;
    if (n.unit == Unit::MFMA)
      mfmaFree = t + n.unitBusy;
  }
};

/// Estimated cycles of a region issued in `order` (node indices): when the
/// last instruction issues plus one issue period.
uint64_t simulate(const Region &r, ArrayRef<uint32_t> order, const Params &P) {
  Machine m{P};
  std::vector<uint64_t> ready(r.nodes.size(), 0);
  for (uint32_t i : order) {
    const Node &n = r.nodes[i];
    uint64_t t = m.earliest(n, ready[i]);
    m.issue(n, t);
    for (const Edge &e : n.succ)
      ready[e.to] = std::max(ready[e.to], t + e.latency);
  }
  return m.now;
}

/// Register pressure bookkeeping of one region.
struct Pressure {
  struct Val {
    int cls;
    unsigned width;
    uint32_t remaining; ///< uses by unscheduled nodes of the region
    bool liveAfter;     ///< live after the region
  };
  std::vector<Val> vals;
  /// Per node: the values it reads (distinct, with use counts) and defines.
  std::vector<SmallVector<std::pair<uint32_t, uint32_t>, 3>> uses;
  std::vector<SmallVector<uint32_t, 1>> defs;
  int live[3] = {0, 0, 0};

  /// Net change of live registers per class if node i issued now.
  void delta(uint32_t i, int out[3]) const {
    out[0] = out[1] = out[2] = 0;
    for (uint32_t v : defs[i]) {
      const Val &x = vals[v];
      if (x.remaining || x.liveAfter)
        out[x.cls] += x.width;
    }
    for (auto [v, count] : uses[i]) {
      const Val &x = vals[v];
      if (x.remaining == count && !x.liveAfter)
        out[x.cls] -= x.width;
    }
  }
  void issue(uint32_t i) {
    int d[3];
    delta(i, d);
    for (int c = 0; c < 3; ++c)
      live[c] += d[c];
    for (auto [v, count] : uses[i])
      vals[v].remaining -= count;
  }
};

struct RegionScheduler {
  Region &r;
  const Params &P;
  const ScheduleOptions &opts;
  Pressure pr;
  std::vector<uint64_t> height, tie, ready;

  RegionScheduler(Region &r, const Params &P, const ScheduleOptions &opts)
      : r(r), P(P), opts(opts) {}

  void computePriorities() {
    uint32_t n = r.nodes.size();
    height.assign(n, 0);
    tie.resize(n);
    for (uint32_t i = n; i-- > 0;) {
      const Node &node = r.nodes[i];
      uint64_t h = node.op->getNumResults() ? node.latency : (node.slot ? P.issuePeriod : 0);
      for (const Edge &e : node.succ)
        h = std::max(h, e.latency + height[e.to]);
      height[i] = h;
      uint64_t x = opts.seed ? (i + 1) * 0x9E3779B97F4A7C15ull ^ opts.seed : i;
      if (opts.seed) { // splitmix64
        x ^= x >> 30;
        x *= 0xBF58476D1CE4E5B9ull;
        x ^= x >> 27;
        x *= 0x94D049BB133111EBull;
        x ^= x >> 31;
      }
      tie[i] = x;
    }
  }

  /// Values read and defined in the region, and whether each is live after
  /// it (`liveOut`: the block's live-out values; `pos`: ops' block
  /// positions, `endPos`: the first position after the region).
  void computeValues(const llvm::DenseSet<Value> &liveOut,
                     const llvm::DenseMap<Operation *, unsigned> &pos, unsigned endPos,
                     const int startLive[3]) {
    uint32_t n = r.nodes.size();
    llvm::DenseMap<Value, uint32_t> ids;
    pr.uses.assign(n, {});
    pr.defs.assign(n, {});
    for (int c = 0; c < 3; ++c)
      pr.live[c] = startLive[c];
    auto idOf = [&](Value v) -> int64_t {
      unsigned w = 0;
      int cls = classOf(v.getType(), w);
      if (cls < 0)
        return -1;
      auto [it, added] = ids.try_emplace(v, pr.vals.size());
      if (added) {
        bool after = liveOut.contains(v);
        for (Operation *user : v.getUsers()) {
          if (after)
            break;
          if (user->getBlock() != r.nodes.front().op->getBlock())
            continue; // live-out covers other blocks
          auto p = pos.find(user);
          after = p != pos.end() && p->second >= endPos;
        }
        pr.vals.push_back({cls, w, 0, after});
      }
      return it->second;
    };
    for (uint32_t i = 0; i < n; ++i) {
      Operation *op = r.nodes[i].op;
      for (Value v : op->getOperands()) {
        int64_t id = idOf(v);
        if (id < 0)
          continue;
        ++pr.vals[id].remaining;
        auto &u = pr.uses[i];
        auto it = llvm::find_if(u, [&](auto &p) { return p.first == id; });
        if (it == u.end())
          u.push_back({uint32_t(id), 1});
        else
          ++it->second;
      }
      for (Value v : op->getResults()) {
        int64_t id = idOf(v);
        if (id >= 0)
          pr.defs[i].push_back(id);
      }
    }
  }

  /// The most live registers per class seen while issuing.
  int peak[3] = {0, 0, 0};
  void notePeak() {
    for (int c = 0; c < 3; ++c)
      peak[c] = std::max(peak[c], pr.live[c]);
  }
  /// The peaks of the written order (pr is left as it was).
  void writtenPeaks(int out[3]) {
    Pressure saved = pr;
    std::copy(pr.live, pr.live + 3, out);
    for (uint32_t i = 0; i < r.nodes.size(); ++i) {
      pr.issue(i);
      for (int c = 0; c < 3; ++c)
        out[c] = std::max(out[c], pr.live[c]);
    }
    pr = std::move(saved);
  }
  /// The new order's pressure is no worse than the limits or the written
  /// order's, class by class.
  bool pressureOk(const int written[3]) const {
    for (int c = 0; c < 3; ++c)
      if (peak[c] > std::max(written[c], (int)opts.maxLive[c]))
        return false;
    return true;
  }

  bool fits(const int d[3]) const {
    for (int c = 0; c < 3; ++c)
      if (d[c] > 0 && pr.live[c] + d[c] > (int)opts.maxLive[c])
        return false;
    return true;
  }

  /// The new order (node indices).
  std::vector<uint32_t> run() {
    uint32_t n = r.nodes.size();
    computePriorities();
    ready.assign(n, 0);
    std::vector<uint32_t> npred(n);
    for (uint32_t i = 0; i < n; ++i)
      npred[i] = r.nodes[i].npred;
    auto better = [&](uint32_t a, uint32_t b) { // a before b
      return height[a] != height[b] ? height[a] > height[b] : tie[a] < tie[b];
    };
    auto heapCmp = [&](uint32_t a, uint32_t b) { return better(b, a); };
    using Heap = std::priority_queue<uint32_t, std::vector<uint32_t>, decltype(heapCmp)>;
    // Ready groups: MFMA, transcendental, the rest.
    Heap avail[3] = {Heap(heapCmp), Heap(heapCmp), Heap(heapCmp)};
    auto groupOf = [&](uint32_t i) {
      Unit u = r.nodes[i].unit;
      return u == Unit::MFMA ? 0 : u == Unit::TRANS ? 1 : 2;
    };
    using PQ = std::pair<uint64_t, uint32_t>;
    std::priority_queue<PQ, std::vector<PQ>, std::greater<PQ>> pending;
    Machine m{P};
    std::copy(pr.live, pr.live + 3, peak);
    for (uint32_t i = 0; i < n; ++i)
      if (!npred[i])
        avail[groupOf(i)].push(i);

    std::vector<uint32_t> order;
    order.reserve(n);
    constexpr unsigned kRest = 4, kWide = 32; // candidates taken from the rest
    SmallVector<uint32_t, 40> cand;
    while (order.size() < n) {
      while (!pending.empty() && pending.top().first <= m.now) {
        avail[groupOf(pending.top().second)].push(pending.top().second);
        pending.pop();
      }
      cand.clear();
      for (int g = 0; g < 3; ++g)
        for (unsigned k = 0; k < (g == 2 ? kRest : 1) && !avail[g].empty(); ++k) {
          cand.push_back(avail[g].top());
          avail[g].pop();
        }
      if (cand.empty()) {
        m.now = std::max(m.now, pending.top().first);
        continue;
      }
      // Choose; past a limit with no candidate that fits (or pressure
      // first), look further for one that frees registers.
      int best = -1;
      uint64_t bestStart = 0;
      bool bestFits = false;
      int bestSum = 0;
      auto consider = [&](unsigned c) {
        uint32_t i = cand[c];
        uint64_t start = m.earliest(r.nodes[i], ready[i]);
        int d[3];
        pr.delta(i, d);
        bool ok = fits(d);
        int sum = d[0] + d[1] + d[2];
        bool take;
        if (best < 0) {
          take = true;
        } else if (opts.pressureFirst && sum != bestSum) {
          take = sum < bestSum;
        } else if (ok != bestFits) {
          take = ok;
        } else if (!ok && sum != bestSum) {
          take = sum < bestSum;
        } else if (std::max(start, m.now) != std::max(bestStart, m.now)) {
          take = start < bestStart;
        } else if ((groupOf(i) == 0) != (groupOf(cand[best]) == 0)) {
          // Both can issue now and one is an MFMA: the matrix core is free,
          // feed it (the others fill its busy cycles after), so a chain of
          // VALU work does not leave it idle.
          take = groupOf(i) == 0;
        } else {
          take = better(i, cand[best]);
        }
        if (take) {
          best = c;
          bestStart = start;
          bestFits = ok;
          bestSum = sum;
        }
      };
      for (unsigned c = 0; c < cand.size(); ++c)
        consider(c);
      if (!bestFits || (opts.pressureFirst && bestSum > 0))
        for (unsigned k = 0; k < kWide && !avail[2].empty(); ++k) {
          cand.push_back(avail[2].top());
          avail[2].pop();
          consider(cand.size() - 1);
        }
      // Still nothing that fits: an op that becomes ready later and fits
      // is worth the wait (issuing more would only add live registers).
      // Pressure first: so is an op that frees more than the best adds.
      uint32_t chosen = cand[best];
      if (!bestFits || (opts.pressureFirst && bestSum > 0)) {
        SmallVector<PQ, 8> later;
        for (unsigned k = 0; k < kWide && !pending.empty(); ++k) {
          PQ p = pending.top();
          pending.pop();
          later.push_back(p);
          int d[3];
          pr.delta(p.second, d);
          if (fits(d) && (!opts.pressureFirst || d[0] + d[1] + d[2] < bestSum)) {
            chosen = p.second;
            later.pop_back();
            best = -1;
            break;
          }
        }
        for (const PQ &p : later)
          pending.push(p);
      }
      for (unsigned c = 0; c < cand.size(); ++c)
        if ((int)c != best)
          avail[groupOf(cand[c])].push(cand[c]);
      const Node &node = r.nodes[chosen];
      uint64_t t = m.earliest(node, ready[chosen]);
      m.issue(node, t);
      pr.issue(chosen);
      notePeak();
      order.push_back(chosen);
      for (const Edge &e : node.succ) {
        ready[e.to] = std::max(ready[e.to], t + e.latency);
        if (--npred[e.to] == 0) {
          if (ready[e.to] <= m.now)
            avail[groupOf(e.to)].push(e.to);
          else
            pending.push({ready[e.to], e.to});
        }
      }
    }
    return order;
  }
};

/// MaxLive (registers per class of virtual values live after each write)
/// of a block in its current order, walking backwards from its live-out
/// values; `atOp`, if given, gets the registers live right before each of
/// its ops.
void blockPressure(Block &b, const llvm::DenseSet<Value> &liveOut, unsigned maxLive[3],
                   llvm::DenseMap<Operation *, std::array<int, 3>> *atOp) {
  llvm::DenseSet<Value> live;
  int cur[3] = {0, 0, 0};
  auto add = [&](Value v) {
    unsigned w = 0;
    int c = classOf(v.getType(), w);
    if (c >= 0 && live.insert(v).second)
      cur[c] += w;
  };
  auto remove = [&](Value v) {
    unsigned w = 0;
    int c = classOf(v.getType(), w);
    if (c >= 0 && live.erase(v))
      cur[c] -= w;
  };
  auto note = [&] {
    for (int c = 0; c < 3; ++c)
      maxLive[c] = std::max(maxLive[c], (unsigned)cur[c]);
  };
  for (Value v : liveOut)
    add(v);
  note();
  for (Operation &op : llvm::reverse(b)) {
    // After the write: the live values and the results (read or not).
    int extra[3] = {0, 0, 0};
    for (Value v : op.getResults()) {
      unsigned w = 0;
      int c = classOf(v.getType(), w);
      if (c >= 0 && !live.contains(v))
        extra[c] += w;
    }
    for (int c = 0; c < 3; ++c)
      maxLive[c] = std::max(maxLive[c], (unsigned)(cur[c] + extra[c]));
    for (Value v : op.getResults())
      remove(v);
    for (Value v : op.getOperands())
      add(v);
    if (atOp) {
      auto it = atOp->find(&op);
      if (it != atOp->end())
        it->second = {cur[0], cur[1], cur[2]};
    }
  }
  note();
}

} // namespace

FailureOr<ScheduleStats> scheduleKernel(Operation *kernel, const ScheduleOptions &opts) {
  ScheduleStats st;
  auto mod = kernel->getParentOfType<KernelModuleOp>();
  uint8_t target = mod ? mod.getTargetBit() : ISA::T_GFX942;
  Params P = Params::forProcessor(ISA::targetName(target).str());
  mlir::Region &body = kernel->getRegion(0);

  // Live-out virtual values of every block (unchanged by reordering
  // inside blocks).
  std::vector<llvm::DenseSet<Value>> liveOut;
  {
    auto track = [](Value v) {
      auto r = dyn_cast<RegType>(v.getType());
      return r && r.isVirtual();
    };
    Liveness lv(BlockNumbering(body), track);
    for (unsigned b = 0; b < lv.blocks().size(); ++b) {
      liveOut.emplace_back();
      for (unsigned id : lv.liveOut(b))
        liveOut.back().insert(lv.value(id));
    }
  }

  std::vector<sched::Region> regions;
  unsigned bi = 0;
  for (Block &b : body) {
    const llvm::DenseSet<Value> &out = liveOut[bi++];
    splitRegions(b, regions);
    // Live registers at each region's start.
    llvm::DenseMap<Operation *, std::array<int, 3>> atOp;
    for (const sched::Region &r : regions)
      atOp[r.nodes.front().op] = {0, 0, 0};
    blockPressure(b, out, st.maxLiveBefore, &atOp);
    llvm::DenseMap<Operation *, unsigned> pos;
    unsigned p = 0;
    for (Operation &op : b)
      pos[&op] = p++;
    unsigned instInRegions = 0;
    for (sched::Region &r : regions) {
      buildGraph(r, P, target);
      ++st.regions;
      for (const sched::Node &n : r.nodes)
        instInRegions += n.slot;
      std::vector<uint32_t> orig(r.nodes.size());
      for (uint32_t i = 0; i < orig.size(); ++i)
        orig[i] = i;
      uint64_t before = simulate(r, orig, P);
      st.cyclesBefore += before;
      if (r.frozen) {
        ++st.frozen;
        st.cyclesAfter += before;
        continue;
      }
      RegionScheduler rs(r, P, opts);
      unsigned endPos = pos.lookup(r.nodes.back().op) + 1;
      rs.computeValues(out, pos, endPos, atOp.lookup(r.nodes.front().op).data());
      int written[3];
      rs.writtenPeaks(written);
      std::vector<uint32_t> order = rs.run();
      uint64_t after = simulate(r, order, P);
      // Never worse than written: by the estimate, and in registers past
      // the limits.
      if (after > before || !rs.pressureOk(written)) {
        st.cyclesAfter += before;
        continue;
      }
      st.cyclesAfter += after;
      Operation *anchor = r.nodes.back().op->getNextNode();
      while (anchor && isa<RegOp, UndefOp, arith::ConstantOp, RelocOp>(anchor))
        anchor = anchor->getNextNode();
      for (uint32_t k = 0; k < order.size(); ++k) {
        st.moved += order[k] != k;
        Operation *op = r.nodes[order[k]].op;
        if (anchor)
          op->moveBefore(anchor);
        else
          op->moveBefore(&b, b.end());
      }
    }
    // Fences and the terminator: one issue turn each.
    uint64_t other = 0;
    for (Operation &op : b)
      if (getInstDesc(&op))
        other += P.issuePeriod;
    other -= uint64_t(instInRegions) * P.issuePeriod;
    st.cyclesBefore += other;
    st.cyclesAfter += other;
    blockPressure(b, out, st.maxLiveAfter, nullptr);
  }
  return st;
}

} // namespace aster
