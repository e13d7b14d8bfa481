//===- Dialect.h - the amdgcn dialect -----------------------------------===//
#ifndef ASTER_DIALECT_DIALECT_H
#define ASTER_DIALECT_DIALECT_H

#include "dialect/ISA.h"
#include "dialect/Types.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "dialect/AMDGCNDialect.h.inc"

#define GET_OP_CLASSES
#include "dialect/AMDGCNOps.h.inc"

namespace aster::amdgcn {

/// The instruction-table row of an instruction op, or nullptr for any other op.
const ISA::InstDesc *getInstDesc(mlir::Operation *op);
/// The registered op name of an instruction.
mlir::OperationName getInstOpName(mlir::MLIRContext *ctx, const ISA::InstDesc &d);
/// Creates the instruction `mnemonic` (a row of the table) at b's insertion
/// point; not verified here.
mlir::Operation *createInstOp(mlir::OpBuilder &b, mlir::Location loc,
                              llvm::StringRef mnemonic, mlir::ValueRange operands,
                              mlir::TypeRange results,
                              llvm::ArrayRef<mlir::NamedAttribute> attrs = {});

/// Verifies an instruction op against its table row (also run by the op's
/// verifier); `targetBit` 0 means "use the enclosing module's target".
mlir::LogicalResult verifyInstruction(mlir::Operation *op,
                                      const ISA::InstDesc &desc);

/// The value of an immediate operand (a constant integer or float, as its
/// bit pattern), or nullopt if `v` is not a constant.
std::optional<uint64_t> getImmediateBits(mlir::Value v);
/// True if `bits` is an inline constant for a value of type `ty`.
bool isInlineConstant(uint64_t bits, ISA::ValTy ty);

/// Successor operands (the values passed to successor `i`'s block
/// arguments) of a terminator: an amdgcn branch instruction or a cf branch.
/// Returns (index of the first operand, count). Instruction branches have no
/// sources, so all their operands are successor operands; with two
/// successors the split is kept in the hidden attribute below.
std::pair<unsigned, unsigned> successorOperandRange(mlir::Operation *term,
                                                    unsigned i);
/// Replaces the successor operands of successor `i`.
void setSuccessorOperands(mlir::Operation *term, unsigned i,
                          mlir::ValueRange values);
inline constexpr llvm::StringLiteral kSuccOperandSizesAttr = "succ_operand_sizes";
/// Marks an s_waitcnt made by amdgcn-regalloc for its own spill code (a
/// reload, or a load's result saved early). amdgcn-waitcnt replaces such
/// waits by its own analysis; any other wait is the author's and is kept.
inline constexpr llvm::StringLiteral kSpillWaitAttr = "spill_wait";
/// Encoding suffix an instruction is written with (`e32`, `e64`): LLVM then
/// keeps exactly that encoding. Set when raising assembly that spelled it;
/// absent, LLVM picks the shortest encoding.
inline constexpr llvm::StringLiteral kEncodingAttr = "encoding";
/// Mask of sources (table order) written as forced literals, `lit(0x0)`:
/// LLVM then encodes a literal even for a value an inline constant has.
inline constexpr llvm::StringLiteral kLiteralAttr = "literal";

/// Why a register of type `actual` cannot be passed for a function
/// parameter (or returned for a result) of type `formal`, or "" when it can:
/// the same class and width; a pinned (allocated or special) formal needs
/// exactly that register; a virtual formal's alignment must be met. The one
/// rule of the verifier (amdgcn.call, amdgcn.return) and the Python builder.
std::string callOperandMismatch(mlir::Type actual, mlir::Type formal);
/// Spelling of a register type for messages: v3, s[0:1], vcc, or
/// "virtual VGPR x4 (align 4)".
std::string describeRegister(mlir::Type t);
/// The chain of calls from `from` that comes back to `to` (for a
/// recursion diagnostic: "@f -> @g -> @f"), or "" if none does.
std::string callCycle(FuncOp from, llvm::StringRef to);

/// Registers the amdgcn dialect and everything aster's tools load.
void registerAllDialects(mlir::DialectRegistry &registry);

} // namespace aster::amdgcn

#endif
