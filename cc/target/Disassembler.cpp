//===- Disassembler.cpp - code bytes back to LLVM assembly text ----------===//
#include "target/Assembler.h"
#include "target/MCTarget.h"
#include "recovery/Recovery.h"

#include <optional>

#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCDisassembler/MCDisassembler.h"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCInstPrinter.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;

namespace aster::target {

static Expected<std::vector<std::string>> disassembleUnguarded(ArrayRef<char> object,
                                                              StringRef cpu) {
  auto tOr = MCTarget::get(cpu);
  if (!tOr)
    return tOr.takeError();
  const MCTarget &t = *tOr;
  auto objOr = object::ObjectFile::createObjectFile(
      MemoryBufferRef(StringRef(object.data(), object.size()), "<object>"));
  if (!objOr)
    return objOr.takeError();
  MCContext ctx(t.triple, t.mai.get(), t.mri.get(), t.sti.get());
  std::unique_ptr<MCDisassembler> dis(t.target->createMCDisassembler(*t.sti, ctx));
  std::unique_ptr<MCInstPrinter> ip(t.target->createMCInstPrinter(
      t.triple, t.mai->getAssemblerDialect(), *t.mai, *t.mii, *t.mri));
  if (!dis || !ip)
    return createStringError("cannot create the AMDGPU disassembler");
  std::vector<std::string> lines;
  for (const object::SectionRef &sec : (*objOr)->sections()) {
    if (!sec.isText())
      continue;
    auto contents = sec.getContents();
    if (!contents)
      return contents.takeError();
    ArrayRef<uint8_t> bytes(reinterpret_cast<const uint8_t *>(contents->data()),
                            contents->size());
    uint64_t addr = sec.getAddress();
    for (uint64_t off = 0; off < bytes.size();) {
      MCInst inst;
      uint64_t size = 0;
      auto st = dis->getInstruction(inst, size, bytes.slice(off), addr + off, nulls());
      if (st != MCDisassembler::Success || size == 0)
        return createStringError("cannot decode the instruction at offset " +
                                 std::to_string(off));
      std::string text;
      raw_string_ostream os(text);
      ip->printInst(&inst, addr + off, "", *t.sti, os);
      StringRef s = StringRef(text).trim();
      lines.push_back(s.str());
      off += size;
    }
  }
  return lines;
}

Expected<std::vector<std::string>> disassemble(ArrayRef<char> object,
                                               StringRef cpu) {
  // The bytes come from the user: LLVM's object reader and disassembler run
  // under crash recovery.
  std::optional<Expected<std::vector<std::string>>> result;
  if (Error e = runRecoverable("disassembly failed",
                               [&] { result.emplace(disassembleUnguarded(object, cpu)); }))
    return std::move(e);
  return std::move(*result);
}

} // namespace aster::target
