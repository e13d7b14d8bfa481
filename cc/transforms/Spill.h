//===- Spill.h - saving a virtual register and reloading it at its uses --===//
#ifndef ASTER_TRANSFORMS_SPILL_H
#define ASTER_TRANSFORMS_SPILL_H

#include "mlir/IR/Value.h"
#include "dialect/Dialect.h"
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

/// Spills the virtual SGPR (range) `s` to lanes 0, 1, ... of a new virtual
/// VGPR (amdgcn.spill_to_lanes where spillToAGPR would save,
/// amdgcn.spill_from_lanes before each later use; a use through a part
/// reloads only that part). Wait states after the v_readlane_b32s (e.g. 5
/// before a VMEM instruction reads the SGPR) come from insertHazardNops once
/// registers are allocated.
void spillToLanes(mlir::Value s, llvm::DenseSet<mlir::Operation *> &spillCode,
                  bool early = false);

/// Moves a spill slot from an AGPR to scratch memory: `save` is the
/// v_accvgpr_write_b32 made by spillToAGPR. It becomes an amdgcn.spill_store
/// to scratch slot number `slot`, and each reload an amdgcn.spill_load
/// followed by s_waitcnt vmcnt(0) (the value is read right after). Each
/// access gets its own base SGPR (an s_mov_b32 set by expandSpillCode).
void spillSlotToScratch(mlir::Operation *save, unsigned slot,
                        llvm::DenseSet<mlir::Operation *> &spillCode);

/// Spills `v` straight to scratch slot number `slot`: saved where
/// spillToAGPR would save it (amdgcn.spill_store of the whole range, VGPR or
/// AGPR data), reloaded before each later use into a new virtual register
/// (range) of the same type (amdgcn.spill_load, s_waitcnt vmcnt(0)).
void spillToScratch(mlir::Value v, unsigned slot,
                    llvm::DenseSet<mlir::Operation *> &spillCode, bool early = false);

/// After allocation (every register allocated): gives each scratch slot of
/// the spill pseudo ops a byte offset in the private segment from
/// `scratchBase` on, slots whose lifetimes (from the store to the last
/// reload, over the CFG) do not overlap sharing bytes; grows the kernel's
/// `private_segment`; and expands the pseudo ops into instructions on the
/// allocated registers: scratch_store/load_dword..dwordx4 per part of a
/// range (the base SGPR's s_mov_b32 set to the part of the offset the
/// 13-bit immediate cannot hold), v_writelane/v_readlane_b32 per register of
/// an SGPR range. New instructions join `spillCode`. `bytes` gets the
/// scratch bytes the slots take. Fails with a diagnostic when they exceed a
/// work-item's private segment.
mlir::LogicalResult expandSpillCode(amdgcn::KernelOp kernel, unsigned scratchBase,
                                    llvm::DenseSet<mlir::Operation *> &spillCode,
                                    unsigned &bytes);

} // namespace aster

#endif
