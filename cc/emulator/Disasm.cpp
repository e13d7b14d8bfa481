//===- Disasm.cpp - LLVM's AMDGPU disassembler, to text -------------------===//
#include "emulator/Disasm.h"

#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCDisassembler/MCDisassembler.h"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCInstPrinter.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/MCTargetOptions.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"

#include <mutex>

extern "C" {
void LLVMInitializeAMDGPUTargetInfo();
void LLVMInitializeAMDGPUTargetMC();
void LLVMInitializeAMDGPUDisassembler();
}

using namespace llvm;

namespace aster::emu {

struct Disassembler::Impl {
  Triple triple{"amdgcn-amd-amdhsa"};
  std::unique_ptr<MCRegisterInfo> mri;
  std::unique_ptr<MCAsmInfo> mai;
  std::unique_ptr<MCSubtargetInfo> sti;
  std::unique_ptr<MCInstrInfo> mii;
  std::unique_ptr<MCContext> ctx;
  std::unique_ptr<MCDisassembler> dis;
  std::unique_ptr<MCInstPrinter> printer;
};

Disassembler::Disassembler() : impl_(std::make_unique<Impl>()) {}
Disassembler::~Disassembler() = default;

Expected<std::unique_ptr<Disassembler>> Disassembler::create(StringRef cpu) {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTargetMC();
    LLVMInitializeAMDGPUDisassembler();
  });
  std::unique_ptr<Disassembler> d(new Disassembler());
  Impl &I = *d->impl_;
  std::string err;
  const Target *t = TargetRegistry::lookupTarget(I.triple, err);
  if (!t)
    return createStringError("AMDGPU target not available in LLVM: " + err);
  I.mri.reset(t->createMCRegInfo(I.triple));
  MCTargetOptions opts;
  if (I.mri)
    I.mai.reset(t->createMCAsmInfo(*I.mri, I.triple, opts));
  I.sti.reset(t->createMCSubtargetInfo(I.triple, cpu, ""));
  I.mii.reset(t->createMCInstrInfo());
  if (!I.mri || !I.mai || !I.sti || !I.mii)
    return createStringError("cannot create the AMDGPU MC layer for " + cpu.str());
  if (!I.sti->isCPUStringValid(cpu))
    return createStringError("LLVM does not know the processor '" + cpu.str() + "'");
  I.ctx = std::make_unique<MCContext>(I.triple, I.mai.get(), I.mri.get(), I.sti.get());
  I.dis.reset(t->createMCDisassembler(*I.sti, *I.ctx));
  I.printer.reset(t->createMCInstPrinter(I.triple, I.mai->getAssemblerDialect(),
                                         *I.mai, *I.mii, *I.mri));
  if (!I.dis || !I.printer)
    return createStringError("cannot create the AMDGPU disassembler");
  return std::move(d);
}

Disassembler::Line Disassembler::decode(ArrayRef<uint8_t> bytes, uint64_t addr) const {
  Line line;
  MCInst mi;
  uint64_t size = 0;
  MCDisassembler::DecodeStatus st =
      impl_->dis->getInstruction(mi, size, bytes, addr, nulls());
  if (st != MCDisassembler::Success || size == 0 || size > bytes.size()) {
    line.size = 4;
    line.ok = false;
    return line;
  }
  raw_string_ostream os(line.text);
  impl_->printer->printInst(&mi, addr, "", *impl_->sti, os);
  os.flush();
  // The printer indents with a tab and may append comments after '//'.
  StringRef t = StringRef(line.text).trim();
  size_t c = t.find("//");
  if (c != StringRef::npos)
    t = t.substr(0, c).rtrim();
  line.text = t.str();
  line.size = unsigned(size);
  line.ok = true;
  return line;
}

} // namespace aster::emu
