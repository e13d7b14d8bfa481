//===- KernelLowering.h - shared state of amdgcn-lower's dialect files ----===//
//
// What the pass needs and guarantees: Lower.h. This header is internal to
// cc/lower: the lowered-value representation (RV), the per-kernel state and
// emission helpers (KernelLowering), and the table that maps an upstream op
// to the function lowering it (LoweringTable).
//
// How the work is split (one file per upstream dialect family):
//   KernelLowering.cpp   kernel interface (arguments, hardware-initialised
//                        registers), the walk, the table, lowerGpuModules
//   LowerArith.cpp       arith        LowerMath.cpp     math
//   LowerControlFlow.cpp scf (uniform: SCC branches; divergent: EXEC masks)
//   LowerMemory.cpp      memref (global, workgroup, private memory; allocas)
//   LowerMemrefViews.cpp subview, reinterpret_cast, collapse/expand_shape
//   LowerMemrefAtomics.cpp atomic_rmw (instructions, compare-and-swap loops)
//   LowerGpu.cpp         gpu ids, dims, barrier, shuffle, reductions
//   LowerVector*.cpp     vector (LowerVectorUtil.h: representation, files)
//   LowerAmdgpu.cpp      amdgpu     LowerCall.cpp     func.call of amdgcn.func
//   LowerFunction.cpp    non-kernel gpu.func -> amdgcn.func
//   LowerLinalg.cpp      linalg ops -> loops (before the walk)
// A new dialect file defines `void populate<Name>Lowering(LoweringTable &)`
// registering its ops (by op name, or a whole dialect by namespace) and adds
// one `ASTER_LOWERING(<Name>)` line to Lowerings.def; no other file changes.
// Its functions take the KernelLowering and use its helpers (get, inst,
// valu, vOps, toS/toV/toMask, ...).
//
// The body is walked once in order; every MLIR value gets a lowered form
// (RV): an immediate, a virtual SGPR (uniform 32-bit values, i1 as 0/1), a
// virtual VGPR, or a lane mask in an SGPR pair (divergent i1). An integer
// op whose operands are all immediates or SGPRs is a scalar (SALU)
// instruction, else a vector one; float ops are always VALU (gfx9 has no
// scalar float ALU). VALU operands obey gfx9's rules: at most one SGPR /
// literal read per instruction (the constant bus; CDNA3 ISA "VOP3 ... at
// most one SGPR or literal"), no literal in a VOP3 encoding: extra SGPRs and
// non-inline constants go through v_mov_b32 first (vOps).
//===----------------------------------------------------------------------===//
#ifndef ASTER_LOWER_KERNELLOWERING_H
#define ASTER_LOWER_KERNELLOWERING_H

#include "lower/Lower.h"
#include "lower/Uniformity.h"

#include "dialect/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include "llvm/ADT/StringMap.h"

#include <functional>
#include <map>
#include <tuple>

namespace aster::lower {

using namespace mlir;
using namespace aster::amdgcn;

/// A lowered value.
struct RV {
  enum Kind { None, Imm, S, V, Mask } k = None;
  Value reg;         // S: sgpr<?>, V: vgpr<?>, Mask: sgpr<?x2>
  uint32_t bits = 0; // Imm
  bool isFloat = false; // an f32 (immediates: f32 inline constants apply)
  // A 64-bit value (i64, f64; LowerArith64.cpp): (reg, bits) is its low
  // dword, (hiReg, hiBits) its high one, both of kind k (Imm, S or V).
  bool wide = false;
  Value hiReg;
  uint32_t hiBits = 0;
  // The pair as one register range (vgpr<?x2> / sgpr<?x2>) when it came
  // whole from an instruction (fromV64 / fromS64): toV64 / toS64 hand it
  // back instead of joining (reg, hiReg) again, so a chain of 64-bit ops
  // keeps its values in place (no copies around each op).
  Value whole;
  static RV imm(uint32_t b, bool f = false) {
    RV r;
    r.k = Imm, r.bits = b, r.isFloat = f;
    return r;
  }
  static RV of(Kind k, Value v, bool f = false) {
    RV r;
    r.k = k, r.reg = v, r.isFloat = f;
    return r;
  }
  bool scalar() const { return k == Imm || k == S; }
};

inline bool inlineConstant(uint32_t bits, bool isFloat) {
  int32_t i = (int32_t)bits;
  if (!isFloat)
    return i >= -16 && i <= 64;
  // gfx9 inline floats: 0, +-0.5, +-1, +-2, +-4, 1/(2 pi) (AMD CDNA3 ISA 4.3.2).
  switch (bits) {
  case 0x00000000: case 0x3f000000: case 0xbf000000: case 0x3f800000: case 0xbf800000:
  case 0x40000000: case 0xc0000000: case 0x40800000: case 0xc0800000: case 0x3e22f983:
    return true;
  default:
    return false;
  }
}

inline bool isF32(Type t) { return t.isF32(); }
/// Types held as two dwords (LowerArith64.cpp); `index` stays 32 bits.
inline bool is64(Type t) { return t.isInteger(64) || t.isF64(); }
/// Types held in the low 16 (8) bits of a dword, the rest unspecified
/// (LowerArith16.cpp).
inline bool isNarrow(Type t) {
  return t.isF16() || t.isBF16() || t.isInteger(16) || t.isInteger(8);
}
inline bool is32(Type t) { return t.isIndex() || t.isInteger(32) || t.isF32(); }

/// One kernarg slot: byte offset and size.
struct Slot {
  unsigned offset = 0, size = 0;
};

/// A memref argument: where its pointer (and descriptor fields) are.
struct MemArg {
  MemRefType type;
  Slot ptr;         // the aligned pointer
  Value ptrReg;     // or the pointer's SGPR pair (a function's parameter)
  bool lds = false; // a workgroup attribution: at byte ldsOffset of the LDS
  unsigned ldsOffset = 0;
  bool desc = false;
  Slot offset;
  SmallVector<Slot> sizes, strides;
  /// A view (memref.subview, reinterpret_cast, collapse_shape, expand_shape,
  /// cast; LowerMemrefViews.cpp): its offset, sizes and strides in elements
  /// as lowered values, over the memory of the memref it views (ptr / lds).
  bool view = false;
  RV viewOffset;
  SmallVector<RV> viewSizes, viewStrides;
  /// A memref.alloca in scratch (private) memory at byte privOffset of the
  /// work-item's private segment (LowerMemory.cpp).
  bool priv = false;
  unsigned privOffset = 0;
  /// A small static memref.alloca held in registers: one lowered value per
  /// element, row-major (every access at constant indices).
  bool regs = false;
  unsigned regsId = 0;
  /// LDS / scratch memory whose byte address is not a constant (an LDS or
  /// scratch memref carried through an scf result or passed to a function:
  /// LowerMemrefCarries.cpp): this lowered value is added to ldsOffset /
  /// privOffset (kind None: nothing added).
  RV dynOffset;
};

class KernelLowering {
public:
  KernelLowering(gpu::GPUFuncOp fn, KernelModuleOp km)
      : fn(fn), km(km), ctx(fn.getContext()), b(ctx), uni(fn), loc(fn.getLoc()) {
    sT = RegType::getVirtual(ctx, RegKind::SGPR);
    s2T = RegType::getVirtual(ctx, RegKind::SGPR, 2, 2);
    vT = RegType::getVirtual(ctx, RegKind::VGPR);
    v2T = RegType::getVirtual(ctx, RegKind::VGPR, 2, 2);
    execT = SpecialRegType::get(ctx, SpecialReg::exec);
    vccT = SpecialRegType::get(ctx, SpecialReg::vcc);
  }
  LogicalResult run();

  gpu::GPUFuncOp fn;
  KernelModuleOp km;
  MLIRContext *ctx;
  OpBuilder b;
  Uniformity uni;
  Location loc;
  Type sT, s2T, vT, v2T, execT, vccT;
  KernelOp kernel;
  Region *body = nullptr;
  Block *entry = nullptr;
  DenseMap<Value, RV> vals;
  /// Vector values: their elements flattened, row-major (LowerVectorUtil.h).
  DenseMap<Value, SmallVector<RV>> vecs;
  DenseMap<Value, MemArg> mems;
  DenseMap<Value, Slot> scalars;
  // Prologue values (made once in the entry block).
  Value kernargPtr, dispatchPtr, tid0, wgid[3];
  bool packedIds = false;
  DenseMap<std::pair<unsigned, unsigned>, Value> argLoads;
  Value blockDims[2];
  /// hidden_block_count_x/y/z kernarg slots (gpu.grid_dim; setupInterface).
  Slot blockCount[3];

  // ---- emission helpers ---------------------------------------------------
  Value cst(uint32_t bits, bool isFloat) {
    if (isFloat)
      return arith::ConstantOp::create(
          b, loc, b.getF32FloatAttr(llvm::bit_cast<float>(bits)));
    return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr((int32_t)bits));
  }
  Value cst(uint32_t bits) { return cst(bits, false); }
  /// Emits one instruction. One that writes EXEC (its result is EXEC, or the
  /// table says it writes EXEC implicitly: s_and_saveexec_b64, v_cmpx_*)
  /// empties the block's value cache `cse`: a VGPR value made under the old
  /// EXEC (a pair joined for an operand, a mask turned to lanes) holds only
  /// that EXEC's lanes and must not be reused under the new one.
  Value inst(StringRef mn, Type res, ValueRange ops, ArrayRef<NamedAttribute> attrs = {}) {
    Operation *op = createInstOp(b, loc, mn, ops, res ? TypeRange(res) : TypeRange(), attrs);
    forgetOnExecWrite(mn, op->getResultTypes());
    return res ? op->getResult(0) : Value();
  }
  void forgetOnExecWrite(StringRef mn, TypeRange res) {
    if (llvm::is_contained(res, execT) || (ISA::lookup(mn)->implicitDefs & ISA::IMP_EXEC))
      cse.clear();
  }
  Value execReg() { return RegOp::create(b, loc, execT); }
  /// Runs `f` with the builder at the end of the entry block (before its branch).
  template <typename F> Value inPrologue(F f) {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPoint(entry->getTerminator());
    return f();
  }
  void branch(StringRef mn, Block *taken, ValueRange a, Block *fall, ValueRange fa) {
    OperationState st(loc, getInstOpName(ctx, *ISA::lookup(mn)));
    st.addOperands(a);
    st.addOperands(fa);
    st.addSuccessors(taken);
    st.addSuccessors(fall);
    st.addAttribute(kSuccOperandSizesAttr,
                    b.getDenseI32ArrayAttr({(int32_t)a.size(), (int32_t)fa.size()}));
    b.create(st);
  }
  void start(Block *blk) {
    cse.clear();
    body->push_back(blk);
    b.setInsertionPointToEnd(blk);
  }
  Block *newBlock(TypeRange args = {}) {
    Block *blk = new Block();
    for (Type t : args)
      blk->addArgument(t, loc);
    return blk;
  }

  Value toS(RV r) {
    switch (r.k) {
    case RV::Imm: return inst("s_mov_b32", sT, cst(r.bits, r.isFloat));
    case RV::S: return r.reg;
    case RV::V: return inst("v_readfirstlane_b32", sT, r.reg);
    case RV::Mask: // a uniform i1 held as a mask: any lane set
      inst("s_cmp_lg_u64", {}, {r.reg, cst(0)});
      return inst("s_cselect_b32", sT, {cst(1), cst(0)});
    default: llvm_unreachable("no value");
    }
  }
  Value toV(RV r) {
    switch (r.k) {
    case RV::Imm: return inst("v_mov_b32", vT, cst(r.bits, r.isFloat));
    case RV::S: return inst("v_mov_b32", vT, r.reg);
    case RV::V: return r.reg;
    case RV::Mask: return inst("v_cndmask_b32", vT, {cst(0), cst(1), r.reg});
    default: llvm_unreachable("no value");
    }
  }
  /// The 64-bit all-ones lane mask as an operand: the inline constant -1,
  /// which a 64-bit SALU op sign-extends (a 32-bit literal 0xffffffff would
  /// be zero-extended: lanes 32-63 off).
  Value allLanes() {
    return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(-1));
  }
  Value toMask(RV r) {
    switch (r.k) {
    case RV::Mask: return r.reg;
    case RV::Imm: return inst("s_mov_b64", s2T, r.bits & 1 ? allLanes() : cst(0));
    case RV::S:
      inst("s_cmp_lg_u32", {}, {r.reg, cst(0)});
      return inst("s_cselect_b64", s2T, {allLanes(), cst(0)});
    case RV::V: return inst("v_cmp_ne_u32", s2T, {cst(0), r.reg});
    default: llvm_unreachable("no value");
    }
  }
  /// SCC := the i1 `r` (uniform).
  void toSCC(RV r) {
    if (r.k == RV::Mask) {
      inst("s_cmp_lg_u64", {}, {r.reg, cst(0)});
      return;
    }
    Value s = r.k == RV::Imm ? cst(r.bits) : toS(r);
    inst("s_cmp_lg_u32", {}, {s, cst(0)});
  }
  /// An SALU operand: immediates are literals or inline constants.
  Value sOp(RV r) { return r.k == RV::Imm ? cst(r.bits, r.isFloat) : toS(r); }
  /// VALU operands: at most one SGPR/mask read, no literal.
  SmallVector<Value> vOps(ArrayRef<RV> in) {
    SmallVector<Value> out;
    Value bus;
    for (const RV &r : in)
      if (r.k == RV::Mask)
        bus = r.reg;
    for (const RV &r : in) {
      if (r.k == RV::Imm) {
        out.push_back(inlineConstant(r.bits, r.isFloat) ? cst(r.bits, r.isFloat) : toV(r));
      } else if (r.k == RV::S) {
        if (!bus || bus == r.reg) {
          bus = r.reg;
          out.push_back(r.reg);
        } else {
          out.push_back(toV(r));
        }
      } else {
        out.push_back(r.reg);
      }
    }
    return out;
  }
  RV valu(StringRef mn, ArrayRef<RV> in, bool isFloat) {
    return RV::of(RV::V, inst(mn, vT, vOps(in)), isFloat);
  }

  /// The kernel's arguments (the body's first block arguments; workgroup
  /// and private attributions follow them).
  ArrayRef<BlockArgument> kernelArgs() {
    return fn.getBody().front().getArguments().take_front(fn.getFunctionType().getNumInputs());
  }

  // ---- values ------------------------------------------------------------
  FailureOr<RV> get(Value v) {
    auto it = vals.find(v);
    if (it != vals.end())
      return it->second;
    if (Operation *d = v.getDefiningOp())
      return d->emitOpError("was not lowered before its use");
    return fn.emitOpError("uses a value amdgcn-lower does not know");
  }
  LogicalResult unsupported(Operation *op, const Twine &why = "") {
    return op->emitOpError("cannot be lowered to amdgcn") << (why.isTriviallyEmpty() ? "" : ": ")
                                                          << why;
  }
  Value loadArg(Slot s) {
    auto key = std::make_pair(s.offset & ~3u, s.size == 8 && !(s.offset & 4) ? 2u : 1u);
    auto it = argLoads.find(key);
    if (it != argLoads.end())
      return it->second;
    Value v = inPrologue([&] {
      if (key.second == 2)
        return inst("s_load_dwordx2", s2T, {kernargPtr, cst(key.first)});
      return inst("s_load_dword", sT, {kernargPtr, cst(key.first)});
    });
    return argLoads[key] = v;
  }
  Value loadPtr(Slot s) { return loadArg(Slot{s.offset, 8}); }
  /// Low dword of an i64 / the i32 of a kernarg slot.
  RV loadScalar(Slot s, bool isFloat) {
    return RV::of(RV::S, loadArg(Slot{s.offset, 4}), isFloat);
  }

  // ---- integer helpers (fold constants, pick SALU or VALU) ---------------
  RV ibin(StringRef salu, StringRef valuMn, bool reversed, RV x, RV y,
          uint32_t (*fold)(uint32_t, uint32_t)) {
    if (x.k == RV::Imm && y.k == RV::Imm && fold)
      return RV::imm(fold(x.bits, y.bits));
    // Local CSE: the same op on the same operands in this block (address
    // arithmetic repeats per access); forgotten when a new block starts.
    auto key = std::make_tuple(salu.data(), (int)x.k, x.reg.getAsOpaquePointer(), x.bits,
                               (int)y.k, y.reg.getAsOpaquePointer(), y.bits);
    if (auto it = cse.find(key); it != cse.end())
      return it->second;
    RV r;
    if (x.scalar() && y.scalar()) {
      r = RV::of(RV::S, inst(salu, sT, {sOp(x), sOp(y)}));
    } else {
      if (reversed)
        std::swap(x, y);
      r = valu(valuMn, {x, y}, false);
    }
    return cse[key] = r;
  }
  std::map<std::tuple<const char *, int, void *, uint32_t, int, void *, uint32_t>, RV> cse;
  RV add(RV x, RV y) {
    if (y.k == RV::Imm && y.bits == 0) return x;
    if (x.k == RV::Imm && x.bits == 0) return y;
    return ibin("s_add_u32", "v_add_u32", false, x, y,
                [](uint32_t a, uint32_t c) { return a + c; });
  }
  RV mul(RV x, RV y) {
    if (y.k == RV::Imm && y.bits == 1) return x;
    if (x.k == RV::Imm && x.bits == 1) return y;
    for (auto [p, q] : {std::pair{&x, &y}, std::pair{&y, &x}})
      if (q->k == RV::Imm && q->bits && !(q->bits & (q->bits - 1)) && p->k != RV::Imm)
        return shl(*p, RV::imm(llvm::countr_zero(q->bits)));
    return ibin("s_mul_i32", "v_mul_lo_u32", false, x, y,
                [](uint32_t a, uint32_t c) { return a * c; });
  }
  RV shl(RV x, RV y) {
    if (y.k == RV::Imm && y.bits == 0) return x;
    return ibin("s_lshl_b32", "v_lshlrev_b32", true, x, y,
                [](uint32_t a, uint32_t c) { return c < 32 ? a << c : 0u; });
  }



  /// The VGPR address operand of a memory access at byte offset `off`; a
  /// constant offset goes into the instruction's offset field when it fits
  /// (LowerMemory.cpp).
  Value memOffset(RV off, bool lds, SmallVectorImpl<NamedAttribute> &attrs);
  /// Correctly rounded f32 square root (LowerMath.cpp).
  RV sqrtF32(RV x);
  /// e^x and ln(x) (f32) as LLVM's AMDGPU backend expands them (LowerMath.cpp).
  RV expF32(RV x);
  RV logF32(RV x);
  /// 32-bit integer division and remainder, LLVM's AMDGPU expansion
  /// (LowerArith.cpp): {quotient, remainder} in VGPRs.
  std::pair<Value, Value> udivrem32(RV x, RV y);
  /// Correctly rounded f32 division (v_div_scale/fmas/fixup; LowerArith.cpp).
  RV divF32(RV x, RV y);
  /// An instruction with several results (e.g. v_div_scale_f32's vdst, sdst).
  Operation *instN(StringRef mn, TypeRange res, ValueRange ops) {
    Operation *op = createInstOp(b, loc, mn, ops, res, {});
    forgetOnExecWrite(mn, res);
    return op;
  }

  // ---- lowering (each dialect's in its Lower<Dialect>.cpp) -----------------
  LogicalResult setupInterface();
  /// A non-kernel gpu.func: the amdgcn.func `func` (LowerFunction.cpp).
  FuncOp func;
  LogicalResult setupFunction();
  /// gpu.return and the kernel-only gpu ops in a function (LowerFunction.cpp).
  LogicalResult lowerInFunction(Operation *op);
  LogicalResult lowerBlock(Block &blk);
  LogicalResult lowerOp(Operation *op);
  LogicalResult lowerArith(Operation *op);
  /// arith on 32-bit values (and narrow ones where the low bits of the
  /// 32-bit op are the result: add, sub, mul, logic, shl, select, trunci).
  LogicalResult lowerArith32(Operation *op);
  /// A compare of two 32-bit integers (LowerArith.cpp).
  RV cmpi32(arith::CmpIPredicate p, RV x, RV y);
  LogicalResult lowerGpu(Operation *op);
  // ---- reductions and LDS of the gpu dialect (LowerGpu.cpp) --------------
  /// The VALU instruction of a reduction kind (empty: not lowered).
  static StringRef reduceInst(gpu::AllReduceOperation k, bool isFloat);
  /// `acc` reduced over clusters of `cluster` lanes of the wave.
  FailureOr<Value> waveReduce(Value acc, unsigned cluster,
                              function_ref<FailureOr<Value>(Value, Value)> combine);
  LogicalResult lowerAllReduce(gpu::AllReduceOp r);
  /// Reserves the LDS scratch of the kernel's all_reduce ops after the
  /// static LDS bytes `lds` (setupInterface).
  void reserveLds(unsigned &lds);
  DenseMap<Operation *, unsigned> allReduceScratch;
  /// Where the dynamic LDS begins (the end of the static LDS, aligned).
  unsigned staticLdsEnd();
  LogicalResult lowerMemref(Operation *op);
  LogicalResult lowerMath(Operation *op);
  LogicalResult lowerIf(scf::IfOp op);
  LogicalResult lowerFor(scf::ForOp op);
  LogicalResult lowerWhile(scf::WhileOp op);
  /// The base (the SGPR-pair pointer of global memory; null for LDS and
  /// scratch) and byte offset of memref[idx] (LowerMemory.cpp).
  /// Scratch memrefs only where `allowPrivate` (memref.load / store); flat
  /// pointers (a VGPR-pair base, LowerMemrefFlat.cpp) only where `allowFlat`
  /// (vector accesses, which emit through vec::memAccess).
  FailureOr<std::pair<Value, RV>> address(Operation *op, Value memref, ValueRange idx,
                                          bool allowPrivate = false, bool allowFlat = false);
  /// A memref's offset, size and stride in dimension `d` (elements) as
  /// lowered values: static ones from its type, dynamic ones from its
  /// descriptor's kernel arguments or its view (LowerMemory.cpp).
  RV memrefOffset(const MemArg &m);
  RV memrefSize(const MemArg &m, unsigned d);
  RV memrefStride(const MemArg &m, unsigned d);
  /// The MemArg of a memref value, or an error at `op`.
  FailureOr<MemArg> memrefOf(Operation *op, Value memref);
  /// Scratch bytes per work-item taken by memref.alloca so far.
  unsigned privateBytes = 0;
  /// Register-held allocas (MemArg::regs): their elements.
  SmallVector<SmallVector<RV>> regAllocas;
  /// The lowered values of `values` (an error already reported if one fails).
  FailureOr<SmallVector<RV>> getAll(ValueRange values);
  /// The lowered operands of `blk`'s terminator (scf.yield / scf.condition).
  FailureOr<SmallVector<RV>> yields(Block &blk);
  /// Those operands as registers, each moved into the class of `types[i]`.
  FailureOr<SmallVector<Value>> yieldedRegs(Block &blk, ArrayRef<Type> types);
  RV laneId();
  Value laneByteAddr();
  Value lane, laneAddr;
  Type regTypeFor(Value v) {
    if (v.getType().isInteger(1))
      return uni.isDivergent(v) ? s2T : sT;
    if (is64(v.getType()))
      return uni.isDivergent(v) || v.getType().isF64() ? v2T : s2T;
    if (uni.isDivergent(v) || isF32(v.getType()))
      return vT;
    return sT;
  }
  /// `r` as one register of class `t` (a range for a 64-bit value: vT
  /// means v2T for it).
  RV inClass(RV r, Type t) {
    if (r.wide) {
      if (t == vT || t == v2T)
        return RV::of(RV::V, toV64(r));
      return RV::of(RV::S, toS64(r));
    }
    if (t == vT) return RV::of(RV::V, toV(r), r.isFloat);
    if (t == s2T) return RV::of(RV::Mask, toMask(r));
    return RV::of(RV::S, toS(r), r.isFloat);
  }
  /// The value of source type `src` held in `blockArg` of class `t`.
  RV fromArg(Value blockArg, Type t, Type src) {
    if (is64(src))
      return t == vT || t == v2T ? fromV64(blockArg) : fromS64(blockArg);
    bool isFloat = isF32(src);
    if (t == vT) return RV::of(RV::V, blockArg, isFloat);
    if (t == s2T) return RV::of(RV::Mask, blockArg);
    return RV::of(RV::S, blockArg, isFloat);
  }

  // ---- 64-bit values (LowerArith64.cpp) ----------------------------------
  static RV imm64(uint64_t v) {
    RV r = RV::imm((uint32_t)v);
    r.wide = true, r.hiBits = (uint32_t)(v >> 32);
    return r;
  }
  /// The low / high dword of a 64-bit value as a 32-bit one.
  static RV lo(RV r) {
    RV o = r.k == RV::Imm ? RV::imm(r.bits) : RV::of(r.k, r.reg);
    return o;
  }
  static RV hi(RV r) { return r.k == RV::Imm ? RV::imm(r.hiBits) : RV::of(r.k, r.hiReg); }
  /// A 64-bit value of two dwords (both immediates, SGPRs, or else VGPRs).
  RV pair(RV l, RV h);
  Value toV64(RV r);  // a vgpr<?x2>
  Value toS64(RV r);  // an sgpr<?x2> (r uniform)
  RV fromV64(Value v);
  RV fromS64(Value v);
  LogicalResult lowerArith64(Operation *op);
  /// The low `w` bits of `x` sign- or zero-extended to 32 (LowerArith16.cpp).
  RV extendNarrow(RV x, unsigned w, bool sign);
  /// f16 / bf16 / i8 / i16 arith (LowerArith16.cpp).
  LogicalResult lowerArith16(Operation *op);
};

/// Copies the amdgcn.func each func.func declaration of `gm` names, from an
/// amdgcn.module of `top`, into `km` (LowerCall.cpp).
LogicalResult importFunctions(ModuleOp top, gpu::GPUModuleOp gm, KernelModuleOp km);

/// Whether `gm` holds linalg ops; rewrites them (and the affine.apply ops
/// their loops use) to scf / memref / arith (LowerLinalg.cpp).
bool hasLinalg(gpu::GPUModuleOp gm);
LogicalResult linalgToLoops(gpu::GPUModuleOp gm);

/// Whether `gm` holds math ops amdgcn-lower takes through upstream's own
/// expansions; applies them (upstream IR in, upstream IR out;
/// LowerMathExpand.cpp). Runs on the clone lowerGpuModules lowers.
bool hasExpandableMath(gpu::GPUModuleOp gm);
LogicalResult expandMath(gpu::GPUModuleOp gm);

/// Rewrites scf.for loops carrying vectors to carry their 32-bit words
/// (upstream IR in, upstream IR out; LowerVectorCarries.cpp). Runs before the
/// kernel's Uniformity is computed.
void scalarizeVectorCarries(gpu::GPUFuncOp fn);

/// The memory a memref can be where its memory is not its own type's
/// (LowerMemrefCarries.cpp): None while unknown (a loop's own carry).
enum class MemKind { None, Global, Lds, Private, Flat };
StringRef memKindName(MemKind k);
/// How non-kernel gpu.func `f` takes memref parameter `i`: global (an SGPR
/// pair), lds (an LDS byte address, a VGPR) or flat (a VGPR pair), from
/// its type's memory space or what the module's calls of it pass.
MemKind memrefParamKind(gpu::GPUFuncOp f, unsigned i);

/// Rewrites memrefs carried by scf.if / scf.for / scf.while results and
/// iteration arguments to the values that locate them (upstream IR in,
/// upstream IR with aster-marked unrealized_conversion_casts out;
/// LowerMemrefCarries.cpp). Runs before the function's Uniformity is computed.
void carryMemrefsAsValues(gpu::GPUFuncOp fn);

/// Lifts a kernel body of several blocks (cf branches) to scf
/// (LowerCFG.cpp). Runs before the kernel's Uniformity is computed.
LogicalResult structurizeKernelCFG(gpu::GPUFuncOp fn);

/// An arith / math op on vectors, element by element (LowerVectorElementwise.cpp).
LogicalResult lowerElementwise(KernelLowering &L, Operation *op);

/// Lowers a scalar `name` op on `operands` (of `types`) to `result` type by
/// the scalar lowering of its dialect (LowerVectorElementwise.cpp).
FailureOr<RV> scalarOp(KernelLowering &L, Location at, StringRef name, ArrayRef<RV> operands,
                       TypeRange types, Type result, ArrayRef<NamedAttribute> attrs);

/// Bytes of one element of a memref of `t` that memory ops lower (1, 2, 4, 8),
/// 0 for others (LowerMemory.cpp).
unsigned memElementBytes(Type t);

/// Places memref.alloca / private attribution `v` in registers or scratch
/// (LowerMemory.cpp); an error at `at` for shapes it does not lower.
LogicalResult allocatePrivate(KernelLowering &L, Operation *at, Value v);

/// Which function lowers an op: looked up by the op's name, then by its
/// dialect's namespace (a dialect file may take a whole dialect).
class LoweringTable {
public:
  using Fn = std::function<LogicalResult(KernelLowering &, Operation *)>;
  void add(StringRef opOrDialect, Fn fn) { fns[opOrDialect] = std::move(fn); }
  template <typename... Ops> void addOps(const Fn &fn) {
    (add(Ops::getOperationName(), fn), ...);
  }
  /// The function for `op`, or null.
  const Fn *lookup(Operation *op) const;

private:
  llvm::StringMap<Fn> fns;
};

/// The table every kernel is lowered with (filled once by the populate
/// functions Lowerings.def lists).
const LoweringTable &loweringTable();

#define ASTER_LOWERING(Name) void populate##Name##Lowering(LoweringTable &table);
#include "lower/Lowerings.def"
#undef ASTER_LOWERING

} // namespace aster::lower

#endif
