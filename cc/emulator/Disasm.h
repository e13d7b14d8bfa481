//===- Disasm.h - LLVM's AMDGPU disassembler, to text ---------------------===//
//
// Wraps the MC layer: decodes one instruction at a time and prints it in
// LLVM's AMDGPU assembly syntax. Only used while loading a code object.
//
//===----------------------------------------------------------------------===//
#ifndef ASTER_EMULATOR_DISASM_H
#define ASTER_EMULATOR_DISASM_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>

namespace aster::emu {

class Disassembler {
public:
  /// `cpu` is an AMDGPU processor name such as "gfx942".
  static llvm::Expected<std::unique_ptr<Disassembler>> create(llvm::StringRef cpu);
  ~Disassembler();

  struct Line {
    unsigned size = 0;   ///< bytes consumed (4 when decoding failed)
    bool ok = false;
    std::string text;    ///< "v_add_f32_e32 v0, v1, v2" (no leading tab)
  };
  /// Decodes the instruction at the start of `bytes`, located at `addr`.
  Line decode(llvm::ArrayRef<uint8_t> bytes, uint64_t addr) const;

private:
  Disassembler();
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace aster::emu

#endif
