//===- Spill.cpp - saving a virtual register and reloading it at its uses -===//
#include "transforms/Spill.h"

#include "dialect/Dialect.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace aster::amdgcn;

namespace aster {

static Operation *createInst(OpBuilder &b, Location loc, StringRef mnemonic,
                             ValueRange operands, Type result) {
  OperationState st(loc, getInstOpName(b.getContext(), *ISA::lookup(mnemonic)));
  st.addOperands(operands);
  st.addTypes(result);
  return b.create(st);
}

void spillToAGPR(Value v, llvm::DenseSet<Operation *> &spillCode) {
  MLIRContext *ctx = v.getContext();
  Location loc = v.getLoc();
  OpBuilder b(ctx);
  Operation *keep = nullptr; // a use that reads v itself (loads)
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    b.setInsertionPointToStart(arg.getOwner());
  } else {
    Operation *def = v.getDefiningOp();
    const ISA::InstDesc *d = getInstDesc(def);
    if (d && d->has(ISA::PROP_MAYLOAD)) {
      // The first use in the block comes after the wait for the load.
      for (Operation *op = def->getNextNode(); op; op = op->getNextNode())
        if (llvm::is_contained(op->getOperands(), v)) {
          keep = op;
          break;
        }
      b.setInsertionPoint(keep);
    } else {
      b.setInsertionPointAfter(def);
    }
  }
  Type slotType = RegType::getVirtual(ctx, RegKind::AGPR);
  Operation *save = createInst(b, loc, "v_accvgpr_write_b32", v, slotType);
  spillCode.insert(save);
  Value slot = save->getResult(0);
  SmallVector<Operation *> users;
  for (OpOperand &use : v.getUses())
    if (use.getOwner() != save && use.getOwner() != keep &&
        !llvm::is_contained(users, use.getOwner()))
      users.push_back(use.getOwner());
  for (Operation *user : users) {
    b.setInsertionPoint(user);
    Operation *reload =
        createInst(b, user->getLoc(), "v_accvgpr_read_b32", slot, v.getType());
    spillCode.insert(reload);
    for (OpOperand &o : user->getOpOperands())
      if (o.get() == v)
        o.set(reload->getResult(0));
  }
}

} // namespace aster
