//===- LowerMemory.cpp - memref loads, stores, dims, allocas --------------===//
//
// A memref is a kernel argument (global memory: its aligned pointer in an
// SGPR pair, global_load/store with a VGPR byte offset), a workgroup
// attribution (LDS at a fixed byte offset: ds_read/ds_write), a
// memref.alloca or private attribution (below), or a view of one of those
// (LowerMemrefViews.cpp). The element offset is offset + sum(index_i *
// stride_i): static offsets and strides folded, dynamic ones read from the
// descriptor's kernel arguments or computed by the view ops; the byte
// offset is that times the element size.
//
// Element types: f32/i32 (dword), f16/bf16/i16 (global_load_ushort /
// global_store_short, ds_read_u16 / ds_write_b16), i8 (ubyte / byte,
// ds_read_u8 / ds_write_b8). A loaded 8- or 16-bit value is zero-extended in
// its VGPR (the upper bits 0, as the u8/u16/ubyte/ushort forms write them);
// a store writes the register's low 8 / 16 bits. i64/f64: dwordx2 /
// ds_read_b64 / ds_write_b64 into and from a VGPR pair (the 64-bit form of
// LowerArith64.cpp: low dword first, as memory holds it).
//
// memref.alloca / private attributions (static shape, identity layout):
//   - held in registers when every use is a memref.load / memref.store at
//     constant indices in the block that allocates it (straight-line code:
//     each element's current value is a lowered value, no instruction);
//   - otherwise in scratch: a fixed byte offset of the work-item's private
//     segment (the kernel's `private_segment` bytes, architected flat
//     scratch on gfx942/gfx950), scratch_load/scratch_store with a VGPR
//     byte offset and no saddr. amdgcn-regalloc places its spill slots
//     after these bytes.
// memref.alloca with dynamic sizes: a stack in scratch, as LLVM keeps one
// with its stack pointer: the first one at a base past every static byte
// (the static allocas, and the spill slots:
// the base is an arith.constant marked `aster.dynamic_stack_base`, set to
// the static bytes when the kernel is lowered and moved past the spill
// slots by amdgcn-regalloc's SpillExpand), each next one after the
// previous (sizes rounded up to 16 bytes; a divergent size makes the
// pointer a VGPR: each lane's private memory is its own). The kernel gets
// `dynamic_stack` (metadata `.uses_dynamic_stack`: the runtime adds its
// dynamic stack to the fixed private segment). The memref is a view of
// scratch: offset = pointer / element size, sizes and row-major strides as
// lowered values. In a region (an scf.if side, an scf.for / scf.while body,
// a memref.alloca_scope) the pointer is restored when the region is left,
// as LLVM's llvm.stacksave / llvm.stackrestore around an alloca_scope
// (MLIR's memref-to-llvm AllocaScopeOpLowering): each iteration's allocas
// reuse the same bytes (LLVM's build of an alloca in a loop without a scope
// instead grows its stack every iteration; the values computed are the
// same). An alloca that leaves its region (yielded out) is an error.
//
// Needs before: setupInterface (mems). Guarantees after: loads give a VGPR
// (or, for a register alloca, the stored value); any other memref op is an
// error naming it.
//===----------------------------------------------------------------------===//
#include "lower/KernelLowering.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace aster::lower {

// LowerMemrefFlat.cpp: memrefs of unknown memory (flat pointers).
bool isFlat(KernelLowering &L, const MemArg &m);
LogicalResult lowerFlatAccess(KernelLowering &L, Operation *op, const MemArg &m);

/// The VGPR address operand of a memory access at byte offset `off`; a
/// constant offset goes into the instruction's offset field when it fits
/// (global: 13-bit signed on gfx9; LDS: 16-bit unsigned).
Value KernelLowering::memOffset(RV off, bool lds, SmallVectorImpl<NamedAttribute> &attrs) {
  int64_t v = (int32_t)off.bits;
  bool fits = off.k == RV::Imm && (lds ? (off.bits < 65536) : (v >= -4096 && v < 4096));
  if (!fits)
    return toV(off);
  if (off.bits)
    attrs.push_back(b.getNamedAttr("offset", b.getI32IntegerAttr((int32_t)off.bits)));
  return inst("v_mov_b32", vT, cst(0));
}

unsigned memElementBytes(Type t) {
  if (t.isF32() || t.isInteger(32))
    return 4;
  if (t.isF16() || t.isBF16() || t.isInteger(16))
    return 2;
  if (t.isInteger(8))
    return 1;
  if (t.isInteger(64) || t.isF64())
    return 8;
  return 0;
}

FailureOr<MemArg> KernelLowering::memrefOf(Operation *op, Value memref) {
  auto it = mems.find(memref);
  if (it == mems.end())
    return unsupported(op, "only memrefs that are kernel arguments, workgroup or private "
                           "attributions, allocas or views of those are lowered");
  return it->second;
}

RV KernelLowering::memrefOffset(const MemArg &m) {
  SmallVector<int64_t> strides;
  int64_t offset = ShapedType::kDynamic;
  if (succeeded(m.type.getStridesAndOffset(strides, offset)) && !ShapedType::isDynamic(offset))
    return RV::imm((uint32_t)offset);
  if (m.view)
    return m.viewOffset;
  return loadScalar(m.offset, false);
}

RV KernelLowering::memrefSize(const MemArg &m, unsigned d) {
  if (!m.type.isDynamicDim(d))
    return RV::imm((uint32_t)m.type.getDimSize(d));
  if (m.view)
    return m.viewSizes[d];
  return loadScalar(m.sizes[d], false);
}

RV KernelLowering::memrefStride(const MemArg &m, unsigned d) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (succeeded(m.type.getStridesAndOffset(strides, offset)) && !ShapedType::isDynamic(strides[d]))
    return RV::imm((uint32_t)strides[d]);
  if (m.view)
    return m.viewStrides[d];
  return loadScalar(m.strides[d], false);
}

FailureOr<std::pair<Value, RV>> KernelLowering::address(Operation *op, Value memref,
                                                        ValueRange idx, bool allowPrivate,
                                                        bool allowFlat) {
  auto mo = memrefOf(op, memref);
  if (failed(mo))
    return failure();
  const MemArg &m = *mo;
  if (isFlat(*this, m) && !allowFlat)
    return unsupported(op, "only memref.load / store, atomics, vector loads, stores and "
                           "transfers and vector.type_cast elements reach a memref of unknown "
                           "memory (a flat pointer)");
  if (m.regs)
    return unsupported(op, "this alloca is held in registers (only memref.load / store at "
                           "constant indices reach it)");
  if (m.priv && !allowPrivate)
    return unsupported(op, "only memref.load / store reach an alloca in scratch memory");
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(m.type.getStridesAndOffset(strides, offset)))
    return unsupported(op, "the memref layout is not strided");
  unsigned bytes = memElementBytes(m.type.getElementType());
  if (!bytes)
    return unsupported(op, "memref elements of this type are not lowered (f16, bf16, f32, "
                           "f64, i8, i16, i32, i64 are)");
  RV lin = memrefOffset(m);
  for (unsigned i = 0; i < idx.size(); ++i) {
    auto x = get(idx[i]);
    if (failed(x))
      return failure();
    lin = add(lin, mul(*x, memrefStride(m, i)));
  }
  RV byteOff = shl(lin, RV::imm(llvm::Log2_32(bytes)));
  RV dyn = m.dynOffset.k == RV::None ? RV::imm(0) : m.dynOffset;
  if (m.lds)
    return std::pair{Value(), add(add(byteOff, RV::imm(m.ldsOffset)), dyn)};
  if (m.priv)
    return std::pair{Value(), add(add(byteOff, RV::imm(m.privOffset)), dyn)};
  Value base = m.ptrReg ? m.ptrReg : loadPtr(m.ptr);
  return std::pair{base, byteOff};
}

/// The mnemonic of a load (store) of `bytes` bytes from global memory, LDS or
/// scratch (the _nosaddr form: the VGPR offset alone; also used by
/// LowerMemrefAtomics.cpp for private memory).
std::string memMnemonic(bool store, unsigned bytes, bool global, bool lds) {
  if (lds) {
    static const char *const ld[] = {"",   "ds_read_u8", "ds_read_u16", "", "ds_read_b32",
                                     "",   "",           "",            "ds_read_b64"};
    static const char *const st[] = {"",   "ds_write_b8", "ds_write_b16", "", "ds_write_b32",
                                     "",   "",            "",             "ds_write_b64"};
    return store ? st[bytes] : ld[bytes];
  }
  static const char *const ld[] = {"", "load_ubyte", "load_ushort", "", "load_dword",
                                   "", "",           "",            "load_dwordx2"};
  static const char *const st[] = {"", "store_byte", "store_short", "", "store_dword",
                                   "", "",           "",            "store_dwordx2"};
  std::string mn = std::string(global ? "global_" : "scratch_") + (store ? st[bytes] : ld[bytes]);
  return global ? mn : mn + "_nosaddr";
}

/// A register-held alloca's element index for constant indices, or -1 (also
/// used by LowerMemrefAtomics.cpp).
int64_t regIndex(KernelLowering &L, MemRefType mt, ValueRange idx) {
  int64_t lin = 0;
  for (unsigned i = 0; i < idx.size(); ++i) {
    auto r = L.vals.find(idx[i]);
    if (r == L.vals.end() || r->second.k != RV::Imm)
      return -1;
    int64_t x = (int32_t)r->second.bits;
    if (x < 0 || x >= mt.getDimSize(i))
      return -1;
    lin = lin * mt.getDimSize(i) + x;
  }
  return lin;
}

namespace {

/// Whether alloca `v` (static, identity layout) can live in registers: every
/// use a memref.load / store (of it, not into it) or an atomic_rmw /
/// generic_atomic_rmw on it, at constant indices in the alloca's block.
bool registerAlloca(Value v, Block *blk) {
  auto mt = cast<MemRefType>(v.getType());
  if (mt.getNumElements() > 64)
    return false;
  for (OpOperand &u : v.getUses()) {
    Operation *user = u.getOwner();
    if (user->getBlock() != blk)
      return false;
    ValueRange idx;
    if (auto l = dyn_cast<memref::LoadOp>(user))
      idx = l.getIndices();
    else if (auto s = dyn_cast<memref::StoreOp>(user); s && u.getOperandNumber() == 1)
      idx = s.getIndices();
    else if (auto a = dyn_cast<memref::AtomicRMWOp>(user); a && u.get() == a.getMemref())
      idx = a.getIndices(); // private: an update of the element (LowerMemrefAtomics.cpp)
    else if (auto g = dyn_cast<memref::GenericAtomicRMWOp>(user))
      idx = g.getIndices();
    else
      return false;
    for (Value i : idx)
      if (!i.getDefiningOp<arith::ConstantOp>())
        return false;
  }
  return true;
}

} // namespace

/// A memref.alloca or private attribution `v` (LowerMemory.cpp header).
LogicalResult allocatePrivate(KernelLowering &L, Operation *at, Value v) {
  auto mt = cast<MemRefType>(v.getType());
  unsigned bytes = memElementBytes(mt.getElementType());
  if (!mt.hasStaticShape() || !mt.getLayout().isIdentity() || !bytes)
    return at->emitOpError("cannot be lowered to amdgcn: only allocas of static shapes with "
                           "identity layouts of f16, bf16, f32, f64, i8, i16, i32, i64 are "
                           "lowered");
  if (isa_and_nonnull<gpu::AddressSpaceAttr>(mt.getMemorySpace()) &&
      cast<gpu::AddressSpaceAttr>(mt.getMemorySpace()).getValue() !=
          gpu::AddressSpace::Private)
    return at->emitOpError("cannot be lowered to amdgcn: allocas are lowered in private "
                           "memory only");
  MemArg m;
  m.type = mt;
  Block *blk = isa<BlockArgument>(v) ? cast<BlockArgument>(v).getOwner()
                                     : v.getDefiningOp()->getBlock();
  if (registerAlloca(v, blk)) {
    m.regs = true;
    m.regsId = L.regAllocas.size();
    L.regAllocas.emplace_back(mt.getNumElements(),
                              bytes == 8 ? KernelLowering::imm64(0) : RV::imm(0));
  } else {
    if (!L.kernel)
      return at->emitOpError("cannot be lowered to amdgcn: in a function only allocas held in "
                             "registers (constant indices, one block) are lowered");
    m.priv = true;
    m.privOffset = (unsigned)llvm::alignTo(L.privateBytes, 16);
    L.privateBytes = m.privOffset + (unsigned)(mt.getNumElements() * bytes);
    L.kernel->setAttr("private_segment",
                      L.b.getI32IntegerAttr((int32_t)llvm::alignTo(L.privateBytes, 4)));
  }
  L.mems[v] = m;
  return success();
}

namespace {

/// The dynamic stack pointer (bytes) of each kernel being lowered: its
/// base (made in the entry block), and its value after the last dynamic
/// alloca of each block (a block with none has its parent op's).
struct DynamicStack {
  RV base;
  DenseMap<Block *, RV> inBlock;
};
DenseMap<Operation *, DynamicStack> &stackPointers() {
  static DenseMap<Operation *, DynamicStack> sp;
  return sp;
}

/// The stack pointer in effect in `blk` (where the builder is): the block's
/// own after its last alloca, else the one in effect at its parent op. The
/// value the parent block had when a region was entered is the one its
/// ops see again after it: leaving a region (an scf.if side, an scf.for /
/// scf.while iteration, a memref.alloca_scope) restores the pointer, as
/// llvm.stackrestore does at the end of an alloca_scope.
RV &stackPointerIn(DynamicStack &st, Block *blk, Operation *kernelFn) {
  auto it = st.inBlock.find(blk);
  if (it != st.inBlock.end())
    return it->second;
  Operation *parent = blk->getParentOp();
  RV outer = parent == kernelFn ? st.base
                                : stackPointerIn(st, parent->getBlock(), kernelFn);
  return st.inBlock[blk] = outer;
}

/// An error when memref `v`, allocated in `blk`, or a view or a result
/// holding it, reaches `blk`'s terminator (yielded out of a loop iteration,
/// an scf.if side or an alloca_scope): its memory is reused after the region.
LogicalResult checkStaysInBlock(KernelLowering &L, Operation *op, Value v, Block *blk) {
  SmallVector<Value> work{v};
  DenseSet<Value> seen;
  while (!work.empty()) {
    Value x = work.pop_back_val();
    if (!seen.insert(x).second)
      continue;
    for (OpOperand &u : x.getUses()) {
      Operation *user = u.getOwner();
      if (user == blk->getTerminator())
        return L.unsupported(op, "a dynamic-size alloca in a loop, branch or alloca_scope "
                                 "must not leave it (its stack memory is reused after it)");
      // (through the values an scf result carries it as: LowerMemrefCarries.cpp)
      for (Value r : user->getResults())
        if (isa<BaseMemRefType>(r.getType()) || user->hasAttr("aster.memref_carry"))
          work.push_back(r);
    }
  }
  return success();
}

LogicalResult lowerDynamicAlloca(KernelLowering &L, memref::AllocaOp al) {
  Operation *op = al;
  MemRefType mt = al.getType();
  unsigned bytes = memElementBytes(mt.getElementType());
  if (!L.kernel)
    return L.unsupported(op, "dynamic-size allocas are lowered in kernels only");
  Block *blk = op->getBlock();
  if (op->getParentOp() != L.fn.getOperation() &&
      failed(checkStaysInBlock(L, op, al.getResult(), blk)))
    return failure();
  if (!mt.getLayout().isIdentity() || !bytes || !al.getSymbolOperands().empty())
    return L.unsupported(op, "only allocas with identity layouts of f16, bf16, f32, f64, i8, "
                             "i16, i32, i64 are lowered");
  if (auto as = dyn_cast_or_null<gpu::AddressSpaceAttr>(mt.getMemorySpace());
      as && as.getValue() != gpu::AddressSpace::Private)
    return L.unsupported(op, "allocas are lowered in private memory only");
  SmallVector<RV> sizes;
  unsigned next = 0;
  for (int64_t d : mt.getShape()) {
    if (!ShapedType::isDynamic(d)) {
      sizes.push_back(RV::imm((uint32_t)d));
      continue;
    }
    auto s = L.get(al.getDynamicSizes()[next++]);
    if (failed(s))
      return failure();
    sizes.push_back(*s);
  }
  unsigned rank = mt.getRank();
  SmallVector<RV> strides(rank);
  SmallVector<int64_t> staticStrides(rank);
  RV count = RV::imm(1);
  int64_t staticCount = 1;
  for (int i = (int)rank - 1; i >= 0; --i) {
    strides[i] = count;
    staticStrides[i] = staticCount;
    count = L.mul(count, sizes[i]);
    staticCount = staticCount == ShapedType::kDynamic || mt.isDynamicDim(i)
                      ? ShapedType::kDynamic
                      : staticCount * mt.getDimSize(i);
  }
  // Bytes, rounded up to 16.
  RV total = L.shl(count, RV::imm(llvm::Log2_32(bytes)));
  total = L.ibin("s_and_b32", "v_and_b32", false, L.add(total, RV::imm(15)), RV::imm(~15u),
                 [](uint32_t a, uint32_t c) { return a & c; });
  DynamicStack &st = stackPointers()[L.fn.getOperation()];
  if (st.base.k == RV::None) {
    // In the entry block: it dominates every alloca, in any region.
    st.base = RV::of(RV::S, L.inPrologue([&] {
      Value c = L.cst((uint32_t)llvm::alignTo(L.privateBytes, 16));
      c.getDefiningOp()->setAttr("aster.dynamic_stack_base", UnitAttr::get(L.ctx));
      return L.inst("s_mov_b32", L.sT, c);
    }));
    L.kernel->setAttr("dynamic_stack", UnitAttr::get(L.ctx));
  }
  RV &sp = stackPointerIn(st, blk, L.fn.getOperation());
  RV base = sp;
  sp = L.add(base, total);
  MemArg m;
  m.type = MemRefType::get(mt.getShape(), mt.getElementType(),
                           StridedLayoutAttr::get(L.ctx, ShapedType::kDynamic, staticStrides),
                           mt.getMemorySpace());
  m.priv = true;
  m.view = true;
  m.viewOffset = L.ibin("s_lshr_b32", "v_lshrrev_b32", true, base,
                        RV::imm(llvm::Log2_32(bytes)), nullptr);
  m.viewSizes = sizes;
  m.viewStrides = strides;
  L.mems[al] = m;
  return success();
}

} // namespace

/// After the kernel is lowered: the dynamic stack's base past every static
/// private byte (KernelLowering::run); regalloc moves it past its spills.
void finishDynamicStack(KernelLowering &L) {
  if (!stackPointers().erase(L.fn.getOperation()) || !L.kernel)
    return;
  L.kernel.walk([&](arith::ConstantOp c) {
    if (c->hasAttr("aster.dynamic_stack_base"))
      c.setValueAttr(L.b.getI32IntegerAttr((int32_t)llvm::alignTo(L.privateBytes, 16)));
  });
}

// LowerVectorTypeCast.cpp: memref.load / store of a vector element.
LogicalResult lowerVectorElementAccess(KernelLowering &L, Operation *op);

LogicalResult KernelLowering::lowerMemref(Operation *op) {
  if (isa<memref::LoadOp, memref::StoreOp>(op) &&
      isa<VectorType>(cast<MemRefType>(op->getOperand(isa<memref::StoreOp>(op)).getType())
                          .getElementType()))
    return lowerVectorElementAccess(*this, op);
  if (isa<memref::LoadOp, memref::StoreOp>(op)) {
    auto mo = memrefOf(op, op->getOperand(isa<memref::StoreOp>(op)));
    if (failed(mo))
      return failure();
    if (isFlat(*this, *mo))
      return lowerFlatAccess(*this, op, *mo);
  }
  if (auto l = dyn_cast<memref::LoadOp>(op)) {
    auto mo = memrefOf(op, l.getMemRef());
    if (failed(mo))
      return failure();
    if (mo->regs) {
      int64_t e = regIndex(*this, mo->type, l.getIndices());
      if (e < 0)
        return unsupported(op, "an index out of the alloca's bounds");
      vals[l] = regAllocas[mo->regsId][e];
      return success();
    }
    auto a = address(op, l.getMemRef(), l.getIndices(), true);
    if (failed(a))
      return failure();
    auto [base, off] = *a;
    unsigned bytes = memElementBytes(mo->type.getElementType());
    SmallVector<NamedAttribute> attrs;
    Value voff = memOffset(off, mo->lds, attrs);
    std::string mn = memMnemonic(false, bytes, (bool)base, mo->lds);
    Type rt = bytes == 8 ? v2T : vT;
    Value r = base ? inst(mn, rt, {voff, base}, attrs) : inst(mn, rt, {voff}, attrs);
    vals[l] = bytes == 8 ? fromV64(r) : RV::of(RV::V, r, isF32(l.getType()));
    return success();
  }
  if (auto s = dyn_cast<memref::StoreOp>(op)) {
    auto mo = memrefOf(op, s.getMemRef());
    auto v = get(s.getValue());
    if (failed(mo) || failed(v))
      return failure();
    if (mo->regs) {
      int64_t e = regIndex(*this, mo->type, s.getIndices());
      if (e < 0)
        return unsupported(op, "an index out of the alloca's bounds");
      regAllocas[mo->regsId][e] = *v;
      return success();
    }
    auto a = address(op, s.getMemRef(), s.getIndices(), true);
    if (failed(a))
      return failure();
    auto [base, off] = *a;
    unsigned bytes = memElementBytes(mo->type.getElementType());
    SmallVector<NamedAttribute> attrs;
    Value voff = memOffset(off, mo->lds, attrs);
    std::string mn = memMnemonic(true, bytes, (bool)base, mo->lds);
    Value data = bytes == 8 ? toV64(*v) : toV(*v);
    if (base)
      inst(mn, {}, {voff, data, base}, attrs);
    else
      inst(mn, {}, {voff, data}, attrs);
    return success();
  }
  if (auto al = dyn_cast<memref::AllocaOp>(op)) {
    if (!al.getDynamicSizes().empty())
      return lowerDynamicAlloca(*this, al);
    if (!al.getSymbolOperands().empty())
      return unsupported(op, "only allocas of static shapes are lowered");
    return allocatePrivate(*this, op, al.getResult());
  }
  if (auto sc = dyn_cast<memref::AllocaScopeOp>(op)) {
    // Its body in place; the dynamic stack pointer after it is the one
    // before it (stackPointerIn), static allocas keep their own bytes.
    Block &body = sc.getBodyRegion().front();
    if (failed(lowerBlock(body)))
      return failure();
    for (auto [r, v] : llvm::zip(sc.getResults(), body.getTerminator()->getOperands())) {
      if (isa<BaseMemRefType>(r.getType())) { // a static alloca's (fixed bytes) or an outer one
        auto m = memrefOf(op, v);
        if (failed(m))
          return failure();
        mems[r] = *m;
        continue;
      }
      auto x = get(v);
      if (failed(x))
        return failure();
      vals[r] = *x;
    }
    return success();
  }
  if (isa<memref::AllocaScopeReturnOp>(op)) // read by the alloca_scope above
    return success();
  if (auto d = dyn_cast<memref::DimOp>(op)) {
    auto i = d.getConstantIndex();
    if (!i)
      return unsupported(op, "only dims at constant indices are lowered");
    auto mo = memrefOf(op, d.getSource());
    if (failed(mo))
      return failure();
    vals[d] = memrefSize(*mo, *i);
    return success();
  }
  return unsupported(op);
}

void populateMemoryLowering(LoweringTable &table) {
  table.add("memref", [](KernelLowering &k, Operation *op) { return k.lowerMemref(op); });
}

} // namespace aster::lower
