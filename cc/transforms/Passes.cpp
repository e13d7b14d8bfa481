//===- Passes.cpp - registration of aster's passes -----------------------===//
#include "transforms/Passes.h"

namespace aster {
void registerAllPasses() {}
std::vector<std::pair<std::string, std::string>> passDocs() { return {}; }
} // namespace aster
