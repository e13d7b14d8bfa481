//===- Costs.h - what an instruction costs on its SIMD, by unit -----------===//
//
// The machine facts shared by the timing model (Account.cpp, which times
// execution) and amdgcn-schedule (cc/transforms/Schedule*, which orders
// instructions by them): the numbers are Params.h's, the per-instruction
// facts (MFMA passes, the transcendental unit) the instruction table's
// (gen_isa.py --timing: InstTiming.inc, read through tableTiming()).
// Neither keeps a copy of them.
//
//===----------------------------------------------------------------------===//
#ifndef ASTER_EMULATOR_TIMING_COSTS_H
#define ASTER_EMULATOR_TIMING_COSTS_H

#include "emulator/timing/Params.h"
#include "emulator/timing/Result.h"

#include "llvm/ADT/StringRef.h"

namespace aster::emu::timing {

/// One row of the instruction table's timing facts.
struct TableTiming {
  const char *mnemonic; ///< the table's name of the form
  const char *asmName;  ///< its assembly mnemonic (several forms may share one)
  unsigned srcA, srcB;  ///< widths (registers) of src0 and src1
  unsigned passes;      ///< MFMA/SMFMAC passes (Inst.Passes), 0 otherwise
  bool trans;           ///< runs on the transcendental unit (TRANS property)
};
/// The row of the table's form `mnemonic` (without _e32/_e64/_sdwa/_dpp), or
/// nullptr when the table states no timing fact for it.
const TableTiming *tableTiming(llvm::StringRef mnemonic);
/// The row of a decoded instruction: its assembly mnemonic and, where forms
/// share one (the f8f6f4 MFMAs: one form per A/B format, whose widths differ),
/// the form whose src0/src1 widths are `srcA`/`srcB` registers.
const TableTiming *tableTiming(llvm::StringRef asmName, unsigned srcA, unsigned srcB);

/// What issuing one instruction of unit `u` costs on its SIMD.
struct IssueCost {
  unsigned valuBusy = 0; ///< cycles the SIMD's VALU issue port is taken
  unsigned unitBusy = 0; ///< cycles its own unit (transcendental, matrix core) is busy
  unsigned latency = 0;  ///< cycles from issue until a dependent VALU/srcA/B may read it
  unsigned forward = 0;  ///< MFMA: until the same range may be an MFMA's srcC
};

/// Register-result costs of the SIMD-local units (VALU, TRANS, MFMA with
/// `passes`, SALU). Memory units: see expectedLatency.
inline IssueCost issueCost(const Params &P, Unit u, unsigned passes) {
  IssueCost c;
  switch (u) {
  case Unit::VALU:
    c.valuBusy = P.valuCycles;
    c.latency = c.forward = P.valuLatency;
    break;
  case Unit::TRANS:
    c.valuBusy = P.valuCycles;
    c.unitBusy = P.transCycles;
    c.latency = c.forward = P.transLatency;
    break;
  case Unit::MFMA:
    c.valuBusy = P.valuCycles;
    c.unitBusy = passes * P.mfmaPassCycles;
    c.latency = c.unitBusy + P.mfmaWriteback;
    c.forward = c.unitBusy;
    break;
  default:
    c.latency = c.forward = P.saluLatency;
    break;
  }
  return c;
}

/// The latency a scheduler plans for (the timing model computes memory
/// times from addresses): SMEM and LDS their Params latency (LDS: one
/// conflict-free clock through the banks more), vector memory an L2 hit
/// ([model]: between an L1 hit and HBM; the order it gives is the same for
/// any latency much longer than the VALU's).
inline unsigned expectedLatency(const Params &P, Unit u, unsigned passes) {
  switch (u) {
  case Unit::SMEM: return P.smemLatency;
  case Unit::LDS: return P.ldsLatency + 1;
  case Unit::VMEM: return P.l2Latency;
  default: return issueCost(P, u, passes).latency;
  }
}

} // namespace aster::emu::timing

#endif
