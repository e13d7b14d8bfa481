//===- AsmSizeCheck.h - reject assembly whose expansion is runaway -------===//
//
// LLVM MC expands `.rept N` by copying its body N times before parsing it,
// and makes `.fill`/`.skip`/`.space`/`.zero` fragments of the size asked
// for: `.rept 2147483647` or `.skip 4294967296` keep MC (and llvm-mc-22)
// busy for minutes and gigabytes. Such text is rejected before MC sees it,
// with its line: the text is lexed with MC's lexer, constant symbols
// (`.set`/`.equ`/`.equiv`/`.eqv`/`=`) are evaluated, and
//   - nested `.rept` counts may multiply to at most kMaxRepeats;
//   - one `.fill`/`.skip`/`.space`/`.zero` times its enclosing `.rept` counts
//     may make at most kMaxBytes bytes.
// Counts that are not constant here (labels, macro arguments) are left to
// MC; what they make is bounded again after parsing (LayoutCheck.h).
//
//===----------------------------------------------------------------------===//
#ifndef ASTER_TARGET_ASMSIZECHECK_H
#define ASTER_TARGET_ASMSIZECHECK_H

#include "target/Assembler.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/MC/MCAsmInfo.h"

#include <cstdint>
#include <optional>

namespace aster::target {

/// Repetitions of one statement by nested `.rept` (2^20: far beyond any
/// kernel; an instruction cache holds 16k instructions).
constexpr uint64_t kMaxRepeats = uint64_t(1) << 20;
/// Bytes one directive may make, repetitions included (256 MiB).
constexpr uint64_t kMaxBytes = uint64_t(1) << 28;

/// The first statement of `text` whose expansion exceeds the limits above.
std::optional<AsmDiagnostic> findRunawaySize(llvm::StringRef text,
                                             const llvm::MCAsmInfo &mai);

} // namespace aster::target

#endif
