//===- LowerMemrefGlobal.cpp - memref.get_global of global memory ---------===//
//
// A memref.global in global memory (no memory space) becomes data of the
// code object, as clang emits a HIP `__constant__` / `__device__` variable
// and LLVM's AMDGPU backend an addrspace(1)/(4) global: an amdgcn.global of
// the kernel module (cc/target/GlobalData.h) with the initial value's bytes
// (little-endian, as ElementsAttr holds them), in `.rodata` when the global
// is `constant`, `.data` when initialised, `.bss` otherwise; "local"
// linkage for a private symbol, "protected" (HIP's default) for a public
// one. memref.get_global takes its address as clang does, PC-relative:
// `s_getpc_b64`, `s_add_u32 lo, g@rel32@lo+4`, `s_addc_u32 hi, g@rel32@hi+12`
// (AMDGCN.td, amdgcn.reloc), in the kernel's prologue, once per global (later
// get_globals of it reuse the sequence: no s_getpc_b64 per use); the memref is
// then a global memref whose pointer is that SGPR pair (MemArg::ptrReg), so
// loads and stores are the usual global_load / global_store.
// Workgroup globals are LDS allocations (LowerMemExpand.cpp rewrites them
// before the walk; those non-kernel functions use are LDS at the fixed
// offset LowerModuleLds.cpp gives them, made here); the memref.global ops themselves emit nothing in the
// walk (lowerGpuModules skips them).
// Needs before: the memref.global in the gpu.module of the kernel, a static
// shape, an identity layout, elements memory ops lower (1, 2, 4, 8 bytes).
// Guarantees after: the result in mems; other globals an error at the op.
// Registered by LowerMemrefViews.cpp's populate function.
//===----------------------------------------------------------------------===//
#include "lower/KernelLowering.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace aster::lower {

LogicalResult lowerGetGlobal(KernelLowering &L, Operation *op) {
  auto gg = cast<memref::GetGlobalOp>(op);
  auto mt = gg.getType();
  // A workgroup global a non-kernel function uses: LDS at its fixed offset
  // in every kernel that reaches it (LowerModuleLds.cpp).
  if (auto g = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(op, gg.getNameAttr()))
    if (auto at = g->getAttrOfType<IntegerAttr>("aster.lds_offset")) {
      MemArg m;
      m.type = mt;
      m.lds = true;
      m.ldsOffset = (unsigned)at.getInt();
      L.mems[gg.getResult()] = m;
      return success();
    }
  if (mt.getMemorySpace())
    return L.unsupported(op, "only globals in global memory (no memory space) are lowered "
                             "here; workgroup ones in kernels become LDS allocations");
  auto g = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(op, gg.getNameAttr());
  if (!g)
    return L.unsupported(op, "its memref.global is not in the gpu.module");
  unsigned eb = memElementBytes(mt.getElementType());
  if (!eb || !mt.hasStaticShape() || !mt.getLayout().isIdentity())
    return L.unsupported(op, "only globals of static shapes with identity layouts of f16, bf16, "
                             "f32, f64, i8, i16, i32, i64 are lowered");
  std::string name = g.getSymName().str();
  if (!L.km.lookupSymbol(name)) {
    OpBuilder mb(L.ctx);
    mb.setInsertionPointToEnd(&L.km.getBody().front());
    int64_t bytes = std::max<int64_t>(mt.getNumElements() * eb, 1);
    auto init = dyn_cast_or_null<ElementsAttr>(g.getInitialValueAttr());
    StringRef section = g.getConstant() ? ".rodata" : init ? ".data" : ".bss";
    int64_t align = std::max<int64_t>(g.getAlignment().value_or(16), eb);
    auto attr = [&](int64_t v) { return mb.getI64IntegerAttr(v); };
    GlobalOp::create(mb, g.getLoc(), mb.getStringAttr(name), mb.getStringAttr(section),
                     attr(align), attr(bytes), init, ArrayAttr(),
                     mb.getStringAttr(g.isPrivate() ? "local" : "protected"),
                     g.getConstant() ? mb.getUnitAttr() : UnitAttr(), IntegerAttr());
  }
  // One address per global and function: the prologue's sequence for the
  // same global is reused (clang's -O3 keeps one s_getpc_b64 sequence per
  // global and function too; memref.get_global per use would repeat it).
  for (auto r : L.entry->getOps<RelocOp>())
    if (r.getSymbol() == name && r.getKind() == "rel32@lo" && r->hasOneUse())
      if (Operation *add = *r->getUsers().begin(); add->hasOneUse())
        if (auto c = dyn_cast<ConcatOp>(*add->getUsers().begin())) {
          MemArg m;
          m.type = mt;
          m.ptrReg = c.getResult();
          L.mems[gg.getResult()] = m;
          return success();
        }
  Value ptr = L.inPrologue([&] {
    auto reloc = [&](StringRef kind, int64_t addend) {
      return RelocOp::create(L.b, L.loc, L.b.getI32Type(),
                             FlatSymbolRefAttr::get(L.ctx, name), L.b.getStringAttr(kind),
                             L.b.getI64IntegerAttr(addend))
          .getResult();
    };
    Value pc = L.inst("s_getpc_b64", L.s2T, {});
    Value lo = PartOp::create(L.b, L.loc, L.sT, pc, L.b.getI32IntegerAttr(0));
    Value hi = PartOp::create(L.b, L.loc, L.sT, pc, L.b.getI32IntegerAttr(1));
    Value alo = L.inst("s_add_u32", L.sT, {lo, reloc("rel32@lo", 4)});
    Value ahi = L.inst("s_addc_u32", L.sT, {hi, reloc("rel32@hi", 12)});
    return (Value)ConcatOp::create(L.b, L.loc, L.s2T, ValueRange{alo, ahi});
  });
  MemArg m;
  m.type = mt;
  m.ptrReg = ptr;
  L.mems[gg.getResult()] = m;
  return success();
}

} // namespace aster::lower
