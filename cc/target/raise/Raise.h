//===- Raise.h - assembly text and code objects into amdgcn IR -----------===//
//
// raiseAsm: an assembler file as LLVM prints it (clang -S) or a person writes
// it (labels, directives, `.amdhsa_kernel` blocks, `.amdgpu_metadata`).
// raiseCodeObject: every kernel of a linked code object (its code through
// LLVM's disassembler, its descriptor and metadata note). A function symbol
// without `.size` (hand-written assembly, as AMD's aiter kernels) reaches
// the next function or the end of the code section; what follows its last
// s_endpgm / s_branch / s_setpc_b64 that no branch reaches (s_code_end
// padding, data) is its code tail, kept as words. An instruction whose text
// as LLVM prints it assembles (LLVM MC) to other bytes than the code's is
// kept as its words (amdgcn.data with the text as a note).
//
// Both give an amdgcn.module whose kernels hold the table's ops on allocated
// registers (one block per label, branches with successors), `.long` data as
// amdgcn.data, and the descriptor and metadata as attributes
// (KernelRecord.h), so that translating the module back gives the same code
// bytes, descriptors and metadata. Functions without a descriptor are
// amdgcn.device_function ops; data sections amdgcn.global ops
// (DataSections.h, CodeObjectData.h); symbol references of the code
// (`sym@rel32@lo+4`, or PC-relative address literals of a code object)
// amdgcn.reloc operands. An instruction the table does not know is
// an error naming its line (or pc) and text; with `keepUnknown` it is kept
// as amdgcn.data (its text, or its encoding words) instead.
//
//===----------------------------------------------------------------------===//
#ifndef ASTER_TARGET_RAISE_RAISE_H
#define ASTER_TARGET_RAISE_RAISE_H

#include "dialect/Dialect.h"

#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace aster::raise {

struct RaiseOptions {
  bool keepUnknown = false;
  /// Name used in locations and messages (file name).
  std::string sourceName = "<asm>";
  /// Where raiseAsm's `.include "f"` looks (after f itself); empty: the
  /// directory of sourceName, if it names one.
  std::vector<std::string> includeDirs;
};

/// `target` may be empty: then `.amdgcn_target` in the text decides.
llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>>
raiseAsm(mlir::MLIRContext *ctx, llvm::StringRef text, llvm::StringRef target,
         const RaiseOptions &opts = {});

llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>>
raiseCodeObject(mlir::MLIRContext *ctx, llvm::ArrayRef<uint8_t> bytes,
                const RaiseOptions &opts = {});

/// Registers --asm-to-mlir and --hsaco-to-mlir with mlir-translate.
void registerRaiseTranslations();

} // namespace aster::raise

#endif
