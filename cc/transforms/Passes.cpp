//===- Passes.cpp - registration of aster's passes -----------------------===//
#include "transforms/Passes.h"

#include "mlir/Transforms/Passes.h"

namespace aster {
void registerAllPasses() {
  // Upstream generic passes (canonicalize, cse, symbol-dce, ...).
  mlir::registerTransformsPasses();
}
std::vector<std::pair<std::string, std::string>> passDocs() { return {}; }
} // namespace aster
