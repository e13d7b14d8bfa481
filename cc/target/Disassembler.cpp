//===- Disassembler.cpp - LLVM's AMDGPU disassembler, to text -------------===//
// See Disassembler.h.
#include "target/Disassembler.h"
#include "target/MCTarget.h"
#include "recovery/Recovery.h"

#include <optional>

#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCDisassembler/MCDisassembler.h"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCInstPrinter.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace aster::target {

struct InstDisassembler::Impl {
  const MCTarget *t = nullptr;
  std::unique_ptr<MCContext> ctx;
  std::unique_ptr<MCDisassembler> dis;
  std::unique_ptr<MCInstPrinter> printer;
};

InstDisassembler::InstDisassembler() : impl_(std::make_unique<Impl>()) {}
InstDisassembler::~InstDisassembler() = default;

Expected<std::unique_ptr<InstDisassembler>> InstDisassembler::create(StringRef cpu) {
  auto tOr = MCTarget::get(cpu);
  if (!tOr)
    return tOr.takeError();
  const MCTarget &t = *tOr;
  std::unique_ptr<InstDisassembler> d(new InstDisassembler());
  Impl &I = *d->impl_;
  I.t = &t;
  I.ctx = std::make_unique<MCContext>(t.triple, t.mai.get(), t.mri.get(), t.sti.get());
  I.dis.reset(t.target->createMCDisassembler(*t.sti, *I.ctx));
  I.printer.reset(t.target->createMCInstPrinter(t.triple, t.mai->getAssemblerDialect(),
                                                *t.mai, *t.mii, *t.mri));
  if (!I.dis || !I.printer)
    return createStringError("cannot create the AMDGPU disassembler");
  return std::move(d);
}

InstDisassembler::Line InstDisassembler::decode(ArrayRef<uint8_t> bytes,
                                                uint64_t addr) const {
  Line line;
  MCInst mi;
  uint64_t size = 0;
  MCDisassembler::DecodeStatus st =
      impl_->dis->getInstruction(mi, size, bytes, addr, nulls());
  if (st != MCDisassembler::Success || size == 0 || size > bytes.size()) {
    line.size = 4;
    return line;
  }
  SmallString<128> printed;
  raw_svector_ostream os(printed);
  impl_->printer->printInst(&mi, addr, "", *impl_->t->sti, os);
  line.text = StringRef(printed).trim().str();     // the printer indents with a tab
  line.size = unsigned(size);
  line.ok = true;
  return line;
}

static Expected<std::vector<std::string>> disassembleUnguarded(ArrayRef<char> object,
                                                              StringRef cpu) {
  auto objOr = object::ObjectFile::createObjectFile(
      MemoryBufferRef(StringRef(object.data(), object.size()), "<object>"));
  if (!objOr)
    return objOr.takeError();
  auto dis = InstDisassembler::create(cpu);
  if (!dis)
    return dis.takeError();
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
      InstDisassembler::Line line = (*dis)->decode(bytes.slice(off), addr + off);
      if (!line.ok)
        return createStringError("cannot decode the instruction at offset " +
                                 std::to_string(off));
      lines.push_back(std::move(line.text));
      off += line.size;
    }
  }
  return lines;
}

Expected<std::vector<std::string>> disassemble(ArrayRef<char> object, StringRef cpu) {
  // The bytes come from the user: LLVM's object reader and disassembler run
  // under crash recovery.
  std::optional<Expected<std::vector<std::string>>> result;
  if (Error e = runRecoverable("disassembly failed",
                               [&] { result.emplace(disassembleUnguarded(object, cpu)); }))
    return std::move(e);
  return std::move(*result);
}

} // namespace aster::target
