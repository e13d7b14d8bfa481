//===- LowerMemory.cpp - memref loads, stores, dims ------------------------===//
//
// A memref is a kernel argument (global memory: its aligned pointer in an
// SGPR pair, global_load/store_dword with a VGPR byte offset) or a workgroup
// attribution (LDS at a fixed byte offset: ds_read/write_b32). The element
// offset is offset + sum(index_i * stride_i) with static strides folded and
// dynamic ones read from the descriptor's kernel arguments.
// Needs before: setupInterface (mems). Guarantees after: loads give a VGPR;
// any other memref op is an error naming it.
//===----------------------------------------------------------------------===//
#include "lower/KernelLowering.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace aster::lower {

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

FailureOr<std::pair<Value, RV>> KernelLowering::address(Operation *op, Value memref,
                                                        ValueRange idx) {
  auto it = mems.find(memref);
  if (it == mems.end())
    return unsupported(op, "only memrefs that are kernel arguments are lowered");
  const MemArg &m = it->second;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(m.type.getStridesAndOffset(strides, offset)))
    return unsupported(op, "the memref layout is not strided");
  RV lin = RV::imm(0);
  if (ShapedType::isDynamic(offset))
    lin = loadScalar(m.offset, false);
  else
    lin = RV::imm((uint32_t)offset);
  for (unsigned i = 0; i < idx.size(); ++i) {
    auto x = get(idx[i]);
    if (failed(x))
      return failure();
    RV st = ShapedType::isDynamic(strides[i]) ? loadScalar(m.strides[i], false)
                                              : RV::imm((uint32_t)strides[i]);
    lin = add(lin, mul(*x, st));
  }
  if (m.lds)
    return std::pair{Value(), add(shl(lin, RV::imm(2)), RV::imm(m.ldsOffset))};
  Value base = loadPtr(m.ptr);
  return std::pair{base, shl(lin, RV::imm(2))};
}

LogicalResult KernelLowering::lowerMemref(Operation *op) {
  if (auto l = dyn_cast<memref::LoadOp>(op)) {
    auto a = address(op, l.getMemRef(), l.getIndices());
    if (failed(a))
      return failure();
    auto [base, off] = *a;
    SmallVector<NamedAttribute> attrs;
    Value voff = memOffset(off, !base, attrs);
    Value r = base ? inst("global_load_dword", vT, {voff, base}, attrs)
                   : inst("ds_read_b32", vT, {voff}, attrs);
    vals[l] = RV::of(RV::V, r, isF32(l.getType()));
    return success();
  }
  if (auto s = dyn_cast<memref::StoreOp>(op)) {
    auto a = address(op, s.getMemRef(), s.getIndices());
    auto v = get(s.getValue());
    if (failed(a) || failed(v))
      return failure();
    auto [base, off] = *a;
    SmallVector<NamedAttribute> attrs;
    Value voff = memOffset(off, !base, attrs);
    if (base)
      inst("global_store_dword", {}, {voff, toV(*v), base}, attrs);
    else
      inst("ds_write_b32", {}, {voff, toV(*v)}, attrs);
    return success();
  }
  if (auto a = dyn_cast<memref::AtomicRMWOp>(op)) {
    // One global_atomic_* / ds_* per access; the returning form (sc0 set,
    // ds_*_rtn) only when the pre-op value is used. Kinds without a gfx9
    // atomic instruction (mulf, muli, minimumf, maximumf, minnumf, maxnumf
    // on global memory) would need a compare-and-swap loop: an error.
    using K = arith::AtomicRMWKind;
    auto addr = address(op, a.getMemref(), a.getIndices());
    auto v = get(a.getValue());
    if (failed(addr) || failed(v))
      return failure();
    if (!is32(a.getType()))
      return unsupported(op, "only 32-bit atomics are lowered");
    auto [base, off] = *addr;
    StringRef g, d;
    switch (a.getKind()) {
    case K::addi: g = "add", d = "add_u32"; break;
    case K::addf: g = "add_f32", d = "add_f32"; break;
    case K::maxs: g = "smax", d = "max_i32"; break;
    case K::mins: g = "smin", d = "min_i32"; break;
    case K::maxu: g = "umax", d = "max_u32"; break;
    case K::minu: g = "umin", d = "min_u32"; break;
    case K::andi: g = "and", d = "and_b32"; break;
    case K::ori: g = "or", d = "or_b32"; break;
    case K::xori: g = "xor", d = "xor_b32"; break;
    case K::assign: g = "swap", d = "wrxchg_b32"; break;
    default:
      return unsupported(op, "this atomic kind has no gfx9 atomic instruction (it would "
                             "need a compare-and-swap loop)");
    }
    bool rtn = !a->use_empty() || (!base && a.getKind() == K::assign);
    std::string mn;
    if (base) {
      mn = ("global_atomic_" + g + (rtn ? "_rtn" : "")).str();
    } else {
      // ds_<op>_rtn_<type>: the rtn goes before the type suffix.
      size_t us = d.rfind('_');
      mn = rtn ? ("ds_" + d.substr(0, us) + "_rtn" + d.substr(us)).str() : ("ds_" + d).str();
    }
    SmallVector<NamedAttribute> attrs;
    Value voff = memOffset(off, !base, attrs);
    SmallVector<Value> ops{voff, toV(*v)};
    if (base)
      ops.push_back(base);
    Value r = inst(mn, rtn ? vT : Type(), ops, attrs);
    if (rtn)
      vals[a] = RV::of(RV::V, r, isF32(a.getType()));
    return success();
  }
  if (auto d = dyn_cast<memref::DimOp>(op)) {
    auto it = mems.find(d.getSource());
    auto i = d.getConstantIndex();
    if (it == mems.end() || !i)
      return unsupported(op, "only dims of kernel-argument memrefs at constant indices");
    int64_t n = it->second.type.getDimSize(*i);
    if (!ShapedType::isDynamic(n))
      vals[d] = RV::imm((uint32_t)n);
    else
      vals[d] = loadScalar(it->second.sizes[*i], false);
    return success();
  }
  return unsupported(op);
}

void populateMemoryLowering(LoweringTable &table) {
  table.add("memref", [](KernelLowering &k, Operation *op) { return k.lowerMemref(op); });
}

} // namespace aster::lower
