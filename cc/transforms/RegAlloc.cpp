//===- RegAlloc.cpp - SSA register allocation of an amdgcn kernel --------===//
//
// Colouring in dominance order: blocks in dominator-tree preorder, ops in
// order; at each op the registers of operands used for the last time are
// freed, then each result takes the lowest free register, a range the free
// aligned place in the smallest partly taken aligned block (or a hinted
// one: the source of a move, the register of the block argument it is passed
// to; a block argument that died before the value passed back to it is
// written keeps its register for that value, see Allocator::reserved). SSA interference graphs are chordal and this order is a perfect
// elimination order reversed, so without ranges, pinned registers or
// early-clobber results it uses exactly MaxLive registers. Occupancy is a
// bit set per class; no interference edges are built.
//
// Pinned (allocated-type) registers are precoloured: a virtual value never
// takes a unit that PinnedRegisters reports busy while the value is live.
//
//===----------------------------------------------------------------------===//
#include "transforms/Allocator.h"

namespace aster {
namespace regalloc {

unsigned Allocator::alignOf(RegType t) const {
  return std::max(requiredRegAlign(t.getKind(), t.getWidth(), target),
                  t.getAlign());
}

FailureOr<BlockNumbering> Allocator::checkInput() {
  bool sawParts = false;
  partsAt.clear();
  concatsAt.clear();
  unsigned index = 0; // of the op being numbered
  auto checkOp = [&](Operation *op) -> WalkResult {
    if (op == kernel.getOperation())
      return WalkResult::advance();
    if (isa<PartOp>(op)) {
      sawParts = true;
      partsAt.push_back(index);
    } else if (isa<ConcatOp>(op)) {
      concatsAt.push_back(index);
    }
    if (!getInstDesc(op) && !isa<RegOp, UndefOp, PartOp, ConcatOp, SchedBarrierOp, arith::ConstantOp, RelocOp, cf::BranchOp,
                                 SpillStoreOp, SpillLoadOp, SpillToLanesOp, SpillFromLanesOp>(op)) {
      if (isa<CallOp>(op))
        op->emitOpError("is a call: run amdgcn-inline before amdgcn-regalloc");
      else
        op->emitOpError("cannot be register-allocated (only amdgcn instructions, "
                      "amdgcn.reg/undef/part/concat, constants and cf.br are)");
      return WalkResult::interrupt();
    }
    auto check = [&](Type t) {
      RegType r = pinnedReg(t);
      if (!r)
        return true;
      unsigned hw = hwRegs(r.getKind(), target);
      if (r.getIndex() + r.getWidth() > hw) {
        op->emitOpError("names ")
            << registerAsm(r) << " but the target has " << hw << " "
            << regKindName(r.getKind()) << "s";
        return false;
      }
      return true;
    };
    for (Type t : op->getOperandTypes())
      if (!check(t))
        return WalkResult::interrupt();
    for (Type t : op->getResultTypes())
      if (!check(t))
        return WalkResult::interrupt();
    for (Region &r : op->getRegions())
      if (!r.empty()) {
        op->emitOpError("has regions; register allocation needs a flat CFG of instructions");
        return WalkResult::interrupt();
      }
    return WalkResult::advance();
  };
  // Each op as it is numbered (one walk over the kernel; a nested op is
  // visited before the op holding it, as kernel.walk would).
  bool ok = true;
  BlockNumbering bn(kernel.getBody(), [&](Operation *op) {
    ok = !(op->getNumRegions() ? op->walk(checkOp) : checkOp(op)).wasInterrupted();
    ++index;
    return ok;
  });
  if (!ok)
    return failure();
  if (sawParts && !partsPlaced) {
    // Each part right before its reader, then number the ops again.
    placeParts(kernel);
    partsPlaced = true;
    return checkInput();
  }
  for (Block &b : kernel.getBody())
    for (BlockArgument a : b.getArguments())
      if (!isa<RegType>(a.getType()))
        return emitError(a.getLoc(), "block argument of type ")
               << a.getType() << " cannot be register-allocated (VGPR, SGPR or AGPR only)";
  for (int k = 0; k < 3; ++k) {
    unsigned hw = hwRegs((RegKind)k, target);
    limit[k] = std::min(opts.maxRegs[k], hw);
  }
  return bn;
}

/// A result of allocated type is the value of its register until that
/// register is written again; using it after that is a contradiction.
LogicalResult Allocator::checkPinnedOverwrites() {
  SmallVector<Segment, 4> segs;
  for (unsigned id = 0; id < lv->numValues(); ++id) {
    RegType r = pinnedReg(lv->type(id));
    if (!r)
      continue;
    Value v = lv->value(id);
    if (isa<BlockArgument>(v) || v.use_empty())
      continue;
    segs.clear();
    lv->segments(id, segs);
    unsigned def = lv->defPoint(id);
    for (Segment s : segs)
      for (unsigned j = 0; j < r.getWidth(); ++j) {
        unsigned after = s.start == def ? def : s.start - 1;
        if (Operation *w = pinned->writerIn(r.getKind(), r.getIndex() + j,
                                            after, s.end)) {
          InFlightDiagnostic d = w->emitOpError("overwrites ")
                                 << regKindPrefix(r.getKind()) << r.getIndex() + j
                                 << ", which still holds a pinned value used later";
          d.attachNote(v.getLoc()) << "the value pinned to " << registerAsm(r)
                                   << " is defined here";
          return failure();
        }
      }
  }
  return success();
}

void Allocator::computeOrder(SmallVectorImpl<unsigned> &order) {
  const BlockNumbering &bn = lv->blocks();
  std::vector<bool> seen(bn.size(), false);
  Region &body = kernel.getBody();
  if (bn.size() > 1) {
    DominanceInfo dom(kernel);
    auto &tree = dom.getDomTree(&body);
    for (auto *node : llvm::depth_first(tree.getRootNode())) {
      unsigned b = bn.index(node->getBlock());
      seen[b] = true;
      order.push_back(b);
    }
  }
  for (unsigned b = 0; b < bn.size(); ++b) // unreachable blocks last
    if (!seen[b])
      order.push_back(b);
}

int Allocator::pick(unsigned id, int hint, int startOverride) {
  int r = pickIn(id, hint, startOverride, true);
  return r >= 0 ? r : pickIn(id, -1, startOverride, false);
}

int Allocator::pickIn(unsigned id, int hint, int startOverride, bool keepReserved) {
  RegType t = cast<RegType>(lv->type(id));
  unsigned k = (unsigned)t.getKind(), w = t.getWidth(), a = alignOf(t);
  bool segsReady = false;
  auto segs = [&]() -> ArrayRef<Segment> {
    if (!segsReady) {
      SmallVector<Segment, 4> s;
      lv->segments(id, s);
      if (startOverride >= 0 && !s.empty())
        s.front().start = std::min<unsigned>(s.front().start, startOverride);
      segBuf.assign(s.begin(), s.end());
      segsReady = true;
    }
    return segBuf;
  };
  // A hint may take a reserved unit; the search does not (keepReserved).
  auto fits = [&](unsigned r) {
    if (r % a || r + w > limit[k] || !occ[k].isFree(r, w))
      return false;
    if (!pinned->anyAtOrAbove(t.getKind(), r))
      return true;
    return !pinned->conflicts(t.getKind(), r, w, segs());
  };
  auto ok = [&](unsigned r) {
    if (keepReserved && !reserved[k].empty() && r + w <= reserved[k].size())
      for (unsigned u = r; u < r + w; ++u)
        if (reserved[k][u] >= 0 &&
            !llvm::is_contained(incoming.lookup((unsigned)reserved[k][u]), id))
          return false;
    return fits(r);
  };
  if (hint >= 0 && fits(hint))
    return hint;
  if (w == 1) { // the lowest: then no register above MaxLive is used
    for (unsigned r = 0; r + w <= limit[k]; r += a)
      if (ok(r))
        return r;
    return -1;
  }
  // A range takes the free aligned place in the smallest aligned block
  // (of 2, 4, ... times its width) that is already partly taken, so that
  // wider aligned ranges stay free (MFMA results next to their operands).
  // (Units past the limit are not taken: a block there is not partly used,
  // and preferring it would push ranges to the top of the file.)
  auto taken = [&](unsigned u) {
    if (u >= limit[k])
      return false;
    if (!occ[k].isFree(u, 1))
      return true;
    return pinned->anyAtOrAbove(t.getKind(), u) &&
           pinned->conflicts(t.getKind(), u, 1, segs());
  };
  constexpr unsigned kLevels = 4; // blocks of up to 16 times the range
  int best = -1;
  unsigned bestLevel = ~0u;
  for (unsigned r = 0; r + w <= limit[k]; r += a) {
    if (!ok(r))
      continue;
    unsigned level = 0;
    for (unsigned s = 2 * std::max(w, a); level < kLevels; s *= 2, ++level) {
      unsigned b = r - r % s;
      bool partly = false;
      for (unsigned u = b; u < b + s && !partly; ++u)
        partly = (u < r || u >= r + w) && taken(u);
      if (partly)
        break;
    }
    if (level < bestLevel)
      best = r, bestLevel = level;
    if (level == 0)
      break;
  }
  return best;
}

void Allocator::noteUsed(Type t) {
  if (RegType r = pinnedReg(t))
    noteUsed(r.getKind(), r.getIndex() + r.getWidth());
}

void Allocator::noteUsed(RegKind k, unsigned end) {
  stats.used[(int)k] = std::max(stats.used[(int)k], end);
}

void Allocator::assign(unsigned id, unsigned r) {
  RegType t = cast<RegType>(lv->type(id));
  reg[id] = r;
  occ[(int)t.getKind()].set(r, t.getWidth());
  for (unsigned u = r; u < r + t.getWidth(); ++u) {
    owner[(int)t.getKind()][u] = id;
    if (!reserved[(int)t.getKind()].empty())
      reserved[(int)t.getKind()][u] = -1;
  }
}

void Allocator::release(unsigned id) {
  if (reg[id] < 0 || borrowed[id])
    return;
  RegType t = cast<RegType>(lv->type(id));
  occ[(int)t.getKind()].clear(reg[id], t.getWidth());
  for (unsigned u = reg[id]; u < reg[id] + t.getWidth(); ++u)
    owner[(int)t.getKind()][u] = -1;
  // A block argument whose passed values are still to come keeps its
  // register for them (see `reserved`).
  auto in = incoming.find(id);
  if (in != incoming.end() && !reserved[(int)t.getKind()].empty() &&
      llvm::any_of(in->second, [&](unsigned v) { return reg[v] < 0; }))
    for (unsigned u = reg[id]; u < reg[id] + t.getWidth(); ++u)
      reserved[(int)t.getKind()][u] = id;
}

/// MaxLive is the program's: registers of values live (SSA) after each write
/// point plus busy pinned units, not what allocation constraints add (an
/// unread load result held until a wait, in `notLive`).
void Allocator::notePressure(unsigned point, ArrayRef<unsigned> notLive) {
  for (int k = 0; k < 3; ++k) {
    unsigned n = occ[k].count;
    for (unsigned id : notLive) {
      RegType t = cast<RegType>(lv->type(id));
      if ((int)t.getKind() == k)
        n -= t.getWidth();
    }
    if (pinned->extent((RegKind)k))
      n += pinned->busyCount((RegKind)k)[point];
    stats.maxLive[k] = std::max(stats.maxLive[k], n);
  }
}

LogicalResult Allocator::colourBlock(unsigned b) {
  const BlockNumbering &bn = lv->blocks();
  Block *blk = bn.block(b);
  for (int c = 0; c < 3; ++c) {
    occ[c].reset();
    owner[c].assign(Occupancy::kUnits, -1);
    reserved[c].assign(Occupancy::kUnits, -1);
  }
  for (unsigned id : lv->liveIn(b))
    if (reg[id] >= 0 && virtualReg(lv->type(id)))
      assign(id, reg[id]);
  // Block arguments: hinted to a register of a value passed to them.
  SmallVector<unsigned> deadArgs;
  for (BlockArgument a : blk->getArguments()) {
    int id = lv->argId(b, a.getArgNumber());
    if (id < 0 || !virtualReg(a.getType()))
      continue;
    int hint = -1;
    for (unsigned in : incoming.lookup(id))
      if (reg[in] >= 0) {
        hint = reg[in];
        break;
      }
    if (!pickOrSpill(&blk->front(), id, hint, -1))
      return failure();
    if (lv->lastUseIn(id, b) < 0 && !lv->isLiveOut(id, b))
      deadArgs.push_back(id);
  }
  for (unsigned id : deadArgs)
    release(id);
  notePressure(bn.begin(b));
  // Unread load results: their register is written when the load returns.
  SmallVector<unsigned> inFlight;
  SmallVector<unsigned, 4> rangesOfParts;
  SmallVector<unsigned, 4> kills;
  for (unsigned i = bn.firstOpIndex(b), e = i + bn.numOpsIn(b); i < e; ++i) {
    Operation &op = *bn.op(i);
    bn.prefetch(i);
    const ISA::InstDesc *d = getInstDesc(&op);
    ArrayRef<int> opIds = lv->operandIds(i);
    // Operands read for the last time (not used later here, not live-out),
    // each once; from Liveness's tables (no IR touched).
    kills.clear();
    for (int id : opIds)
      if (id >= 0 && lv->lastUseIn(id, b) == (int)(2 * i) && !lv->isLiveOut(id, b) &&
          virtualReg(lv->type(id)) && !llvm::is_contained(kills, (unsigned)id))
        kills.push_back(id);
    auto killed = [&](unsigned id) { return llvm::is_contained(kills, id); };
    if (auto part = dyn_cast<PartOp>(&op)) {
      colourPart(part, opIds[0], lv->resultIds(i)[0]);
      if (opIds[0] >= 0 && killed(opIds[0]))
        rangesOfParts.push_back(opIds[0]);
      continue;
    }
    // Ranges whose last use was a part read here: freed with this op's kills.
    kills.append(rangesOfParts.begin(), rangesOfParts.end());
    rangesOfParts.clear();
    // Operand index of each source slot (absent optional sources skipped).
    SmallVector<int, 8> tiedOperand(op.getNumResults(), -1);
    bool earlyAll = false;
    if (d) {
      int opt = d->optionalSrc();
      bool optPresent = op.getNumOperands() >= d->numSrcs;
      for (unsigned s = 0, oi = 0; s < d->numSrcs; ++s) {
        if ((int)s == opt && !optPresent)
          continue;
        if (d->srcs()[s].tiedTo >= 0 && d->srcs()[s].tiedTo < (int)tiedOperand.size())
          tiedOperand[d->srcs()[s].tiedTo] = oi;
        ++oi;
      }
      earlyAll = d->has(ISA::PROP_MFMA);
    }
    SmallVector<std::pair<unsigned, Mode>, 2> results;
    ArrayRef<int> resIds = lv->resultIds(i);
    for (unsigned ri = 0; ri < resIds.size(); ++ri) {
      int rid = resIds[ri];
      RegType rt = rid < 0 ? RegType() : virtualReg(lv->type(rid));
      if (!rt)
        continue;
      unsigned id = rid;
      Mode mode = earlyAll ? Mode::Early : Mode::Normal;
      if (tiedOperand[ri] >= 0) {
        Value src = op.getOperand(tiedOperand[ri]);
        int sid = opIds[tiedOperand[ri]];
        bool srcVirtual = sid >= 0 && virtualReg(src.getType());
        int at = -1;
        if (srcVirtual && killed(sid) && !borrowed[sid])
          at = reg[sid];
        else if (RegType p = pinnedReg(src.getType()))
          at = p.getIndex();
        mode = Mode::Early;
        if (at >= 0 && at % alignOf(rt) == 0 &&
            at + rt.getWidth() <= limit[(int)rt.getKind()]) {
          SmallVector<Segment, 4> segs;
          lv->segments(id, segs);
          if (!pinned->conflicts(rt.getKind(), at, rt.getWidth(), segs)) {
            mode = Mode::Forced;
            reg[id] = at;
          }
        }
        if (mode == Mode::Early)
          tiedCopies.push_back({&op, (unsigned)tiedOperand[ri], id});
      } else if (earlyAll && op.getNumOperands() > 2) {
        // MFMA: the result may not partially overlap a source, but may be
        // exactly the accumulator (src2) it replaces.
        Value acc = op.getOperand(2);
        int sid = opIds[2];
        if (sid >= 0 && acc.getType() == rt && killed(sid) && reg[sid] >= 0 &&
            !borrowed[sid] &&
            acc != op.getOperand(0) && acc != op.getOperand(1)) {
          SmallVector<Segment, 4> segs;
          lv->segments(id, segs);
          if (!pinned->conflicts(rt.getKind(), reg[sid], rt.getWidth(), segs)) {
            mode = Mode::Forced;
            reg[id] = reg[sid];
          }
        }
      } else if (isa<ConcatOp>(op)) {
        mode = concatInPlace(opIds, kills, id) ? Mode::Forced : Mode::Early;
      } else if (!earlyAll && rt.getWidth() > 1) {
        for (unsigned k : kills)
          if (cast<RegType>(lv->type(k)).getWidth() != rt.getWidth())
            mode = Mode::Early;
      }
      results.push_back({id, mode});
    }
    // 1. Early-clobber results: live while the operands are read.
    for (auto [id, mode] : results)
      if (mode == Mode::Early) {
        if (!pickOrSpill(&op, id, -1, 2 * i))
          return failure();
      }
    // 2. Operands read for the last time.
    for (unsigned k : kills)
      release(k);
    // 3. Tied results reuse their source's register.
    for (auto [id, mode] : results)
      if (mode == Mode::Forced) {
        RegType rt = cast<RegType>(lv->type(id));
        if (!occ[(int)rt.getKind()].isFree(reg[id], rt.getWidth()))
          return op.emitOpError("tied result cannot take its source's register ")
                 << regKindPrefix(rt.getKind()) << reg[id]
                 << ": another live value holds it";
        assign(id, reg[id]);
      }
    // 4. The others, with hints.
    for (auto [id, mode] : results) {
      if (mode != Mode::Normal)
        continue;
      int hint = -1;
      if (d && op.getNumOperands() == 1 && op.getNumResults() == 1 &&
          op.getAttrs().empty() &&
          (StringRef(d->mnemonic) == "v_mov_b32" || StringRef(d->mnemonic) == "s_mov_b32" ||
           StringRef(d->mnemonic) == "v_accvgpr_mov_b32" ||
           StringRef(d->mnemonic) == "s_mov_b64" || StringRef(d->mnemonic) == "v_mov_b64")) {
        Value src = op.getOperand(0);
        int sid = opIds[0];
        if (sid >= 0 && src.getType() == lv->type(id) && reg[sid] >= 0) {
          hint = reg[sid];
          moves.push_back({&op, id});
        }
      }
      if (hint < 0)
        for (unsigned arg : passedTo.lookup(id))
          if (reg[arg] >= 0) {
            hint = reg[arg];
            break;
          }
      if (hint < 0 && !concatPart.empty())
        hint = concatHint(id);
      if (!pickOrSpill(&op, id, hint, -1))
        return failure();
    }
    notePressure(2 * i + 1, inFlight);
    // 5. Results nobody reads free their register right after the write;
    // a load's only when a wait may have seen it arrive.
    bool load = d && d->has(ISA::PROP_MAYLOAD);
    for (int id : lv->resultIds(i))
      if (id >= 0 && lv->lastUseIn(id, b) < 0 && !lv->isLiveOut(id, b) &&
          virtualReg(lv->type(id)))
        (load ? inFlight.push_back(id) : release(id));
    if (d && d->has(ISA::PROP_WAITCNT)) {
      for (unsigned id : inFlight)
        release(id);
      inFlight.clear();
    }
  }
  return success();
}

FailureOr<RegAllocStats> Allocator::run() {
  auto mod = kernel->getParentOfType<KernelModuleOp>();
  target = mod ? mod.getTargetBit() : ISA::T_GFX942;
  Region &body = kernel.getBody();
  FailureOr<BlockNumbering> blocks = checkInput();
  if (failed(blocks))
    return failure();
  lv = std::make_unique<Liveness>(std::move(*blocks), [&](Value v) {
    if (!isa<RegType>(v.getType()))
      return false;
    if (auto r = v.getDefiningOp<RegOp>()) {
      noteUsed(v.getType()); // a register the kernel uses (see rewrite())
      return false;
    }
    if (isa<BlockArgument>(v) && pinnedReg(v.getType()))
      return false;
    return true;
  });
  pinned = std::make_unique<PinnedRegisters>(*lv);
  if (failed(checkPinnedOverwrites()))
    return failure();
  reg.assign(lv->numValues(), -1);
  borrowed.assign(lv->numValues(), false);
  // Hints between block arguments and the values passed to them.
  const BlockNumbering &bn = lv->blocks();
  for (unsigned b = 0; b < bn.size(); ++b) {
    if (!bn.numOpsIn(b))
      continue;
    unsigned termIndex = bn.firstOpIndex(b) + bn.numOpsIn(b) - 1;
    Operation *term = bn.op(termIndex);
    for (unsigned s = 0; s < term->getNumSuccessors(); ++s) {
      auto [first, count] = successorOperandRange(term, s);
      Block *dest = term->getSuccessor(s);
      for (unsigned k = 0; k < count && k < dest->getNumArguments(); ++k) {
        int from = lv->operandIds(termIndex)[first + k];
        int to = lv->argId(bn.index(dest), k);
        if (from >= 0 && to >= 0) {
          passedTo[from].push_back(to);
          incoming[to].push_back(from);
        }
      }
    }
  }
  planConcats();
  SmallVector<unsigned> order;
  computeOrder(order);
  for (unsigned b : order)
    if (failed(colourBlock(b)))
      return failure();
  if (!victims.empty())
    return failure(); // spill them, then allocate again
  for (unsigned id = 0; id < lv->numValues(); ++id)
    if (reg[id] < 0 && virtualReg(lv->type(id)))
      return emitError(lv->value(id).getLoc(),
                       "virtual register not allocated: its definition is in "
                       "a block not reachable from the entry"),
             failure();
  if (failed(rewrite()))
    return failure();
  return stats;
}

LogicalResult Allocator::rewrite() {
  MLIRContext *ctx = kernel.getContext();
  // Types: every virtual value takes its register.
  // (The allocated types are looked up once per virtual type and register,
  // not uniqued again for each value.)
  llvm::DenseMap<std::pair<Type, int>, Type> allocatedType;
  auto allocate = [&](Value v, unsigned id) {
    if (RegType t = virtualReg(lv->type(id))) {
      Type &a = allocatedType[{t, reg[id]}];
      if (!a)
        a = t.withIndex(reg[id]);
      v.setType(a);
    }
  };
  const BlockNumbering &bn = lv->blocks();
  for (unsigned b = 0; b < bn.size(); ++b)
    for (unsigned k = 0; k < bn.block(b)->getNumArguments(); ++k)
      if (int id = lv->argId(b, k); id >= 0)
        allocate(bn.block(b)->getArgument(k), id);
  for (unsigned i = 0; i < bn.totalOps(); ++i) {
    ArrayRef<int> ids = lv->resultIds(i);
    bn.prefetch(i);
    for (unsigned k = 0; k < ids.size(); ++k)
      if (ids[k] >= 0)
        allocate(bn.op(i)->getResult(k), ids[k]);
  }
  // Tied sources that stay live: copy them into the result's register first.
  for (auto [op, oi, id] : tiedCopies) {
    RegType dst = cast<RegType>(lv->value(id).getType());
    RegType src = dyn_cast<RegType>(op->getOperand(oi).getType());
    if (!src)
      return op->emitOpError("tied source is not a register");
    OpBuilder b(op, &inserted);
    SmallVector<std::pair<unsigned, unsigned>> mv;
    for (unsigned j = 0; j < dst.getWidth(); ++j)
      mv.push_back({dst.getIndex() + j, src.getIndex() + j});
    auto n = emitParallelCopy(b, op->getLoc(), dst.getKind(), mv, -1);
    if (failed(n))
      return op->emitOpError("cannot copy its tied source");
    stats.copies += *n;
    op->setOperand(oi, RegOp::create(b, op->getLoc(), dst).getResult());
  }
  if (failed(insertEdgeCopies()) || failed(resolveRangeOps()))
    return failure();
  // Moves whose source and destination ended up in the same register.
  llvm::DenseSet<unsigned> erased;
  for (auto [op, id] : moves)
    if (op->getResult(0).getType() == op->getOperand(0).getType()) {
      op->getResult(0).replaceAllUsesWith(op->getOperand(0));
      op->erase();
      erased.insert(id);
    }
  // Registers used: highest index + 1 of every register a result or an
  // operand of an op in the kernel names, without walking it: the results
  // of its ops are the values allocated here (less the moves erased), the
  // amdgcn.reg results (noted by the liveness's `track`) and those of the
  // ops inserted; the operands are these results and the block arguments
  // still read.
  for (unsigned id = 0, n = lv->numValues(); id < n; ++id) {
    if (lv->defPoint(id) % 2 == 0 || erased.contains(id))
      continue; // a block argument, or a move erased
    RegType t = cast<RegType>(lv->type(id));
    if (t.isVirtual())
      noteUsed(t.getKind(), reg[id] + t.getWidth());
    else
      noteUsed(t);
  }
  for (Block &b : kernel.getBody())
    for (BlockArgument a : b.getArguments())
      if (!a.use_empty())
        noteUsed(a.getType());
  for (Operation *op : inserted.ops) {
    for (Type t : op->getResultTypes())
      noteUsed(t);
    for (Type t : op->getOperandTypes())
      noteUsed(t);
  }
  (void)ctx;
  return success();
}


} // namespace regalloc

} // namespace aster
