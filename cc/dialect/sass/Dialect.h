//===- Dialect.h - the `sass` dialect (NVIDIA sm_90a machine code) --------===//
//
// Ops: sass.kernel, sass.next, sass.end, sass.raw (Sass.td) and one
// instruction op per opcode generated from the SASS table (gen_dialect.py).
// Inst.cpp: the shared parser / printer / verifier of instruction ops, reading
// the table rows (SassRows.inc). Build.cpp: modules built from and read back
// into flat instruction lists (the Python bridge, aster.sass.mlir).
//
//===----------------------------------------------------------------------===//
#ifndef ASTER_DIALECT_SASS_DIALECT_H
#define ASTER_DIALECT_SASS_DIALECT_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"

#include <optional>
#include <string>
#include <vector>

namespace aster::sass {

mlir::ParseResult parseInst(mlir::OpAsmParser &p, mlir::OperationState &s,
                            llvm::StringRef opName);
void printInst(mlir::OpAsmPrinter &p, mlir::Operation *op);
llvm::LogicalResult verifyInst(mlir::Operation *op);

/// One instruction's text split as the table keys it.
struct ParsedInst {
  std::string opcode;           // "IMAD.MOV.U32"
  std::vector<std::string> kinds; // operand kinds, guard first ("@%P")
  std::vector<int64_t> vals;    // G, Gn, then one per non-label `%`
  int labels = 0;               // number of `%L` operands
};
/// Tokenizes nvdisasm-syntax text (python/aster/sass/syntax.py's rules);
/// `(name) branch targets become `%L`. Returns an error message or "".
std::string tokenize(llvm::StringRef text, ParsedInst &out);
/// Text of an instruction op; a branch target is printed as `(label) when
/// `label` is given, else left out.
std::string formatInst(mlir::Operation *op, std::optional<std::string> label);
/// Control bits <-> "[B------:R-:W-:Y:S01]" (extended by ":U<reuse>", ":X<extra>").
std::string formatCtrl(int64_t ctrl);
std::optional<int64_t> parseCtrl(llvm::StringRef s);
/// The table row of `key` ("OPCODE.MODS kinds"): field classes and widths.
struct Row {
  std::vector<std::string> cls;
  std::vector<int> width;
};
const Row *findRow(llvm::StringRef key);

void registerSassDialect(mlir::DialectRegistry &registry);

} // namespace aster::sass

#include "dialect/sass/Sass_dialect_decls.inc"
#define GET_OP_CLASSES
#include "dialect/sass/Sass_op_decls.inc"

#endif
