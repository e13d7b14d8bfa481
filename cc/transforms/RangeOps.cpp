//===- RangeOps.cpp - amdgcn.part and amdgcn.concat in register allocation -===//
//
// A part names registers of a range: it takes them (borrowed) where it is
// read, and the range stays in place until then. A concatenation is a new
// range: in place when its parts, read there for the last time, already sit
// in order at an aligned place (they are hinted there), else apart from all
// of them with the parts copied in after allocation.
//
//===----------------------------------------------------------------------===//
#include "transforms/Allocator.h"

namespace aster {
namespace regalloc {

/// Each amdgcn.part right before its only reader (one copy per reader, a part
/// of a part folded into one part of the range, unread parts erased): the
/// range then stays in place exactly while its parts are read.
void placeParts(KernelOp kernel) {
  SmallVector<PartOp> parts;
  kernel.walk([&](PartOp p) { parts.push_back(p); });
  for (PartOp p : parts) { // in IR order: a part's source part is done first
    if (auto inner = p.getSource().getDefiningOp<PartOp>()) {
      p.getSourceMutable().assign(inner.getSource());
      p.setOffset(p.getOffset() + inner.getOffset());
    }
  }
  for (PartOp p : llvm::reverse(parts)) {
    SmallVector<Operation *> users;
    for (Operation *u : p->getUsers())
      if (!llvm::is_contained(users, u))
        users.push_back(u);
    for (Operation *u : users) {
      OpBuilder b(u);
      Operation *copy = b.clone(*p);
      u->replaceUsesOfWith(p.getPart(), copy->getResult(0));
    }
    p->erase();
  }
}


/// A part of a range takes its registers in the range, borrowed: the range
/// keeps them until the part's reader (the next op, see placeParts) has read
/// them, even when the part op is the range's last use.
void Allocator::colourPart(PartOp part, int root, int id) {
  if (root < 0 || id < 0 || reg[root] < 0)
    return; // the range was chosen to spill this round: no place yet
  reg[id] = reg[root] + (int)part.getOffset();
  borrowed[id] = true;
}

void Allocator::planConcats() {
  concatPart.clear();
  concatBase.assign(concatsAt.size(), -1);
  for (unsigned c = 0; c < concatsAt.size(); ++c) {
    Operation *op = lv->blocks().op(concatsAt[c]);
    ArrayRef<int> ids = lv->operandIds(concatsAt[c]);
    unsigned off = 0;
    for (unsigned k = 0; k < ids.size(); ++k) {
      if (ids[k] >= 0 && op->getOperand(k).hasOneUse())
        concatPart[ids[k]] = {c, off};
      off += cast<RegType>(op->getOperand(k).getType()).getWidth();
    }
  }
}

/// The register planned for a part of a concatenation read only there: its
/// offset in a range placed (aligned, free now and of pinned registers while
/// the part and the range live) when the first part asks; -1 if none.
int Allocator::concatHint(unsigned id) {
  auto it = concatPart.find(id);
  if (it == concatPart.end())
    return -1;
  auto [c, off] = it->second;
  if (concatBase[c] < 0) {
    int rid = lv->resultIds(concatsAt[c])[0];
    RegType rt = cast<RegType>(lv->type(rid));
    unsigned k = (unsigned)rt.getKind(), w = rt.getWidth(), a = alignOf(rt);
    SmallVector<Segment, 4> segs;
    lv->segments(id, segs);
    lv->segments(rid, segs);
    for (unsigned r = 0; r + w <= limit[k]; r += a)
      if (occ[k].isFree(r, w) && !pinned->conflicts(rt.getKind(), r, w, segs)) {
        concatBase[c] = r;
        break;
      }
  }
  return concatBase[c] < 0 ? -1 : concatBase[c] + (int)off;
}

/// Whether concatenation result `id` (operand ids `opIds`) can be its parts'
/// registers: each read here for the last time, once, in order from an
/// aligned place free of pinned registers while the range lives (then
/// reg[id] is set). Otherwise it goes apart from every part, so the copies
/// in form no cycle.
bool Allocator::concatInPlace(ArrayRef<int> opIds, ArrayRef<unsigned> kills, unsigned id) {
  RegType rt = cast<RegType>(lv->type(id));
  int at = opIds[0] >= 0 ? reg[opIds[0]] : -1, next = at;
  for (int pid : opIds) {
    if (pid < 0 || reg[pid] != next || !llvm::is_contained(kills, (unsigned)pid) ||
        borrowed[pid] || llvm::count(opIds, pid) > 1)
      return false;
    next += (int)cast<RegType>(lv->type(pid)).getWidth();
  }
  if (at % alignOf(rt))
    return false;
  SmallVector<Segment, 4> segs;
  lv->segments(id, segs);
  if (pinned->conflicts(rt.getKind(), at, rt.getWidth(), segs))
    return false;
  reg[id] = at;
  return true;
}

LogicalResult Allocator::resolveRangeOps() {
  // A concatenation: each part copied into its place in the range (all at
  // once: the range may take registers of parts read for the last time).
  for (unsigned i : concatsAt) {
    auto c = cast<ConcatOp>(lv->blocks().op(i));
    RegType dst = cast<RegType>(c.getRange().getType());
    SmallVector<std::pair<unsigned, unsigned>> mv;
    unsigned off = 0;
    for (Value p : c.getParts()) {
      RegType src = cast<RegType>(p.getType());
      for (unsigned j = 0; j < src.getWidth(); ++j)
        if (dst.getIndex() + off + j != src.getIndex() + j)
          mv.push_back({dst.getIndex() + off + j, src.getIndex() + j});
      off += src.getWidth();
    }
    OpBuilder b(c, &inserted);
    auto n = emitParallelCopy(b, c.getLoc(), dst.getKind(), mv, -1);
    if (failed(n))
      return c.emitOpError("cannot copy its parts into place");
    stats.copies += *n;
    c.getRange().replaceAllUsesWith(RegOp::create(b, c.getLoc(), dst).getResult());
  }
  // Parts name their registers.
  for (unsigned i : partsAt) {
    auto part = cast<PartOp>(lv->blocks().op(i));
    OpBuilder b(part);
    part.getPart().replaceAllUsesWith(
        RegOp::create(b, part.getLoc(), part.getPart().getType()).getResult());
  }
  // (Erased last: the op table lists them.)
  for (unsigned i : concatsAt)
    lv->blocks().op(i)->erase();
  for (unsigned i : partsAt)
    lv->blocks().op(i)->erase();
  return success();
}

} // namespace regalloc
} // namespace aster
