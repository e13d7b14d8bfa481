//===- LayoutCheck.h - refuse layouts LLVM MC cannot finish --------------===//
//
// Run between parsing and MC's layout (the assembler parses with
// NoFinalize, checks, then finishes the streamer itself):
//
//   needs      every statement parsed into the object streamer's sections;
//   guarantees layout and writing terminate in bounded time and memory, or
//              an error is returned instead:
//   - code alignment (`.p2align`/`.balign`/`.align` without a fill in a code
//     section) pads with s_nop, whose size is 4 bytes: LLVM MC 22's layout
//     adds the alignment to the padding until it is a multiple of the
//     minimum nop size, forever when the code before it is not a multiple
//     of 4 bytes (`.byte 1` then `.p2align 2` hangs llvm-mc-22 too);
//   - a `.fill`/`.skip` fragment whose size became known only now (a label
//     or symbol count) may hold at most kMaxBytes (AsmSizeCheck.h).
//
//===----------------------------------------------------------------------===//
#ifndef ASTER_TARGET_LAYOUTCHECK_H
#define ASTER_TARGET_LAYOUTCHECK_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"

#include <optional>
#include <string>

namespace llvm {
class MCAssembler;
}

namespace aster::target {

struct LayoutProblem {
  llvm::SMLoc loc; // where known (fills); invalid for alignments
  std::string message;
};

/// The first problem of `as`'s sections that would keep MC's layout from
/// finishing, if any.
std::optional<LayoutProblem> findLayoutProblem(const llvm::MCAssembler &as);

} // namespace aster::target

#endif
