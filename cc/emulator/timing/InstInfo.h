//===- InstInfo.h - what the timing model needs to know per instruction ---===//
#ifndef ASTER_EMULATOR_TIMING_INSTINFO_H
#define ASTER_EMULATOR_TIMING_INSTINFO_H

#include "emulator/Program.h"
#include "emulator/timing/Params.h"
#include "emulator/timing/Result.h"

#include <memory>
#include <string>
#include <vector>

namespace aster::emu::timing {

/// Issue slot types: at most one instruction of each per SIMD turn ([GCN]).
/// Internal ones (s_nop, s_waitcnt, s_barrier, s_endpgm, ...) take none.
enum Slot : uint8_t { SLOT_VALU, SLOT_SCALAR, SLOT_VMEM, SLOT_LDS, SLOT_BRANCH, SLOT_NONE };

/// Special program-control behaviours.
enum Ctl : uint8_t { CTL_NONE, CTL_NOP, CTL_SLEEP, CTL_WAITCNT, CTL_BARRIER, CTL_END };

/// How a memory instruction forms addresses.
enum AddrKind : uint8_t { ADDR_NONE, ADDR_GLOBAL, ADDR_FLAT, ADDR_SCRATCH, ADDR_BUFFER, ADDR_DS,
                          ADDR_SMEM, ADDR_SBUFFER };

struct InstInfo {
  Unit unit = Unit::Internal;
  Slot slot = SLOT_NONE;
  Ctl ctl = CTL_NONE;
  AddrKind addr = ADDR_NONE;
  uint8_t passes = 0;       ///< MFMA (table: Inst.Passes)
  uint8_t laneBytes = 0;    ///< memory: bytes per lane per access
  uint8_t accesses = 1;     ///< DS read2/write2: 2
  uint16_t stride2 = 0;     ///< DS read2/write2: bytes per offset unit
  bool store = false;       ///< writes memory and returns nothing
  bool atomic = false;      ///< vector memory: a read-modify-write at L2
  int8_t srcC = -1;         ///< MFMA: index in Inst::reads of the accumulator input
};

/// Timing facts of every decoded instruction of `prog`, by index.
std::vector<InstInfo> classify(const Program &prog);

/// Instructions whose timing depends only on their own wave and SIMD.
inline bool local(const InstInfo &ti) {
  switch (ti.unit) {
  case Unit::VALU: case Unit::TRANS: case Unit::MFMA: case Unit::SALU: case Unit::Branch:
    return true;
  case Unit::Internal:
    return ti.ctl == CTL_NOP || ti.ctl == CTL_WAITCNT || ti.ctl == CTL_SLEEP;
  default:
    return false;
  }
}

/// What the timing model derives from a program, per instruction index: made
/// once per program (a code object is decoded once and launched many times;
/// [host]: classifying every instruction by its mnemonic and copying the
/// text were a fixed cost of each timed launch of a large code object).
struct ProgramFacts {
  std::vector<InstInfo> info;
  std::vector<uint8_t> stopAhead;  ///< not SIMD-local (ends a batch)
  std::vector<uint8_t> serialAt;   ///< atomics and s_sleep (Epochs.cpp)
  /// The instruction text (Result::text shares it).
  std::shared_ptr<const std::vector<std::string>> text;
};
/// The program's facts, made at the first call (thread-safe) and kept in
/// Program::timingFacts.
std::shared_ptr<const ProgramFacts> programFacts(const Program &prog);

} // namespace aster::emu::timing

#endif
