//===- InstParser.h - one printed instruction into the table's op -------===//
//
// Parses an instruction in LLVM's AMDGPU syntax (as clang -S or LLVM's
// disassembler print it) against the rows of the instruction table that
// spell that mnemonic, and builds the op: destinations as result types,
// sources as register values / constants, modifiers as attributes, branch
// labels as successors. Which row is taken is decided by the table's own
// verifier: the first row whose op verifies.
//
//===----------------------------------------------------------------------===//
#ifndef ASTER_TARGET_RAISE_INSTPARSER_H
#define ASTER_TARGET_RAISE_INSTPARSER_H

#include "dialect/Dialect.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/FunctionExtras.h"

namespace aster::raise {

/// Values for registers and constants, created once at the kernel entry.
class EntryValues {
public:
  explicit EntryValues(amdgcn::KernelOp k);
  mlir::Value reg(mlir::Type t);
  mlir::Value constant(mlir::Type t, uint64_t bits);

private:
  mlir::OpBuilder entryBuilder();
  amdgcn::KernelOp kernel;
  mlir::Operation *last = nullptr;
  llvm::DenseMap<mlir::Type, mlir::Value> regs;
  llvm::DenseMap<std::pair<mlir::Type, uint64_t>, mlir::Value> constants;
};

class InstParser {
public:
  InstParser(mlir::MLIRContext *ctx, uint8_t targetBit);

  /// Resolves a branch label to its block.
  using LabelFn = llvm::function_ref<mlir::Block *(llvm::StringRef)>;

  /// Builds the instruction `text` at `b`'s insertion point. On failure
  /// returns the reason (nothing is created); the op otherwise.
  mlir::FailureOr<mlir::Operation *> parse(llvm::StringRef text, mlir::OpBuilder &b,
                                           mlir::Location loc, EntryValues &values,
                                           LabelFn label, std::string &error);

  /// True if a row of the table spells `mnemonic` (any suffix stripped) on
  /// this target and takes branch targets.
  bool isBranch(llvm::StringRef mnemonic) const;

private:
  llvm::ArrayRef<const ISA::InstDesc *> rows(llvm::StringRef mnemonic) const;
  mlir::MLIRContext *ctx;
  uint8_t target;
  llvm::StringMap<llvm::SmallVector<const ISA::InstDesc *, 2>> byAsmName;
};

/// Splits an operand list at top-level commas and spaces; `comma[i]` tells
/// whether token i was followed by a comma.
void tokenizeOperands(llvm::StringRef s, llvm::SmallVectorImpl<llvm::StringRef> &toks,
                      llvm::SmallVectorImpl<bool> &comma);

/// Parses a decimal or 0x-hex integer with an optional '-'.
bool parseAsmInteger(llvm::StringRef v, int64_t &out);

} // namespace aster::raise

#endif
