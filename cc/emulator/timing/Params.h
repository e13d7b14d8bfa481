//===- Params.h - the numbers of the timing model, with their sources -----===//
//
// Every number the timing model uses, in one place. Per-instruction facts
// (MFMA passes, the transcendental unit) are not here: they are in the
// instruction table (cc/dialect/isa/*.td, Inst.Passes and the TRANS
// property), which gen_isa.py turns into InstTiming.inc.
//
// Sources:
//  [ISA]   AMD Instinct MI300 (CDNA3) Instruction Set Architecture reference
//  [WP]    AMD CDNA3 architecture white paper (MI300X: 304 CUs, 2100 MHz,
//          64 KiB LDS per CU, 32 KiB vector L1 per CU with 128 B lines,
//          4 MiB L2 per XCD, 256 MiB Infinity Cache, 5.3 TB/s HBM3)
//  [GCN]   AMD Graphics Core Next architecture white paper (the CU issue
//          model CDNA inherits: the instruction arbiter serves one SIMD per
//          cycle, so each SIMD is considered every 4 cycles, and issues at
//          most one instruction per wave and one per type: VALU, scalar
//          (SALU/SMEM), vector memory, LDS, branch)
//  [LLVM]  LLVM AMDGPU: SISchedule.td, GCNHazardRecognizer.cpp,
//          AMDGPUBaseInfo (register and wave limits of gfx940)
//  [C&C]   Chips and Cheese, "Testing AMD's Giant MI300X" (2024): pointer
//          chasing latencies, rounded; approximate by nature
//  [model] an assumption of this model where no published figure exists
//
//===----------------------------------------------------------------------===//
#ifndef ASTER_EMULATOR_TIMING_PARAMS_H
#define ASTER_EMULATOR_TIMING_PARAMS_H

#include <cstdint>
#include <string>

namespace aster::emu::timing {

struct Params {
  // ---- device ----
  unsigned numCUs = 304;            ///< [WP] MI300X
  unsigned cusPerXcd = 38;          ///< [WP] 8 XCDs of 38 CUs
  double clockMHz = 2100;           ///< [WP] peak engine clock
  double realtimeMHz = 100;         ///< [ISA] s_memrealtime: constant 100 MHz clock

  // ---- CU resources (occupancy) ----
  unsigned simdsPerCU = 4;          ///< [WP]
  unsigned wavesPerSimd = 8;        ///< [LLVM] gfx90a/gfx940 max waves per EU
  unsigned vgprsPerSimd = 512;      ///< [WP]/[LLVM] unified VGPR+AGPR file, per lane
  unsigned vgprGranule = 8;         ///< [LLVM] gfx90a+ allocation granule
  unsigned sgprsPerSimd = 800;      ///< [LLVM] gfx9 SGPR file per SIMD
  unsigned sgprGranule = 16;        ///< [LLVM]
  unsigned sgprExtra = 6;           ///< [LLVM] VCC, FLAT_SCRATCH, XNACK_MASK
  unsigned ldsPerCU = 64 * 1024;    ///< [WP]
  unsigned workgroupsPerCU = 16;    ///< [model] barrier resources per CU
  unsigned dispatchCycles = 0;      ///< [model] workgroup launch cost (not modeled)

  // ---- issue (cycles) ----
  unsigned issuePeriod = 4;         ///< [GCN] a SIMD is served every 4 cycles
  unsigned valuCycles = 4;          ///< [WP] wave64 on 16 lanes: 4 cycles
  unsigned transCycles = 16;        ///< [ISA]/[LLVM] transcendentals quarter rate
  unsigned valuLatency = 4;         ///< [GCN] dependent VALU issues next turn
  unsigned transLatency = 16;       ///< [LLVM] WriteTrans32 quarter rate
  unsigned mfmaPassCycles = 4;      ///< [ISA] one pass = 4 cycles
  unsigned mfmaWriteback = 4;       ///< [LLVM] result visible to VALU/srcA/B one
                                    ///< turn after the last pass (hazard
                                    ///< recognizer: passes + 2 wait states)
  unsigned saluLatency = 4;         ///< [GCN]
  unsigned branchTakenCycles = 16;  ///< [model] instruction-buffer refill
  unsigned sleepUnit = 64;          ///< [ISA] s_sleep N: ~64 * N clocks
  unsigned barrierCycles = 4;       ///< [model] release after the last arrival

  // ---- memory ----
  unsigned smemLatency = 64;        ///< [C&C] scalar cache hit, ~30 ns
  unsigned ldsLatency = 64;         ///< [C&C] LDS load-to-use, ~30 ns
  unsigned ldsBanks = 32;           ///< [ISA] 32 banks of 4 bytes (a power of two)
  unsigned ldsBytesPerClk = 128;    ///< [WP] 128 bytes/clock/CU
  unsigned lineBytes = 128;         ///< [WP] L1/L2 line (a power of two)
  unsigned l1Bytes = 32 * 1024;     ///< [WP] vector L1 per CU
  unsigned l1Ways = 8;              ///< [model]
  unsigned l1BytesPerClk = 64;      ///< [WP] vector L1 fill/read per CU
  unsigned l1Latency = 120;         ///< [C&C] ~57 ns
  unsigned l2Bytes = 4 * 1024 * 1024; ///< [WP] per XCD
  unsigned l2Ways = 16;             ///< [WP]
  unsigned l2BytesPerClkPerXcd = 2048; ///< [WP] 16 channels x 128 B/clk
  unsigned l2Latency = 250;         ///< [C&C] ~118 ns
  double mallBytesPerClk = 8095;    ///< [WP] 17 TB/s Infinity Cache / 2.1 GHz
  unsigned mallLatency = 460;       ///< [C&C] ~218 ns
  double hbmBytesPerClk = 2524;     ///< [WP] 5.3 TB/s / 2.1 GHz
  unsigned hbmLatency = 760;        ///< [C&C] ~360 ns
  unsigned storeAckLatency = 250;   ///< [model] a store counts in vmcnt until L2 acks
  unsigned bandwidthWindow = 64;    ///< [model] the shared levels' bandwidth is
                                    ///< accounted in buckets of this many cycles
                                    ///< (Calendar in Memory.h)

  // ---- simulation ----
  unsigned epochCycles = 1024;      ///< [model] the CUs are simulated in turn for
                                    ///< this many cycles of global time each
                                    ///< (Model.cpp): the shared caches and
                                    ///< bandwidth see requests in time order up
                                    ///< to this (about one HBM latency). Shorter
                                    ///< epochs cost host cache locality (4096^3
                                    ///< GEMM: 256 cycles 1.1x the CPU time of
                                    ///< 1024, same cycles within 0.3%)

  /// MI300X for gfx942 (everything above). gfx950 code runs on an MI355X
  /// ([MI355X] AMD Instinct MI355X data sheet: 256 CUs in 8 XCDs, 2400 MHz,
  /// 160 KiB LDS per CU, 8 TB/s HBM3E); the rest as on MI300X.
  static Params forProcessor(const std::string &processor) {
    Params p;
    if (processor == "gfx950") {
      p.numCUs = 256;
      p.cusPerXcd = 32;
      p.clockMHz = 2400;
      p.ldsPerCU = 160 * 1024;
      p.hbmBytesPerClk = 8e12 / 2.4e9;
      p.mallBytesPerClk = 17e12 / 2.4e9;
    }
    return p;
  }
};

} // namespace aster::emu::timing

#endif
