//===- Liveness.cpp - liveness of register values in an amdgcn kernel ----===//
#include "transforms/Liveness.h"

#include "mlir/IR/Block.h"
#include "mlir/IR/Operation.h"

#include <algorithm>

using namespace mlir;

namespace aster {

BlockNumbering::BlockNumbering(Region &body, function_ref<bool(Operation *)> visit) {
  for (Block &b : body) {
    indexOf[&b] = blocks.size();
    blocks.push_back(&b);
  }
  predList.resize(blocks.size());
  firstOp.resize(blocks.size());
  numOps.resize(blocks.size());
  for (unsigned i = 0; i < blocks.size(); ++i) {
    Block *b = blocks[i];
    firstOp[i] = total;
    unsigned n = 0;
    for (Operation &op : *b) {
      prefetchFollowing(&op);
      if (visit && !visit(&op))
        return;
      ops.push_back(&op);
      ++n;
    }
    numOps[i] = n;
    total += n;
    if (!b->empty())
      for (Block *s : b->back().getSuccessors()) {
        auto &p = predList[indexOf[s]];
        if (!llvm::is_contained(p, i))
          p.push_back(i);
      }
  }
}

void BlockNumbering::propagateUse(
    unsigned var, unsigned b, function_ref<bool(unsigned)> defines,
    unsigned stamp, std::vector<unsigned> &inStamp,
    std::vector<unsigned> &outStamp, std::vector<std::vector<unsigned>> &liveIn,
    std::vector<std::vector<unsigned>> &liveOut) const {
  if (inStamp[b] == stamp)
    return;
  inStamp[b] = stamp;
  liveIn[b].push_back(var);
  SmallVector<unsigned, 16> work{b};
  while (!work.empty()) {
    unsigned cur = work.pop_back_val();
    for (unsigned p : predList[cur]) {
      if (outStamp[p] != stamp) {
        outStamp[p] = stamp;
        liveOut[p].push_back(var);
      }
      if (defines(p) || inStamp[p] == stamp)
        continue;
      inStamp[p] = stamp;
      liveIn[p].push_back(var);
      work.push_back(p);
    }
  }
}

namespace {
/// The ids of recently defined or read values, 2-way set associative by
/// pointer with the most recent first: most operands are defined a few ops
/// earlier, and a value read by many ops (a loop invariant) stays while new
/// results cycle through the other way. Answers from a small table in cache
/// instead of a hash map as large as the kernel.
class RecentIds {
public:
  int find(Value v) {
    Set &s = sets[setOf(v)];
    const void *p = v.getAsOpaquePointer();
    if (s.key[0] == p)
      return s.id[0];
    if (s.key[1] != p)
      return kMiss;
    std::swap(s.key[0], s.key[1]);
    std::swap(s.id[0], s.id[1]);
    return s.id[0];
  }
  void insert(Value v, int id) {
    Set &s = sets[setOf(v)];
    s.key[1] = s.key[0], s.id[1] = s.id[0];
    s.key[0] = v.getAsOpaquePointer(), s.id[0] = id;
  }
  static constexpr int kMiss = -2;

private:
  static constexpr unsigned kSets = 2048; // 48 KiB
  struct Set {
    const void *key[2] = {nullptr, nullptr};
    int id[2] = {kMiss, kMiss};
  };
  static unsigned setOf(Value v) {
    auto p = reinterpret_cast<uintptr_t>(v.getAsOpaquePointer());
    return ((p >> 4) ^ (p >> 15)) & (kSets - 1);
  }
  std::vector<Set> sets = std::vector<Set>(kSets);
};
} // namespace

int Liveness::findId(Value v, unsigned i, unsigned upTo) {
  bool all = upTo == ~0u; // else: ops from `upTo` on are not numbered yet
  unsigned upToBlock = all ? bn.size() : blockOfOp(upTo);
  if (auto a = dyn_cast<BlockArgument>(v)) {
    unsigned b = bn.index(a.getOwner());
    return b <= upToBlock || all ? argId(b, a.getArgNumber()) : kLater;
  }
  auto r = cast<OpResult>(v);
  Operation *def = r.getOwner();
  auto idIn = [&](unsigned k) { return resultIdOf[resultBegin[k] + r.getResultNumber()]; };
  // A result of one of the 256 ops before op `i`: in the op table.
  for (unsigned k = i, lim = i > 256 ? i - 256 : 0; k-- > lim;)
    if (bn.op(k) == def)
      return idIn(k);
  // Further back: a binary search in its block by op order (a few ops
  // touched), unless such lookups are frequent (then the hash map pays,
  // once every value is numbered).
  if (searches > 1024 + bn.totalOps() / 64)
    return all ? idOf(v) : kLater;
  ++searches;
  unsigned b = bn.index(def->getBlock());
  if (b > upToBlock)
    return kLater;
  unsigned lo = bn.firstOpIndex(b), end = lo + bn.numOpsIn(b);
  if (!all && b == upToBlock)
    end = upTo;
  unsigned hi = end;
  while (lo < hi) {
    unsigned mid = lo + (hi - lo) / 2;
    if (bn.op(mid) != def && bn.op(mid)->isBeforeInBlock(def))
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo < end && bn.op(lo) == def)
    return idIn(lo);
  return all ? idOf(v) : kLater;
}

unsigned Liveness::blockOfOp(unsigned i) const {
  unsigned lo = 0, hi = bn.size(); // the last block starting at or before i
  while (hi - lo > 1) {
    unsigned mid = lo + (hi - lo) / 2;
    (bn.firstOpIndex(mid) <= i ? lo : hi) = mid;
  }
  while (lo + 1 < bn.size() && bn.numOpsIn(lo) == 0 && bn.firstOpIndex(lo + 1) <= i)
    ++lo; // (empty blocks start where the next does)
  return lo;
}

Liveness::Liveness(BlockNumbering blocks, function_ref<bool(Value)> track)
    : bn(std::move(blocks)) {
  unsigned nb = bn.size();
  // Sized up front: no regrowing at 1M ops.
  unsigned guess = bn.totalOps();
  for (unsigned b = 0; b < nb; ++b)
    guess += bn.block(b)->getNumArguments();
  typeOf.reserve(guess);
  lastUse.reserve(guess);
  defBlockOf.reserve(guess);
  defPointOf.reserve(guess);
  resultIdOf.reserve(guess);
  resultBegin.reserve(bn.totalOps() + 1);
  operandBegin.reserve(bn.totalOps() + 1);
  operandIdOf.reserve(2 * (size_t)bn.totalOps());
  RecentIds recent;
  std::vector<std::pair<unsigned, unsigned>> exposed;
  // The operands of op `i` of block `b`: their ids (from `recent`, else
  // `lookup`), last uses, and the (value, block) pairs used before any
  // definition in the block. False if `lookup` answered kLater.
  auto readOperands = [&](unsigned b, unsigned i, auto lookup) {
    operandBegin.push_back(operandIdOf.size());
    for (Value v : bn.op(i)->getOperands()) {
      int found = recent.find(v);
      if (found == RecentIds::kMiss) {
        found = track(v) ? lookup(v) : -1;
        if (found == kLater)
          return false;
        recent.insert(v, found);
      }
      operandIdOf.push_back(found);
      if (found < 0)
        continue;
      unsigned id = found;
      unsigned &u = lastUse[id];
      if (u == kUnused || (u & ~kEarlierUses) < bn.begin(b)) { // first use in b
        if (u != kUnused)
          earlierUses.push_back({id, u & ~kEarlierUses});
        u = u == kUnused ? 0 : kEarlierUses;
        if (defBlockOf[id] != b)
          exposed.push_back({id, b});
      }
      u = (u & kEarlierUses) | 2 * i;
    }
    return true;
  };
  // The results of op `i`: ids resultIdOf[resultBegin[i] .. end).
  auto noteResults = [&](unsigned i, unsigned end) {
    for (unsigned k = resultBegin[i]; k < end; ++k)
      recent.insert(bn.op(i)->getResult(k - resultBegin[i]), resultIdOf[k]);
  };
  // One pass: number the tracked values (block arguments, then results, in
  // IR order) and read each op's operands before numbering its results.
  // Operands are values numbered already unless blocks are out of
  // dominance order: then a second pass reads the operands.
  bool inOrder = true;
  for (unsigned b = 0; b < nb; ++b) {
    Block *blk = bn.block(b);
    auto add = [&](Value v, unsigned point) -> int {
      if (!track(v))
        return -1;
      typeOf.push_back(v.getType());
      defBlockOf.push_back(b);
      defPointOf.push_back(point);
      lastUse.push_back(kUnused);
      return typeOf.size() - 1;
    };
    argBegin.push_back(argIdOf.size());
    for (BlockArgument a : blk->getArguments()) {
      argIdOf.push_back(add(a, bn.begin(b)));
      recent.insert(a, argIdOf.back());
    }
    for (unsigned i = bn.firstOpIndex(b), e = i + bn.numOpsIn(b); i < e; ++i) {
      bn.prefetch(i);
      if (inOrder)
        inOrder = readOperands(b, i, [&](Value v) { return findId(v, i, i); });
      resultBegin.push_back(resultIdOf.size());
      for (Value r : bn.op(i)->getResults())
        resultIdOf.push_back(add(r, 2 * i + 1));
      if (inOrder)
        noteResults(i, resultIdOf.size());
    }
  }
  argBegin.push_back(argIdOf.size());
  resultBegin.push_back(resultIdOf.size());
  if (!inOrder) {
    operandBegin.clear();
    operandIdOf.clear();
    exposed.clear();
    earlierUses.clear();
    lastUse.assign(numValues(), kUnused);
    recent = RecentIds();
    searches = 0;
    for (unsigned b = 0; b < nb; ++b) {
      Block *blk = bn.block(b);
      for (unsigned k = 0; k < blk->getNumArguments(); ++k)
        recent.insert(blk->getArgument(k), argIdOf[argBegin[b] + k]);
      for (unsigned i = bn.firstOpIndex(b), e = i + bn.numOpsIn(b); i < e; ++i) {
        bn.prefetch(i);
        readOperands(b, i, [&](Value v) { return findId(v, i); });
        noteResults(i, resultBegin[i + 1]);
      }
    }
  }
  operandBegin.push_back(operandIdOf.size());
  liveInOf.resize(nb);
  liveOutOf.resize(nb);
  std::vector<unsigned> inStamp(nb, ~0u), outStamp(nb, ~0u);
  std::stable_sort(exposed.begin(), exposed.end(),
                   [](auto &a, auto &b) { return a.first < b.first; });
  for (auto [id, b] : exposed) {
    unsigned def = defBlockOf[id];
    bn.propagateUse(id, b, [&](unsigned p) { return p == def; }, id, inStamp,
                    outStamp, liveInOf, liveOutOf);
  }
  std::stable_sort(earlierUses.begin(), earlierUses.end(),
                   [](const Use &a, const Use &b) { return a.id < b.id; });
  size_t liveIns = 0;
  for (unsigned b = 0; b < nb; ++b) {
    llvm::sort(liveInOf[b]);
    llvm::sort(liveOutOf[b]);
    liveIns += liveInOf[b].size();
  }
  if (liveIns) { // blocks of each value, in block order
    inBlocksBegin.assign(numValues() + 1, 0);
    for (unsigned b = 0; b < nb; ++b)
      for (unsigned id : liveInOf[b])
        ++inBlocksBegin[id + 1];
    for (unsigned id = 0; id < numValues(); ++id)
      inBlocksBegin[id + 1] += inBlocksBegin[id];
    inBlocksFlat.resize(liveIns);
    std::vector<unsigned> next(inBlocksBegin.begin(), inBlocksBegin.end() - 1);
    for (unsigned b = 0; b < nb; ++b)
      for (unsigned id : liveInOf[b])
        inBlocksFlat[next[id]++] = b;
  }
}

Value Liveness::value(unsigned id) const {
  unsigned p = defPointOf[id];
  if (p % 2) { // written by op p / 2
    ArrayRef<int> res = resultIds(p / 2);
    for (unsigned k = 0; k < res.size(); ++k)
      if (res[k] == (int)id)
        return bn.op(p / 2)->getResult(k);
  }
  unsigned b = defBlockOf[id]; // a block argument
  for (unsigned k = 0;; ++k)
    if (argId(b, k) == (int)id)
      return bn.block(b)->getArgument(k);
}

int Liveness::idOf(Value v) const {
  if (ids.empty() && numValues()) {
    ids.reserve(numValues());
    for (unsigned id = 0; id < numValues(); ++id)
      ids[value(id)] = id;
  }
  auto it = ids.find(v);
  return it == ids.end() ? -1 : (int)it->second;
}

bool Liveness::isLiveOut(unsigned id, unsigned block) const {
  const auto &v = liveOutOf[block];
  return std::binary_search(v.begin(), v.end(), id);
}

int Liveness::earlierUseIn(unsigned id, unsigned block) const {
  auto it = std::lower_bound(earlierUses.begin(), earlierUses.end(), id,
                             [](const Use &u, unsigned id) { return u.id < id; });
  for (; it != earlierUses.end() && it->id == id; ++it)
    if (it->point >= bn.begin(block) && it->point <= bn.end(block))
      return it->point;
  return -1;
}

void Liveness::segments(unsigned id, SmallVectorImpl<Segment> &out) const {
  auto endIn = [&](unsigned b, unsigned from) {
    if (isLiveOut(id, b))
      return bn.end(b);
    int u = lastUseIn(id, b);
    return u < 0 ? from : std::max<unsigned>(u, from);
  };
  unsigned db = defBlockOf[id];
  Segment def{defPointOf[id], endIn(db, defPointOf[id])};
  bool placed = false;
  for (unsigned b : liveInBlocks(id)) {
    if (!placed && b > db) {
      out.push_back(def);
      placed = true;
    }
    out.push_back({bn.begin(b), endIn(b, bn.begin(b))});
  }
  if (!placed)
    out.push_back(def);
}

} // namespace aster
