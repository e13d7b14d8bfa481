//===- DirectFormKey.h - which learned form an instruction op is ---------===//
//
// The key of an op's form (table row, register classes and widths, which
// registers are the same, immediates, relocation kinds, modifiers, other
// attributes) and its registers in assembly order: ops with equal keys are
// the same MCInst but for their registers (DirectForms.h).
//
//===----------------------------------------------------------------------===//
#ifndef ASTER_TARGET_DIRECTFORMKEY_H
#define ASTER_TARGET_DIRECTFORMKEY_H

#include "dialect/ISA.h"
#include "target/DirectForms.h"

#include "mlir/IR/Operation.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"

namespace aster::target::direct {

/// The form of an instruction op (`d`; null for a cf.br, an s_branch) as a
/// key, and its registers in assembly order (the order printInstAsm writes
/// them). False if the op cannot be encoded directly.
bool formKey(mlir::Operation *op, const ISA::InstDesc *d, llvm::SmallString<64> &key,
             llvm::SmallVectorImpl<RegRef> &regs);

/// The symbol of the `k`-th amdgcn.reloc source of `op`.
llvm::StringRef relocOperand(mlir::Operation *op, unsigned k);

} // namespace aster::target::direct

#endif
