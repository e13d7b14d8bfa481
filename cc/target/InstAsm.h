//===- InstAsm.h - one instruction op as an assembly line ---------------===//
#ifndef ASTER_TARGET_INSTASM_H
#define ASTER_TARGET_INSTASM_H

#include "dialect/ISA.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/FunctionExtras.h"
#include "llvm/Support/raw_ostream.h"

namespace aster::target {

/// Prints `op` (an instruction op with row `d`) in LLVM's AMDGPU syntax,
/// without leading indentation or trailing newline. Operands must have
/// allocated register types or be constants; returns failure (with a
/// diagnostic on the op) otherwise. `labelOf` names successor blocks;
/// `regAsm`, if given, spells each written register operand (in assembly
/// order) instead of its own name (the direct encoder's sample lines).
mlir::LogicalResult
printInstAsm(mlir::Operation *op, const ISA::InstDesc &d, llvm::raw_ostream &os,
             llvm::function_ref<std::string(mlir::Block *)> labelOf,
             llvm::function_ref<std::string(mlir::Type)> regAsm = nullptr);

/// Operand spellings for an instruction, in assembly order, as the printer
/// writes them; modifiers as (descriptor, value, present). This is the
/// shared path of printInstAsm and the example generator.
struct AsmOperand {
  std::string text;  ///< empty for an absent optional operand (prints `off`)
};
struct AsmModifier {
  const ISA::ModDesc *desc;
  int64_t value;
  bool present;
};
void printInstParts(const ISA::InstDesc &d, llvm::ArrayRef<AsmOperand> operands,
                    llvm::ArrayRef<AsmModifier> mods,
                    llvm::ArrayRef<std::string> labels, llvm::raw_ostream &os,
                    llvm::StringRef encodingSuffix = "");

} // namespace aster::target

#endif
