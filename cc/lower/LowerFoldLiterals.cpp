//===- LowerFoldLiterals.cpp - constants into the instructions that read them ===//
//
// The walk puts every VALU immediate that is not an inline constant through
// a v_mov_b32 first (KernelLowering::vOps), where LLVM's selection writes
// the 32-bit literal into the instruction (llc-22 -mcpu=gfx942 on the
// suite's math kernels: `v_mul_f32_e32 v1, 0x3fb8aa3b, v0`,
// `v_fmaak_f32 v1, v0, v1, 0x3e93f0a6`, `v_fmamk_f32 v1, v0, 0x3e93f0a6, v2`).
// After the kernel is lowered, each VALU use of such a move is tried with the
// constant itself; the instruction table decides, through the instruction
// verifier (cc/dialect/Verify.cpp: the operand's class has a literal, at
// most one literal and one scalar on gfx9's constant bus, a literal only in
// the 32-bit VOP1/VOP2/VOPC encoding: later sources VGPRs, the carry /
// condition operands vcc, no VOP3 modifier). A v_fma_f32 whose literal
// cannot stay in the VOP3 form becomes the VOP2 form with a literal K:
// v_fmaak_f32 (src0 * src1 + K) for a constant addend, v_fmamk_f32 (src0
// * K + src1) for a constant factor (the two fused multiply-adds round the
// same: one rounding of the exact a * b + c). A use the verifier rejects
// there gets an SGPR holding the constant (s_mov_b32, shared by the later
// readers in the block; a VOP3 source may read one scalar), else the first
// v_mov_b32 of the same constant in the block. Moves left without readers
// are erased after (LowerDeadMoves.cpp).
// Needs before: the lowered kernel body (virtual registers). Guarantees
// after: the same values; every kept instruction verifies.
//===----------------------------------------------------------------------===//
#include "lower/KernelLowering.h"

#include "mlir/IR/Diagnostics.h"

namespace aster::lower {

namespace {
bool isMoveOfConstant(Operation *op) {
  return op->getName().getStringRef().ends_with(".v_mov_b32") && op->getNumOperands() == 1 &&
         op->getNumResults() == 1 && op->getOperand(0).getDefiningOp<arith::ConstantOp>() &&
         op->getAttrs().empty();
}

bool verifies(Operation *op) {
  const ISA::InstDesc *d = getInstDesc(op);
  return d && succeeded(verifyInstruction(op, *d));
}

/// v_fma_f32 a, b, c with the constant `k` for operand `idx`: the VOP2 form
/// with a literal K (fmaak: a * b + K; fmamk: a * K + c), if it verifies.
bool toFmaK(Operation *fma, unsigned idx, Value k) {
  if (!fma->getAttrs().empty())
    return false; // VOP3 modifiers (neg, abs, clamp, omod) have no K form
  Value a = fma->getOperand(0), b = fma->getOperand(1), c = fma->getOperand(2);
  StringRef mn;
  SmallVector<Value, 3> ops;
  if (idx == 2)
    mn = "v_fmaak_f32", ops = {a, b, k};
  else
    mn = "v_fmamk_f32", ops = {idx == 0 ? b : a, k, c};
  OpBuilder b2(fma);
  Operation *n = createInstOp(b2, fma->getLoc(), mn, ops, fma->getResultTypes(), {});
  if (!verifies(n)) {
    n->erase();
    return false;
  }
  fma->replaceAllUsesWith(n);
  fma->erase(); // the caller skips it from now on (its other uses of the move)
  return true;
}
} // namespace

void foldLiterals(Region &body) {
  MLIRContext *ctx = body.getContext();
  // A rejected try is not an error of the program: its diagnostic is dropped.
  ScopedDiagnosticHandler quiet(ctx, [](Diagnostic &) { return success(); });
  SmallVector<Operation *> moves;
  body.walk([&](Operation *op) {
    if (isMoveOfConstant(op))
      moves.push_back(op);
  });
  Type sT = RegType::getVirtual(ctx, RegKind::SGPR);
  // Per block and constant: the s_mov_b32 / v_mov_b32 holding it (reused by
  // the readers after it in the block).
  DenseMap<std::pair<Block *, Attribute>, Operation *> sMoves, vMoves;
  auto reuse = [](Operation *m, Operation *user) {
    return m && m->getBlock() == user->getBlock() && m->isBeforeInBlock(user);
  };
  DenseSet<Operation *> replaced; // v_fma_f32s turned into their K forms
  for (Operation *mov : moves) {
    Value k = mov->getOperand(0), r = mov->getResult(0);
    Attribute kv = k.getDefiningOp<arith::ConstantOp>().getValue();
    // (reader, operand index): a reader may be replaced while its others wait.
    SmallVector<std::pair<Operation *, unsigned>> uses;
    for (OpOperand &u : r.getUses())
      uses.push_back({u.getOwner(), u.getOperandNumber()});
    for (auto [user, idx] : uses) {
      if (replaced.contains(user))
        continue;
      // VALU readers only: a branch's block operands stay registers (one
      // per block argument: sharing one would make regalloc copy on edges).
      const ISA::InstDesc *d = getInstDesc(user);
      if (!d || !d->has(ISA::PROP_VALU) || d->successors)
        continue;
      // 1. the literal itself
      user->setOperand(idx, k);
      if (verifies(user))
        continue;
      user->setOperand(idx, r);
      if (user->getName().getStringRef().ends_with(".v_fma_f32") && user->getNumOperands() == 3 &&
          toFmaK(user, idx, k)) {
        replaced.insert(user);
        continue;
      }
      // 2. an SGPR holding it (a VOP3 source may read one scalar), as
      //    LLVM's s_mov_b32 of a constant the VOP3 forms share
      Block *blk = user->getBlock();
      Operation *&sm = sMoves[{blk, kv}];
      bool fresh = !reuse(sm, user);
      Operation *cand = sm;
      if (fresh) {
        OpBuilder b(user);
        cand = createInstOp(b, user->getLoc(), "s_mov_b32", k, sT, {});
      }
      user->setOperand(idx, cand->getResult(0));
      if (verifies(user)) {
        if (fresh)
          sm = cand;
        continue;
      }
      user->setOperand(idx, r);
      if (fresh)
        cand->erase();
      // 3. one v_mov_b32 of it per block, the first (the others go dead)
      Operation *&vm = vMoves[{blk, kv}];
      if (reuse(vm, user))
        user->setOperand(idx, vm->getResult(0));
      else if (!vm || vm->getBlock() != blk)
        vm = mov->getBlock() == blk && mov->isBeforeInBlock(user) ? mov : nullptr;
    }
  }
}

} // namespace aster::lower
