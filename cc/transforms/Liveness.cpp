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
      (void)op;
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

Liveness::Liveness(Region &body, function_ref<bool(Value)> track) : bn(body) {
  unsigned nb = bn.size();
  // Number the tracked values and find their definitions and last uses.
  for (unsigned b = 0; b < nb; ++b) {
    Block *blk = bn.block(b);
    auto add = [&](Value v, unsigned point) {
      if (!track(v))
        return;
      ids[v] = values.size();
      values.push_back(v);
      defBlockOf.push_back(b);
      defPointOf.push_back(point);
    };
    for (BlockArgument a : blk->getArguments())
      add(a, bn.begin(b));
    unsigned i = bn.firstOpIndex(b);
    for (Operation &op : *blk) {
      for (Value r : op.getResults())
        add(r, 2 * i + 1);
      ++i;
    }
  }
  lastUses.resize(values.size());
  inBlocksOf.resize(values.size());
  // (value, block) pairs used before any definition in the block.
  std::vector<std::pair<unsigned, unsigned>> exposed;
  for (unsigned b = 0; b < nb; ++b) {
    unsigned i = bn.firstOpIndex(b);
    for (Operation &op : *bn.block(b)) {
      for (Value v : op.getOperands()) {
        auto it = ids.find(v);
        if (it == ids.end())
          continue;
        unsigned id = it->second;
        auto &lu = lastUses[id];
        if (!lu.empty() && lu.back().first == b)
          lu.back().second = 2 * i;
        else {
          lu.push_back({b, 2 * i});
          if (defBlockOf[id] != b)
            exposed.push_back({id, b});
        }
      }
      ++i;
    }
  }
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
