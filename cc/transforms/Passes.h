//===- Passes.h - aster's passes ------------------------------------------===//
//
// Every pass documents what it needs before (its input form) and what it
// guarantees after, at its declaration.
//   amdgcn-inline    calls replaced by function bodies (Inline.h, kInlineDoc)
//   amdgcn-regalloc  register allocation (RegAlloc.h, kRegAllocDoc)
//   amdgcn-hazards   s_nop wait states for hazards (Hazards.h, kHazardsDoc)
//   amdgcn-waitcnt   waits for memory results (Waitcnt.h, kWaitcntDoc)
//   amdgcn-schedule  instruction order in each block (Schedule.h, kScheduleDoc)
//
//===----------------------------------------------------------------------===//
#ifndef ASTER_TRANSFORMS_PASSES_H
#define ASTER_TRANSFORMS_PASSES_H

#include <string>
#include <utility>
#include <vector>

namespace aster {
/// Registers all aster passes with MLIR's pass registry (aster-opt, Python).
void registerAllPasses();
/// (pipeline name, documentation) of every aster pass, for aster.passes().
std::vector<std::pair<std::string, std::string>> passDocs();
} // namespace aster

#endif
