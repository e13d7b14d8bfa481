//===- RegAllocRounds.cpp - allocate, spill, allocate again ---------------===//
//
// allocateRegisters: rounds of colouring (Allocator::run); a round that runs
// out of registers names values to spill, they are spilled (Spill.cpp) and
// the next round starts over. After the round that succeeds, the spill
// pseudo ops become instructions (SpillExpand.cpp) and the spill code gets
// its hazard wait states (Hazards.cpp).
//
//===----------------------------------------------------------------------===//
#include "transforms/Allocator.h"
#include "transforms/Hazards.h"

namespace aster {

using namespace regalloc;

FailureOr<RegAllocStats> allocateRegisters(KernelOp kernel,
                                           const RegAllocOptions &opts) {
  llvm::DenseSet<Operation *> spillCode;
  unsigned spills = 0, slots = 0, scratchBase = 0;
  if (auto ps = kernel->getAttrOfType<IntegerAttr>("private_segment"))
    scratchBase = llvm::alignTo(ps.getInt(), 4);
  auto mod = kernel->getParentOfType<KernelModuleOp>();
  uint8_t target = mod ? mod.getTargetBit() : ISA::T_GFX942;
  // Each round spills values not spilled before (makeRoom only picks a value
  // that is not spilled yet: one whose spilling frees its register where it
  // is picked, or an operand of an op whose range result cannot fit) and
  // spill code is never spilled again except an AGPR slot, once, to
  // scratch: the rounds end.
  // `spilled` checks that promise instead of looping on a broken one.
  // Scratch slots are numbered here; their offsets are chosen once the
  // last round has succeeded (expandSpillCode).
  llvm::DenseSet<Value> spilled;
  while (true) {
    Allocator a(kernel, opts, spillCode);
    FailureOr<RegAllocStats> st = a.run();
    if (succeeded(st)) {
      st->spills = spills;
      st->scratchSpills = slots;
      if (spillCode.empty())
        return st;
      if (failed(expandSpillCode(kernel, scratchBase, spillCode, st->scratchBytes)))
        return failure();
      // Wait states around the spill code (not the program's own hazards).
      st->hazardNops = insertHazardNops(
          kernel, [&](Operation *op) { return spillCode.contains(op); });
      return st;
    }
    if (a.spillVictims().empty())
      return failure();
    for (auto [v, early] : a.spillVictims()) {
      if (isAgprSlot(v, target, spillCode)) {
        spillSlotToScratch(v.getDefiningOp(), slots++, spillCode);
        continue;
      }
      // (A slot is erased above, so only values whose definitions stay are
      // remembered.)
      if (!spilled.insert(v).second) {
        emitError(v.getLoc(), "register allocation would spill this value a second "
                              "time (internal error; please report)");
        return failure();
      }
      RegType t = cast<RegType>(v.getType());
      ++spills;
      switch (spillPlace(t, target)) {
      case SpillPlace::Lanes: spillToLanes(v, spillCode, early); break;
      case SpillPlace::AGPR: spillToAGPR(v, spillCode, early); break;
      case SpillPlace::Scratch: spillToScratch(v, slots++, spillCode, early); break;
      case SpillPlace::None: break; // not chosen (spillable)
      }
    }
  }
}

} // namespace aster
