//===- Spill.cpp - saving a virtual register and reloading it at its uses -===//
#include "transforms/Spill.h"

#include "dialect/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace aster::amdgcn;

namespace aster {

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
                              b.getNamedAttr("vmcnt", b.getI32IntegerAttr(0)),
                              b.getNamedAttr(kSpillWaitAttr, b.getUnitAttr())};
      spillCode.insert(createInstOp(b, def->getLoc(), "s_waitcnt", {}, {}, cnt));
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

static void replaceIn(Operation *user, Value from, Value to) {
  for (OpOperand &o : user->getOpOperands())
    if (o.get() == from)
      o.set(to);
}

/// Makes a new value of type `t` holding registers `first`.. of the spilled
/// value, at b's insertion point.
using ReloadFn = llvm::function_ref<Value(OpBuilder &b, Location loc, Type t, unsigned first)>;

/// Reloads `v` right before each op reading it (each once; not `keep`, not
/// spill code). A part of `v` is replaced by a reload of just that part.
static void reloadAtUses(Value v, Operation *keep, const llvm::DenseSet<Operation *> &spillCode,
                         ReloadFn reload) {
  SmallVector<Operation *> users;
  for (Operation *u : v.getUsers())
    if (u != keep && !spillCode.contains(u) && !llvm::is_contained(users, u))
      users.push_back(u);
  OpBuilder b(v.getContext());
  for (Operation *user : users) {
    b.setInsertionPoint(user);
    if (auto part = dyn_cast<PartOp>(user)) {
      part.getPart().replaceAllUsesWith(
          reload(b, user->getLoc(), part.getPart().getType(), part.getOffset()));
      part->erase();
      continue;
    }
    replaceIn(user, v, reload(b, user->getLoc(), v.getType(), 0));
  }
}

void spillToAGPR(Value v, llvm::DenseSet<Operation *> &spillCode, bool early) {
  MLIRContext *ctx = v.getContext();
  OpBuilder b(ctx);
  Operation *keep;
  placeSave(b, v, keep, early, spillCode);
  Operation *save = createInstOp(b, v.getLoc(), "v_accvgpr_write_b32", v,
                                 RegType::getVirtual(ctx, RegKind::AGPR));
  spillCode.insert(save);
  Value slot = save->getResult(0);
  // (A part of a 32-bit VGPR is the whole of it.)
  reloadAtUses(v, keep, spillCode, [&](OpBuilder &rb, Location loc, Type t, unsigned) {
    Operation *r = createInstOp(rb, loc, "v_accvgpr_read_b32", slot, t);
    spillCode.insert(r);
    return r->getResult(0);
  });
}

void spillToLanes(Value sv, llvm::DenseSet<Operation *> &spillCode, bool early) {
  MLIRContext *ctx = sv.getContext();
  OpBuilder b(ctx);
  Operation *keep;
  placeSave(b, sv, keep, early, spillCode);
  Operation *save =
      SpillToLanesOp::create(b, sv.getLoc(), RegType::getVirtual(ctx, RegKind::VGPR), sv);
  spillCode.insert(save);
  Value slot = save->getResult(0);
  reloadAtUses(sv, keep, spillCode, [&](OpBuilder &rb, Location loc, Type t, unsigned first) {
    Operation *r = SpillFromLanesOp::create(rb, loc, t, slot, first);
    spillCode.insert(r);
    return r->getResult(0);
  });
}

/// A new virtual SGPR for the base address of a scratch spill access; the
/// expansion sets its constant once the slot's offset is known.
static Value spillBase(OpBuilder &b, Location loc, llvm::DenseSet<Operation *> &spillCode) {
  Value c = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(0));
  Operation *base = createInstOp(b, loc, "s_mov_b32", c,
                               RegType::getVirtual(b.getContext(), RegKind::SGPR));
  spillCode.insert(base);
  return base->getResult(0);
}

static void storeSlot(OpBuilder &b, Location loc, Value data, unsigned slot,
                      llvm::DenseSet<Operation *> &spillCode) {
  Value base = spillBase(b, loc, spillCode);
  spillCode.insert(SpillStoreOp::create(b, loc, data, base, slot));
}

/// Reloads a new virtual register (range) of type `t` from `slot` (registers
/// `first`.. of what it holds) and waits for it.
static Value loadSlot(OpBuilder &b, Location loc, Type t, unsigned slot,
                      llvm::DenseSet<Operation *> &spillCode, unsigned first = 0) {
  Value base = spillBase(b, loc, spillCode);
  Operation *load = SpillLoadOp::create(b, loc, t, base, slot, first);
  spillCode.insert(load);
  NamedAttribute cnt[] = {b.getNamedAttr("vmcnt", b.getI32IntegerAttr(0)),
                          b.getNamedAttr(kSpillWaitAttr, b.getUnitAttr())};
  spillCode.insert(createInstOp(b, loc, "s_waitcnt", {}, {}, cnt));
  return load->getResult(0);
}

void spillSlotToScratch(Operation *save, unsigned slot,
                        llvm::DenseSet<Operation *> &spillCode) {
  OpBuilder b(save);
  storeSlot(b, save->getLoc(), save->getOperand(0), slot, spillCode);
  Value slotValue = save->getResult(0);
  for (Operation *reload : llvm::make_early_inc_range(slotValue.getUsers())) {
    b.setInsertionPoint(reload);
    Value loaded =
        loadSlot(b, reload->getLoc(), reload->getResult(0).getType(), slot, spillCode);
    reload->getResult(0).replaceAllUsesWith(loaded);
    spillCode.erase(reload);
    reload->erase();
  }
  spillCode.erase(save);
  save->erase();
}

void spillToScratch(Value v, unsigned slot, llvm::DenseSet<Operation *> &spillCode,
                    bool early) {
  OpBuilder b(v.getContext());
  Operation *keep;
  placeSave(b, v, keep, early, spillCode);
  storeSlot(b, v.getLoc(), v, slot, spillCode);
  reloadAtUses(v, keep, spillCode, [&](OpBuilder &rb, Location loc, Type t, unsigned first) {
    return loadSlot(rb, loc, t, slot, spillCode, first);
  });
}

} // namespace aster
