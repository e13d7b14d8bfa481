//===- Assembler.h - assembly text to object and hsaco, in process -------===//
#ifndef ASTER_TARGET_ASSEMBLER_H
#define ASTER_TARGET_ASSEMBLER_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace llvm {
class MCAsmParser;
class MCStreamer;
class MCSubtargetInfo;
}

namespace aster::target {

/// An assembler diagnostic: 1-based line in the assembled text and message.
struct AsmDiagnostic {
  unsigned line = 0, column = 0;
  std::string message;
};

/// Assembles `text` for `cpu` with LLVM MC into an ELF relocatable object.
/// On failure returns the diagnostics (errors only) in `diags` and an Error.
/// `prepare` sees the parser before it runs (to add directive handlers).
llvm::Expected<std::vector<char>>
assembleObject(llvm::StringRef text, llvm::StringRef cpu,
               std::vector<AsmDiagnostic> *diags = nullptr,
               llvm::function_ref<void(llvm::MCAsmParser &)> prepare = nullptr);

/// An ELF relocatable object for `cpu` written straight into LLVM MC's ELF
/// object streamer, no assembly text and no parser: `emit` fills the
/// sections (false: it failed); the ELF header gets `eflags` and the ABI
/// version `abiVersion` (what the assembler's `.amdgcn_target` and
/// `.amdhsa_code_object_version` set up).
llvm::Expected<std::vector<char>>
streamObject(llvm::StringRef cpu, unsigned eflags, uint8_t abiVersion,
             llvm::function_ref<bool(llvm::MCStreamer &, const llvm::MCSubtargetInfo &)> emit);

/// Links a relocatable object into a shared code object (hsaco) with lld's
/// ELF driver, in process. Thread-safe (serialised internally).
llvm::Expected<std::vector<char>> linkObject(llvm::ArrayRef<char> object);

/// assembleObject + linkObject.
llvm::Expected<std::vector<char>>
assembleHsaco(llvm::StringRef text, llvm::StringRef cpu,
              std::vector<AsmDiagnostic> *diags = nullptr);

} // namespace aster::target

#endif
