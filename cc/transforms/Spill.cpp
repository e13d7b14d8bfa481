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

/// The address of byte `offset` of the private segment: an SGPR base
/// materialised here (0, or the part of `offset` the 13-bit signed immediate
/// cannot hold) and the immediate offset.
static std::pair<Value, NamedAttribute>
scratchAddress(OpBuilder &b, Location loc, unsigned offset,
               llvm::DenseSet<Operation *> &spillCode) {
  constexpr unsigned kMaxImm = 4095;
  unsigned high = offset > kMaxImm ? offset : 0;
  Value c = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(high));
  Operation *base = createInst(b, loc, "s_mov_b32", c,
                               RegType::getVirtual(b.getContext(), RegKind::SGPR));
  spillCode.insert(base);
  return {base->getResult(0),
          b.getNamedAttr("offset", b.getI32IntegerAttr(offset - high))};
}

static const char *scratchOp(bool store, unsigned width) {
  static const char *const st[] = {"scratch_store_dword", "scratch_store_dwordx2",
                                   "scratch_store_dwordx3", "scratch_store_dwordx4"};
  static const char *const ld[] = {"scratch_load_dword", "scratch_load_dwordx2",
                                   "scratch_load_dwordx3", "scratch_load_dwordx4"};
  return (store ? st : ld)[width - 1];
}

/// Stores the VGPR or AGPR (range) `data` at `offset`, before b's insertion point.
static void storeScratch(OpBuilder &b, Location loc, Value data, unsigned offset,
                         llvm::DenseSet<Operation *> &spillCode) {
  unsigned w = cast<RegType>(data.getType()).getWidth();
  auto [base, off] = scratchAddress(b, loc, offset, spillCode);
  spillCode.insert(createInst(b, loc, scratchOp(true, w), ValueRange{data, base}, {}, off));
}

/// Loads a new virtual VGPR or AGPR (range) of type `t` from `offset` and waits for it.
static Value loadScratch(OpBuilder &b, Location loc, RegType t, unsigned offset,
                         llvm::DenseSet<Operation *> &spillCode) {
  auto [base, off] = scratchAddress(b, loc, offset, spillCode);
  Operation *load = createInst(b, loc, scratchOp(false, t.getWidth()), base, t, off);
  spillCode.insert(load);
  spillCode.insert(createInst(b, loc, "s_waitcnt", {}, {},
                              b.getNamedAttr("vmcnt", b.getI32IntegerAttr(0))));
  return load->getResult(0);
}

void spillSlotToScratch(Operation *save, unsigned offset,
                        llvm::DenseSet<Operation *> &spillCode) {
  OpBuilder b(save);
  storeScratch(b, save->getLoc(), save->getOperand(0), offset, spillCode);
  Value slot = save->getResult(0);
  for (Operation *reload : llvm::make_early_inc_range(slot.getUsers())) {
    b.setInsertionPoint(reload);
    Value loaded = loadScratch(b, reload->getLoc(),
                               cast<RegType>(reload->getResult(0).getType()), offset,
                               spillCode);
    reload->getResult(0).replaceAllUsesWith(loaded);
    spillCode.erase(reload);
    reload->erase();
  }
  spillCode.erase(save);
  save->erase();
}

unsigned scratchSpillWidth(Value v) {
  auto t = dyn_cast<RegType>(v.getType());
  if (!t || !t.isVirtual())
    return 0;
  // gfx940/gfx950 scratch loads and stores take VGPR or AGPR data.
  if ((t.getKind() == RegKind::VGPR || t.getKind() == RegKind::AGPR) && t.getWidth() <= 4)
    return t.getWidth();
  return 0;
}

void spillToScratch(Value v, unsigned offset, llvm::DenseSet<Operation *> &spillCode,
                    bool early) {
  auto t = cast<RegType>(v.getType());
  OpBuilder b(v.getContext());
  Operation *keep;
  placeSave(b, v, keep, early, spillCode);
  storeScratch(b, v.getLoc(), v, offset, spillCode);
  SmallVector<Operation *> users;
  for (OpOperand &use : v.getUses()) {
    Operation *u = use.getOwner();
    if (u != keep && !spillCode.contains(u) && !llvm::is_contained(users, u))
      users.push_back(u);
  }
  for (Operation *user : users) {
    b.setInsertionPoint(user);
    replaceIn(user, v, loadScratch(b, user->getLoc(), t, offset, spillCode));
  }
}

} // namespace aster
