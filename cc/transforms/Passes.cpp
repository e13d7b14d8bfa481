//===- Passes.cpp - registration of aster's passes -----------------------===//
#include "transforms/Passes.h"

namespace aster {
void registerAllPasses() {}
} // namespace aster
