//===- LowerDeadMoves.cpp - drop the moves no instruction reads -----------===//
//
// The walk materialises some values before knowing whether they are read:
// an immediate dword of a 64-bit pair (v_mov_b32 0 for the high dword of a
// zero-extended i32, the low one of x << 32), the register range of a pair
// (amdgcn.concat) made once when the pair is defined, the dwords of a range
// (amdgcn.part). After the kernel is lowered, those with no reader are
// erased, last first, until none is left (LLVM's selection never emits
// them). Only side-effect-free ops whose results are all virtual registers
// (or constants) are candidates: v_mov_b32, s_mov_b32, s_mov_b64, concat,
// part, arith.constant, and v_perm_b32 (the packs of 8- / 16-bit vector
// elements whose elements the next op read directly: LowerVectorUtil.cpp);
// a move into exec or another special register is never one.
// Needs before: the lowered kernel body. Guarantees after: the same
// program without unread moves.
//===----------------------------------------------------------------------===//
#include "lower/KernelLowering.h"

namespace aster::lower {

namespace {
bool removable(Operation *op) {
  if (!isa<ConcatOp, PartOp, arith::ConstantOp>(op)) {
    StringRef n = op->getName().getStringRef();
    if (!n.ends_with(".v_mov_b32") && !n.ends_with(".s_mov_b32") && !n.ends_with(".s_mov_b64") &&
        !n.ends_with(".v_perm_b32"))
      return false;
  }
  if (op->getNumResults() == 0 || op->getNumRegions())
    return false;
  for (Value r : op->getResults()) {
    if (!r.use_empty())
      return false;
    if (auto t = dyn_cast<RegType>(r.getType()); t ? !t.isVirtual() : !isa<arith::ConstantOp>(op))
      return false;
  }
  return true;
}
} // namespace

void eraseDeadMoves(Region &body) {
  bool changed = true;
  while (changed) {
    changed = false;
    SmallVector<Operation *> dead;
    body.walk([&](Operation *op) {
      if (removable(op))
        dead.push_back(op);
    });
    for (Operation *op : llvm::reverse(dead)) {
      op->erase();
      changed = true;
    }
  }
}

} // namespace aster::lower
