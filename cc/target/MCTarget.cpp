//===- MCTarget.cpp - LLVM MC objects for one AMDGPU target --------------===//
#include "target/MCTarget.h"
#include "recovery/ForkSafeMutex.h"

#include "llvm/ADT/StringMap.h"

#include <mutex>

extern "C" {
void LLVMInitializeAMDGPUTargetInfo();
void LLVMInitializeAMDGPUTargetMC();
void LLVMInitializeAMDGPUAsmParser();
void LLVMInitializeAMDGPUDisassembler();
}

using namespace llvm;

namespace aster::target {

void initializeAMDGPU() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTargetMC();
    LLVMInitializeAMDGPUAsmParser();
    LLVMInitializeAMDGPUDisassembler();
  });
}

Expected<std::unique_ptr<MCTarget>> MCTarget::create(StringRef cpu) {
  if (cpu != "gfx942" && cpu != "gfx950" && cpu != "gfx1201")
    return createStringError("unknown target '" + cpu.str() +
                             "' (expected gfx942, gfx950 or gfx1201)");
  initializeAMDGPU();
  auto t = std::make_unique<MCTarget>();
  t->triple = Triple(kTriple);
  t->cpu = cpu.str();
  std::string err;
  t->target = TargetRegistry::lookupTarget(t->triple, err);
  if (!t->target)
    return createStringError("AMDGPU target unavailable: " + err);
  t->mri.reset(t->target->createMCRegInfo(t->triple));
  t->mai.reset(t->target->createMCAsmInfo(*t->mri, t->triple, t->options));
  t->mii.reset(t->target->createMCInstrInfo());
  t->sti.reset(t->target->createMCSubtargetInfo(t->triple, cpu, ""));
  if (!t->mri || !t->mai || !t->mii || !t->sti)
    return createStringError("cannot create MC objects for " + cpu.str());
  return std::move(t);
}

Expected<const MCTarget &> MCTarget::get(StringRef cpu) {
  static ForkSafeMutex &mu = *new ForkSafeMutex;
  static auto &cache = *new StringMap<std::unique_ptr<MCTarget>>;
  std::lock_guard<ForkSafeMutex> lock(mu);
  auto it = cache.find(cpu);
  if (it != cache.end())
    return *it->second;
  auto t = create(cpu);
  if (!t)
    return t.takeError();
  return *(cache[cpu] = std::move(*t));
}

} // namespace aster::target
