//===- ScheduleGraph.h - regions of a block and their dependences ---------===//
//
// amdgcn-schedule (Schedule.h) reorders ops only inside a region: a run of
// ops of one block between fences. Fences stay where they are and nothing
// crosses them: s_waitcnt, s_barrier, s_nop, ops with side effects
// (SIDE_EFFECT in the table), amdgcn.sched_barrier, amdgcn.data and any
// op that is neither an instruction nor a pure value op (reg, constant,
// undef, part, concat); the block's terminator ends the last region.
//
// A region's graph has an edge a -> b (b must come after a) for
//  - SSA: a defines a value b reads (latency: a's result latency; an MFMA
//    result read as the same MFMA-shaped srcC: the forwarding latency);
//    a reads a value that b overwrites in place (b's tied source);
//  - hardware registers (allocated or special, implicit ones of the table
//    row, exec for every vector instruction): read after write (a's
//    latency), write after read, write after write;
//  - memory, per address space (global incl. scalar and buffer loads, LDS,
//    scratch; FLAT both global and LDS): stores (and atomics) in order; a
//    store after every earlier load of its space it may alias, a load after
//    every earlier store it may alias. Two accesses do not alias when their
//    address operands are the same SSA values (virtual registers or
//    constants) and their byte ranges (offset, data width) are apart; a
//    window of 64 stores and loads is compared, older ones are ordered.
//
//===----------------------------------------------------------------------===//
#ifndef ASTER_TRANSFORMS_SCHEDULEGRAPH_H
#define ASTER_TRANSFORMS_SCHEDULEGRAPH_H

#include "emulator/timing/Costs.h"

#include "mlir/IR/Block.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/SmallVector.h"

#include <vector>

namespace aster::sched {

using emu::timing::Unit;

struct Edge {
  uint32_t to;
  uint32_t latency;
};

struct Node {
  mlir::Operation *op = nullptr;
  Unit unit = Unit::Internal;
  bool slot = false;          ///< an instruction: takes an issue turn
  uint32_t valuBusy = 0;      ///< cycles of the VALU issue port
  uint32_t unitBusy = 0;      ///< cycles of its unit (TRANS, matrix core)
  uint32_t latency = 0;       ///< until a reader may issue
  uint32_t forward = 0;       ///< MFMA: until the same range may be srcC
  uint32_t npred = 0;
  llvm::SmallVector<Edge, 3> succ;
};

/// One region: its ops in block order, and what follows it (a fence or the
/// terminator, kept in place).
struct Region {
  std::vector<Node> nodes;
  bool frozen = false;
};

/// Splits `block` into regions (nodes without edges yet). The fences are
/// not in any region, nor amdgcn.reg and constants (no operands: they may
/// stay where they are, the region's ops going after them).
void splitRegions(mlir::Block &block, std::vector<Region> &out);

/// Fills the costs and edges of `r` (ops in their current order) with the
/// machine facts of `P` for target `targetBit`.
void buildGraph(Region &r, const emu::timing::Params &P, uint8_t targetBit);

} // namespace aster::sched

#endif
