//===- WaitcntModel.h - the memory counters of a target --------------------===//
//
// Which counters an instruction increments, derived from its row of the
// instruction table (props VMCNT / LGKMCNT / EXPCNT, encoding, MAYLOAD /
// MAYSTORE / LDS / SMEM), and the counters' maxima from the table's wait
// instructions (s_waitcnt's vmcnt/lgkmcnt/expcnt fields on gfx942/gfx950,
// s_wait_<counter>'s immediate on gfx1201).
//
// Ordering facts (AMD Vega/CDNA ISA guides, "Data dependency resolution";
// LLVM SIInsertWaitcnts): VMEM loads and stores return in issue order on
// vmcnt; LDS in issue order on lgkmcnt; SMEM out of order (its results need
// lgkmcnt(0)); FLAT counts on vmcnt and lgkmcnt and may complete out of
// order with both (it may access LDS), so its results need vmcnt(0) and
// lgkmcnt(0). gfx1201 splits these: loads loadcnt, stores storecnt, LDS
// dscnt, SMEM kmcnt (out of order).
//
//===----------------------------------------------------------------------===//
#ifndef ASTER_TRANSFORMS_WAITCNTMODEL_H
#define ASTER_TRANSFORMS_WAITCNTMODEL_H

#include "dialect/ISA.h"
#include "transforms/HazardRules.h"

#include "llvm/ADT/SmallVector.h"
#include <string>

namespace aster::waitcnt {

constexpr unsigned kMaxCounters = 4;

/// The counters an instruction increments: bit c of `ordered` for counter c
/// when it completes in issue order with the other ordered instructions of
/// c; bit c of `unordered` when it may complete in any order.
struct Events {
  uint8_t ordered = 0, unordered = 0;
  uint8_t any() const { return ordered | unordered; }
};

struct Model {
  unsigned numCounters = 0;
  /// Counter names as the wait instructions spell them (s_waitcnt field or
  /// the suffix of s_wait_<name>).
  std::string name[kMaxCounters];
  /// Largest encodable count; the hardware counter saturates there, so a
  /// wait of `max` guarantees nothing and the most a wait can allow is max-1.
  unsigned max[kMaxCounters] = {};
  /// gfx1201: one s_wait_<name> instruction per counter; gfx9: one s_waitcnt
  /// with a field per counter.
  bool split = false;
  /// The counter of LDS accesses (waited for before s_barrier), or -1.
  int lds = -1;

  /// The model of `targetBit`; empty (numCounters 0) for an unknown target.
  static Model get(uint8_t targetBit);
  /// Counter index of `name`, or -1.
  int counter(llvm::StringRef name) const;
  /// The counters `d` increments. When it needs a counter this target has no
  /// wait for, returns false and names it in `missing`.
  bool events(const ISA::InstDesc &d, Events &out, std::string &missing) const;
};

/// An instruction kept as assembly text (amdgcn.data from raising): its table
/// row (the mnemonic, less an _e32/_e64/_dpp/_sdwa suffix), with the
/// registers of its first numDsts operands in `writes` and of the others in
/// `reads`; a VALU mnemonic (v_*) the table lacks reads as v_mov_b32 (one
/// destination, no counters); nullptr for any other (WaitcntOpaque.cpp).
const ISA::InstDesc *describeText(llvm::StringRef text,
                                  llvm::SmallVectorImpl<hazards::RegRange> &reads,
                                  llvm::SmallVectorImpl<hazards::RegRange> &writes);

} // namespace aster::waitcnt

#endif
