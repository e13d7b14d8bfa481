//===- MCTarget.h - LLVM MC objects for one AMDGPU target ----------------===//
//
// One place that initialises LLVM's AMDGPU target (once per process) and
// builds the MC objects (register info, asm info, instruction info, subtarget)
// for a target name such as "gfx942". Shared by the assembler, the
// disassembler and the emulator's decoder.
//
// MCTarget::get keeps one set per target for the process (building them
// costs tens of microseconds per call, paid by every code object before).
// They are only read after they are built: LLVM's MC layer takes them as
// const (MCContext, code emitter, asm backend); an assembly parser that
// changes subtarget features works on its MCContext's copy (copySTI), so
// threads may use one set at once.
//
//===----------------------------------------------------------------------===//
#ifndef ASTER_TARGET_MCTARGET_H
#define ASTER_TARGET_MCTARGET_H

#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/MCTargetOptions.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/Error.h"
#include "llvm/TargetParser/Triple.h"

#include <memory>

namespace aster::target {

constexpr const char *kTriple = "amdgcn-amd-amdhsa";

struct MCTarget {
  llvm::Triple triple;
  std::string cpu;
  const llvm::Target *target = nullptr;
  llvm::MCTargetOptions options;
  std::unique_ptr<llvm::MCRegisterInfo> mri;
  std::unique_ptr<llvm::MCAsmInfo> mai;
  std::unique_ptr<llvm::MCInstrInfo> mii;
  std::unique_ptr<llvm::MCSubtargetInfo> sti;

  /// Builds the MC objects for `cpu` (gfx942, gfx950, gfx1201).
  static llvm::Expected<std::unique_ptr<MCTarget>> create(llvm::StringRef cpu);
  /// The process's MC objects for `cpu`, built on first use, never freed.
  static llvm::Expected<const MCTarget &> get(llvm::StringRef cpu);
};

/// Initialises the AMDGPU target (info, MC, asm parser, disassembler) once.
void initializeAMDGPU();

} // namespace aster::target

#endif
