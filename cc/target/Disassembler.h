//===- Disassembler.h - LLVM's AMDGPU disassembler, to text ---------------===//
//
// aster's one wrapper of LLVM's MC disassembler and instruction printer.
// Users: the emulator's decoder (cc/emulator/Decoder.cpp: one instruction at
// a time while loading a code object), raising (raise/RaiseCodeObject.cpp:
// each function's code) and aster.disassemble (disassemble() below: the text
// sections of an object).
//
// Needs: nothing but LLVM's AMDGPU target (initialised here through
// MCTarget::get, whose MC objects are shared by the process; this library,
// AsterMC, links no MLIR and no lld). Guarantees: decode() never reads past
// `bytes`; an undecodable word is a Line with ok == false and size 4 (the
// caller decides: `.long` in the emulator, an error in raising). LLVM's
// disassembler can crash on some words (llvm-objdump too): disassemble() runs
// under crash recovery; decode() callers that take user bytes do the same.
// One InstDisassembler is used by one thread at a time (its MCContext).
//
//===----------------------------------------------------------------------===//
#ifndef ASTER_TARGET_DISASSEMBLER_H
#define ASTER_TARGET_DISASSEMBLER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace aster::target {

class InstDisassembler {
public:
  /// `cpu` is an AMDGPU processor name such as "gfx942".
  static llvm::Expected<std::unique_ptr<InstDisassembler>> create(llvm::StringRef cpu);
  ~InstDisassembler();

  struct Line {
    unsigned size = 0;   ///< bytes consumed (4 when decoding failed)
    bool ok = false;
    std::string text;    ///< "v_add_f32_e32 v0, v1, v2" (trimmed, no leading tab)
  };
  /// Decodes the instruction at the start of `bytes`, located at `addr`.
  Line decode(llvm::ArrayRef<uint8_t> bytes, uint64_t addr) const;

private:
  InstDisassembler();
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// Disassembles the executable sections of an object or code object with
/// LLVM's disassembler: one instruction per entry, in LLVM's syntax. An
/// undecodable word is an error naming its offset.
llvm::Expected<std::vector<std::string>>
disassemble(llvm::ArrayRef<char> object, llvm::StringRef cpu);

} // namespace aster::target

#endif
