//===- AMDGCN.td - the amdgcn dialect and its structural ops ---------------===//
//
// Instruction ops are not declared here: they come from the instruction table
// (isa/*.td) and are registered at dialect load (InstOp.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef ASTER_AMDGCN_TD
#define ASTER_AMDGCN_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/IR/RegionKindInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def AMDGCN_Dialect : Dialect {
  let name = "amdgcn";
  let cppNamespace = "::aster::amdgcn";
  let summary = "AMD GPU instructions on registers";
  let description = [{
    Ops are real AMDGCN instructions; values are registers (virtual or
    allocated). Without passes, the printed assembly is exactly the IR.
  }];
  let useDefaultTypePrinterParser = 0;
  let extraClassDeclaration = [{
    void registerTypes();
    void registerInstructionOps();
    /// Instruction-op bookkeeping (InstOp.cpp), owned by this dialect.
    std::shared_ptr<void> instRegistry;
    ::mlir::Type parseType(::mlir::DialectAsmParser &parser) const override;
    void printType(::mlir::Type type, ::mlir::DialectAsmPrinter &os) const override;
    ::mlir::Operation *materializeConstant(::mlir::OpBuilder &builder,
        ::mlir::Attribute value, ::mlir::Type type, ::mlir::Location loc) override;
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::cf::ControlFlowDialect"];
}

class AMDGCN_Op<string mnemonic, list<Trait> traits = []>
    : Op<AMDGCN_Dialect, mnemonic, traits>;

def AMDGCN_KernelModuleOp : AMDGCN_Op<"module", [
    IsolatedFromAbove, SymbolTable, Symbol, NoTerminator, SingleBlock,
    NoRegionArguments]> {
  let summary = "A code object: kernels for one target";
  let description = [{
    `amdgcn.module @name target("gfx942") { amdgcn.kernel ... }`
    Every instruction inside must be valid on `target`.
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, StrAttr:$target);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$sym_name `target` `(` $target `)` attr-dict-with-keyword $body";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Target bit (isa::TargetBit) of `target`; 0 if unknown.
    uint8_t getTargetBit();
  }];
}

def AMDGCN_KernelOp : AMDGCN_Op<"kernel", [
    IsolatedFromAbove, Symbol, HasParent<"KernelModuleOp">, NoRegionArguments]> {
  let summary = "A kernel: typed arguments, launch setup and its instructions";
  let description = [{
    ```
    amdgcn.kernel @vadd(a: !amdgcn.ptr<f32>, n: i32) attributes {
        block = array<i32: 64, 1, 1>, lds = 0 : i32} {
      ...
    }
    ```
    Arguments are not SSA values: they live in the kernarg segment, laid out
    by the code-object-v5 rules (each aligned to its size). Optional
    attributes, with their defaults:
      - `block`: workgroup size (default 256,1,1 as max flat size)
      - `lds`: static LDS bytes (0)
      - `sgpr_setup`: SGPRs the hardware initialises, in hardware order, from
        `private_segment_buffer dispatch_ptr queue_ptr kernarg_ptr dispatch_id
        flat_scratch_init private_segment_size workgroup_id_x workgroup_id_y
        workgroup_id_z workgroup_info private_segment_wave_offset`
        (default: `kernarg_ptr` when there are arguments, then `workgroup_id_x`)
      - `workitem_ids`: how many of x,y,z the hardware writes in v0 (1)
      - `private_segment`: scratch bytes per lane (0)
    }];
  let arguments = (ins SymbolNameAttr:$sym_name, StrArrayAttr:$arg_names,
                       TypeArrayAttr:$arg_types);
  let regions = (region AnyRegion:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def AMDGCN_RegOp : AMDGCN_Op<"reg", [Pure]> {
  let summary = "Names an allocated or special register";
  let description = [{
    `%v = amdgcn.reg : !amdgcn.vgpr<[4:7]>` gives a value naming v[4:7]. A use
    of a value of allocated type reads the register at the point of use (in
    program order), whatever op produced the value.
  }];
  let results = (outs AnyType:$reg);
  let assemblyFormat = "attr-dict `:` type($reg)";
  let hasVerifier = 1;
}

def AMDGCN_UndefOp : AMDGCN_Op<"undef", [Pure]> {
  let summary = "A virtual register with no defined contents";
  let description = [{
    `%v = amdgcn.undef : !amdgcn.vgpr<?x4>` gives a virtual register whose value
    is whatever the allocated register holds, for instructions that only
    partially define their destination or as a placeholder.
  }];
  let results = (outs AnyType:$reg);
  let assemblyFormat = "attr-dict `:` type($reg)";
}

#endif
