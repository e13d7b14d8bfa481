//===- LowerPass.cpp - the amdgcn-lower pass -----------------------------===//
// Needs before / guarantees after: Lower.h (kLowerDoc below says the same).
#include "lower/Lower.h"
#include "dialect/Dialect.h"

#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

namespace aster::lower {

const char *const kLowerDoc =
    "Lowers the gpu.module kernels of an outlined upstream MLIR module (gpu, arith, "
    "math, scf, memref) to amdgcn.module kernels of instructions on virtual registers. "
    "Needs before: gpu.func kernels with one-block bodies of the ops docs/lowering.md "
    "lists; index is 32-bit. Guarantees after: uniform values in SGPRs (scalar "
    "instructions), divergent ones in VGPRs; uniform branches on SCC, divergent "
    "scf.if/scf.for under EXEC masks with s_cbranch_execz skips; kernel arguments in "
    "MLIR's ROCDL convention. An op it cannot lower is an error naming it (module "
    "unchanged). Run amdgcn-regalloc, amdgcn-waitcnt, amdgcn-hazards after.";

namespace {
struct LowerPass : PassWrapper<LowerPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(LowerPass)
  LowerPass() = default;
  LowerPass(const LowerPass &other) : PassWrapper(other) {}
  StringRef getArgument() const override { return "amdgcn-lower"; }
  StringRef getDescription() const override { return kLowerDoc; }
  void getDependentDialects(DialectRegistry &registry) const override {
    registerUpstreamDialects(registry);
    amdgcn::registerAllDialects(registry); // what it makes
  }
  Option<std::string> target{*this, "target", llvm::cl::desc("gfx942, gfx950"),
                             llvm::cl::init("gfx942")};
  void runOnOperation() override {
    if (failed(lowerGpuModules(getOperation(), target)))
      signalPassFailure();
  }
};
} // namespace

void registerLowerPass() { PassRegistration<LowerPass>(); }

} // namespace aster::lower
