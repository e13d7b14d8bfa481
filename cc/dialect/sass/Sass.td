//===- Sass.td - the `sass` dialect: NVIDIA Hopper (sm_90a) machine code ---===//
//
// Instruction ops are generated: tools/sass/gen_dialect.py writes one op per
// opcode of the SASS instruction table (python/aster/sass/table.json) into
// SassInsts.td, included below. Their parser, printer and verifier are shared
// (Inst.cpp) and read the same table (SassRows.inc). The structural ops are here.
//
//===----------------------------------------------------------------------===//
#ifndef ASTER_SASS_TD
#define ASTER_SASS_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/SymbolInterfaces.td"

def Sass_Dialect : Dialect {
  let name = "sass";
  let cppNamespace = "::aster::sass";
  let summary = "NVIDIA Hopper (sm_90a) SASS instructions, physical registers";
  let description = [{
    A cubin raised by aster.sass: `sass.kernel` per kernel, its code as blocks
    (a block starts at every branch target and after every branch), one op per
    instruction. An instruction op prints the instruction as nvdisasm writes it,
    with its control bits first: `sass.IMAD "[B------:R-:W-:Y:S01] IMAD.MOV.U32
    R1, RZ, RZ, c[0x0][0x28]"`; a branch target is a block successor after the text.
  }];
  let usePropertiesForAttributes = 0;
}

class Sass_Op<string mnemonic, list<Trait> traits = []>
    : Op<Sass_Dialect, mnemonic, traits>;

// One instruction: `mods` (".MOV.U32" or ""), `kinds` (the operand kinds of its
// table row, e.g. "%R,%R,%R,%I"), `vals` (the row's field values in order: guard
// predicate, guard negation, then one per `%` of `kinds` but `%L`; a float field
// holds its IEEE double bits), `ctrl` (bits 105-127 of the instruction >> 105).
class Sass_InstOp<string mnemonic, list<Trait> traits = []>
    : Sass_Op<mnemonic, traits> {
  let arguments = (ins StrAttr:$mods, StrAttr:$kinds, DenseI64ArrayAttr:$vals,
                       I64Attr:$ctrl);
  let successors = (successor VariadicSuccessor<AnySuccessor>:$targets);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDefinition = [{
    ::mlir::ParseResult $cppClass::parse(::mlir::OpAsmParser &p,
                                         ::mlir::OperationState &s) {
      return ::aster::sass::parseInst(p, s, getOperationName());
    }
    void $cppClass::print(::mlir::OpAsmPrinter &p) {
      ::aster::sass::printInst(p, getOperation());
    }
    ::llvm::LogicalResult $cppClass::verify() {
      return ::aster::sass::verifyInst(getOperation());
    }
  }];
}

include "SassInsts.td"

def Sass_KernelOp : Sass_Op<"kernel", [IsolatedFromAbove, Symbol]> {
  let summary = "One kernel of a cubin: its `.text.<name>` section as blocks";
  let description = [{
    Attributes (informative, from the cubin): `params` (ordinal, offset, size
    per parameter, from `.nv.info.<name>`), `constant_banks` (bank numbers of
    its `.nv.constant<N>.<name>` sections); `regcount` (REGCOUNT of `.nv.info`)
    is written back to the cubin.
  }];
  let arguments = (ins SymbolNameAttr:$sym_name);
  let regions = (region AnyRegion:$body);
  let assemblyFormat = "$sym_name attr-dict-with-keyword $body";
}

def Sass_NextOp : Sass_Op<"next", [Terminator]> {
  let summary = "Fall through to the next block (no instruction)";
  let successors = (successor AnySuccessor:$dest);
  let assemblyFormat = "$dest attr-dict";
}

def Sass_EndOp : Sass_Op<"end", [Terminator]> {
  let summary = "End of the kernel's code (no instruction)";
  let assemblyFormat = "attr-dict";
}

def Sass_RawOp : Sass_Op<"raw"> {
  let summary = "A 128-bit word no table row explains, kept as its bits";
  let arguments = (ins StrAttr:$word);
  let assemblyFormat = "$word attr-dict";
}

#endif // ASTER_SASS_TD
