//===- Inline.cpp - the amdgcn-inline pass --------------------------------===//
#include "transforms/Inline.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;
using namespace aster::amdgcn;

namespace aster {

const char *const kInlineDoc =
    "Replaces amdgcn.call ops in kernels by the bodies of the amdgcn.func they "
    "call (register-level functions), nested calls included.\n"
    "Needs before: a verified module (each callee an amdgcn.func of the module, "
    "operands of its parameters' class and width, pinned parameters given "
    "exactly their register, no recursion).\n"
    "Guarantees after: no amdgcn.call is left in any kernel (with `functions`: "
    "none to those functions); the body's ops sit where the call was, in the "
    "body's order; every call site has its own SSA values, so the body's "
    "virtual registers are fresh virtual registers per call site while its "
    "pinned registers stay as written; parameters are the call's operands and "
    "results the returned values; a multi-block body becomes blocks between "
    "the halves of the caller's block (joined by cf.br; the results are the "
    "returned values, or block arguments of the rest when there are several "
    "returns); each inlined op's "
    "location is callsite(body location at call location). Functions are "
    "kept (translation does not emit them). Afterwards amdgcn-regalloc, "
    "amdgcn-waitcnt and amdgcn-hazards see one flat kernel.\n"
    "Options: functions (names; default all): inline only calls to these.";

static constexpr unsigned kMaxDepth = 64;

/// Inlines `call` (to `f`); appends the calls the inlined body makes.
static void inlineCall(CallOp call, FuncOp f, SmallVectorImpl<CallOp> &newCalls) {
  IRMapping map;
  Region &body = f.getBody();
  for (auto [arg, v] : llvm::zip(body.front().getArguments(), call.getArgs()))
    map.map(arg, v);
  Location site = call.getLoc();
  auto relocate = [&](Operation *op) {
    op->walk([&](Operation *o) {
      o->setLoc(CallSiteLoc::get(o->getLoc(), site));
      if (auto c = dyn_cast<CallOp>(o))
        newCalls.push_back(c);
    });
  };
  OpBuilder b(call);
  if (body.hasOneBlock()) {
    for (Operation &op : body.front().without_terminator()) {
      Operation *c = b.clone(op, map);
      relocate(c);
    }
    auto ret = cast<ReturnOp>(body.front().getTerminator());
    for (auto [r, v] : llvm::zip(call.getResults(), ret.getOperands()))
      r.replaceAllUsesWith(map.lookupOrDefault(v));
    call.erase();
    return;
  }
  // Several blocks: caller block | body blocks | rest of the caller block.
  Block *before = call->getBlock();
  Block *rest = before->splitBlock(call);
  Region *region = before->getParent();
  body.cloneInto(region, Region::iterator(rest), map);
  Block *entry = map.lookup(&body.front());
  b.setInsertionPointToEnd(before);
  cf::BranchOp::create(b, site, entry);
  SmallVector<ReturnOp> rets;
  for (Block &old : body) {
    Block *nb = map.lookup(&old);
    for (Operation &op : *nb)
      relocate(&op);
    for (BlockArgument a : nb->getArguments())
      a.setLoc(CallSiteLoc::get(a.getLoc(), site));
    if (auto ret = dyn_cast<ReturnOp>(nb->getTerminator()))
      rets.push_back(ret);
  }
  // One return: its block is the rest's only predecessor, so its values
  // dominate the rest and replace the results directly (no block argument,
  // hence no copies on the edge). Several: the rest takes them as arguments.
  bool direct = rets.size() == 1;
  if (direct)
    for (auto [r, v] : llvm::zip(call.getResults(), rets[0].getOperands()))
      r.replaceAllUsesWith(v);
  else
    for (Value r : call.getResults())
      r.replaceAllUsesWith(rest->addArgument(r.getType(), site));
  for (ReturnOp ret : rets) {
    OpBuilder rb(ret);
    cf::BranchOp::create(rb, ret.getLoc(), rest,
                         direct ? ValueRange() : ValueRange(ret.getOperands()));
    ret.erase();
  }
  call.erase();
}

FailureOr<unsigned> inlineCalls(KernelModuleOp module, const llvm::StringSet<> &only) {
  SymbolTable symbols(module);
  SmallVector<std::pair<CallOp, unsigned>> work; // (call, nesting depth)
  for (KernelOp k : module.getBody().front().getOps<KernelOp>())
    k.walk([&](CallOp c) { work.push_back({c, 0}); });
  unsigned count = 0;
  while (!work.empty()) {
    auto [call, depth] = work.pop_back_val();
    if (!only.empty() && !only.contains(call.getCallee()))
      continue;
    auto f = symbols.lookup<FuncOp>(call.getCallee());
    if (!f)
      return call.emitOpError("calls @") << call.getCallee()
                                         << ", which is not an amdgcn.func of this module";
    // The verifier's rules, checked again here: the pass may run unverified.
    if (f.getBody().empty() || call.getArgs().size() != f.getArgumentTypes().size() ||
        call.getNumResults() != f.getResultTypes().size() ||
        llvm::any_of(f.getBody().getOps<ReturnOp>(), [&](ReturnOp r) {
          return r.getNumOperands() != call.getNumResults();
        }))
      return call.emitOpError("does not match @")
             << call.getCallee() << "'s signature " << f.getFunctionType();
    if (depth >= kMaxDepth)
      return call.emitOpError("is nested more than ")
             << kMaxDepth << " calls deep (recursive functions cannot be inlined)";
    SmallVector<CallOp> nested;
    inlineCall(call, f, nested);
    ++count;
    for (CallOp c : nested)
      work.push_back({c, depth + 1});
  }
  return count;
}

bool hasCalls(Operation *module) {
  bool found = false;
  module->walk([&](KernelOp k) {
    if (k.walk([](CallOp) { return WalkResult::interrupt(); }).wasInterrupted()) {
      found = true;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}

namespace {
struct InlinePass : PassWrapper<InlinePass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(InlinePass)
  InlinePass() = default;
  InlinePass(const InlinePass &other) : PassWrapper(other) {}
  StringRef getArgument() const override { return "amdgcn-inline"; }
  StringRef getDescription() const override { return kInlineDoc; }

  ListOption<std::string> functions{
      *this, "functions",
      llvm::cl::desc("inline only calls to these functions (default: all)")};

  void runOnOperation() override {
    llvm::StringSet<> only;
    for (const std::string &f : functions)
      only.insert(f);
    SmallVector<KernelModuleOp> modules;
    getOperation()->walk([&](KernelModuleOp m) { modules.push_back(m); });
    for (KernelModuleOp m : modules) {
      for (StringRef name : only.keys())
        if (!SymbolTable::lookupSymbolIn(m, name) ||
            !isa<FuncOp>(SymbolTable::lookupSymbolIn(m, name))) {
          m.emitError("amdgcn-inline: functions=") << name
                                                   << " is not an amdgcn.func of this module";
          return signalPassFailure();
        }
      if (failed(inlineCalls(m, only)))
        return signalPassFailure();
    }
  }
};
} // namespace

void registerInlinePass() { PassRegistration<InlinePass>(); }

} // namespace aster
