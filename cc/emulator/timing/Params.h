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
//  [CDNA4] AMD CDNA4 architecture white paper and the MI355X data sheet
//          (256 CUs in 8 XCDs of 32, 2400 MHz, 160 KiB LDS per CU, 4 MiB L2
//          per XCD, 256 MiB Infinity Cache, 8 TB/s HBM3E)
//  [CDNA4-LDS] AMD ROCm blog "FP8 GEMM Optimization on AMD CDNA4
//          Architecture" (2026; ROCm/rocm-blogs, blogs/software-tools-
//          optimization/cdna4-gemm-kernels), Table 1 from the CDNA4 ISA:
//          LDS 160 KB, 64 banks, 256 bytes/clock read (CDNA3: 32, 128);
//          "LDS Access": ds_read_b128 in four phases of 16 lanes
//  [HPC-TE] AMD's HPC training examples (github.com/amd/HPCTrainingExamples,
//          Rocprofv3/HIP/README.md): rocprofv3 kernel statistics (device
//          start/end timestamps) of the HIP Jacobi example's kernels
//  [MI325X] AMD Instinct MI325X data sheet (304 CUs, 2100 MHz, 6 TB/s HBM3E)
//  [MI308X] the 80-CU gfx942 part aiter's tuned tables are measured on
//          (cu_num 80): MI300X's XCDs with 10 CUs each, MI300X's memory
//  [CK]    AMD's Composable Kernel sources (github.com/ROCm/composable_kernel)
//  [UMC12] AMD's Linux driver, drivers/gpu/drm/amd/amdgpu/umc_v12_0.{h,c}
//          (MI300-class memory controllers): physical address -> one of 128
//          HBM channels in 256-byte blocks, NPS1 channel hash (HbmChannels.h)
//  [MAF]   AMD ROCm blog "Measuring Max-Achievable FLOPs - Part 2" (MAF
//          results table): the median engine clock measured (amd-smi) while
//          hipBLASLt runs its fastest dense GEMM: MI300X bf16 1207 MHz at
//          708.0 TFLOP/s, MI325X bf16 1447 MHz at 840.8 TFLOP/s (it gives
//          no MI308X or MI355X figure)
//  [aiter] AMD's measured kernel times shipped in the amd-aiter wheel
//          (aiter/configs/*_tuned_*.csv, not bf16_tuned_gemm.csv, held out):
//          the best dense-GEMM TFLOP/s measured per device bound the engine
//          clock under sustained MFMA load (mfmaClockMHz), the smallest
//          kernel times bound the launch overhead (launchUs)
//
//===----------------------------------------------------------------------===//
#ifndef ASTER_EMULATOR_TIMING_PARAMS_H
#define ASTER_EMULATOR_TIMING_PARAMS_H

#include <cstdint>
#include <string>
#include <vector>

namespace aster::emu::timing {

struct Params {
  // ---- device ----
  unsigned numCUs = 304;            ///< [WP] MI300X
  unsigned cusPerXcd = 38;          ///< [WP] 8 XCDs of 38 CUs
  double clockMHz = 2100;           ///< [WP] peak engine clock
  /// The engine clock while every matrix core is busy. A launch runs at
  /// clockMHz - (clockMHz - mfmaClockMHz) x its matrix-core utilisation
  /// (Result::effectiveMHz). [MAF] MI300X (750 W): median 1207 MHz under
  /// hipBLASLt's bf16 GEMM at 708 TFLOP/s, which is 0.942 of the peak at
  /// 1207 MHz (1307.4 x 1207 / 2100): on the line, 2100 - (2100 - 1207) /
  /// 0.942 = 1152. (The bound from [aiter]'s best measured MI300X GEMM,
  /// 538.7 TFLOP/s bf16, 0.412 of peak: at least 865 MHz.)
  double mfmaClockMHz = 1152;
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

  // ---- launch (Model.cpp: dispatch) ----
  /// Fixed wall time of a launch besides its waves: the command processor
  /// reading the dispatch packet, the end-of-kernel cache write-back and
  /// completion signal, as the device's dispatch timestamps see it (what
  /// rocprofv3's kernel trace and aiter's tuners record). [HPC-TE]:
  /// NormKernel2, one workgroup of 128 that sums 128 doubles in LDS, took
  /// 3.52-4.32 us (mean 3.75) of device time over 1001 launches on AMD's
  /// MI300A cluster; the model spends 1.51 us in that kernel's waves on the
  /// MI300X profile (tests/py/test_timing_launch.py), so a launch costs
  /// 3.75 - 1.51 = 2.24 us. Consistent with AMD's smallest measured kernel
  /// times ([aiter]: 3.6 us, a8w8_blockscale M=16 N=7168 K=256; 3.9 us
  /// a4w4), and below the host-side launch costs published for MI300-class
  /// GPUs (~4.5 us per kernel, Kog AI's monokernel blog, 2026; 16.9 us per
  /// launch plus synchronize, pytorch/FBGEMM pull request 6219). The same
  /// for every profile (no other device's figure is published).
  double launchUs = 2.24;
  /// Each XCD's workgroup dispatcher starts one wave per this many cycles
  /// ([model]: one wave per clock per XCD; a workgroup of 4 waves takes 4).
  unsigned waveDispatchCycles = 1;
  /// From a wave's dispatch to its first instruction: SGPR/VGPR
  /// initialisation (kernarg pointer, workgroup ids, work-item ids) ([model]).
  unsigned waveStartCycles = 32;

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
  unsigned scacheBytes = 16 * 1024; ///< [WP] scalar data cache (per CU here)
  unsigned scacheLine = 64;         ///< [model] scalar cache line
  unsigned icacheBytes = 64 * 1024; ///< [WP] instruction cache, shared by 2 CUs
  unsigned icacheLine = 64;         ///< [model] instruction cache line
  unsigned icacheCUs = 2;           ///< [WP] CUs sharing one instruction cache
  unsigned icachePrefetchLines = 4; ///< [model] lines fetched ahead of a wave's line
  /// Instruction lines that miss L2 come from the Infinity Cache (MALL), not
  /// HBM: a kernel is timed as one of many launches of the same code object
  /// ([aiter] test_common.perftest: 2 warm-up and 101 timed launches; it
  /// rotates copies of the arguments, never the code), and the Infinity Cache
  /// is memory-side ([WP]), not invalidated between launches.
  bool codeInMall = true;
  /// A kernel's code is already in the instruction caches of the CUs that
  /// run it: the caches keep code from one launch to the next ([CK]: AMD's
  /// Composable Kernel times kernels with cold code only by running a
  /// kernel of s_icache_inv before each timed launch,
  /// include/ck/utility/flush_icache.hpp), and [aiter]'s perftest flushes
  /// nothing (warm-up launches of the same grid, then the timed ones). Each
  /// used instruction cache starts with the kernel's first icacheBytes of
  /// code (GlobalMemory::warmCode); false: every line misses once.
  bool codeWarm = true;
  /// The launch's data starts in the Infinity Cache (MALL): a line the
  /// launch has not touched yet comes from the MALL (mallLatency, MALL
  /// bandwidth), not HBM. For launches timed right after recent launches
  /// that read the same buffers, all of them fitting in the MALL: [aiter]'s
  /// perftest rotates min(101, ~32 GiB / bytes) copies of a kernel's tensor
  /// arguments through its 101 timed launches (aiter/test_common.py:
  /// perftest, device_memory_profiling: the tensors' nbytes), so each
  /// copy is read once per 101 launches and stays in the memory-side MALL
  /// when the copies together fit in mallBytes ([WP]: it caches HBM
  /// traffic; [model]: LRU-like, a footprint beyond it misses). Set per
  /// launch (LaunchOptions::timingDataInMall, aster.launch(data_in_mall=)).
  /// Vector memory lines only: scalar loads (the kernel arguments, written
  /// anew for each launch) still miss to HBM.
  bool dataInMall = false;
  /// Infinity Cache capacity ([WP] MI300X and MI325X, [CDNA4] MI355X:
  /// 256 MiB; MI308X [model]: MI300X's memory dies).
  uint64_t mallBytes = 256ull << 20;
  /// Scalar loads and instruction fetches that miss go to the XCD's L2
  /// (and beyond, as vector lines do); the wave waits for the line.
  unsigned ldsLatency = 64;         ///< [C&C] LDS load-to-use, ~30 ns
  /// [ISA] 32 banks of 4 bytes (a power of two), each serving one dword
  /// per clock: 128 bytes/clock/CU ([WP]). CDNA4: 64 banks, 256 bytes per
  /// clock ([CDNA4-LDS]; forDevice).
  unsigned ldsBanks = 32;
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
  /// The Infinity Cache and HBM are on the I/O dies, outside the shader
  /// clock: their latencies are times ([C&C] pointer chasing on MI300X,
  /// ~219 ns and ~362 ns), in shader cycles at the profile's peak clock
  /// (setFabricLatencies: 460 and 760 at 2100 MHz, 526 and 869 at 2400).
  /// L1 and L2 are on the XCD and stay in cycles.
  double mallLatencyNs = 219;
  double hbmLatencyNs = 362;
  unsigned mallLatency = 460;       ///< mallLatencyNs at clockMHz
  /// HBM bandwidth a kernel can get: 4.2 TB/s, measured on MI300X with
  /// AMD's roofline benchmark (/opt/rocm/bin/roofline, reported in
  /// ROCm/legacy-rocm-build#5070); the data sheet's 5.3 TB/s
  /// (hbmPeakTBs) is theoretical, "not achievable with real-world tests"
  /// (AMD, ROCm/rocm_bandwidth_test#121). Other profiles: their peak times
  /// the same 4.2 / 5.3 ([model]).
  double hbmBytesPerClk = 4.2e12 / 2.1e9;
  double hbmPeakTBs = 5.3;          ///< [WP] data-sheet peak
  // HBM bandwidth is served per channel: 128 channels (8 stacks of 16), each
  // 1/128 of hbmBytesPerClk, a line's channel from its address ([UMC12],
  // HbmChannels.h; every profile: 8 stacks of 16 channels).
  unsigned hbmLatency = 760;        ///< hbmLatencyNs at clockMHz
  unsigned storeAckLatency = 250;   ///< [model] a store counts in vmcnt until L2 acks
  /// Atomics execute at L2 (not in L1): an atomic instruction occupies
  /// each line it touches at its L2 channel this long, so atomics to one
  /// line serialise there ([model]).
  unsigned atomicLineCycles = 16;
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

  // ---- the device ----
  std::string device = "mi300x";    ///< profile name (devices())
  std::string target = "gfx942";

  /// mallLatency and hbmLatency from their times at clockMHz.
  void setFabricLatencies() {
    mallLatency = unsigned(mallLatencyNs * clockMHz / 1000 + 0.5);
    hbmLatency = unsigned(hbmLatencyNs * clockMHz / 1000 + 0.5);
  }

  /// The profiles: MI300X (everything above), MI308X, MI325X (gfx942),
  /// MI355X (gfx950). Sources in the header's list.
  static const std::vector<std::string> &devices() {
    static const std::vector<std::string> names = {"mi300x", "mi308x", "mi325x", "mi355x"};
    return names;
  }
  /// The profile `name`; false if there is none.
  static bool forDevice(const std::string &name, Params &p) {
    p = Params();
    p.device = name;
    if (name == "mi300x")
      return true;
    if (name == "mi308x") {
      p.numCUs = 80;                 // [MI308X] [aiter] cu_num 80
      p.cusPerXcd = 10;              // [MI308X] 8 XCDs
      // [aiter] best dense GEMM measured on 80 CUs: 395.4 TOP/s int8
      // (a8w8_bpreshuffle_tuned_gemm.csv, 20480x4608x7168), 0.575 of the
      // 688.1 peak (80/304 of 2614.9) at 2100 MHz.
      p.mfmaClockMHz = 1207;
      return true;
    }
    if (name == "mi325x") {
      p.hbmPeakTBs = 6.0;               // [MI325X] 6 TB/s HBM3E
      p.hbmBytesPerClk = 6e12 * (4.2 / 5.3) / 2.1e9;
      // [MAF] MI325X (1000 W): median 1447 MHz at 840.8 TFLOP/s bf16, 0.933
      // of the peak at 1447 MHz: 2100 - (2100 - 1447) / 0.933 = 1400.
      p.mfmaClockMHz = 1400;
      return true;
    }
    if (name == "mi355x") {
      p.target = "gfx950";
      p.numCUs = 256;                // [CDNA4]
      p.cusPerXcd = 32;
      p.clockMHz = 2400;
      p.setFabricLatencies();
      p.ldsPerCU = 160 * 1024;
      // [CDNA4-LDS] 64 banks: 256 bytes per clock, ds_read_b128 in 4
      // phases of 16 lanes (Account.cpp). AMD's profiler config
      // (rocprofiler-compute gfx950 "Theoretical LDS Bandwidth": 128 bytes
      // per CU per clock) keeps CDNA3's figure; we follow the ISA's bank
      // count, which AMD's blog cites.
      p.ldsBanks = 64;
      p.hbmPeakTBs = 8.0;
      p.hbmBytesPerClk = 8e12 * (4.2 / 5.3) / 2.4e9;
      p.mallBytesPerClk = 17e12 / 2.4e9;  // [model] MI300X's Infinity Cache
      // [aiter] best dense GEMM measured on 256 CUs: 5780.7 TFLOP/s fp4
      // (a4w4_blockscale_tuned_gemm.csv, 32768x8192x28672), 0.574 of the
      // 10066 peak at 2400 MHz.
      p.mfmaClockMHz = 1378;
      return true;
    }
    return false;
  }
  /// The default profile of a target: its flagship (gfx950: MI355X, else
  /// MI300X).
  static std::string defaultDevice(const std::string &processor) {
    return processor == "gfx950" ? "mi355x" : "mi300x";
  }
  static Params forProcessor(const std::string &processor) {
    Params p;
    forDevice(defaultDevice(processor), p);
    return p;
  }
};

} // namespace aster::emu::timing

#endif
