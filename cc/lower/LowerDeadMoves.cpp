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
// part, arith.constant; a move into exec or another special register is
// never one. So is any other VALU instruction whose results nobody reads
// and that has no other effect (no memory access, no implicit write: the
// instruction table's properties): e.g. the shift extracting the high f16
// of a loaded word for a vector.extract whose value goes unused, which
// otherwise waits for the load right after it is issued, or a v_perm_b32
// pack of 8- / 16-bit vector elements whose elements the next op read
// directly (LowerVectorUtil.cpp).
// Needs before: the lowered kernel body. Guarantees after: the same
// program without unread moves.
//===----------------------------------------------------------------------===//
#include "lower/KernelLowering.h"

#include "dialect/ISA.h"

namespace aster::lower {

namespace {
/// A VALU instruction that only computes its results (no memory access,
/// no other side effect, no implicitly written register such as exec).
bool pureValu(StringRef name) {
  if (!name.consume_front("amdgcn."))
    return false;
  const ISA::InstDesc *d = ISA::lookup(name);
  return d && d->has(ISA::PROP_VALU) && !d->has(ISA::PROP_MFMA) &&
         !d->has(ISA::PROP_MAYLOAD) && !d->has(ISA::PROP_MAYSTORE) &&
         !d->has(ISA::PROP_ATOMIC) && !d->has(ISA::PROP_SIDE_EFFECT) &&
         !d->has(ISA::PROP_BRANCH) && !d->implicitDefs;
}

bool removable(Operation *op) {
  if (!isa<ConcatOp, PartOp, arith::ConstantOp>(op)) {
    StringRef n = op->getName().getStringRef();
    if (!n.ends_with(".v_mov_b32") && !n.ends_with(".s_mov_b32") && !n.ends_with(".s_mov_b64") &&
        !pureValu(n))
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
