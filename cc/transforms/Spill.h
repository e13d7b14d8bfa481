//===- Spill.h - saving a virtual register and reloading it at its uses --===//
#ifndef ASTER_TRANSFORMS_SPILL_H
#define ASTER_TRANSFORMS_SPILL_H

#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseSet.h"

namespace aster {

/// Spills the virtual 32-bit VGPR `v` to a virtual AGPR: saved with
/// v_accvgpr_write_b32 right after its definition (a load's result: just
/// before its first use, once it has arrived) and reloaded with
/// v_accvgpr_read_b32 into a new virtual VGPR before each later use. The ops
/// created are added to `spillCode`. Instruction order is otherwise kept.
/// With `early`, a load's result is saved right after the load, behind an
/// s_waitcnt for it, so that it holds no register until its uses.
void spillToAGPR(mlir::Value v, llvm::DenseSet<mlir::Operation *> &spillCode,
                 bool early = false);

/// Spills the virtual SGPR `s` to lane 0 of a new virtual VGPR
/// (v_writelane_b32 where spillToAGPR would save, v_readlane_b32 before each
/// later use). A reload read by a VMEM instruction or as a lane select gets
/// the 5 wait states gfx9 needs after a VALU writes an SGPR (s_nop 4).
void spillToVGPRLane(mlir::Value s, llvm::DenseSet<mlir::Operation *> &spillCode,
                     bool early = false);

/// Moves a spill slot from an AGPR to scratch memory: `save` is the
/// v_accvgpr_write_b32 made by spillToAGPR. It becomes a scratch_store_dword
/// at byte `offset` of the work-item's private segment, and each reload a
/// scratch_load_dword followed by s_waitcnt vmcnt(0) (the value is read right
/// after). The SGPR base address (0, or the offset when the 13-bit
/// immediate cannot hold it) is materialised before each access.
void spillSlotToScratch(mlir::Operation *save, unsigned offset,
                        llvm::DenseSet<mlir::Operation *> &spillCode);

/// Dwords of scratch memory spillToScratch needs for `v`, 0 when it cannot
/// spill it: a virtual VGPR or AGPR (range) of 1 to 4 registers.
unsigned scratchSpillWidth(mlir::Value v);

/// Spills `v` straight to scratch memory at byte `offset` of the private
/// segment: saved where spillToAGPR would save it (scratch_store_dword or
/// _dwordx2/x3/x4 for a range, with VGPR or AGPR data), reloaded before each
/// later use into a new virtual register (range) of the same type with the
/// matching scratch_load and s_waitcnt vmcnt(0).
void spillToScratch(mlir::Value v, unsigned offset,
                    llvm::DenseSet<mlir::Operation *> &spillCode, bool early = false);

} // namespace aster

#endif
