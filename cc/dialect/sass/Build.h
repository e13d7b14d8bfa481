//===- Build.h - sass modules from and to flat instruction lists ----------===//
//
// The bridge aster.sass uses (python/aster/sass/mlir.py through the
// `aster._aster` extension): a kernel is a flat list of instructions (text as
// nvdisasm prints it, control bits, index of the branch target or -1, or a raw
// 128-bit word); the module's blocks are derived here: a block starts at
// instruction 0, at every branch target and after every terminator op (an
// opcode with a branch-target row); a block that does not end in one ends in
// `sass.next` (or `sass.end` at the end of the code); an entry block that is a
// branch target gets an empty block before it (MLIR's entry block has no
// predecessors).
// Needs: a context with the sass dialect. Guarantees: readModule(buildModule(x))
// gives x back (texts in the printer's spelling); errors are messages, never aborts.
//
//===----------------------------------------------------------------------===//
#ifndef ASTER_DIALECT_SASS_BUILD_H
#define ASTER_DIALECT_SASS_BUILD_H

#include "dialect/sass/Dialect.h"

namespace aster::sass {

struct FlatInst {
  std::string text;  // instruction text; a branch target as `(anything)
  int64_t ctrl = 0;  // control bits >> 105
  int64_t target = -1;
  std::string raw;   // non-empty: a word kept as bits ("0x..."), text unused
  int64_t pc = -1;   // >= 0: the offset the cubin's relocations / offset lists
                     // know it by (op attribute `sass.pc`)
};
struct FlatKernel {
  std::string name;
  std::string attrs; // an MLIR attribute dictionary, e.g. "{regcount = 16 : i64}"
  std::vector<FlatInst> insts;
};

/// Builds and verifies a module; on failure returns null and sets `err`.
mlir::OwningOpRef<mlir::ModuleOp> buildModule(mlir::MLIRContext *ctx, llvm::StringRef moduleAttrs,
                                              const std::vector<FlatKernel> &kernels,
                                              std::string &err);
/// Kernels of a (verified) module back as flat lists: branch targets printed
/// as `(.L_x_<index of the target instruction>); `attrs` gets the kernel's
/// attribute dictionary as text.
std::vector<FlatKernel> readModule(mlir::ModuleOp m);

} // namespace aster::sass

#endif
