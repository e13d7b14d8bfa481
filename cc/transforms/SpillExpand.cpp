//===- SpillExpand.cpp - scratch offsets of spill slots; spill pseudo ops to instructions ===//
//
// Runs once registers are allocated. A scratch slot lives from its
// amdgcn.spill_store to its last amdgcn.spill_load: the blocks from each
// reload back to the store over the CFG. Its hull in program order (blocks in
// region order, ops in order) contains every point where it is live, so slots
// whose hulls do not overlap may share bytes; slots are packed by a linear
// scan over their hulls (first fit among the slots still live).
//
//===----------------------------------------------------------------------===//
#include "transforms/Spill.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"

using namespace mlir;
using namespace aster::amdgcn;

namespace aster {

/// Bytes of private (scratch) memory one work-item may have: gfx9's
/// per-wave scratch size field counts up to 8191 KiB, shared by 64 lanes.
static constexpr unsigned kMaxPrivateSegment = 8191 * 1024 / 64;
/// The largest offset a scratch instruction's 13-bit signed immediate holds.
static constexpr unsigned kMaxImmOffset = 4095;

namespace {
struct Slot {
  unsigned dwords = 0;
  Operation *store = nullptr;
  SmallVector<Operation *, 2> loads;
  unsigned lo = ~0u, hi = 0; // hull of the lifetime, in program positions
  unsigned offset = 0;       // bytes from the first slot
};
} // namespace

static unsigned slotAlign(unsigned dwords) {
  return dwords == 1 ? 4 : dwords == 2 ? 8 : 16;
}

/// Program positions of the kernel's blocks and spill ops, and each slot's hull.
static void computeHulls(KernelOp kernel, SmallVectorImpl<Slot> &slots) {
  llvm::DenseMap<Block *, std::pair<unsigned, unsigned>> span;
  llvm::DenseMap<Operation *, unsigned> pos;
  unsigned p = 0;
  for (Block &b : kernel.getBody()) {
    unsigned first = p;
    for (Operation &op : b) {
      if (isa<SpillStoreOp, SpillLoadOp>(op))
        pos[&op] = p;
      ++p;
    }
    span[&b] = {first, p == first ? first : p - 1};
    ++p; // blocks do not touch
  }
  for (Slot &s : slots) {
    if (!s.store)
      continue;
    auto extend = [&](unsigned a, unsigned b) {
      s.lo = std::min(s.lo, a);
      s.hi = std::max(s.hi, b);
    };
    Block *def = s.store->getBlock();
    unsigned pd = pos[s.store];
    extend(pd, pd);
    llvm::SmallPtrSet<Block *, 8> seen;
    SmallVector<Block *> work;
    for (Operation *l : s.loads) {
      Block *u = l->getBlock();
      unsigned pu = pos[l];
      if (u == def && pu > pd) {
        extend(pd, pu);
        continue;
      }
      extend(span[u].first, pu);
      work.append(u->pred_begin(), u->pred_end());
    }
    while (!work.empty()) {
      Block *b = work.pop_back_val();
      if (!seen.insert(b).second)
        continue;
      if (b == def) {
        extend(pd, span[b].second);
        continue;
      }
      extend(span[b].first, span[b].second);
      work.append(b->pred_begin(), b->pred_end());
    }
  }
}

/// Byte offsets by a linear scan over the hulls; returns the bytes used.
static unsigned packSlots(MutableArrayRef<Slot> slots) {
  SmallVector<unsigned> order;
  for (unsigned i = 0; i < slots.size(); ++i)
    if (slots[i].store)
      order.push_back(i);
  llvm::sort(order, [&](unsigned a, unsigned b) {
    return slots[a].lo != slots[b].lo ? slots[a].lo < slots[b].lo : a < b;
  });
  SmallVector<unsigned> active; // slots whose hull reaches the current one
  unsigned total = 0;
  for (unsigned i : order) {
    Slot &s = slots[i];
    llvm::erase_if(active, [&](unsigned a) { return slots[a].hi < s.lo; });
    unsigned size = 4 * s.dwords, align = slotAlign(s.dwords);
    auto fits = [&](unsigned at) {
      return llvm::none_of(active, [&](unsigned a) {
        unsigned b = slots[a].offset, e = b + 4 * slots[a].dwords;
        return at < e && b < at + size;
      });
    };
    // First fit: at 0 or right after a live slot.
    unsigned best = ~0u;
    if (fits(0))
      best = 0;
    for (unsigned a : active) {
      unsigned at = llvm::alignTo(slots[a].offset + 4 * slots[a].dwords, align);
      if (at < best && fits(at))
        best = at;
    }
    s.offset = best;
    total = std::max(total, best + size);
    active.push_back(i);
  }
  return total;
}

/// Sets the base SGPR of a scratch access (its s_mov_b32) to the part of
/// `offset` the immediates of `parts` accesses 16 bytes apart cannot hold;
/// returns the immediate of the first part.
static unsigned setBase(Value base, unsigned offset, unsigned parts) {
  unsigned high = offset + 16 * (parts - 1) > kMaxImmOffset ? offset : 0;
  Operation *mov = base.getDefiningOp();
  OpBuilder b(mov);
  Value old = mov->getOperand(0);
  mov->setOperand(0, arith::ConstantOp::create(b, mov->getLoc(), b.getI32IntegerAttr(high)));
  if (Operation *c = old.getDefiningOp(); c && c->use_empty())
    c->erase();
  return offset - high;
}

static const char *scratchOp(bool store, unsigned width) {
  static const char *const st[] = {"scratch_store_dword", "scratch_store_dwordx2",
                                   "scratch_store_dwordx3", "scratch_store_dwordx4"};
  static const char *const ld[] = {"scratch_load_dword", "scratch_load_dwordx2",
                                   "scratch_load_dwordx3", "scratch_load_dwordx4"};
  return (store ? st : ld)[width - 1];
}

/// The amdgcn.reg naming `t`, at b's point.
static Value named(OpBuilder &b, Location loc, Type t) {
  return RegOp::create(b, loc, t).getResult();
}

/// Registers `r` saved at (`store`) or reloaded from byte `offset` of the
/// private segment, addressed by SGPR `base`: one scratch instruction per 4.
static void scratchParts(OpBuilder &b, Location loc, Value base, RegType r, unsigned offset,
                         bool store, llvm::DenseSet<Operation *> &spillCode) {
  unsigned w = r.getWidth();
  unsigned imm = setBase(base, offset, (w + 3) / 4);
  for (unsigned i = 0; i < w; i += 4) {
    unsigned pw = std::min(4u, w - i);
    Type p = RegType::get(b.getContext(), r.getKind(), r.getIndex() + i, pw);
    NamedAttribute off = b.getNamedAttr("offset", b.getI32IntegerAttr(imm + 4 * i));
    spillCode.insert(store ? createInstOp(b, loc, scratchOp(true, pw),
                                          ValueRange{named(b, loc, p), base}, {}, off)
                           : createInstOp(b, loc, scratchOp(false, pw), base, p, off));
  }
}

/// SGPRs `r` written to (`save`) or read from lanes `first`.. of VGPR `slot`:
/// one v_writelane_b32 / v_readlane_b32 per register.
static void laneParts(OpBuilder &b, Location loc, Type slot, RegType r, unsigned first,
                      bool save, llvm::DenseSet<Operation *> &spillCode) {
  for (unsigned i = 0; i < r.getWidth(); ++i) {
    Value lane = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(first + i));
    Type s = RegType::get(b.getContext(), RegKind::SGPR, r.getIndex() + i, 1);
    spillCode.insert(
        save ? createInstOp(b, loc, "v_writelane_b32",
                            ValueRange{named(b, loc, s), lane, named(b, loc, slot)}, slot)
             : createInstOp(b, loc, "v_readlane_b32", ValueRange{named(b, loc, slot), lane}, s));
  }
}

/// Expands spill pseudo op `op` (registers allocated) into instructions; a
/// result is then the amdgcn.reg of its registers, which they wrote.
static void expand(Operation *op, unsigned offset, llvm::DenseSet<Operation *> &spillCode) {
  OpBuilder b(op);
  Location loc = op->getLoc();
  if (auto st = dyn_cast<SpillStoreOp>(op))
    scratchParts(b, loc, st.getBase(), cast<RegType>(st.getData().getType()), offset, true,
                 spillCode);
  else if (auto ld = dyn_cast<SpillLoadOp>(op))
    scratchParts(b, loc, ld.getBase(), cast<RegType>(ld.getData().getType()), offset, false,
                 spillCode);
  else if (auto w = dyn_cast<SpillToLanesOp>(op))
    laneParts(b, loc, w.getSlot().getType(), cast<RegType>(w.getData().getType()), 0, true,
              spillCode);
  else if (auto r = dyn_cast<SpillFromLanesOp>(op))
    laneParts(b, loc, r.getSlot().getType(), cast<RegType>(r.getData().getType()),
              r.getFirst(), false, spillCode);
  for (Value res : op->getResults())
    res.replaceAllUsesWith(named(b, loc, res.getType()));
  spillCode.erase(op);
  op->erase();
}

/// Drops a spill base's s_mov_b32 when its SGPR already holds that constant
/// from an earlier one in the block (nothing in between writes the SGPR).
static void dropRepeatedBases(KernelOp kernel, llvm::DenseSet<Operation *> &spillCode) {
  for (Block &b : kernel.getBody()) {
    llvm::SmallDenseMap<int, uint64_t, 4> holds; // SGPR -> constant
    for (Operation &op : llvm::make_early_inc_range(b)) {
      const ISA::InstDesc *d = getInstDesc(&op);
      bool base = spillCode.contains(&op) && d && StringRef(d->mnemonic) == "s_mov_b32";
      std::optional<uint64_t> c = base ? getImmediateBits(op.getOperand(0)) : std::nullopt;
      if (c) {
        int r = cast<RegType>(op.getResult(0).getType()).getIndex();
        auto it = holds.find(r);
        if (it != holds.end() && it->second == *c) {
          OpBuilder bld(&op);
          op.getResult(0).replaceAllUsesWith(
              RegOp::create(bld, op.getLoc(), op.getResult(0).getType()).getResult());
          spillCode.erase(&op);
          op.erase();
          continue;
        }
        holds[r] = *c;
        continue;
      }
      if (!d && !isa<RegOp, arith::ConstantOp, RelocOp>(op)) {
        holds.clear();
        continue;
      }
      for (Type t : op.getResultTypes())
        if (auto r = dyn_cast<RegType>(t); r && r.getKind() == RegKind::SGPR)
          for (unsigned j = 0; j < r.getWidth(); ++j)
            holds.erase(r.getIndex() + j);
    }
  }
}

LogicalResult expandSpillCode(KernelOp kernel, unsigned scratchBase,
                              llvm::DenseSet<Operation *> &spillCode, unsigned &bytes) {
  SmallVector<Slot> slots;
  SmallVector<Operation *> pseudos;
  kernel.walk([&](Operation *op) {
    if (auto st = dyn_cast<SpillStoreOp>(op)) {
      unsigned id = st.getSlot();
      if (slots.size() <= id)
        slots.resize(id + 1);
      slots[id].store = op;
      slots[id].dwords = cast<RegType>(st.getData().getType()).getWidth();
    } else if (auto ld = dyn_cast<SpillLoadOp>(op)) {
      unsigned id = ld.getSlot();
      if (slots.size() <= id)
        slots.resize(id + 1);
      slots[id].loads.push_back(op);
    } else if (!isa<SpillToLanesOp, SpillFromLanesOp>(op)) {
      return;
    }
    pseudos.push_back(op);
  });
  bytes = 0;
  if (llvm::any_of(slots, [](const Slot &s) { return s.store; })) {
    computeHulls(kernel, slots);
    bytes = packSlots(slots);
    if (scratchBase + bytes > kMaxPrivateSegment) {
      Operation *at = nullptr;
      for (Slot &s : slots)
        if (s.store && scratchBase + s.offset + 4 * s.dwords > kMaxPrivateSegment) {
          at = s.store;
          break;
        }
      return at->emitError("spilling needs ")
             << scratchBase + bytes << " bytes of scratch memory per work-item (slots "
             << "sharing bytes where their lifetimes allow), more than the "
             << kMaxPrivateSegment << " a work-item can have";
    }
    kernel->setAttr("private_segment",
                    Builder(kernel.getContext()).getI32IntegerAttr(scratchBase + bytes));
    // The dynamic stack (dynamic-size allocas, cc/lower/LowerMemory.cpp)
    // begins after the spill slots: its base constant moves past them.
    kernel.walk([&](arith::ConstantOp c) {
      if (c->hasAttr("aster.dynamic_stack_base"))
        c.setValueAttr(Builder(kernel.getContext())
                           .getI32IntegerAttr((int32_t)llvm::alignTo(scratchBase + bytes, 16)));
    });
  }
  for (Operation *op : pseudos) {
    unsigned offset = 0;
    if (auto st = dyn_cast<SpillStoreOp>(op))
      offset = scratchBase + slots[st.getSlot()].offset;
    else if (auto ld = dyn_cast<SpillLoadOp>(op))
      offset = scratchBase + slots[ld.getSlot()].offset + 4 * ld.getFirst();
    expand(op, offset, spillCode);
  }
  if (llvm::any_of(slots, [](const Slot &s) { return s.store; }))
    dropRepeatedBases(kernel, spillCode);
  return success();
}

} // namespace aster
