//===- Hazards.h - s_nop wait states between dependent instructions -------===//
#ifndef ASTER_TRANSFORMS_HAZARDS_H
#define ASTER_TRANSFORMS_HAZARDS_H

#include "dialect/Dialect.h"

#include "llvm/ADT/STLFunctionalExtras.h"

namespace aster {

/// Inserts the `s_nop`s the hardware needs between dependent instructions it
/// does not interlock (the rules and their sources: HazardRules.cpp), on
/// gfx942 and gfx950. A gfx1201 kernel is left unchanged (no rules).
///
/// Needs: an allocated kernel (every register physical, as after
/// amdgcn-regalloc, which marks it `allocated`). Registers are tracked by
/// file and index from the operand and result types, not by SSA value (a
/// value from `amdgcn.reg` reads its register where it is used); virtual
/// registers are not seen.
///
/// Walks each block in order. Between an instruction and an earlier one, the
/// wait states present are counted: 1 per instruction in between, k+1 per
/// `s_nop k`, 0 for ops that emit nothing. A block start takes the worst case
/// (every recent instruction, at its smallest distance) over the tails of all
/// its predecessors, to a fixpoint around loops.
///
/// Guarantees: every covered hazard one of whose two instructions satisfies
/// `mayPad` (the allocator: "is spill code", so both a spill op reading a
/// user's MFMA result and a user's MFMA reading a reload are covered) gets
/// its required wait states, by `s_nop`s (at most `s_nop 15` each) right
/// before its second instruction. Nothing else changes: no op is moved or
/// removed, and a hazard between two instructions without `mayPad` keeps
/// whatever distance it had. Returns the number of `s_nop` ops inserted.
///
/// `kernel` is an amdgcn.kernel or an amdgcn.device_function. Across calls
/// and returns (s_swappc_b64, s_setpc_b64) nothing is tracked: before one,
/// every pending hazard gets the wait states any later instruction could
/// need, so a function's entry and the code after a call start from an
/// empty history.
unsigned insertHazardNops(mlir::Operation *kernel,
                          llvm::function_ref<bool(mlir::Operation *)> mayPad);

/// The pass documentation (what it needs before, what it guarantees after).
extern const char *const kHazardsDoc;

} // namespace aster

#endif
