//===- Liveness.cpp - liveness of register values in an amdgcn kernel ----===//
#include "transforms/Liveness.h"

#include "mlir/IR/Block.h"
#include "mlir/IR/Operation.h"

#include <algorithm>

using namespace mlir;

namespace aster {

BlockNumbering::BlockNumbering(Region &body) {
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
/// The ids of recently defined values, direct-mapped by pointer: most
/// operands are defined a few ops earlier, so this answers them from a small
/// table in cache instead of a hash map as large as the kernel.
class RecentIds {
public:
  int find(Value v) const {
    const Slot &s = slots[slotOf(v)];
    return s.key == v.getAsOpaquePointer() ? s.id : kMiss;
  }
  void insert(Value v, int id) { slots[slotOf(v)] = {v.getAsOpaquePointer(), id}; }
  static constexpr int kMiss = -2;

private:
  static constexpr unsigned kSlots = 4096; // 64 KiB
  struct Slot {
    const void *key = nullptr;
    int id = kMiss;
  };
  static unsigned slotOf(Value v) {
    auto p = reinterpret_cast<uintptr_t>(v.getAsOpaquePointer());
    return ((p >> 4) ^ (p >> 16)) & (kSlots - 1);
  }
  std::vector<Slot> slots = std::vector<Slot>(kSlots);
};
} // namespace

Liveness::Liveness(Region &body, function_ref<bool(Value)> track) : bn(body) {
  unsigned nb = bn.size();
  // Sized up front: no regrowing at 1M ops.
  unsigned guess = bn.totalOps();
  for (unsigned b = 0; b < nb; ++b)
    guess += bn.block(b)->getNumArguments();
  values.reserve(guess);
  defBlockOf.reserve(guess);
  defPointOf.reserve(guess);
  resultIdOf.reserve(guess);
  resultBegin.reserve(bn.totalOps() + 1);
  operandBegin.reserve(bn.totalOps() + 1);
  operandIdOf.reserve(2 * (size_t)bn.totalOps());
  // Number the tracked values (block arguments, then results, in IR order)
  // and find their definitions.
  std::vector<int> argIdOf;
  std::vector<unsigned> argBegin;
  for (unsigned b = 0; b < nb; ++b) {
    Block *blk = bn.block(b);
    auto add = [&](Value v, unsigned point) -> int {
      if (!track(v))
        return -1;
      values.push_back(v);
      defBlockOf.push_back(b);
      defPointOf.push_back(point);
      return values.size() - 1;
    };
    argBegin.push_back(argIdOf.size());
    for (BlockArgument a : blk->getArguments())
      argIdOf.push_back(add(a, bn.begin(b)));
    for (unsigned i = bn.firstOpIndex(b), e = i + bn.numOpsIn(b); i < e; ++i) {
      bn.prefetch(i);
      resultBegin.push_back(resultIdOf.size());
      for (Value r : bn.op(i)->getResults())
        resultIdOf.push_back(add(r, 2 * i + 1));
    }
  }
  argBegin.push_back(argIdOf.size());
  resultBegin.push_back(resultIdOf.size());
  lastUses.resize(values.size());
  inBlocksOf.resize(values.size());
  // Operand ids and last uses; (value, block) pairs used before any
  // definition in the block.
  std::vector<std::pair<unsigned, unsigned>> exposed;
  RecentIds recent;
  // A result of one of the 256 ops before op `i` (a collision in `recent`),
  // found in the op table; otherwise the hash map is built.
  auto nearby = [&](Value v, unsigned i) -> int {
    auto r = dyn_cast<OpResult>(v);
    if (!r)
      return RecentIds::kMiss;
    Operation *def = r.getOwner();
    for (unsigned k = i, lim = i > 256 ? i - 256 : 0; k-- > lim;)
      if (bn.op(k) == def)
        return resultIdOf[resultBegin[k] + r.getResultNumber()];
    return RecentIds::kMiss;
  };
  for (unsigned b = 0; b < nb; ++b) {
    Block *blk = bn.block(b);
    for (unsigned k = 0; k < blk->getNumArguments(); ++k)
      recent.insert(blk->getArgument(k), argIdOf[argBegin[b] + k]);
    for (unsigned i = bn.firstOpIndex(b), e = i + bn.numOpsIn(b); i < e; ++i) {
      Operation &op = *bn.op(i);
      bn.prefetch(i);
      operandBegin.push_back(operandIdOf.size());
      for (Value v : op.getOperands()) {
        int found = recent.find(v);
        if (found == RecentIds::kMiss) {
          found = !track(v) ? -1 : nearby(v, i);
          if (found == RecentIds::kMiss)
            found = idOf(v);
          recent.insert(v, found);
        }
        operandIdOf.push_back(found);
        if (found < 0)
          continue;
        unsigned id = found;
        auto &lu = lastUses[id];
        if (!lu.empty() && lu.back().first == b)
          lu.back().second = 2 * i;
        else {
          lu.push_back({b, 2 * i});
          if (defBlockOf[id] != b)
            exposed.push_back({id, b});
        }
      }
      ArrayRef<int> res = resultIds(i);
      for (unsigned r = 0; r < res.size(); ++r)
        recent.insert(op.getResult(r), res[r]);
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
  for (unsigned b = 0; b < nb; ++b) {
    llvm::sort(liveInOf[b]);
    llvm::sort(liveOutOf[b]);
    for (unsigned id : liveInOf[b])
      inBlocksOf[id].push_back(b);
  }
}

int Liveness::idOf(Value v) const {
  if (ids.empty() && !values.empty()) {
    ids.reserve(values.size());
    for (unsigned id = 0; id < values.size(); ++id)
      ids[values[id]] = id;
  }
  auto it = ids.find(v);
  return it == ids.end() ? -1 : (int)it->second;
}

bool Liveness::isLiveOut(unsigned id, unsigned block) const {
  const auto &v = liveOutOf[block];
  return std::binary_search(v.begin(), v.end(), id);
}

int Liveness::lastUseIn(unsigned id, unsigned block) const {
  for (auto [b, p] : lastUses[id])
    if (b == block)
      return p;
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
  for (unsigned b : inBlocksOf[id]) {
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
