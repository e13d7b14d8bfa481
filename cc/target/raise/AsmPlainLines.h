//===- AsmPlainLines.h - raise_asm's fast path: lines MC need not read ---===//
//
// LLVM MC's parse and print (AsmExpand.h) costs about 5 µs a line, most of
// raise_asm's time, and on the bulk of real assembly (clang -S output, AMD's
// listings) it gives each instruction back as written. The fast path lets
// MC read only the other lines: a cheap scan takes out the plain instruction
// lines (blanked, so that line numbers stay), MC expands the rest as usual,
// and the plain lines are put back at their places (merge, by source line).
//
// A line is plain when it is an instruction in a text that MC would not
// read differently: the text holds none of the constructs that change how
// other lines read (`.macro`, `.rept`/`.irp`/`.irpc`, the `.if` family,
// `.include`, `.set`/`.equ`/`.equiv`/`.eqv`/`=` symbols, `/* */` comments,
// `#` line markers, numeric labels, `.end`); then an instruction line (a
// mnemonic, not a label, not an assignment; a `v_` mnemonic with its
// encoding suffix, `_e32`/`_e64`/`_sdwa`/`_dpp`, as MC prints those that
// have two forms) whose characters are only those
// of registers, non-negative numbers, modifiers and symbol names (anything
// else, e.g. `-v1`, `|v1|`, an expression `1<<4`, a string: MC reads that
// line). A `;` or `//` comment is
// cut, as MC's printer drops it. YAML inside `.amdgpu_metadata` is MC's.
//
// Needs: text for raiseAsm. Guarantees: nullopt when the text holds one of
// the constructs (the caller expands all of it); else the reduced text and
// the plain lines, each with its 1-based line and column (as MC's start-token
// location gives them, so origins match the full path's). What the fast path
// cannot see (an instruction MC would spell otherwise, e.g. `v_add_f32` for
// `v_add_f32_e32`) fails the line reader; raiseAsm then reads the whole text
// through MC again, so its messages are the full path's.
//
//===----------------------------------------------------------------------===//
#ifndef ASTER_TARGET_RAISE_ASMPLAINLINES_H
#define ASTER_TARGET_RAISE_ASMPLAINLINES_H

#include "target/raise/AsmExpand.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace aster::raise {

struct PlainLine {
  unsigned line = 0, col = 0;
  llvm::StringRef text; ///< the instruction, comment cut, blanks trimmed
};

struct PlainSplit {
  std::string reduced; ///< the text with each plain line blanked
  std::vector<PlainLine> lines;
};

/// The split, or nullopt when a construct needs MC's reading of every line.
std::optional<PlainSplit> splitPlainLines(llvm::StringRef text);

/// MC's expansion of the reduced text with the plain lines put back, each
/// after the printed lines of the source lines before it.
ExpandedAsm mergePlainLines(mlir::MLIRContext *ctx, ExpandedAsm printed,
                            const PlainSplit &split, llvm::StringRef sourceName);

} // namespace aster::raise

#endif
