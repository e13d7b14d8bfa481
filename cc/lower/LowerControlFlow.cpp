//===- LowerControlFlow.cpp - scf.if / scf.for to branches and EXEC masks -===//
//
// Structured control flow becomes blocks in layout order (the fall-through
// successor of a conditional branch is the next block): uniform scf.if /
// scf.for branch on SCC; divergent ones mask EXEC (layouts below, at
// lowerIf and lowerFor). Values flow between blocks as block arguments of
// register type.
// Needs before: Uniformity (which conditions and loops are divergent).
// Guarantees after: EXEC is restored after every divergent region; each
// scf result is a block argument of the join block.
//===----------------------------------------------------------------------===//
#include "lower/KernelLowering.h"

namespace aster::lower {

// ---------------------------------------------------------------------------
// scf.if
//   uniform:   s_cmp_lg c, 0; s_cbranch_scc0 else; then...; s_branch join;
//              else...; join(results)
//   divergent: saved = s_and_saveexec_b64 M; s_cbranch_execz elseHead;
//              then...; elseHead(then results): exec = saved & ~M;
//              s_cbranch_execz join; else...; join(both results):
//              exec = saved; r = v_cndmask(else r, then r, M)
//   A skipped side passes zeros for its results (all their lanes are
//   taken from the other side by the v_cndmask).
// ---------------------------------------------------------------------------
LogicalResult KernelLowering::lowerIf(scf::IfOp op) {
  auto cond = get(op.getCondition());
  if (failed(cond))
    return failure();
  bool hasElse = !op.getElseRegion().empty();
  if (cond->k == RV::Imm) {
    Region &r = cond->bits ? op.getThenRegion() : op.getElseRegion();
    if (r.empty())
      return success();
    if (failed(lowerBlock(r.front())))
      return failure();
    auto ys = yields(r.front());
    if (failed(ys))
      return failure();
    for (auto [res, y] : llvm::zip(op.getResults(), *ys))
      vals[res] = y;
    return success();
  }
  SmallVector<Type> types;
  for (Value r : op.getResults()) {
    if (r.getType().isInteger(1) && uni.isDivergent(r))
      return unsupported(op, "divergent i1 results are not lowered");
    types.push_back(uni.isDivergent(op.getCondition()) ? (is64(r.getType()) ? v2T : (Type)vT)
                                                       : regTypeFor(r));
  }
  // Lowers a branch's block and gives the values its scf.yield passes on,
  // each in the register class of its result.
  auto passOn = [&](Block &blk) -> FailureOr<SmallVector<Value>> {
    if (failed(lowerBlock(blk)))
      return failure();
    return yieldedRegs(blk, types);
  };
  auto isFloat = [&](unsigned i) { return isF32(op.getResult(i).getType()); };
  if (!uni.isDivergent(op.getCondition())) {
    toSCC(*cond);
    Block *thenB = newBlock(), *join = newBlock(types);
    Block *elseB = hasElse ? newBlock() : join;
    branch("s_cbranch_scc0", elseB, {}, thenB, {});
    start(thenB);
    auto tv = passOn(op.getThenRegion().front());
    if (failed(tv))
      return failure();
    cf::BranchOp::create(b, loc, join, *tv);
    if (hasElse) {
      start(elseB);
      auto ev = passOn(op.getElseRegion().front());
      if (failed(ev))
        return failure();
      cf::BranchOp::create(b, loc, join, *ev);
    }
    start(join);
    for (unsigned i = 0; i < op.getNumResults(); ++i)
      vals[op.getResult(i)] = fromArg(join->getArgument(i), types[i], op.getResult(i).getType());
    return success();
  }
  Value m = toMask(*cond);
  Value saved = inst("s_and_saveexec_b64", s2T, m);
  // Which results a side passes as a block argument: only values it
  // computes inside its region. A value from outside the if (it dominates
  // the join) or a constant is used at the join as it is, and a side
  // yielding ub.poison (transformCFGToSCF's undefined path) takes the other
  // side's value: no v_cndmask, no zero for the skipped side.
  unsigned n = types.size();
  auto yielded = [&](Region &r, unsigned i) { return r.front().getTerminator()->getOperand(i); };
  auto isPoison = [](Value v) {
    Operation *d = v.getDefiningOp();
    return d && d->getName().getStringRef() == "ub.poison";
  };
  auto carried = [&](Region &r, unsigned i) {
    if (r.empty())
      return false;
    Value y = yielded(r, i);
    return types[i] == v2T || (!isPoison(y) && r.isAncestor(y.getParentRegion()));
  };
  SmallVector<bool> carryT, carryE;
  SmallVector<Type> typesT, typesE;
  for (unsigned i = 0; i < n; ++i) {
    carryT.push_back(carried(op.getThenRegion(), i));
    carryE.push_back(carried(op.getElseRegion(), i));
    if (carryT.back())
      typesT.push_back(types[i]);
    if (carryE.back())
      typesE.push_back(types[i]);
  }
  // A zero of each result's class (a skipped side's results).
  auto zero = [&](Type t) {
    return t == v2T ? toV64(imm64(0)) : inst("v_mov_b32", vT, cst(0));
  };
  auto zerosOf = [&](ArrayRef<Type> ts) {
    SmallVector<Value> z;
    for (Type t : ts)
      z.push_back(zero(t));
    return z;
  };
  // The registers of a side's carried results (the region lowered).
  auto passCarried = [&](Region &r, ArrayRef<bool> carry) -> FailureOr<SmallVector<Value>> {
    if (failed(lowerBlock(r.front())))
      return failure();
    auto ys = yields(r.front());
    if (failed(ys))
      return failure();
    SmallVector<Value> out;
    for (unsigned i = 0; i < n; ++i)
      if (carry[i])
        out.push_back(inClass((*ys)[i], types[i]).reg);
    return out;
  };
  Block *thenB = newBlock(), *elseHead = newBlock(typesT);
  branch("s_cbranch_execz", elseHead, zerosOf(typesT), thenB, {});
  start(thenB);
  auto tv = passCarried(op.getThenRegion(), carryT);
  if (failed(tv))
    return failure();
  cf::BranchOp::create(b, loc, elseHead, *tv);
  start(elseHead);
  if (!hasElse) {
    inst("s_mov_b64", execT, saved);
    return success();
  }
  inst("s_andn2_b64", execT, {saved, m});
  SmallVector<Value> passT(elseHead->getArguments().begin(), elseHead->getArguments().end());
  SmallVector<Value> skipArgs = passT;
  skipArgs.append(zerosOf(typesE));
  SmallVector<Type> joinTypes(typesT);
  joinTypes.append(typesE.begin(), typesE.end());
  Block *elseB = newBlock(), *join = newBlock(joinTypes);
  branch("s_cbranch_execz", join, skipArgs, elseB, {});
  start(elseB);
  auto ev = passCarried(op.getElseRegion(), carryE);
  if (failed(ev))
    return failure();
  SmallVector<Value> joinArgs = passT;
  joinArgs.append(ev->begin(), ev->end());
  cf::BranchOp::create(b, loc, join, joinArgs);
  start(join);
  inst("s_mov_b64", execT, saved);
  unsigned nt = 0, ne = typesT.size();
  for (unsigned i = 0; i < n; ++i) {
    Value ty = yielded(op.getThenRegion(), i), ey = yielded(op.getElseRegion(), i);
    auto side = [&](bool carry, Value arg, Value y) -> FailureOr<RV> {
      if (carry)
        return fromArg(arg, types[i], op.getResult(i).getType());
      return get(y);
    };
    Value ta = carryT[i] ? join->getArgument(nt++) : Value();
    Value ea = carryE[i] ? join->getArgument(ne++) : Value();
    if (types[i] == v2T) { // per dword (both sides carried)
      RV e = fromV64(ea), t = fromV64(ta);
      vals[op.getResult(i)] =
          pair(RV::of(RV::V, inst("v_cndmask_b32", vT, {e.reg, t.reg, m})),
               RV::of(RV::V, inst("v_cndmask_b32", vT, {e.hiReg, t.hiReg, m})));
      continue;
    }
    auto t = side(carryT[i], ta, ty), e = side(carryE[i], ea, ey);
    if (failed(t) || failed(e))
      return failure();
    if (isPoison(ty) || isPoison(ey)) {
      vals[op.getResult(i)] = isPoison(ty) ? *e : *t;
      continue;
    }
    if (!carryT[i] && !carryE[i] && t->k == e->k && t->reg == e->reg && t->bits == e->bits) {
      vals[op.getResult(i)] = *t;
      continue;
    }
    // v_cndmask_b32 (VOP3): the mask is the one SGPR read; the values are
    // VGPRs or inline constants.
    auto vOperand = [&](RV r) {
      return r.k == RV::Imm && inlineConstant(r.bits, r.isFloat) ? cst(r.bits, r.isFloat)
                                                                 : toV(r);
    };
    vals[op.getResult(i)] =
        RV::of(RV::V, inst("v_cndmask_b32", vT, {vOperand(*e), vOperand(*t), m}), isFloat(i));
  }
  return success();
}

// ---------------------------------------------------------------------------
// scf.for
//   uniform bounds: (s_cmp_lt_i32 lb, ub; s_cbranch_scc0 exit) body(iv,
//     args): ...; iv += step; s_cmp_lt_i32 iv, ub; s_cbranch_scc1 body;
//     exit(results)
//   divergent bounds: saved = exec; head(iv, args): exec &= (iv < ub);
//     s_cbranch_execz exit; body...; br head; exit: exec = saved. A lane that
//     leaves keeps its last arguments: later iterations write only the
//     lanes still in exec.
// ---------------------------------------------------------------------------
LogicalResult KernelLowering::lowerFor(scf::ForOp op) {
  auto lb = get(op.getLowerBound()), ub = get(op.getUpperBound()), st = get(op.getStep());
  if (failed(lb) || failed(ub) || failed(st))
    return failure();
  if (!is32(op.getInductionVar().getType()))
    return unsupported(op, "the induction variable must be index or i32");
  SmallVector<Type> types;
  SmallVector<RV> inits;
  for (auto [arg, init] : llvm::zip(op.getRegionIterArgs(), op.getInitArgs())) {
    if (arg.getType().isInteger(1) && uni.isDivergent(arg))
      return unsupported(op, "divergent i1 loop-carried values are not lowered");
    types.push_back(regTypeFor(arg));
    auto r = get(init);
    if (failed(r))
      return failure();
    inits.push_back(*r);
  }
  bool divergent = uni.isDivergent(op.getInductionVar());
  Block &src = *op.getBody();
  auto mapArgs = [&](Block *blk, unsigned first) {
    for (unsigned i = 0; i < types.size(); ++i)
      vals[op.getRegionIterArgs()[i]] =
          fromArg(blk->getArgument(first + i), types[i], op.getRegionIterArgs()[i].getType());
  };
  auto nextArgs = [&]() { return yieldedRegs(src, types); };
  SmallVector<Value> initRegs;
  for (auto [r, t] : llvm::zip(inits, types))
    initRegs.push_back(inClass(r, t).reg);
  if (!divergent) {
    SmallVector<Type> bodyTypes{sT};
    bodyTypes.append(types);
    Block *bodyB = newBlock(bodyTypes), *exit = newBlock(types);
    SmallVector<Value> entryArgs{toS(*lb)};
    entryArgs.append(initRegs);
    bool runsOnce = lb->k == RV::Imm && ub->k == RV::Imm && (int32_t)lb->bits < (int32_t)ub->bits;
    if (runsOnce) {
      cf::BranchOp::create(b, loc, bodyB, entryArgs);
    } else {
      inst("s_cmp_lt_i32", {}, {sOp(*lb), sOp(*ub)});
      branch("s_cbranch_scc0", exit, initRegs, bodyB, entryArgs);
    }
    start(bodyB);
    vals[op.getInductionVar()] = RV::of(RV::S, bodyB->getArgument(0));
    mapArgs(bodyB, 1);
    if (failed(lowerBlock(src)))
      return failure();
    auto next = nextArgs();
    if (failed(next))
      return failure();
    Value iv1 = inst("s_add_u32", sT, {bodyB->getArgument(0), sOp(*st)});
    inst("s_cmp_lt_i32", {}, {iv1, sOp(*ub)});
    SmallVector<Value> back{iv1};
    back.append(*next);
    branch("s_cbranch_scc1", bodyB, back, exit, *next);
    start(exit);
    for (unsigned i = 0; i < types.size(); ++i)
      vals[op.getResult(i)] = fromArg(exit->getArgument(i), types[i], op.getResult(i).getType());
    return success();
  }
  Value saved = inst("s_mov_b64", s2T, execReg());
  SmallVector<Type> headTypes{vT};
  headTypes.append(types);
  Block *head = newBlock(headTypes), *bodyB = newBlock(), *exit = newBlock();
  SmallVector<Value> entryArgs{toV(*lb)};
  entryArgs.append(initRegs);
  cf::BranchOp::create(b, loc, head, entryArgs);
  start(head);
  Value iv = head->getArgument(0);
  Value inRange = inst("v_cmp_lt_i32", s2T, vOps({RV::of(RV::V, iv), *ub}));
  inst("s_and_b64", execT, {execReg(), inRange});
  branch("s_cbranch_execz", exit, {}, bodyB, {});
  start(bodyB);
  vals[op.getInductionVar()] = RV::of(RV::V, iv);
  mapArgs(head, 1);
  if (failed(lowerBlock(src)))
    return failure();
  auto next = nextArgs();
  if (failed(next))
    return failure();
  Value iv1 = valu("v_add_u32", {RV::of(RV::V, iv), *st}, false).reg;
  SmallVector<Value> back{iv1};
  back.append(*next);
  cf::BranchOp::create(b, loc, head, back);
  start(exit);
  inst("s_mov_b64", execT, saved);
  for (unsigned i = 0; i < types.size(); ++i)
    vals[op.getResult(i)] = fromArg(head->getArgument(1 + i), types[i], op.getResult(i).getType());
  return success();
}

// ---------------------------------------------------------------------------
// scf.while
//   uniform condition: br head(inits); head(args): before...; s_cmp_lg c, 0;
//     s_cbranch_scc0 exit(fwd); body(fwd): after...; br head(yields);
//     exit(results)
//   divergent condition: saved = exec; br head(inits); head(args): before...;
//     exec &= c; s_cbranch_execz exit; body: after...; br head(yields);
//     exit: exec = saved; results = the forwarded values (VGPRs: a lane that
//     left keeps the values of its last iteration, as later iterations
//     write only the lanes still in exec).
// ---------------------------------------------------------------------------
LogicalResult KernelLowering::lowerWhile(scf::WhileOp op) {
  Block &before = op.getBefore().front(), &after = op.getAfter().front();
  auto cond = op.getConditionOp();
  bool divergent = uni.isDivergent(cond.getCondition());
  SmallVector<Type> headTypes, fwdTypes;
  for (BlockArgument a : before.getArguments()) {
    if (a.getType().isInteger(1) && uni.isDivergent(a))
      return unsupported(op, "divergent i1 loop-carried values are not lowered");
    headTypes.push_back(regTypeFor(a));
  }
  for (BlockArgument a : after.getArguments()) {
    if (a.getType().isInteger(1) && uni.isDivergent(a))
      return unsupported(op, "divergent i1 loop-carried values are not lowered");
    fwdTypes.push_back(regTypeFor(a));
  }
  auto classed = [&](ValueRange vs, ArrayRef<Type> types) -> FailureOr<SmallVector<Value>> {
    SmallVector<Value> out;
    for (auto [v, t] : llvm::zip(vs, types)) {
      auto r = get(v);
      if (failed(r))
        return failure();
      out.push_back(inClass(*r, t).reg);
    }
    return out;
  };
  auto inits = classed(op.getInits(), headTypes);
  if (failed(inits))
    return failure();
  Value saved;
  if (divergent)
    saved = inst("s_mov_b64", s2T, execReg());
  Block *head = newBlock(headTypes);
  cf::BranchOp::create(b, loc, head, *inits);
  start(head);
  for (unsigned i = 0; i < headTypes.size(); ++i)
    vals[before.getArgument(i)] =
        fromArg(head->getArgument(i), headTypes[i], before.getArgument(i).getType());
  if (failed(lowerBlock(before)))
    return failure();
  auto c = get(cond.getCondition());
  auto fwd = classed(cond.getArgs(), fwdTypes);
  if (failed(c) || failed(fwd))
    return failure();
  auto mapAfter = [&](ValueRange regs) {
    for (unsigned i = 0; i < fwdTypes.size(); ++i) {
      vals[after.getArgument(i)] = fromArg(regs[i], fwdTypes[i], after.getArgument(i).getType());
    }
  };
  auto lowerBody = [&]() -> LogicalResult {
    if (failed(lowerBlock(after)))
      return failure();
    auto next = classed(op.getYieldOp().getOperands(), headTypes);
    if (failed(next))
      return failure();
    cf::BranchOp::create(b, loc, head, *next);
    return success();
  };
  if (!divergent) {
    toSCC(*c);
    Block *bodyB = newBlock(fwdTypes), *exit = newBlock(fwdTypes);
    branch("s_cbranch_scc0", exit, *fwd, bodyB, *fwd);
    start(bodyB);
    mapAfter(bodyB->getArguments());
    if (failed(lowerBody()))
      return failure();
    start(exit);
    for (unsigned i = 0; i < fwdTypes.size(); ++i)
      vals[op.getResult(i)] =
          fromArg(exit->getArgument(i), fwdTypes[i], op.getResult(i).getType());
    return success();
  }
  Value m = toMask(*c);
  inst("s_and_b64", execT, {execReg(), m});
  Block *bodyB = newBlock(), *exit = newBlock();
  branch("s_cbranch_execz", exit, {}, bodyB, {});
  start(bodyB);
  mapAfter(*fwd);
  if (failed(lowerBody()))
    return failure();
  start(exit);
  inst("s_mov_b64", execT, saved);
  for (unsigned i = 0; i < fwdTypes.size(); ++i)
    vals[op.getResult(i)] = fromArg((*fwd)[i], fwdTypes[i], op.getResult(i).getType());
  return success();
}

void populateControlFlowLowering(LoweringTable &table) {
  table.add("scf.while",
            [](KernelLowering &k, Operation *op) { return k.lowerWhile(cast<scf::WhileOp>(op)); });
  table.add("scf.if", [](KernelLowering &k, Operation *op) { return k.lowerIf(cast<scf::IfOp>(op)); });
  table.add("scf.for",
            [](KernelLowering &k, Operation *op) { return k.lowerFor(cast<scf::ForOp>(op)); });
}

} // namespace aster::lower
