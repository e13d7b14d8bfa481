//===- Passes.cpp - registration of aster's passes -----------------------===//
#include "transforms/Passes.h"
#include "transforms/Hazards.h"
#include "transforms/Inline.h"
#include "transforms/RegAlloc.h"
#include "transforms/Schedule.h"
#include "transforms/Waitcnt.h"

#include "mlir/Transforms/Passes.h"

namespace aster {
void registerRegAllocPass();
void registerHazardsPass();
void registerWaitcntPass();
void registerInlinePass();
void registerSchedulePass();

void registerAllPasses() {
  // Upstream generic passes (canonicalize, cse, symbol-dce, ...).
  mlir::registerTransformsPasses();
  registerInlinePass();
  registerRegAllocPass();
  registerHazardsPass();
  registerWaitcntPass();
  registerSchedulePass();
}
std::vector<std::pair<std::string, std::string>> passDocs() {
  return {{"amdgcn-inline", kInlineDoc}, {"amdgcn-regalloc", kRegAllocDoc},
          {"amdgcn-hazards", kHazardsDoc}, {"amdgcn-waitcnt", kWaitcntDoc},
          {"amdgcn-schedule", kScheduleDoc}};
}
} // namespace aster
