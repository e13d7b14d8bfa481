//===- InstParser.h - one printed instruction into the table's op -------===//
//
// Reads an instruction in LLVM's AMDGPU syntax with the table's text parser
// (dialect/InstText.h, shared with the emulator's decoder) and builds the
// op of the matched row: destinations as result types,
// sources as register values / constants, modifiers as attributes, branch
// labels as successors. Which row is taken is decided by the table's own
// verifier: the first row whose op verifies.
//
//===----------------------------------------------------------------------===//
#ifndef ASTER_TARGET_RAISE_INSTPARSER_H
#define ASTER_TARGET_RAISE_INSTPARSER_H

#include "dialect/Dialect.h"
#include "dialect/InstText.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/FunctionExtras.h"

namespace aster::raise {

/// Values for registers and constants, created once at the entry of a
/// kernel's (or device function's) body.
class EntryValues {
public:
  explicit EntryValues(mlir::Region &body);
  mlir::Value reg(mlir::Type t);
  mlir::Value constant(mlir::Type t, uint64_t bits);
  /// An amdgcn.reloc `symbol@kind+addend`.
  mlir::Value reloc(llvm::StringRef symbol, llvm::StringRef kind, int64_t addend);

private:
  mlir::OpBuilder entryBuilder();
  mlir::Region *body;
  mlir::Operation *last = nullptr;
  llvm::DenseMap<mlir::Type, mlir::Value> regs;
  llvm::DenseMap<std::pair<mlir::Type, uint64_t>, mlir::Value> constants;
  llvm::StringMap<mlir::Value> relocs;
};

class InstParser {
public:
  InstParser(mlir::MLIRContext *ctx, uint8_t targetBit);
  ~InstParser();
  InstParser(const InstParser &) = delete;
  InstParser &operator=(const InstParser &) = delete;

  /// Resolves a branch label to its block.
  using LabelFn = llvm::function_ref<mlir::Block *(llvm::StringRef)>;

  /// Builds the instruction `text` at `b`'s insertion point. On failure
  /// returns the reason (nothing is created); the op otherwise.
  /// `encoding` (when the text was disassembled from code) gives the fields
  /// LLVM's text may not show exactly (ds_swizzle_b32's BITMASK_PERM
  /// offsets that compute the same lanes print alike).
  mlir::FailureOr<mlir::Operation *> parse(llvm::StringRef text, mlir::OpBuilder &b,
                                           mlir::Location loc, EntryValues &values,
                                           LabelFn label, std::string &error,
                                           llvm::ArrayRef<int32_t> encoding = {});

  /// True if a row of the table spells `mnemonic` (any suffix stripped) on
  /// this target and takes branch targets.
  bool isBranch(llvm::StringRef mnemonic) const;

private:
  mlir::MLIRContext *ctx;
  uint8_t target;
  const ISA::RowIndex &index;
  /// The verifier's first message while a row is tried (one handler for
  /// the parser's life: registering one per instruction costs).
  std::string *diagSink = nullptr;
  mlir::DiagnosticEngine::HandlerID diagHandler;
  /// Shapes (a row and the text with register numbers, hex literals and
  /// plain integers as '#', see textShape) whose op printed back as its text:
  /// an instruction of a known shape on the same row prints back alike, so
  /// the comparison is skipped (its op is still verified).
  llvm::StringSet<> exactShapes;
};

/// `text` with the numbers that do not change how the table prints an
/// instruction made '#': register numbers (`v12`, `s[4:7]`), hex literals,
/// and integers standing alone or as `name:N`; everything else (floats,
/// symbolic fields such as `vmcnt(0)`, `hwreg(...)`, DPP/SDWA selectors,
/// `lit(...)`) is kept. Appended to `out`.
void textShape(llvm::StringRef text, std::string &out);

using ISA::parseAsmInteger;
using ISA::tokenizeOperands;

} // namespace aster::raise

#endif
