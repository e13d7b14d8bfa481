//===- DirectObject.cpp - kernel symbols, descriptor, metadata note via MC =//
//
// Facts from LLVM's AMDGPUUsage ("Kernel Descriptor", "Code Object Metadata",
// "Note Records") and what LLVM's AMDGPU ELF target streamer emits for
// `.amdhsa_kernel` and `.amdgpu_metadata`: the descriptor symbol is an
// STT_OBJECT of 64 bytes with the kernel symbol's binding and visibility, its
// kernel_code_entry_byte_offset is `K@rel64 - K.kd`, and the kernel symbol
// becomes protected; the note lives in an allocated SHT_NOTE section `.note`,
// name "AMDGPU", type NT_AMDGPU_METADATA, 4-byte aligned parts.
//
//===----------------------------------------------------------------------===//
#include "target/DirectObject.h"

#include "llvm/BinaryFormat/AMDGPUMetadataVerifier.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCExpr.h"
#include "llvm/MC/MCSectionELF.h"
#include "llvm/MC/MCSymbolELF.h"
#include "llvm/Support/AMDHSAKernelDescriptor.h"
#include "llvm/TargetParser/TargetParser.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Casting.h"

#include <cstddef>

using namespace llvm;

namespace aster::target::direct {

namespace {
MCSection *textSection(MCContext &ctx) {
  return ctx.getELFSection(".text", ELF::SHT_PROGBITS, ELF::SHF_EXECINSTR | ELF::SHF_ALLOC);
}
} // namespace

MCSymbol *beginKernel(MCStreamer &out, const MCSubtargetInfo &sti, StringRef name) {
  MCSymbol *sym = out.getContext().getOrCreateSymbol(name);
  out.emitSymbolAttribute(sym, MCSA_Protected);
  out.emitSymbolAttribute(sym, MCSA_Global);
  out.emitCodeAlignment(Align(256), &sti);
  out.emitSymbolAttribute(sym, MCSA_ELF_TypeFunction);
  out.emitLabel(sym);
  return sym;
}

MCSymbol *beginDeviceFunction(MCStreamer &out, const MCSubtargetInfo &sti, StringRef name,
                              unsigned p2align) {
  out.emitCodeAlignment(Align(1ull << p2align), &sti);
  MCSymbol *sym = out.getContext().getOrCreateSymbol(name);
  out.emitSymbolAttribute(sym, MCSA_ELF_TypeFunction);
  out.emitLabel(sym);
  return sym;
}

void endDeviceFunction(MCStreamer &out, MCSymbol *function, unsigned idx) {
  MCContext &ctx = out.getContext();
  MCSymbol *end = ctx.getOrCreateSymbol(".Ldf_end" + Twine(idx));
  out.emitLabel(end);
  out.emitELFSize(function, MCBinaryExpr::createSub(MCSymbolRefExpr::create(end, ctx),
                                                    MCSymbolRefExpr::create(function, ctx),
                                                    ctx));
}

bool endKernel(MCStreamer &out, MCSymbol *kernel, unsigned idx, ArrayRef<uint8_t> kd) {
  MCContext &ctx = out.getContext();
  std::optional<uint32_t> rel64 = ctx.getAsmInfo()->getSpecifierForName("rel64");
  if (!rel64 || kd.size() != sizeof(amdhsa::kernel_descriptor_t))
    return false;
  MCSymbol *end = ctx.getOrCreateSymbol(".Lfunc_end" + Twine(idx));
  out.emitLabel(end);
  out.emitELFSize(kernel, MCBinaryExpr::createSub(MCSymbolRefExpr::create(end, ctx),
                                                  MCSymbolRefExpr::create(kernel, ctx), ctx));

  out.switchSection(ctx.getELFSection(".rodata", ELF::SHT_PROGBITS, ELF::SHF_ALLOC));
  out.emitValueToAlignment(Align(64));
  auto *code = llvm::cast<MCSymbolELF>(kernel);
  auto *desc = llvm::cast<MCSymbolELF>(ctx.getOrCreateSymbol(kernel->getName() + ".kd"));
  desc->setBinding(code->getBinding());
  desc->setOther(code->getOther());
  desc->setVisibility(code->getVisibility());
  desc->setType(ELF::STT_OBJECT);
  desc->setSize(MCConstantExpr::create(sizeof(amdhsa::kernel_descriptor_t), ctx));
  if (code->getVisibility() == ELF::STV_DEFAULT)
    code->setVisibility(ELF::STV_PROTECTED);
  out.emitLabel(desc);
  // Everything but the entry offset is data; the offset is a relocation.
  constexpr size_t at = offsetof(amdhsa::kernel_descriptor_t, kernel_code_entry_byte_offset);
  constexpr size_t size = sizeof(amdhsa::kernel_descriptor_t::kernel_code_entry_byte_offset);
  StringRef bytes((const char *)kd.data(), kd.size());
  out.emitBytes(bytes.take_front(at));
  out.emitValue(MCBinaryExpr::createSub(MCSymbolRefExpr::create(code, *rel64, ctx),
                                        MCSymbolRefExpr::create(desc, ctx), ctx),
                size);
  out.emitBytes(bytes.drop_front(at + size));
  out.switchSection(textSection(ctx));
  return true;
}

bool emitMetadataNote(MCStreamer &out, msgpack::Document &doc) {
  AMDGPU::HSAMD::V3::MetadataVerifier verifier(/*Strict=*/false);
  if (!verifier.verify(doc.getRoot()))
    return false;
  std::string blob;
  doc.writeToBlob(blob);
  MCContext &ctx = out.getContext();
  static constexpr StringLiteral kName = "AMDGPU";
  out.pushSection();
  out.switchSection(ctx.getELFSection(".note", ELF::SHT_NOTE, ELF::SHF_ALLOC));
  out.emitInt32(kName.size() + 1);
  out.emitInt32(blob.size());
  out.emitInt32(ELF::NT_AMDGPU_METADATA);
  out.emitBytes(kName);
  out.emitValueToAlignment(Align(4));
  out.emitBytes(blob);
  out.emitValueToAlignment(Align(4));
  out.popSection();
  return true;
}

std::optional<std::pair<unsigned, uint8_t>> elfHeader(StringRef cpu, int64_t cov) {
  // ELF.h: the machine numbers; AMDGPUUsage "ELF Header": code object v4+
  // (ABI versions V4-V6) state xnack and sramecc as unsupported/any/off/on.
  unsigned mach = llvm::StringSwitch<unsigned>(cpu)
                      .Case("gfx942", ELF::EF_AMDGPU_MACH_AMDGCN_GFX942)
                      .Case("gfx950", ELF::EF_AMDGPU_MACH_AMDGCN_GFX950)
                      .Case("gfx1201", ELF::EF_AMDGPU_MACH_AMDGCN_GFX1201)
                      .Default(0);
  uint8_t abi;
  switch (cov) {
  case 4: abi = ELF::ELFABIVERSION_AMDGPU_HSA_V4; break;
  case 5: abi = ELF::ELFABIVERSION_AMDGPU_HSA_V5; break;
  case 6: abi = ELF::ELFABIVERSION_AMDGPU_HSA_V6; break;
  default: return std::nullopt;
  }
  AMDGPU::GPUKind kind = AMDGPU::parseArchAMDGCN(cpu);
  if (!mach || kind == AMDGPU::GK_NONE)
    return std::nullopt;
  unsigned attrs = AMDGPU::getArchAttrAMDGCN(kind);
  unsigned flags = mach;
  flags |= (attrs & AMDGPU::FEATURE_XNACK) ? ELF::EF_AMDGPU_FEATURE_XNACK_ANY_V4
                                           : ELF::EF_AMDGPU_FEATURE_XNACK_UNSUPPORTED_V4;
  flags |= (attrs & AMDGPU::FEATURE_SRAMECC) ? ELF::EF_AMDGPU_FEATURE_SRAMECC_ANY_V4
                                             : ELF::EF_AMDGPU_FEATURE_SRAMECC_UNSUPPORTED_V4;
  return std::make_pair(flags, abi);
}

} // namespace aster::target::direct
