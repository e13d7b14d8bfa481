//===- DirectEmit.h - amdgcn IR to an ELF object, instructions as MCInsts ===//
//
// The fast road to a code object. Instead of printing every instruction as
// assembly text for LLVM MC to parse back, each instruction op becomes an
// MCInst handed straight to MC's code emitter and ELF object streamer.
//
// What an op becomes is learned once per process for each instruction
// *form*: the table row, the class and width of each register operand (and
// which operands name the same registers), special registers, immediate
// values, modifiers and optional operands. LLVM's own assembler parses two
// sample lines of the form (the asm printer's spelling, with different
// registers); the MCInst it builds gives the opcode, the operand list and
// where each register goes. A form is used only if the second sample is
// exactly the first with its registers replaced; then any op of the form is
// encoded by putting its registers in those places (no text); amdgcn.data
// words are written as they are. A kernel with an op that has no usable
// form (or anything else unusual: a virtual register, a branch passing
// values, a raised instruction kept as text) goes through assembly text, so
// both roads give the same bytes (tests/py/test_direct_emit.py checks that).
//
// The rest of the object (kernel symbols, the kernel descriptors, the
// code-object metadata note, the ELF header's flags and ABI version) is
// emitted directly too (DirectObject.h): a module with no text left is
// written by MC's ELF object streamer alone, no assembler involved. Text is
// left only where it is text: the assembler lines a raised module keeps and
// the bodies of kernels that go through text; then LLVM's assembler runs a
// skeleton (module header, one directive per kernel part, those lines).
// Device functions (amdgcn.device_function) are planned and encoded like
// kernels; globals (amdgcn.global) are emitted as the assembler makes their
// directives (GlobalData.h); a relocation operand (amdgcn.reloc) is an
// expression operand of the learned form, rebuilt on each op's symbol. A
// descriptor or metadata the assembler would reject sends the whole module
// through text, which reports it.
//
//===----------------------------------------------------------------------===//
#ifndef ASTER_TARGET_DIRECTEMIT_H
#define ASTER_TARGET_DIRECTEMIT_H

#include "target/Translate.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace aster::target {

/// What emitObject did.
struct DirectStats {
  unsigned kernels = 0;                ///< kernels in the module
  std::vector<std::string> textKernels; ///< kernels that went through text
  unsigned formsLearned = 0;           ///< forms new to this process
  unsigned instructions = 0;           ///< MCInsts emitted directly
  bool assembler = false;              ///< LLVM's assembler ran (some text)
};

/// The module as an ELF relocatable object (what assembleObject makes of
/// translateToAsm's text, byte for byte), for linkObject. An error (an
/// assembler diagnostic in the text parts) means the caller should take the
/// text path, which reports it at its op.
/// `textMnemonics` (for tests): kernels using any of these instructions go
/// through text as if their forms could not be learned.
llvm::Expected<std::vector<char>>
emitObject(KernelModuleOp module, DirectStats *stats = nullptr,
           llvm::ArrayRef<std::string> textMnemonics = {});

} // namespace aster::target

#endif
