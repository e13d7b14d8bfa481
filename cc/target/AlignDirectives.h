//===- AlignDirectives.h - .p2align family with checked operands ---------===//
//
// `.p2align N[, fill[, max]]` (and `.p2alignw` / `.p2alignl`, which fill with
// 2- and 4-byte values) align to 2^N bytes. LLVM MC 22's generic handler
// rejects N >= 32 but shifts by a negative N unchecked: `.p2align -1` asks
// for an alignment of 2^63 bytes and the object writer never finishes (the
// `aster.assemble` hang of issue 28; llvm-mc-22 hangs the same way). aster
// registers its own handler for these three directives on every assembly
// parser it creates:
//
//   needs      an MCAsmParser with the AMDGPU target parser attached;
//   guarantees N outside [0, 31] and a maximum below 1 are errors at the
//              operand (nothing emitted);
//              valid operands emit exactly what LLVM's handler emits (s_nop
//              padding in code sections when no fill is given, whatever the
//              fill size; the fill value otherwise, even 0; a maximum >= the
//              alignment is ignored with a warning) — the
//              bytes are checked against llvm-mc-22 in tests/py.
//
//===----------------------------------------------------------------------===//
#ifndef ASTER_TARGET_ALIGNDIRECTIVES_H
#define ASTER_TARGET_ALIGNDIRECTIVES_H

#include "llvm/MC/MCParser/MCAsmParserExtension.h"

#include <memory>

namespace aster::target {

/// Installs the checked `.p2align`, `.p2alignw`, `.p2alignl` handlers on
/// `parser`; the returned extension must outlive the parser's use.
std::unique_ptr<llvm::MCAsmParserExtension>
installAlignDirectives(llvm::MCAsmParser &parser);

} // namespace aster::target

#endif
