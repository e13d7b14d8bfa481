//===- AsmLexCheck.h - reject assembly text that MC cannot lex -----------===//
//
// LLVM MC's AMDGPU parser skips a bad statement by lexing up to its end of
// statement; when the bad token (an unterminated string or block comment, a
// malformed number) has swallowed the rest of the input, there is no end of
// statement and llvm-mc loops forever. Such text cannot assemble anyway, so
// it is rejected before MC sees it: lexed with MC's own lexer (set up as MC
// sets it up), the first error token is reported with its line and column.
// `.amdgpu_metadata` ... `.end_amdgpu_metadata` blocks are skipped: MC reads
// them as raw text (YAML), not tokens.
//
//===----------------------------------------------------------------------===//
#ifndef ASTER_TARGET_ASMLEXCHECK_H
#define ASTER_TARGET_ASMLEXCHECK_H

#include "target/Assembler.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/MC/MCAsmInfo.h"

#include <optional>

namespace aster::target {

/// The line and column of `at` (a pointer into `text`) with `msg`.
AsmDiagnostic diagnosticAt(llvm::StringRef text, const char *at, llvm::StringRef msg);

/// The first token of `text` that MC's lexer reports as an error, if any.
std::optional<AsmDiagnostic> findLexError(llvm::StringRef text,
                                          const llvm::MCAsmInfo &mai);

} // namespace aster::target

#endif
