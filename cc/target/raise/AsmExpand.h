//===- AsmExpand.h - assembly as authors write it, expanded by LLVM MC ---===//
//
// The first step of raiseAsm. LLVM MC's own parser reads the text as
// llvm-mc does (macros with arguments, defaults and `\@`, `.rept` / `.irp` /
// `.irpc`, `.set` / `.equ` / `=` symbols, the `.if` family, `/* */`
// comments, `.include`), and MC's assembly printer writes every statement
// back as LLVM prints it (what clang -S writes, which the line reader of
// RaiseAsm.cpp takes): instructions with their symbols evaluated (`v[vA]`
// becomes `v12`), `hwreg(4, 0, 32)` in its symbolic spelling, descriptor
// blocks with every field. No expansion is written here: MC expands.
//
// Each printed line keeps where it came from: the source line (inside the
// macro definition or `.rept` body for an expanded line) and the chain of
// macro calls, `.rept`/`.irp` blocks and `.include`s that made it, as an
// MLIR location (CallSiteLoc, callee named by the macro) and as text for
// messages ("k.s:4 (in macro 'addv' called at k.s:9)"). MC's own errors
// name the same chain (from MC's "while in macro instantiation" notes).
//
// Needs: a target (gfx942, gfx950, gfx1201; `features` as in a target id,
// e.g. "sramecc+:xnack-"). Guarantees: the printed text with one origin per
// line, or an Error listing MC's messages. Expansion is bounded (the limits
// in AsmExpand.cpp): past them an error, never a hang or an exhausted memory.
//
//===----------------------------------------------------------------------===//
#ifndef ASTER_TARGET_RAISE_ASMEXPAND_H
#define ASTER_TARGET_RAISE_ASMEXPAND_H

#include "mlir/IR/Location.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace aster::raise {

struct ExpandedLine {
  mlir::Location loc;
  /// "k.s:12", or "k.s:4 (in macro 'addv' called at k.s:9)".
  std::string where;
};

struct ExpandedAsm {
  std::string text; ///< as LLVM prints it, one statement a line
  std::vector<ExpandedLine> lines; ///< one per line of `text`
};

struct ExpandOptions {
  std::string sourceName = "<asm>";
  /// Where `.include "f"` looks for f (after f itself).
  std::vector<std::string> includeDirs;
};

llvm::Expected<ExpandedAsm> expandAsm(mlir::MLIRContext *ctx, llvm::StringRef text,
                                      llvm::StringRef cpu, llvm::StringRef features,
                                      const ExpandOptions &opts);

} // namespace aster::raise

#endif
