//===- Spill.cpp - saving a virtual register and reloading it at its uses -===//
#include "transforms/Spill.h"

#include "dialect/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace aster::amdgcn;

namespace aster {

static Operation *createInst(OpBuilder &b, Location loc, StringRef mnemonic,
                             ValueRange operands, TypeRange results,
                             ArrayRef<NamedAttribute> attrs = {}) {
  OperationState st(loc, getInstOpName(b.getContext(), *ISA::lookup(mnemonic)));
  st.addOperands(operands);
  st.addTypes(results);
  st.addAttributes(attrs);
  return b.create(st);
}

/// Where a spilled value is saved: right after its definition, or for a
/// load's result just before its first use (once it has arrived), which then
/// reads the value itself (`keep`), or with `early` right after a wait for
/// the load.
static void placeSave(OpBuilder &b, Value v, Operation *&keep, bool early,
                      llvm::DenseSet<Operation *> &spillCode) {
  keep = nullptr;
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    b.setInsertionPointToStart(arg.getOwner());
  } else {
    Operation *def = v.getDefiningOp();
    const ISA::InstDesc *d = getInstDesc(def);
    if (d && d->has(ISA::PROP_MAYLOAD) && early) {
      b.setInsertionPointAfter(def);
      NamedAttribute cnt[] = {b.getNamedAttr("lgkmcnt", b.getI32IntegerAttr(0)),
                              b.getNamedAttr("vmcnt", b.getI32IntegerAttr(0))};
      spillCode.insert(createInst(b, def->getLoc(), "s_waitcnt", {}, {}, cnt));
    } else if (d && d->has(ISA::PROP_MAYLOAD)) {
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
}

/// Users of `v` other than `save` and `keep`, each once.
static SmallVector<Operation *> reloadUsers(Value v, Operation *save, Operation *keep) {
  SmallVector<Operation *> users;
  for (OpOperand &use : v.getUses())
    if (use.getOwner() != save && use.getOwner() != keep &&
        !llvm::is_contained(users, use.getOwner()))
      users.push_back(use.getOwner());
  return users;
}

static void replaceIn(Operation *user, Value from, Value to) {
  for (OpOperand &o : user->getOpOperands())
    if (o.get() == from)
      o.set(to);
}

void spillToAGPR(Value v, llvm::DenseSet<Operation *> &spillCode, bool early) {
  MLIRContext *ctx = v.getContext();
  Location loc = v.getLoc();
  OpBuilder b(ctx);
  Operation *keep;
  placeSave(b, v, keep, early, spillCode);
  Type slotType = RegType::getVirtual(ctx, RegKind::AGPR);
  Operation *save = createInst(b, loc, "v_accvgpr_write_b32", v, slotType);
  spillCode.insert(save);
  Value slot = save->getResult(0);
  for (Operation *user : reloadUsers(v, save, keep)) {
    b.setInsertionPoint(user);
    Operation *reload =
        createInst(b, user->getLoc(), "v_accvgpr_read_b32", slot, v.getType());
    spillCode.insert(reload);
    replaceIn(user, v, reload->getResult(0));
  }
}

void spillToVGPRLane(Value sv, llvm::DenseSet<Operation *> &spillCode,
                     bool early) {
  MLIRContext *ctx = sv.getContext();
  Location loc = sv.getLoc();
  OpBuilder b(ctx);
  Operation *keep;
  placeSave(b, sv, keep, early, spillCode);
  Type vgpr = RegType::getVirtual(ctx, RegKind::VGPR);
  Value lane = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(0));
  Operation *undef = UndefOp::create(b, loc, vgpr);
  spillCode.insert(undef);
  Value old = undef->getResult(0);
  Operation *save = createInst(b, loc, "v_writelane_b32", ValueRange{sv, lane, old}, vgpr);
  spillCode.insert(save);
  Value slot = save->getResult(0);
  for (Operation *user : reloadUsers(sv, save, keep)) {
    b.setInsertionPoint(user);
    Value l = arith::ConstantOp::create(b, user->getLoc(), b.getI32IntegerAttr(0));
    Operation *reload = createInst(b, user->getLoc(), "v_readlane_b32",
                                   ValueRange{slot, l}, sv.getType());
    spillCode.insert(reload);
    const ISA::InstDesc *d = getInstDesc(user);
    if (d && (d->has(ISA::PROP_VMEM) || StringRef(d->mnemonic) == "v_readlane_b32" ||
              StringRef(d->mnemonic) == "v_writelane_b32"))
      spillCode.insert(createInst(b, user->getLoc(), "s_nop", {}, {},
                                  b.getNamedAttr("imm", b.getI32IntegerAttr(4))));
    replaceIn(user, sv, reload->getResult(0));
  }
}

void spillSlotToScratch(Operation *save, unsigned offset,
                        llvm::DenseSet<Operation *> &spillCode) {
  MLIRContext *ctx = save->getContext();
  OpBuilder b(save);
  Type sgpr = RegType::getVirtual(ctx, RegKind::SGPR);
  NamedAttribute off = b.getNamedAttr("offset", b.getI32IntegerAttr(offset));
  auto zero = [&](Location loc) {
    Value c0 = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(0));
    Operation *z = createInst(b, loc, "s_mov_b32", c0, sgpr);
    spillCode.insert(z);
    return z->getResult(0);
  };
  Value v = save->getOperand(0);
  Value base = zero(save->getLoc());
  spillCode.insert(createInst(b, save->getLoc(), "scratch_store_dword",
                              ValueRange{v, base}, {}, off));
  Value slot = save->getResult(0);
  for (Operation *reload : llvm::make_early_inc_range(slot.getUsers())) {
    b.setInsertionPoint(reload);
    Location loc = reload->getLoc();
    Value rbase = zero(loc);
    Operation *load = createInst(b, loc, "scratch_load_dword", rbase,
                                 reload->getResult(0).getType(), off);
    spillCode.insert(load);
    Operation *wait = createInst(b, loc, "s_waitcnt", {}, {},
                                 b.getNamedAttr("vmcnt", b.getI32IntegerAttr(0)));
    spillCode.insert(wait);
    reload->getResult(0).replaceAllUsesWith(load->getResult(0));
    spillCode.erase(reload);
    reload->erase();
  }
  spillCode.erase(save);
  save->erase();
}

} // namespace aster
