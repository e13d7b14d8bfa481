//===- Passes.cpp - registration of aster's passes -----------------------===//
#include "transforms/Passes.h"
#include "transforms/Hazards.h"
#include "transforms/RegAlloc.h"

#include "mlir/Transforms/Passes.h"

namespace aster {
void registerRegAllocPass();
void registerHazardsPass();

void registerAllPasses() {
  // Upstream generic passes (canonicalize, cse, symbol-dce, ...).
  mlir::registerTransformsPasses();
  registerRegAllocPass();
  registerHazardsPass();
}
std::vector<std::pair<std::string, std::string>> passDocs() {
  return {{"amdgcn-regalloc", kRegAllocDoc}, {"amdgcn-hazards", kHazardsDoc}};
}
} // namespace aster
