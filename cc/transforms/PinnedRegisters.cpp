//===- PinnedRegisters.cpp - where allocated (pinned) registers are busy -===//
#include "transforms/PinnedRegisters.h"

#include "dialect/Dialect.h"

#include "mlir/IR/Block.h"

#include <algorithm>

using namespace mlir;
using namespace aster::amdgcn;

namespace aster {

/// Unit number across classes: kind * kStride + index.
static constexpr unsigned kStride = 1u << 16;

static RegType allocated(Type t) {
  auto r = dyn_cast<RegType>(t);
  return r && !r.isVirtual() ? r : RegType();
}

PinnedRegisters::PinnedRegisters(const Liveness &lv)
    : numPoints(2 * lv.blocks().totalOps()) {
  const BlockNumbering &bn = lv.blocks();
  unsigned nb = bn.size();
  // Units read before any write in a block, and the blocks that write each.
  std::vector<std::pair<unsigned, unsigned>> exposed;
  llvm::DenseMap<unsigned, SmallVector<unsigned, 2>> writers; // unit -> blocks
  llvm::DenseMap<unsigned, unsigned> writtenIn, readIn;       // unit -> block+1
  auto unitOf = [&](unsigned u) -> Unit & {
    auto &v = units[u / kStride];
    if (v.size() <= u % kStride)
      v.resize(u % kStride + 1);
    return v[u % kStride];
  };
  auto forUnits = [](RegType r, auto fn) {
    for (unsigned j = 0; j < r.getWidth(); ++j)
      fn((unsigned)r.getKind() * kStride + r.getIndex() + j);
  };
  // The pinned registers op `i` reads / writes: the liveness's tables answer
  // for the values it tracks (no IR touched), the op for the others.
  auto eachRead = [&](unsigned i, auto fn) {
    ArrayRef<int> ids = lv.operandIds(i);
    for (unsigned k = 0; k < ids.size(); ++k)
      if (RegType r = allocated(ids[k] >= 0 ? lv.type(ids[k])
                                            : bn.op(i)->getOperand(k).getType()))
        fn(r);
  };
  auto eachWrite = [&](unsigned i, auto fn) {
    ArrayRef<int> ids = lv.resultIds(i);
    for (unsigned k = 0; k < ids.size(); ++k) {
      if (ids[k] >= 0) { // not an amdgcn.reg result (never tracked)
        if (RegType r = allocated(lv.type(ids[k])))
          fn(r);
        continue;
      }
      Operation *op = bn.op(i);
      if (isa<RegOp>(op))
        return; // names its register, writes nothing
      if (RegType r = allocated(op->getResult(k).getType()))
        fn(r);
    }
  };
  // Blocks that name a pinned register (the others need no backward scan).
  std::vector<bool> names(nb, false);
  for (unsigned b = 0; b < nb; ++b) {
    for (unsigned i = bn.firstOpIndex(b), e = i + bn.numOpsIn(b); i < e; ++i) {
      bn.prefetch(i);
      eachRead(i, [&](RegType r) {
        forUnits(r, [&](unsigned u) {
          names[b] = true;
          if (writtenIn.lookup(u) != b + 1 && readIn.lookup(u) != b + 1) {
            readIn[u] = b + 1;
            exposed.push_back({u, b});
          }
        });
      });
      eachWrite(i, [&](RegType r) {
        forUnits(r, [&](unsigned u) {
          names[b] = true;
          if (writtenIn.lookup(u) != b + 1) {
            writtenIn[u] = b + 1;
            writers[u].push_back(b);
          }
          unitOf(u).writes.push_back({2 * i + 1, bn.op(i)});
        });
      });
    }
  }
  // Physical liveness over the CFG.
  std::vector<std::vector<unsigned>> liveIn(nb), liveOut(nb);
  std::vector<unsigned> inStamp(nb, ~0u), outStamp(nb, ~0u);
  std::stable_sort(exposed.begin(), exposed.end(),
                   [](auto &a, auto &b) { return a.first < b.first; });
  for (auto [u, b] : exposed) {
    auto it = writers.find(u);
    bn.propagateUse(
        u, b,
        [&](unsigned p) {
          return it != writers.end() && llvm::is_contained(it->second, p);
        },
        u, inStamp, outStamp, liveIn, liveOut);
  }
  // Busy segments: backwards through each block.
  llvm::DenseMap<unsigned, int> liveEnd; // unit -> end point, while live
  for (unsigned b = 0; b < nb; ++b) {
    liveEnd.clear();
    for (unsigned u : liveOut[b])
      liveEnd[u] = bn.end(b);
    for (unsigned i = bn.firstOpIndex(b) + bn.numOpsIn(b);
         names[b] && i-- > bn.firstOpIndex(b);) {
      eachWrite(i, [&](RegType r) {
        forUnits(r, [&](unsigned u) {
          auto it = liveEnd.find(u);
          if (it != liveEnd.end()) {
            unitOf(u).busy.push_back({2 * i + 1, (unsigned)it->second});
            liveEnd.erase(it);
          } else {
            unitOf(u).busy.push_back({2 * i + 1, 2 * i + 1});
          }
        });
      });
      eachRead(i, [&](RegType r) {
        forUnits(r, [&](unsigned u) { liveEnd.try_emplace(u, 2 * i); });
      });
    }
    for (auto [u, end] : liveEnd)
      unitOf(u).busy.push_back({bn.begin(b), (unsigned)end});
  }
  for (auto &cls : units)
    for (Unit &u : cls) {
      llvm::sort(u.busy, [](Segment a, Segment b) { return a.start < b.start; });
      llvm::sort(u.writes, [](auto &a, auto &b) { return a.first < b.first; });
    }
}

bool PinnedRegisters::conflicts(RegKind kind, unsigned first, unsigned width,
                                ArrayRef<Segment> segs) const {
  const auto &cls = units[(int)kind];
  for (unsigned u = first; u < first + width && u < cls.size(); ++u) {
    const auto &busy = cls[u].busy;
    if (busy.empty())
      continue;
    for (Segment s : segs) {
      // First busy segment starting after s.end; the one before may overlap.
      auto it = std::upper_bound(busy.begin(), busy.end(), s.end,
                                 [](unsigned p, Segment b) { return p < b.start; });
      // Busy segments of a unit are disjoint and sorted: only the last one
      // starting at or before s.end can reach s.start.
      if (it != busy.begin() && std::prev(it)->end >= s.start)
        return true;
    }
  }
  return false;
}

const std::vector<unsigned> &PinnedRegisters::busyCount(RegKind kind) {
  int k = (int)kind;
  if (!counted[k]) {
    counted[k] = true;
    std::vector<int> diff(numPoints + 2, 0);
    for (const Unit &u : units[k]) {
      // Merge overlapping segments of one unit so it counts once.
      unsigned curS = 0, curE = 0;
      bool open = false;
      for (Segment s : u.busy) {
        if (open && s.start <= curE) {
          curE = std::max(curE, s.end);
          continue;
        }
        if (open) {
          ++diff[curS];
          --diff[curE + 1];
        }
        curS = s.start, curE = s.end, open = true;
      }
      if (open) {
        ++diff[curS];
        --diff[curE + 1];
      }
    }
    counts[k].resize(numPoints + 1);
    int run = 0;
    for (unsigned p = 0; p <= numPoints; ++p)
      counts[k][p] = run += diff[p];
  }
  return counts[k];
}

Operation *PinnedRegisters::writerIn(RegKind kind, unsigned unit, unsigned after,
                                     unsigned upTo) const {
  const auto &cls = units[(int)kind];
  if (unit >= cls.size())
    return nullptr;
  const auto &w = cls[unit].writes;
  auto it = std::upper_bound(w.begin(), w.end(), after,
                             [](unsigned p, auto &e) { return p < e.first; });
  if (it != w.end() && it->first <= upTo)
    return it->second;
  return nullptr;
}

} // namespace aster
