//===- Decoder.h - code bytes to a pre-decoded Program -------------------===//
#ifndef ASTER_EMULATOR_DECODER_H
#define ASTER_EMULATOR_DECODER_H

#include "emulator/Program.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>

namespace aster::emu {

/// Decodes `code` (located at address `base`) for processor `cpu`. Words
/// that do not decode, and instructions without emulator semantics, become
/// instructions that fail when executed; Program::problems says why.
llvm::Expected<std::unique_ptr<Program>>
decodeProgram(llvm::ArrayRef<uint8_t> code, uint64_t base, llvm::StringRef cpu);

/// Binds one printed instruction (for tests and tools): fills `in` or
/// returns why it cannot be executed. `word0`, the first code word when
/// known, gives fields LLVM's text does not show exactly.
std::string bindInstruction(llvm::StringRef text, Inst &in, Program &prog,
                            const uint32_t *word0 = nullptr);

/// Why an instruction whose mnemonic has a (gfx942) semantic cannot run in
/// gfx950 code, or "": gfx950's fp8/bf8 are the OCP formats, so an fp8/bf8
/// instruction without a gfx950 meaning of its own (findGfx950Semantic) is
/// refused rather than computed in gfx942's FNUZ formats.
std::string gfx950Refusal(llvm::StringRef mnemonic);

} // namespace aster::emu

#endif
