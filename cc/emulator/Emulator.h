//===- Emulator.h - aster's gfx942 emulator: public API ------------------===//
//
// Loads AMDGPU code objects (HSA code object v4/v5, gfx942) and runs their
// kernels on an emulated device:
//
//   auto co = CodeObject::load(bytes);            // ELF + descriptors + decode
//   Device dev;
//   uint64_t a = *dev.allocate(4096, "a");        // device address of a buffer
//   dev.write(a, hostBytes);
//   KernargBuilder args; args.addPointer(a).addI32(n);
//   auto stats = dev.launch(**co, "kernel", {groups}, {256}, args.bytes());
//   dev.read(a, hostBytes);
//
// Every buffer is a separate region with known bounds; a launch works on
// copies of the buffers and only writes them back when the kernel completed
// without error, so a failed launch never changes the caller's data.
// All errors are reported as llvm::Error with a message naming the kernel,
// the pc and the disassembled instruction where that applies.
//
//===----------------------------------------------------------------------===//
#ifndef ASTER_EMULATOR_EMULATOR_H
#define ASTER_EMULATOR_EMULATOR_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include "emulator/timing/Result.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace aster::emu {

class Program;

/// Grid and workgroup dimensions.
struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
  uint64_t count() const { return uint64_t(x) * y * z; }
};

/// One kernel argument from the code object metadata (amdhsa.kernels[].args).
struct KernelArg {
  std::string name, typeName;
  std::string valueKind;     ///< by_value, global_buffer, hidden_block_count_x, ...
  std::string addressSpace;  ///< global, constant, local, ... or empty
  uint32_t offset = 0, size = 0;
  bool isHidden() const { return llvm::StringRef(valueKind).starts_with("hidden_"); }
};

/// What the loader knows about one kernel: its descriptor (NAME.kd) fields
/// and its metadata.
struct KernelInfo {
  std::string name;               ///< symbol name, without ".kd"
  uint64_t descriptorAddr = 0;    ///< address of NAME.kd in the code object
  uint64_t entryAddr = 0;         ///< first instruction
  uint64_t codeSize = 0;          ///< size of the kernel function symbol (0 if unknown)
  // Kernel descriptor.
  uint32_t groupSegmentSize = 0, privateSegmentSize = 0, kernargSize = 0;
  uint32_t rsrc1 = 0, rsrc2 = 0, rsrc3 = 0;
  uint16_t codeProperties = 0, kernargPreload = 0;
  // Derived from the descriptor.
  unsigned userSgprCount = 0;     ///< compute_pgm_rsrc2.USER_SGPR_COUNT
  unsigned granulatedVgprs = 0;   ///< VGPRs+AGPRs the descriptor allocates
  unsigned accumOffset = 0;       ///< first AGPR in the unified file (gfx90a+)
  // Metadata (0 / empty when absent).
  uint32_t kernargSegmentAlign = 0, maxFlatWorkgroupSize = 0, wavefrontSize = 64;
  uint32_t sgprCount = 0, vgprCount = 0, agprCount = 0;
  bool usesDynamicStack = false;
  std::vector<KernelArg> args;

  /// Bytes of explicit (non-hidden) arguments: the end of the last one.
  uint32_t explicitArgsSize() const;
  /// Size of the kernarg segment the launch builds (explicit + hidden).
  uint32_t kernargSegmentSize() const;
};

/// A loaded, pre-decoded code object. Immutable after load; can be launched
/// from several devices and threads.
class CodeObject {
public:
  /// Parses an ELF code object (gfx940/941/942) and decodes all its code.
  static llvm::Expected<std::unique_ptr<CodeObject>>
  load(llvm::ArrayRef<uint8_t> bytes);
  static llvm::Expected<std::unique_ptr<CodeObject>> loadFile(llvm::StringRef path);
  ~CodeObject();

  llvm::StringRef processor() const { return processor_; }
  /// HSA code object version (4, 5 or 6), from the ELF ABI version.
  unsigned codeObjectVersion() const { return coVersion_; }
  llvm::ArrayRef<KernelInfo> kernels() const { return kernels_; }
  /// Looks a kernel up by symbol name (with or without ".kd").
  const KernelInfo *findKernel(llvm::StringRef name) const;
  /// Like findKernel but an llvm::Error listing the kernels when not found.
  llvm::Expected<const KernelInfo *> getKernel(llvm::StringRef name) const;

  /// The kernel's code as "ADDRESS: TEXT" lines.
  std::string disassemble(const KernelInfo &k) const;
  /// Instructions in the kernel's code the emulator cannot execute, as
  /// "pc 0x...: TEXT: reason" lines. Empty when the whole kernel is supported.
  std::vector<std::string> unsupported(const KernelInfo &k) const;

  const Program &program() const { return *program_; }
  /// The loadable image (all PT_LOAD segments), mapped at imageBase() during
  /// a launch so that code can address its own globals.
  llvm::ArrayRef<uint8_t> image() const { return image_; }

private:
  CodeObject();
  std::string processor_;
  unsigned coVersion_ = 0;
  std::vector<KernelInfo> kernels_;
  std::unique_ptr<Program> program_;
  std::vector<uint8_t> image_;
  friend class CodeObjectLoader;
};

/// What to do when a register is read before anything wrote it.
enum class UninitPolicy : uint8_t { Error, Warn, Ignore };

struct LaunchOptions {
  /// Strict mode: reading a register whose load is not yet covered by an
  /// s_waitcnt, writing it while the load is outstanding, and LDS accesses
  /// outside the workgroup's allocation are errors.
  bool strict = true;
  /// Reading a never-written register (checked in strict mode only).
  UninitPolicy uninitialized = UninitPolicy::Error;
  /// Total wave-instructions the launch may execute; 0 means no limit.
  uint64_t instructionBudget = 2000000000ull;
  /// Instructions a wave runs before the next wave of its workgroup takes a
  /// turn (or until it reaches s_barrier or ends); 1 interleaves the waves
  /// instruction by instruction, as the hardware issues them. Kernels that
  /// order LDS accesses of different waves between barriers by timing alone
  /// need a small value (AMD's gfx950 causal fmha_v3_fwd); larger is faster.
  /// Ignored by the timing model, which interleaves by cycle.
  uint64_t sliceInstructions = 4096;
  /// Worker threads for workgroups (1: everything on the calling thread).
  /// Results do not depend on it, except for the order of atomics between
  /// workgroups.
  unsigned threads = 1;
  /// With one thread: compute dense MFMAs on a second host thread
  /// (MatrixThread.h; the same results and cycles). The environment
  /// variable ASTER_EMU_MATRIX_THREAD=0 turns it off (read at each launch).
  bool matrixThread = true;
  /// Dynamic LDS bytes added to the kernel's group segment size.
  uint32_t dynamicLdsBytes = 0;
  /// Buffers (device addresses from Device::allocate) the kernel may access;
  /// empty means all buffers of the device.
  std::vector<uint64_t> buffers;
  /// Maximum number of warning messages kept in LaunchStats::warnings.
  unsigned maxWarnings = 32;
  /// Record the first `traceLimit` executed instructions (all waves, in
  /// execution order) in LaunchStats::trace; 0 disables tracing. Tracing
  /// forces a single worker thread.
  unsigned traceLimit = 0;
  /// Run the timing model (cc/emulator/timing) with the emulation:
  /// LaunchStats::timing gets the simulated cycles, per-wave records and
  /// per-instruction events; s_memtime/s_memrealtime return simulated time.
  /// Forces a single worker thread.
  bool timing = false;
  /// Events kept in LaunchStats::timing (the counts cover all of them).
  unsigned timingEvents = 1000000;
  /// The device profile the timing model runs (timing::Params::devices());
  /// empty: the code object's target's default (gfx942 MI300X, gfx950 MI355X).
  std::string timingDevice;
  /// The launch's data starts in the Infinity Cache (timing::Params::dataInMall).
  bool timingDataInMall = false;
};

struct LaunchStats {
  uint64_t waveInstructions = 0;  ///< instructions executed, summed over waves
  uint64_t salu = 0, valu = 0, smem = 0, vmem = 0, lds = 0, mfma = 0, branch = 0;
  uint64_t workgroups = 0, waves = 0;
  double seconds = 0;             ///< wall-clock time of the emulation
  std::vector<std::string> warnings;
  /// "wg (x,y,z) wave W pc 0x...: TEXT" per executed instruction, when
  /// LaunchOptions::traceLimit is set.
  std::vector<std::string> trace;
  /// Set when LaunchOptions::timing was.
  std::shared_ptr<const timing::Result> timing;
  double waveInstructionsPerSecond() const {
    return seconds > 0 ? double(waveInstructions) / seconds : 0;
  }
};

/// Builds a kernarg segment with natural alignment of each argument.
class KernargBuilder {
public:
  KernargBuilder &addI32(int32_t v) { return addRaw(&v, 4, 4); }
  KernargBuilder &addU32(uint32_t v) { return addRaw(&v, 4, 4); }
  KernargBuilder &addI64(int64_t v) { return addRaw(&v, 8, 8); }
  KernargBuilder &addU64(uint64_t v) { return addRaw(&v, 8, 8); }
  KernargBuilder &addF32(float v) { return addRaw(&v, 4, 4); }
  KernargBuilder &addF64(double v) { return addRaw(&v, 8, 8); }
  KernargBuilder &addI16(int16_t v) { return addRaw(&v, 2, 2); }
  KernargBuilder &addI8(int8_t v) { return addRaw(&v, 1, 1); }
  KernargBuilder &addPointer(uint64_t addr) { return addU64(addr); }
  KernargBuilder &addRaw(const void *p, size_t size, size_t align);
  const std::vector<uint8_t> &bytes() const { return bytes_; }

private:
  std::vector<uint8_t> bytes_;
};

/// An emulated gfx942 device: a flat 64-bit address space of buffers.
class Device {
public:
  Device();
  ~Device();
  Device(const Device &) = delete;
  Device &operator=(const Device &) = delete;

  /// Allocates a zero-filled buffer; returns its device address (aligned to
  /// 4096). Buffers are separated by unmapped guard gaps.
  /// `slack`: bytes after the buffer's end that kernels may read (as zeros)
  /// but not write, as a caching allocator's rounding leaves readable memory
  /// after a tensor (AMD's asm kernels read whole tiles past the last row).
  /// Host reads, writes and `contents` see only the `bytes` of the buffer.
  llvm::Expected<uint64_t> allocate(uint64_t bytes, llvm::StringRef name = "",
                                    uint64_t slack = 0);
  /// Frees the buffer that starts at `addr`.
  llvm::Error release(uint64_t addr);
  /// Copies into / out of device memory; the range must lie in one buffer.
  llvm::Error write(uint64_t addr, llvm::ArrayRef<uint8_t> data);
  llvm::Error read(uint64_t addr, llvm::MutableArrayRef<uint8_t> out) const;
  /// The whole buffer that starts at `addr`.
  llvm::Expected<llvm::MutableArrayRef<uint8_t>> contents(uint64_t addr);
  /// Size of the buffer starting at `addr`, or an error.
  llvm::Expected<uint64_t> bufferSize(uint64_t addr) const;

  /// Runs `kernel` over `grid` workgroups (counts per dimension, not
  /// work-items) of `block` work-items. `kernargs` holds the explicit
  /// arguments; hidden arguments (code object v5) are filled in by the
  /// launch.
  llvm::Expected<LaunchStats> launch(const CodeObject &co, llvm::StringRef kernel,
                                     Dim3 grid, Dim3 block,
                                     llvm::ArrayRef<uint8_t> kernargs,
                                     const LaunchOptions &opts = LaunchOptions());

  struct Buffer {
    uint64_t addr = 0;
    std::string name;
    std::vector<uint8_t> data;
    uint64_t slack = 0;  ///< readable, zero, unwritable bytes after data
  };
  const std::map<uint64_t, Buffer> &buffers() const { return buffers_; }

private:
  llvm::Expected<const Buffer *> bufferFor(uint64_t addr, uint64_t size) const;
  std::map<uint64_t, Buffer> buffers_;
  uint64_t nextAddr_;
  uint64_t dispatchId_ = 0;
};

} // namespace aster::emu

#endif
