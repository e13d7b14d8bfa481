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
include "mlir/Interfaces/FunctionInterfaces.td"

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
      - `arg_type_names`: one string per argument, the metadata's
        `.type_name` ("" keeps the default, e.g. `f32*`); amdgcn-lower
        writes the memref type a kernel argument came from
    An argument named `hidden_<kind>` (e.g. `hidden_block_count_x: i32`) is
    the code-object-v5 hidden argument of that value kind: the launcher
    fills it (AMDGPUUsage, "Code Object V5 Metadata").
    }];
  let arguments = (ins SymbolNameAttr:$sym_name, StrArrayAttr:$arg_names,
                       TypeArrayAttr:$arg_types);
  let regions = (region AnyRegion:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def AMDGCN_DeviceFunctionOp : AMDGCN_Op<"device_function", [
    IsolatedFromAbove, Symbol, HasParent<"KernelModuleOp">, NoRegionArguments,
    NoTerminator]> {
  let summary = "Code called through the ABI (s_swappc_b64), not a kernel";
  let description = [{
    ```
    amdgcn.device_function @_Z4polyfPKfi attributes {p2align = 2 : i32} {
      ...
      amdgcn.s_setpc_b64 %s30_31 : ...
    }
    ```
    A non-kernel function symbol of a code object (a HIP `__device__`
    function clang did not inline), as raised: its instructions on allocated
    registers, called by kernels or other device functions through
    `s_getpc_b64` / `s_add_u32 sym@rel32@lo+4` / `s_addc_u32 sym@rel32@hi+12`
    / `s_swappc_b64` and returning with `s_setpc_b64` (the AMDGPU calling
    convention: arguments in v0.., return address in s[30:31], stack in s32).
    It is written at its place among the module's kernels as a local
    `@function` symbol with its `.size`, aligned to 2^`p2align` bytes (4 by
    default). Unlike `amdgcn.func` (a register-level function inlined at each
    call) it is emitted once and called at run time. It has no descriptor and
    no metadata; the kernels calling it account for its registers and stack.
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, OptionalAttr<I32Attr>:$p2align);
  let regions = (region AnyRegion:$body);
  let assemblyFormat = "$sym_name attr-dict-with-keyword $body";
}

def AMDGCN_GlobalOp : AMDGCN_Op<"global", [Symbol, HasParent<"KernelModuleOp">]> {
  let summary = "Module-level data: a global variable of the code object";
  let description = [{
    ```
    amdgcn.global @table {section = ".data", alignment = 16, bytes = 32,
        data = dense<[1.0, 2.0, ...]> : tensor<8xf32>, linkage = "protected"}
    amdgcn.global @ptrs {section = ".data", alignment = 16, bytes = 24,
        relocs = [{offset = 0, symbol = @a0, addend = 0}, ...]}
    ```
    `bytes` bytes in data section `section`, at an address aligned to
    `alignment`: `data` (any integer/float elements, little-endian, at most
    `bytes`), then zeros; `relocs` put the address of `symbol` (+ `addend`)
    at byte `offset` (`width` 8, default, or 4: `.quad sym+addend`), which
    the linker writes (a dynamic relocation of the code object). `constant`
    globals live in a read-only section (`.rodata...`; HIP `__constant__`),
    others in `.data...` or, without data, `.bss...` (NOBITS: no `data`).
    `linkage`: "protected" (HIP's default), "hidden", "default" (all
    `.globl`) or "local" (no `.globl`); a name starting with `.L` is an
    assembler-local label with no symbol. `symbol_size` is the `.size` the
    symbol states when it is not `bytes` (data raised with padding after it).
    Kernels take its address with `amdgcn.reloc` operands
    (`s_getpc_b64` / `s_add_u32 @g rel32@lo+4` / `s_addc_u32 @g rel32@hi+12`).
    Written after the kernels, in module order.
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, StrAttr:$section, I64Attr:$alignment,
                       I64Attr:$bytes, OptionalAttr<ElementsAttr>:$data,
                       OptionalAttr<ArrayAttr>:$relocs, OptionalAttr<StrAttr>:$linkage,
                       UnitAttr:$constant, OptionalAttr<I64Attr>:$symbol_size);
  let assemblyFormat = "$sym_name attr-dict";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The contents: `bytes` bytes (data, then zeros; relocation fields 0).
    std::vector<uint8_t> contents();
    /// "protected" unless set.
    ::llvm::StringRef linkageOrDefault() {
      return getLinkage() ? *getLinkage() : ::llvm::StringRef("protected");
    }
    bool isNoBits() { return getSection().starts_with(".bss"); }
  }];
}

def AMDGCN_RelocOp : AMDGCN_Op<"reloc", [Pure,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "An immediate operand the linker fills in: a symbol's address";
  let description = [{
    `%lo = amdgcn.reloc @table "rel32@lo" 4 : i32` is the 32-bit literal
    `table@rel32@lo+4` of an instruction that reads it (a source taking a
    literal): the low half of (address of @table + 4 - address of the
    literal), written by the linker. Kinds as LLVM's AMDGPU assembler spells
    them: `rel32@lo`, `rel32@hi` (PC-relative), `gotpcrel32@lo`,
    `gotpcrel32@hi` (PC-relative to the symbol's GOT entry, which holds its
    address), `abs32@lo`, `abs32@hi`. `@table` is an amdgcn.global, a
    kernel or an amdgcn.device_function of the module. The address of a
    global in s[4:5]: `s_getpc_b64 s[4:5]`, `s_add_u32 s4, s4, rel32@lo+4`,
    `s_addc_u32 s5, s5, rel32@hi+12` (the getpc value is the address of
    the add; its literal is 4 bytes after it, the addc's 12).
  }];
  let arguments = (ins FlatSymbolRefAttr:$symbol, StrAttr:$kind, I64Attr:$addend);
  let results = (outs I32:$value);
  let assemblyFormat = "$symbol $kind $addend attr-dict `:` type($value)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// `sym@kind+addend` as the assembler reads it.
    std::string asmText();
  }];
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

def AMDGCN_DataOp : AMDGCN_Op<"data"> {
  let summary = "Words embedded in the code, or an instruction kept as it was";
  let description = [{
    `amdgcn.data {words = array<i32: 0x12345678>}` is written as `.long`
    words at its place in the code (data in a code section, as raised from
    `.long` in assembly or from a code object). With `text` and no `words`
    it is that line of assembly, written verbatim (an instruction aster's
    table does not know, kept when raising with unknown="keep"); with both,
    `text` is a comment. Passes see no registers in it, except
    amdgcn-waitcnt, which reads an instruction's text through the table row
    of its mnemonic (transforms/WaitcntOpaque.cpp).
  }];
  let arguments = (ins OptionalAttr<DenseI32ArrayAttr>:$words,
                       OptionalAttr<StrAttr>:$text);
  let assemblyFormat = "attr-dict";
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

def AMDGCN_SchedBarrierOp : AMDGCN_Op<"sched_barrier"> {
  let summary = "A fence for amdgcn-schedule; emits nothing";
  let description = [{
    `amdgcn.sched_barrier` keeps amdgcn-schedule from moving any op across
    it. `amdgcn.sched_barrier {freeze}` also freezes the ops after it, up to
    the next sched_barrier (or the block's end): they keep their order
    (Python: `with k.no_reorder(): ...`). It prints nothing in assembly and
    code objects; amdgcn-schedule removes them.
  }];
  let arguments = (ins UnitAttr:$freeze);
  let assemblyFormat = "attr-dict";
}

def AMDGCN_PartOp : AMDGCN_Op<"part", [Pure]> {
  let summary = "Registers of a virtual register range, as a smaller range";
  let description = [{
    `%c4 = amdgcn.part %acc[4] : !amdgcn.agpr<?x16> -> !amdgcn.agpr<?x4>`
    names registers 4..7 of the virtual range %acc (after allocation: the
    registers allocated to %acc, plus 4). Reading it reads those registers
    of %acc where it is read. amdgcn-regalloc keeps %acc in its registers
    while a part of it is read and replaces the op by amdgcn.reg. The offset
    keeps the part's register alignment (a multiple of 2 for VGPR/AGPR pairs
    and wider on gfx9; of 2 or 4 for SGPR pairs, quads and wider).
  }];
  let arguments = (ins AnyType:$source, I32Attr:$offset);
  let results = (outs AnyType:$part);
  let assemblyFormat = "$source `[` $offset `]` attr-dict `:` type($source) `->` type($part)";
  let hasVerifier = 1;
}

def AMDGCN_ConcatOp : AMDGCN_Op<"concat", [Pure]> {
  let summary = "A virtual register range made of smaller virtual ones";
  let description = [{
    `%ab = amdgcn.concat %a, %b : !amdgcn.vgpr<?>, !amdgcn.vgpr<?> -> !amdgcn.vgpr<?x2>`
    is a new range holding the parts' values in order (e.g. an MFMA operand
    pair built from two 32-bit results). amdgcn-regalloc gives it a place
    and copies each part there (v_mov_b32, s_mov_b32 or v_accvgpr_mov_b32
    per register; no copy when the parts already sit in place), then
    replaces the op by amdgcn.reg.
  }];
  let arguments = (ins Variadic<AnyType>:$parts);
  let results = (outs AnyType:$range);
  let assemblyFormat = "$parts attr-dict `:` type($parts) `->` type($range)";
  let hasVerifier = 1;
}

// Register-level functions ("nanokernels"): a body of instructions on
// registers, called from kernels and functions and inlined by amdgcn-inline
// (transforms/Inline.cpp). They never reach translation: a kernel must have
// no amdgcn.call left, and functions themselves are not emitted.

def AMDGCN_FuncOp : AMDGCN_Op<"func", [
    IsolatedFromAbove, HasParent<"KernelModuleOp">, FunctionOpInterface]> {
  let summary = "A function on registers, inlined at each call";
  let description = [{
    ```
    amdgcn.func @fma(%a: !amdgcn.vgpr<?>, %b: !amdgcn.vgpr<?>, %p: !amdgcn.vgpr<7>)
        -> (!amdgcn.vgpr<?>) {
      %0 = amdgcn.v_fma_f32 %a, %b, %p : ... -> !amdgcn.vgpr<?>
      amdgcn.return %0 : !amdgcn.vgpr<?>
    }
    ```
    Parameters and results are registers: virtual (`!amdgcn.vgpr<?x4>`,
    class, width and alignment; a call passes any register of that class and
    width, and at least that alignment) or pinned (an allocated or special
    register type such as `!amdgcn.vgpr<7>`: the caller must pass exactly that
    register). The body is instructions like a kernel's (blocks, branches,
    block arguments), ending in `amdgcn.return`. Calls must not recurse.
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<FunctionType>:$function_type,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let regions = (region AnyRegion:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::Region *getCallableRegion() { return &getBody(); }
    ::llvm::ArrayRef<::mlir::Type> getArgumentTypes() { return getFunctionType().getInputs(); }
    ::llvm::ArrayRef<::mlir::Type> getResultTypes() { return getFunctionType().getResults(); }
  }];
}

def AMDGCN_CallOp : AMDGCN_Op<"call", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "Calls an amdgcn.func (inlined by amdgcn-inline)";
  let description = [{
    `%r:2 = amdgcn.call @f(%x, %y) : (!amdgcn.vgpr<?>, !amdgcn.vgpr<7>) -> (!amdgcn.vgpr<?>, !amdgcn.agpr<?x4>)`
    in a kernel or a function. Each operand has the class and width of its
    parameter (and at least its alignment); a pinned parameter gets exactly
    its register. The result types are the function's. Calls must not form a
    cycle (no recursion).
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee, Variadic<AnyType>:$args);
  let results = (outs Variadic<AnyType>:$results);
  let assemblyFormat = "$callee `(` $args `)` attr-dict `:` functional-type($args, $results)";
}

def AMDGCN_ReturnOp : AMDGCN_Op<"return", [
    Pure, Terminator, HasParent<"FuncOp">]> {
  let summary = "Ends an amdgcn.func, giving its results";
  let description = [{
    `amdgcn.return %a, %b : !amdgcn.vgpr<?>, !amdgcn.agpr<?x4>`: one register
    per result of the function, each of its class and width (a pinned result
    is exactly its register).
  }];
  let arguments = (ins Variadic<AnyType>:$operands);
  let assemblyFormat = "attr-dict ($operands^ `:` type($operands))?";
  let hasVerifier = 1;
}

// Spill pseudo ops: made by amdgcn-regalloc when a register class runs out
// and expanded by it into instructions once registers and slot offsets are
// known (so that a range of any width is saved and reloaded whole while
// allocating). They never reach translation.

def AMDGCN_SpillStoreOp : AMDGCN_Op<"spill_store"> {
  let summary = "Saves a VGPR or AGPR (range) to a scratch spill slot";
  let description = [{
    `amdgcn.spill_store %acc, %base slot 2 : !amdgcn.agpr<?x16>, !amdgcn.sgpr<?>`
    reads the whole range at this point. After allocation it becomes
    scratch_store_dword/dwordx2/x3/x4 instructions on consecutive parts of
    the range at the slot's byte offset in the private segment, addressed by
    the SGPR `base` (an s_mov_b32 whose constant the expansion sets).
  }];
  let arguments = (ins AnyType:$data, AnyType:$base, I32Attr:$slot);
  let assemblyFormat = "$data `,` $base `slot` $slot attr-dict `:` type($data) `,` type($base)";
  let hasVerifier = 1;
}

def AMDGCN_SpillLoadOp : AMDGCN_Op<"spill_load"> {
  let summary = "Reloads a VGPR or AGPR (range) from a scratch spill slot";
  let description = [{
    `%acc = amdgcn.spill_load %base slot 2 [0] : !amdgcn.sgpr<?> -> !amdgcn.agpr<?x16>`
    defines the whole range at this point; becomes scratch_load instructions
    on its parts (the allocator puts an s_waitcnt vmcnt(0) after it).
    `[k]`: the result is registers k.. of the saved range (a part of it).
  }];
  let arguments = (ins AnyType:$base, I32Attr:$slot, I32Attr:$first);
  let results = (outs AnyType:$data);
  let assemblyFormat = "$base `slot` $slot `[` $first `]` attr-dict `:` type($base) `->` type($data)";
  let hasVerifier = 1;
}

def AMDGCN_SpillToLanesOp : AMDGCN_Op<"spill_to_lanes"> {
  let summary = "Saves an SGPR (range) in lanes 0, 1, ... of a VGPR";
  let description = [{
    `%slot = amdgcn.spill_to_lanes %s : !amdgcn.sgpr<?x2> -> !amdgcn.vgpr<?>`
    becomes one v_writelane_b32 per register of the range.
  }];
  let arguments = (ins AnyType:$data);
  let results = (outs AnyType:$slot);
  let assemblyFormat = "$data attr-dict `:` type($data) `->` type($slot)";
  let hasVerifier = 1;
}

def AMDGCN_SpillFromLanesOp : AMDGCN_Op<"spill_from_lanes"> {
  let summary = "Reloads an SGPR (range) from lanes 0, 1, ... of a VGPR";
  let description = [{
    `%s = amdgcn.spill_from_lanes %slot [0] : !amdgcn.vgpr<?> -> !amdgcn.sgpr<?x2>`
    becomes one v_readlane_b32 per register of the range, from lanes k, k+1,
    ... for `[k]` (a part of the saved range).
  }];
  let arguments = (ins AnyType:$slot, I32Attr:$first);
  let results = (outs AnyType:$data);
  let assemblyFormat = "$slot `[` $first `]` attr-dict `:` type($slot) `->` type($data)";
  let hasVerifier = 1;
}

#endif
