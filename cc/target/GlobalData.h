//===- GlobalData.h - amdgcn.global into assembly text or an MC streamer -===//
//
// A global (dialect/AMDGCN.td) becomes what clang writes for a HIP
// `__device__` / `__constant__` variable, on both roads to a code object:
//   .protected NAME            (.hidden; nothing for "default"/"local")
//   .type NAME,@object
//   .section SECTION,"aw",@progbits   ("a" for .rodata, @nobits for .bss)
//   .globl NAME                (unless "local")
//   .p2align LOG2, 0x0
// NAME:
//   .long/.byte/.zero ...      its bytes; `.quad SYM+ADDEND` per relocation
//   .size NAME, SIZE
// A `.L` name is a label only (no symbol directives). writeGlobal prints
// it; emitGlobal makes the same MCStreamer calls the assembler makes of that
// text, so both give the same object bytes.
//
//===----------------------------------------------------------------------===//
#ifndef ASTER_TARGET_GLOBALDATA_H
#define ASTER_TARGET_GLOBALDATA_H

#include "dialect/Dialect.h"

#include "llvm/MC/MCStreamer.h"
#include "llvm/Support/raw_ostream.h"

namespace aster::target {

void writeGlobal(amdgcn::GlobalOp g, llvm::raw_ostream &os);
void emitGlobal(amdgcn::GlobalOp g, llvm::MCStreamer &out);

} // namespace aster::target

#endif
