//===- Lower.cpp - gpu.func kernels to amdgcn instructions ----------------===//
//
// What it needs and guarantees: Lower.h. How:
//   1. Uniformity (Uniformity.h) marks the divergent values of the kernel.
//   2. The body is walked once in order; every MLIR value gets a lowered
//      form (RV): an immediate, a virtual SGPR (uniform 32-bit values, i1
//      as 0/1), a virtual VGPR, or a lane mask in an SGPR pair (divergent
//      i1). An integer op whose operands are all immediates or SGPRs is a
//      scalar (SALU) instruction, else a vector one; float ops are always
//      VALU (gfx9 has no scalar float ALU), and their uniform results are
//      read back with v_readfirstlane_b32 only where a scalar is required
//      (a branch, a loop bound).
//   3. Structured control flow becomes blocks in layout order (the
//      fall-through successor of a conditional branch is the next block):
//      uniform scf.if / scf.for branch on SCC; divergent ones mask EXEC
//      (layout below at lowerIf / lowerFor). Values flow between blocks as
//      block arguments of register type, as for hand-written kernels.
//   4. Kernel arguments are loaded with s_load from the kernarg segment in
//      the entry block (which also names the hardware-initialised
//      registers), so every use is dominated.
// VALU operands obey gfx9's rules: at most one SGPR / literal read per
// instruction (the constant bus; GCN3/CDNA3 ISA "VOP3 ... at most one SGPR
// or literal"), no literal in a VOP3 encoding: extra SGPRs and non-inline
// constants go through v_mov_b32 first.
//===----------------------------------------------------------------------===//
#include "lower/Lower.h"
#include "lower/Uniformity.h"

#include "dialect/Dialect.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include "llvm/ADT/TypeSwitch.h"

#include <map>
#include <tuple>

using namespace mlir;
using namespace aster::amdgcn;

namespace aster::lower {

void registerUpstreamDialects(DialectRegistry &registry) {
  registry.insert<gpu::GPUDialect, arith::ArithDialect, math::MathDialect, scf::SCFDialect,
                  cf::ControlFlowDialect, memref::MemRefDialect, vector::VectorDialect,
                  amdgpu::AMDGPUDialect, func::FuncDialect, index::IndexDialect,
                  LLVM::LLVMDialect>();
}

namespace {

/// A lowered value.
struct RV {
  enum Kind { None, Imm, S, V, Mask } k = None;
  Value reg;         // S: sgpr<?>, V: vgpr<?>, Mask: sgpr<?x2>
  uint32_t bits = 0; // Imm
  bool isFloat = false;
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

bool inlineConstant(uint32_t bits, bool isFloat) {
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

bool isF32(Type t) { return t.isF32(); }
bool is32(Type t) { return t.isIndex() || t.isInteger(32) || t.isF32(); }

/// One kernarg slot: byte offset and size.
struct Slot {
  unsigned offset = 0, size = 0;
};

/// A memref argument: where its pointer (and descriptor fields) are.
struct MemArg {
  MemRefType type;
  Slot ptr;         // the aligned pointer
  bool lds = false; // a workgroup attribution: at byte ldsOffset of the LDS
  unsigned ldsOffset = 0;
  bool desc = false;
  Slot offset;
  SmallVector<Slot> sizes, strides;
};

class KernelLowering {
public:
  KernelLowering(gpu::GPUFuncOp fn, KernelModuleOp km)
      : fn(fn), km(km), ctx(fn.getContext()), b(ctx), uni(fn), loc(fn.getLoc()) {
    sT = RegType::getVirtual(ctx, RegKind::SGPR);
    s2T = RegType::getVirtual(ctx, RegKind::SGPR, 2, 2);
    vT = RegType::getVirtual(ctx, RegKind::VGPR);
    execT = SpecialRegType::get(ctx, SpecialReg::exec);
  }
  LogicalResult run();

private:
  gpu::GPUFuncOp fn;
  KernelModuleOp km;
  MLIRContext *ctx;
  OpBuilder b;
  Uniformity uni;
  Location loc;
  Type sT, s2T, vT, execT;
  KernelOp kernel;
  Region *body = nullptr;
  Block *entry = nullptr;
  DenseMap<Value, RV> vals;
  DenseMap<Value, MemArg> mems;
  DenseMap<Value, Slot> scalars;
  // Prologue values (made once in the entry block).
  Value kernargPtr, dispatchPtr, tid0, wgid[3];
  bool packedIds = false;
  DenseMap<std::pair<unsigned, unsigned>, Value> argLoads;
  Value blockDims[2];

  // ---- emission helpers ---------------------------------------------------
  Value cst(uint32_t bits, bool isFloat) {
    if (isFloat)
      return arith::ConstantOp::create(
          b, loc, b.getF32FloatAttr(llvm::bit_cast<float>(bits)));
    return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr((int32_t)bits));
  }
  Value cst(uint32_t bits) { return cst(bits, false); }
  Value inst(StringRef mn, Type res, ValueRange ops, ArrayRef<NamedAttribute> attrs = {}) {
    Operation *op = createInstOp(b, loc, mn, ops, res ? TypeRange(res) : TypeRange(), attrs);
    return res ? op->getResult(0) : Value();
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
  Value toMask(RV r) {
    switch (r.k) {
    case RV::Mask: return r.reg;
    case RV::Imm: return inst("s_mov_b64", s2T, cst(r.bits & 1 ? -1 : 0));
    case RV::S:
      inst("s_cmp_lg_u32", {}, {r.reg, cst(0)});
      return inst("s_cselect_b64", s2T, {cst(-1), cst(0)});
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
  /// (global: 13-bit signed on gfx9; LDS: 16-bit unsigned).
  Value memOffset(RV off, bool lds, SmallVectorImpl<NamedAttribute> &attrs) {
    int64_t v = (int32_t)off.bits;
    bool fits = off.k == RV::Imm && (lds ? (off.bits < 65536) : (v >= -4096 && v < 4096));
    if (!fits)
      return toV(off);
    if (off.bits)
      attrs.push_back(b.getNamedAttr("offset", b.getI32IntegerAttr((int32_t)off.bits)));
    return inst("v_mov_b32", vT, cst(0));
  }

  /// Correctly rounded f32 square root, as LLVM's AMDGPU backend expands
  /// llvm.sqrt.f32 without afn (SITargetLowering::lowerFSQRTF32, gfx9): inputs
  /// below 2^-96 are scaled by 2^32 (result by 2^-16); v_sqrt_f32's result s
  /// (1 ulp) is corrected by the signs of fma(-(s -+ 1 ulp), s, x); +-0 and
  /// +inf pass through (v_cmp_class_f32 mask 0x260).
  RV sqrtF32(RV x) {
    Value xv = toV(x);
    RV X = RV::of(RV::V, xv, true);
    Value small = inst("v_cmp_gt_f32", s2T, vOps({RV::imm(0x0f800000, true), X}));
    Value up = valu("v_mul_f32", {RV::imm(0x4f800000, true), X}, true).reg;
    Value xs = inst("v_cndmask_b32", vT, {xv, up, small});
    Value sq = inst("v_sqrt_f32", vT, xs);
    Value sm = inst("v_add_u32", vT, {cst(-1), sq});
    Value sp = inst("v_add_u32", vT, {cst(1), sq});
    Value nsm = inst("v_xor_b32", vT, {toV(RV::imm(0x80000000)), sm});
    Value nsp = inst("v_xor_b32", vT, {toV(RV::imm(0x80000000)), sp});
    Value rm = inst("v_fma_f32", vT, {nsm, sq, xs});
    Value rp = inst("v_fma_f32", vT, {nsp, sq, xs});
    Value le = inst("v_cmp_ge_f32", s2T, {cst(0, true), rm});
    sq = inst("v_cndmask_b32", vT, {sq, sm, le});
    Value gt = inst("v_cmp_lt_f32", s2T, {cst(0, true), rp});
    sq = inst("v_cndmask_b32", vT, {sq, sp, gt});
    Value down = valu("v_mul_f32", {RV::imm(0x37800000, true), RV::of(RV::V, sq, true)}, true).reg;
    sq = inst("v_cndmask_b32", vT, {sq, down, small});
    Value special = inst("v_cmp_class_f32", s2T, {xs, toV(RV::imm(0x260))});
    return RV::of(RV::V, inst("v_cndmask_b32", vT, {sq, xs, special}), true);
  }

  // ---- lowering ------------------------------------------------------------
  LogicalResult setupInterface();
  LogicalResult lowerBlock(Block &blk);
  LogicalResult lowerOp(Operation *op);
  LogicalResult lowerArith(Operation *op);
  LogicalResult lowerGpu(Operation *op);
  LogicalResult lowerMemref(Operation *op);
  LogicalResult lowerIf(scf::IfOp op);
  LogicalResult lowerFor(scf::ForOp op);
  FailureOr<std::pair<Value, RV>> address(Operation *op, Value memref, ValueRange idx);
  FailureOr<SmallVector<RV>> yields(Block &blk);
  RV lowerShuffleXorIdx(Value v, RV srcLane);
  RV laneId();
  Value laneByteAddr();
  Value lane, laneAddr;
  Type regTypeFor(Value v) {
    if (v.getType().isInteger(1))
      return uni.isDivergent(v) ? s2T : sT;
    if (uni.isDivergent(v) || isF32(v.getType()))
      return vT;
    return sT;
  }
  RV inClass(RV r, Type t) {
    if (t == vT) return RV::of(RV::V, toV(r), r.isFloat);
    if (t == s2T) return RV::of(RV::Mask, toMask(r));
    return RV::of(RV::S, toS(r), r.isFloat);
  }
  RV fromArg(Value blockArg, Type t, bool isFloat) {
    if (t == vT) return RV::of(RV::V, blockArg, isFloat);
    if (t == s2T) return RV::of(RV::Mask, blockArg);
    return RV::of(RV::S, blockArg, isFloat);
  }
};

// ---------------------------------------------------------------------------
// Kernel interface: arguments and the hardware-initialised registers
// ---------------------------------------------------------------------------
LogicalResult KernelLowering::setupInterface() {
  // ROCDL's calling convention (mlir/lib/Conversion/GPUCommon): bare pointers
  // when every memref is static with identity layout, else descriptors.
  bool bare = true;
  for (BlockArgument a : kernelArgs())
    if (auto mt = dyn_cast<MemRefType>(a.getType()))
      bare &= mt.hasStaticShape() && mt.getLayout().isIdentity();
  SmallVector<Attribute> names, types;
  unsigned off = 0;
  auto slot = [&](StringRef name, Type t, unsigned size) {
    off = (off + size - 1) / size * size;
    names.push_back(b.getStringAttr(name));
    types.push_back(TypeAttr::get(t));
    Slot s{off, size};
    off += size;
    return s;
  };
  for (BlockArgument a : kernelArgs()) {
    std::string n = ("arg" + Twine(a.getArgNumber())).str();
    Type t = a.getType();
    if (auto mt = dyn_cast<MemRefType>(t)) {
      Type elem = mt.getElementType();
      if (!(elem.isF32() || elem.isInteger(32)))
        return fn.emitOpError("argument ") << a.getArgNumber() << " of type " << t
                                          << " cannot be lowered to amdgcn: memref elements "
                                             "must be f32 or i32";
      if (mt.getMemorySpace() && !isa<gpu::AddressSpaceAttr>(mt.getMemorySpace()))
        ;
      MemArg m;
      m.type = mt;
      Type pt = PtrType::get(ctx, elem);
      if (bare) {
        m.ptr = slot(n, pt, 8);
      } else {
        m.desc = true;
        slot(n + "_allocated", pt, 8);
        m.ptr = slot(n, pt, 8);
        m.offset = slot(n + "_offset", b.getI64Type(), 8);
        for (int64_t i = 0; i < mt.getRank(); ++i)
          m.sizes.push_back(slot(n + "_size" + std::to_string(i), b.getI64Type(), 8));
        for (int64_t i = 0; i < mt.getRank(); ++i)
          m.strides.push_back(slot(n + "_stride" + std::to_string(i), b.getI64Type(), 8));
      }
      mems[a] = m;
    } else if (t.isIndex() || t.isInteger(64)) {
      scalars[a] = slot(n, b.getI64Type(), 8);
    } else if (t.isInteger(32) || t.isF32()) {
      scalars[a] = slot(n, t, 4);
    } else {
      return fn.emitOpError("argument ") << a.getArgNumber() << " of type " << t
                                        << " cannot be lowered to amdgcn (memrefs, index, "
                                           "i32, i64, f32 are)";
    }
  }
  // Workgroup attributions: static LDS, each at a 16-byte aligned offset.
  unsigned lds = 0;
  for (BlockArgument a : fn.getWorkgroupAttributions()) {
    auto mt = cast<MemRefType>(a.getType());
    if (!mt.hasStaticShape() || !mt.getLayout().isIdentity() ||
        !(mt.getElementType().isF32() || mt.getElementType().isInteger(32)))
      return fn.emitOpError("workgroup attribution of type ")
             << mt << " cannot be lowered to amdgcn (static shapes of f32 or i32)";
    MemArg m;
    m.type = mt;
    m.lds = true;
    m.ldsOffset = lds;
    lds += (unsigned)((mt.getNumElements() * 4 + 15) / 16 * 16);
    mems[a] = m;
  }
  if (!fn.getPrivateAttributions().empty())
    return fn.emitOpError("private attributions cannot be lowered to amdgcn");
  // Which ids and dims the body reads.
  bool dims = false;
  unsigned maxTid = 0, maxWg = 0;
  auto known = fn.getKnownBlockSizeAttr();
  fn.walk([&](Operation *op) {
    if (auto t = dyn_cast<gpu::ThreadIdOp>(op))
      maxTid = std::max(maxTid, (unsigned)t.getDimension() + 1);
    if (auto t = dyn_cast<gpu::BlockIdOp>(op))
      maxWg = std::max(maxWg, (unsigned)t.getDimension() + 1);
    if (isa<gpu::BlockDimOp>(op) && !known)
      dims = true;
    if (isa<gpu::GridDimOp>(op))
      dims = true;
  });
  SmallVector<Attribute> setup;
  unsigned next = 0;
  if (dims) {
    setup.push_back(b.getStringAttr("dispatch_ptr"));
    next += 2;
  }
  unsigned kernargAt = next;
  if (!names.empty()) {
    setup.push_back(b.getStringAttr("kernarg_ptr"));
    next += 2;
  }
  unsigned wgAt = next;
  for (unsigned d = 0; d < std::max(1u, maxWg); ++d)
    setup.push_back(b.getStringAttr(std::string("workgroup_id_") + "xyz"[d]));

  b.setInsertionPointToEnd(&km.getBody().front());
  loc = fn.getLoc();
  kernel = KernelOp::create(b, loc, fn.getName(), b.getArrayAttr(names), b.getArrayAttr(types));
  SmallVector<int32_t> blk = {1024, 1, 1};
  if (known)
    blk.assign(known.asArrayRef().begin(), known.asArrayRef().end());
  kernel->setAttr("block", b.getDenseI32ArrayAttr(blk));
  kernel->setAttr("sgpr_setup", b.getArrayAttr(setup));
  if (lds)
    kernel->setAttr("lds", b.getI32IntegerAttr(lds));
  // The source signature, for callers that fill memrefs from arrays
  // (aster.lowering.Signature).
  SmallVector<Attribute> from;
  for (BlockArgument a : kernelArgs()) {
    std::string t;
    llvm::raw_string_ostream os(t);
    os << a.getType();
    from.push_back(b.getStringAttr(t));
  }
  kernel->setAttr("lowered_from", b.getArrayAttr(from));
  packedIds = maxTid > 1 && !(known && known[1] == 1 && known[2] == 1);
  if (maxTid > 1)
    kernel->setAttr("workitem_ids", b.getI32IntegerAttr(maxTid));
  body = &kernel.getBody();
  entry = new Block();
  body->push_back(entry);
  b.setInsertionPointToEnd(entry);
  Block *first = newBlock();
  cf::BranchOp::create(b, loc, first);
  b.setInsertionPoint(entry->getTerminator());
  if (dims)
    dispatchPtr = RegOp::create(b, loc, RegType::get(ctx, RegKind::SGPR, 0, 2));
  if (!names.empty())
    kernargPtr = RegOp::create(b, loc, RegType::get(ctx, RegKind::SGPR, kernargAt, 2));
  for (unsigned d = 0; d < std::max(1u, maxWg); ++d)
    wgid[d] = RegOp::create(b, loc, RegType::get(ctx, RegKind::SGPR, wgAt + d));
  tid0 = RegOp::create(b, loc, RegType::get(ctx, RegKind::VGPR, 0));
  start(first);
  for (BlockArgument a : kernelArgs())
    if (auto it = scalars.find(a); it != scalars.end())
      vals[a] = loadScalar(it->second, a.getType().isF32());
  return success();
}

LogicalResult KernelLowering::run() {
  if (!fn.getBody().hasOneBlock())
    return fn.emitOpError("cannot be lowered to amdgcn: its body has several blocks "
                          "(unstructured control flow; use scf)");
  if (failed(setupInterface()))
    return failure();
  return lowerBlock(fn.getBody().front());
}

LogicalResult KernelLowering::lowerBlock(Block &blk) {
  for (Operation &op : blk) {
    if (isa<scf::YieldOp>(op))
      continue;
    loc = op.getLoc();
    if (failed(lowerOp(&op)))
      return failure();
  }
  return success();
}

FailureOr<SmallVector<RV>> KernelLowering::yields(Block &blk) {
  SmallVector<RV> out;
  for (Value v : blk.getTerminator()->getOperands()) {
    auto r = get(v);
    if (failed(r))
      return failure();
    out.push_back(*r);
  }
  return out;
}

LogicalResult KernelLowering::lowerOp(Operation *op) {
  if (op->getDialect() && isa<arith::ArithDialect>(op->getDialect()))
    return lowerArith(op);
  if (isa<gpu::GPUDialect>(op->getDialect()))
    return lowerGpu(op);
  if (isa<memref::MemRefDialect>(op->getDialect()))
    return lowerMemref(op);
  if (auto i = dyn_cast<scf::IfOp>(op))
    return lowerIf(i);
  if (auto f = dyn_cast<scf::ForOp>(op))
    return lowerFor(f);
  if (isa<math::FmaOp, math::SqrtOp, math::RsqrtOp, math::Exp2Op, math::Log2Op,
          math::AbsFOp>(op)) {
    if (!isF32(op->getResult(0).getType()))
      return unsupported(op, "only f32 is lowered");
    SmallVector<RV> in;
    for (Value v : op->getOperands()) {
      auto r = get(v);
      if (failed(r))
        return failure();
      in.push_back(*r);
    }
    StringRef mn = TypeSwitch<Operation *, StringRef>(op)
                       .Case([](math::FmaOp) { return "v_fma_f32"; })
                       .Case([](math::SqrtOp) { return "v_sqrt_f32"; })
                       .Case([](math::RsqrtOp) { return "v_rsq_f32"; })
                       .Case([](math::Exp2Op) { return "v_exp_f32"; })
                       .Case([](math::Log2Op) { return "v_log_f32"; })
                       .Default([](Operation *) { return ""; });
    if (isa<math::SqrtOp>(op)) {
      vals[op->getResult(0)] = sqrtF32(in[0]);
      return success();
    }
    if (isa<math::AbsFOp>(op)) {
      // |x|: clear the sign bit (v_and_b32 with 0x7fffffff).
      vals[op->getResult(0)] = valu("v_and_b32", {RV::imm(0x7fffffff), in[0]}, true);
      return success();
    }
    vals[op->getResult(0)] = valu(mn, in, true);
    return success();
  }
  return unsupported(op);
}

// ---------------------------------------------------------------------------
// arith
// ---------------------------------------------------------------------------
static std::optional<std::pair<StringRef, StringRef>> icmpNames(arith::CmpIPredicate p) {
  using P = arith::CmpIPredicate;
  switch (p) {
  case P::eq: return std::pair{"s_cmp_eq_u32", "v_cmp_eq_u32"};
  case P::ne: return std::pair{"s_cmp_lg_u32", "v_cmp_ne_u32"};
  case P::slt: return std::pair{"s_cmp_lt_i32", "v_cmp_lt_i32"};
  case P::sle: return std::pair{"s_cmp_le_i32", "v_cmp_le_i32"};
  case P::sgt: return std::pair{"s_cmp_gt_i32", "v_cmp_gt_i32"};
  case P::sge: return std::pair{"s_cmp_ge_i32", "v_cmp_ge_i32"};
  case P::ult: return std::pair{"s_cmp_lt_u32", "v_cmp_lt_u32"};
  case P::ule: return std::pair{"s_cmp_le_u32", "v_cmp_le_u32"};
  case P::ugt: return std::pair{"s_cmp_gt_u32", "v_cmp_gt_u32"};
  case P::uge: return std::pair{"s_cmp_ge_u32", "v_cmp_ge_u32"};
  }
  return std::nullopt;
}

static bool foldCmp(arith::CmpIPredicate p, uint32_t a, uint32_t c) {
  using P = arith::CmpIPredicate;
  int32_t x = (int32_t)a, y = (int32_t)c;
  switch (p) {
  case P::eq: return a == c;
  case P::ne: return a != c;
  case P::slt: return x < y;
  case P::sle: return x <= y;
  case P::sgt: return x > y;
  case P::sge: return x >= y;
  case P::ult: return a < c;
  case P::ule: return a <= c;
  case P::ugt: return a > c;
  case P::uge: return a >= c;
  }
  return false;
}

static StringRef fcmpName(arith::CmpFPredicate p) {
  using P = arith::CmpFPredicate;
  switch (p) {
  case P::OEQ: return "v_cmp_eq_f32";
  case P::OGT: return "v_cmp_gt_f32";
  case P::OGE: return "v_cmp_ge_f32";
  case P::OLT: return "v_cmp_lt_f32";
  case P::OLE: return "v_cmp_le_f32";
  case P::ONE: return "v_cmp_lg_f32";
  case P::ORD: return "v_cmp_o_f32";
  case P::UEQ: return "v_cmp_nlg_f32";
  case P::UGT: return "v_cmp_nle_f32";
  case P::UGE: return "v_cmp_nlt_f32";
  case P::ULT: return "v_cmp_nge_f32";
  case P::ULE: return "v_cmp_ngt_f32";
  case P::UNE: return "v_cmp_neq_f32";
  case P::UNO: return "v_cmp_u_f32";
  default: return "";
  }
}

LogicalResult KernelLowering::lowerArith(Operation *op) {
  for (Type t : llvm::concat<Type>(op->getOperandTypes(), op->getResultTypes()))
    if (!(is32(t) || t.isInteger(1) || t.isInteger(64)))
      return unsupported(op, "only i1, i32, index and f32 values are lowered");
  if (auto c = dyn_cast<arith::ConstantOp>(op)) {
    Attribute v = c.getValue();
    if (auto i = dyn_cast<IntegerAttr>(v)) {
      vals[c] = RV::imm((uint32_t)i.getValue().getZExtValue() &
                        (c.getType().isInteger(1) ? 1u : ~0u));
      return success();
    }
    if (auto f = dyn_cast<FloatAttr>(v)) {
      vals[c] = RV::imm((uint32_t)f.getValue().bitcastToAPInt().getZExtValue(), true);
      return success();
    }
    return unsupported(op, "only scalar constants are lowered");
  }
  SmallVector<RV> in;
  for (Value v : op->getOperands()) {
    auto r = get(v);
    if (failed(r))
      return failure();
    in.push_back(*r);
  }
  Value res = op->getNumResults() ? op->getResult(0) : Value();
  auto set = [&](RV r) {
    vals[res] = r;
    return success();
  };
  bool i1 = res && res.getType().isInteger(1);
  // Casts that keep the 32 bits.
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp, arith::ExtUIOp,
          arith::TruncIOp>(op) && !op->getOperand(0).getType().isInteger(1) && !i1)
    return set(in[0]);
  if (isa<arith::ExtUIOp>(op) && op->getOperand(0).getType().isInteger(1)) {
    if (in[0].k == RV::Mask)
      return set(RV::of(RV::V, inst("v_cndmask_b32", vT, {cst(0), cst(1), in[0].reg})));
    return set(in[0]);
  }
  if (isa<arith::BitcastOp>(op)) {
    RV r = in[0];
    r.isFloat = isF32(res.getType());
    return set(r);
  }
  using Fold = uint32_t (*)(uint32_t, uint32_t);
  struct IntOp {
    StringRef salu, valu;
    bool rev;
    Fold fold;
  };
  std::optional<IntOp> io =
      TypeSwitch<Operation *, std::optional<IntOp>>(op)
          .Case([](arith::SubIOp) {
            return IntOp{"s_sub_u32", "v_sub_u32", false, [](uint32_t a, uint32_t c) { return a - c; }};
          })
          .Case([](arith::AndIOp) {
            return IntOp{"s_and_b32", "v_and_b32", false, [](uint32_t a, uint32_t c) { return a & c; }};
          })
          .Case([](arith::OrIOp) {
            return IntOp{"s_or_b32", "v_or_b32", false, [](uint32_t a, uint32_t c) { return a | c; }};
          })
          .Case([](arith::XOrIOp) {
            return IntOp{"s_xor_b32", "v_xor_b32", false, [](uint32_t a, uint32_t c) { return a ^ c; }};
          })
          .Case([](arith::ShRUIOp) {
            return IntOp{"s_lshr_b32", "v_lshrrev_b32", true,
                         [](uint32_t a, uint32_t c) { return c < 32 ? a >> c : 0u; }};
          })
          .Case([](arith::ShRSIOp) {
            return IntOp{"s_ashr_i32", "v_ashrrev_i32", true, [](uint32_t a, uint32_t c) {
                           return (uint32_t)((int32_t)a >> (c < 32 ? c : 31));
                         }};
          })
          .Case([](arith::MinSIOp) {
            return IntOp{"s_min_i32", "v_min_i32", false, [](uint32_t a, uint32_t c) {
                           return (uint32_t)std::min((int32_t)a, (int32_t)c);
                         }};
          })
          .Case([](arith::MaxSIOp) {
            return IntOp{"s_max_i32", "v_max_i32", false, [](uint32_t a, uint32_t c) {
                           return (uint32_t)std::max((int32_t)a, (int32_t)c);
                         }};
          })
          .Case([](arith::MinUIOp) {
            return IntOp{"s_min_u32", "v_min_u32", false, [](uint32_t a, uint32_t c) { return std::min(a, c); }};
          })
          .Case([](arith::MaxUIOp) {
            return IntOp{"s_max_u32", "v_max_u32", false, [](uint32_t a, uint32_t c) { return std::max(a, c); }};
          })
          .Default([](Operation *) { return std::nullopt; });
  if (i1 && isa<arith::AndIOp, arith::OrIOp, arith::XOrIOp>(op)) {
    if (in[0].scalar() && in[1].scalar())
      return set(ibin(io->salu, "", false, in[0], in[1], io->fold));
    StringRef mn = isa<arith::AndIOp>(op) ? "s_and_b64" : isa<arith::OrIOp>(op) ? "s_or_b64" : "s_xor_b64";
    return set(RV::of(RV::Mask, inst(mn, s2T, {toMask(in[0]), toMask(in[1])})));
  }
  if (isa<arith::AddIOp>(op) && !i1)
    return set(add(in[0], in[1]));
  if (isa<arith::MulIOp>(op) && !i1)
    return set(mul(in[0], in[1]));
  if (isa<arith::ShLIOp>(op) && !i1)
    return set(shl(in[0], in[1]));
  if (io && !i1)
    return set(ibin(io->salu, io->valu, io->rev, in[0], in[1], io->fold));
  if ((isa<arith::DivUIOp, arith::RemUIOp>(op)) && in[1].k == RV::Imm && in[1].bits &&
      !(in[1].bits & (in[1].bits - 1))) {
    if (isa<arith::DivUIOp>(op))
      return set(ibin("s_lshr_b32", "v_lshrrev_b32", true, in[0],
                      RV::imm(llvm::countr_zero(in[1].bits)),
                      [](uint32_t a, uint32_t c) { return a >> c; }));
    return set(ibin("s_and_b32", "v_and_b32", false, in[0], RV::imm(in[1].bits - 1),
                    [](uint32_t a, uint32_t c) { return a & c; }));
  }
  if (auto c = dyn_cast<arith::CmpIOp>(op)) {
    if (op->getOperand(0).getType().isInteger(1))
      return unsupported(op, "compares of i1 values are not lowered");
    auto [sn, vn] = *icmpNames(c.getPredicate());
    if (in[0].k == RV::Imm && in[1].k == RV::Imm)
      return set(RV::imm(foldCmp(c.getPredicate(), in[0].bits, in[1].bits)));
    if (in[0].scalar() && in[1].scalar()) {
      inst(sn, {}, {sOp(in[0]), sOp(in[1])});
      return set(RV::of(RV::S, inst("s_cselect_b32", sT, {cst(1), cst(0)})));
    }
    return set(RV::of(RV::Mask, inst(vn, s2T, vOps(in))));
  }
  if (auto c = dyn_cast<arith::CmpFOp>(op)) {
    if (c.getPredicate() == arith::CmpFPredicate::AlwaysTrue)
      return set(RV::imm(1));
    if (c.getPredicate() == arith::CmpFPredicate::AlwaysFalse)
      return set(RV::imm(0));
    return set(RV::of(RV::Mask, inst(fcmpName(c.getPredicate()), s2T, vOps(in))));
  }
  if (auto s = dyn_cast<arith::SelectOp>(op)) {
    if (i1)
      return unsupported(op, "selects of i1 values are not lowered");
    RV c = in[0], t = in[1], f = in[2];
    bool fl = isF32(res.getType());
    if (c.k == RV::Imm)
      return set(c.bits ? t : f);
    if (c.scalar() && t.scalar() && f.scalar()) {
      toSCC(c);
      RV r = RV::of(RV::S, inst("s_cselect_b32", sT, {sOp(t), sOp(f)}), fl);
      return set(r);
    }
    Value m = toMask(c);
    // The mask is the one SGPR read: sources go to VGPRs unless inline.
    auto src = [&](RV r) {
      return r.k == RV::Imm && inlineConstant(r.bits, r.isFloat) ? cst(r.bits, r.isFloat) : toV(r);
    };
    Value fv = src(f), tv = src(t);
    return set(RV::of(RV::V, inst("v_cndmask_b32", vT, {fv, tv, m}), fl));
  }
  // Floats: always VALU.
  StringRef fmn = TypeSwitch<Operation *, StringRef>(op)
                      .Case([](arith::AddFOp) { return "v_add_f32"; })
                      .Case([](arith::SubFOp) { return "v_sub_f32"; })
                      .Case([](arith::MulFOp) { return "v_mul_f32"; })
                      .Case([](arith::MaxNumFOp) { return "v_max_f32"; })
                      .Case([](arith::MinNumFOp) { return "v_min_f32"; })
                      .Case([](arith::SIToFPOp) { return "v_cvt_f32_i32"; })
                      .Case([](arith::UIToFPOp) { return "v_cvt_f32_u32"; })
                      .Case([](arith::FPToSIOp) { return "v_cvt_i32_f32"; })
                      .Case([](arith::FPToUIOp) { return "v_cvt_u32_f32"; })
                      .Default([](Operation *) { return ""; });
  if (!fmn.empty()) {
    if (!res.getType().isF32() && !isa<arith::FPToSIOp, arith::FPToUIOp>(op))
      return unsupported(op, "only f32 is lowered");
    return set(valu(fmn, in, res.getType().isF32()));
  }
  if (isa<arith::NegFOp>(op)) // -x exactly (sign flip, NaN kept): x * -1.0
    return set(valu("v_mul_f32", {RV::imm(0xbf800000, true), in[0]}, true));
  return unsupported(op);
}

// ---------------------------------------------------------------------------
// gpu
// ---------------------------------------------------------------------------
RV KernelLowering::laneId() {
  // Once per kernel, in the entry block (all lanes are on there).
  if (!lane)
    lane = inPrologue([&] {
      Value lo = inst("v_mbcnt_lo_u32_b32", vT, {cst(-1), cst(0)});
      return inst("v_mbcnt_hi_u32_b32", vT, {cst(-1), lo});
    });
  return RV::of(RV::V, lane);
}

Value KernelLowering::laneByteAddr() {
  if (!laneAddr) {
    Value l = laneId().reg;
    laneAddr = inPrologue([&] { return inst("v_lshlrev_b32", vT, {cst(2), l}); });
  }
  return laneAddr;
}

LogicalResult KernelLowering::lowerGpu(Operation *op) {
  auto known = fn.getKnownBlockSizeAttr();
  if (auto t = dyn_cast<gpu::ThreadIdOp>(op)) {
    unsigned d = (unsigned)t.getDimension();
    if (known && known[d] == 1) {
      vals[t] = RV::imm(0);
    } else if (!packedIds) {
      vals[t] = RV::of(RV::V, tid0);
    } else {
      vals[t] = RV::of(RV::V, inPrologue([&] {
                         return inst("v_bfe_u32", vT, {tid0, cst(10 * d), cst(10)});
                       }));
    }
    return success();
  }
  if (auto t = dyn_cast<gpu::BlockIdOp>(op)) {
    vals[t] = RV::of(RV::S, wgid[(unsigned)t.getDimension()]);
    return success();
  }
  if (auto t = dyn_cast<gpu::BlockDimOp>(op)) {
    unsigned d = (unsigned)t.getDimension();
    if (known) {
      vals[t] = RV::imm(known[d]);
      return success();
    }
    // hsa_kernel_dispatch_packet_t: workgroup_size_x/y/z are u16 at bytes
    // 4, 6, 8 (HSA Platform System Architecture Spec 1.2, 2.9.6).
    // The load in the entry block, the field extracted where it is used
    // (the load's latency hides behind the other argument loads).
    Value w = inPrologue([&] { return inst("s_load_dword", sT, {dispatchPtr, cst(d == 2 ? 8 : 4)}); });
    RV word = RV::of(RV::S, w);
    vals[t] = d == 1 ? ibin("s_lshr_b32", "v_lshrrev_b32", true, word, RV::imm(16), nullptr)
                     : ibin("s_and_b32", "v_and_b32", false, word, RV::imm(0xffff), nullptr);
    return success();
  }
  if (auto t = dyn_cast<gpu::GridDimOp>(op)) {
    unsigned d = (unsigned)t.getDimension();
    if (auto kg = fn.getKnownGridSizeAttr()) {
      vals[t] = RV::imm(kg[d]);
      return success();
    }
    // grid_size_x/y/z (work-items) are u32 at bytes 12, 16, 20 of the
    // dispatch packet (same section); blocks = grid / block when the block
    // size is a known power of two.
    if (!known || (known[d] & (known[d] - 1)))
      return unsupported(op, "needs known_block_size (a power of two) on the kernel");
    vals[t] = RV::of(RV::S, inPrologue([&] {
                       Value g = inst("s_load_dword", sT, {dispatchPtr, cst(12 + 4 * d)});
                       return inst("s_lshr_b32", sT, {g, cst(llvm::countr_zero((unsigned)known[d]))});
                     }));
    return success();
  }
  if (auto t = dyn_cast<gpu::LaneIdOp>(op)) {
    vals[t] = laneId();
    return success();
  }
  if (auto t = dyn_cast<gpu::SubgroupSizeOp>(op)) {
    vals[t] = RV::imm(64);
    return success();
  }
  if (isa<gpu::BarrierOp>(op)) {
    // Workgroup release/acquire around the barrier: every memory access of
    // this wave done first (LLVM's AMDGPUUsage memory model, GFX942,
    // "fence release workgroup": s_waitcnt vmcnt(0) lgkmcnt(0)).
    inst("s_waitcnt", {}, {}, {b.getNamedAttr("vmcnt", b.getI32IntegerAttr(0)),
                               b.getNamedAttr("lgkmcnt", b.getI32IntegerAttr(0))});
    inst("s_barrier", {}, {});
    return success();
  }
  if (isa<gpu::ReturnOp>(op)) {
    if (op->getParentOp() != fn.getOperation())
      return unsupported(op, "gpu.return only ends the kernel body");
    inst("s_endpgm", {}, {});
    return success();
  }
  if (auto s = dyn_cast<gpu::ShuffleOp>(op)) {
    if (!is32(s.getValue().getType()))
      return unsupported(op, "only 32-bit values are shuffled");
    auto v = get(s.getValue()), off = get(s.getOffset()), w = get(s.getWidth());
    if (failed(v) || failed(off) || failed(w))
      return failure();
    if (w->k != RV::Imm || !w->bits || (w->bits & (w->bits - 1)) || w->bits > 64)
      return unsupported(op, "the width must be a constant power of two up to 64");
    // gpu.shuffle as MLIR's ROCDL lowering defines it (GPUToROCDL
    // "GPUShuffleOpLowering"): the source lane is lane ^ offset (xor),
    // offset (idx: a lane of the wave, not of the segment), lane + offset
    // (down), lane - offset (up); it is valid when below the end of this
    // lane's segment of `width` lanes, (lane + width) & -width; an invalid
    // lane reads its own value. (NVVM's shfl reads idx within the segment;
    // we follow the AMD lowering.)
    if (s.getMode() == gpu::ShuffleMode::XOR && off->k == RV::Imm && off->bits < w->bits) {
      // lane ^ c stays in its segment: valid everywhere; the byte address
      // is (lane * 4) ^ (c * 4).
      Value addr = valu("v_xor_b32", {RV::imm(off->bits * 4), RV::of(RV::V, laneByteAddr())}, false).reg;
      Value r = inst("ds_bpermute_b32", vT, {addr, toV(*v)});
      vals[s.getShuffleResult()] = RV::of(RV::V, r, v->isFloat);
      vals[s.getValid()] = RV::imm(1);
      return success();
    }
    RV lane = laneId();
    RV dst;
    switch (s.getMode()) {
    case gpu::ShuffleMode::XOR:
      dst = ibin("s_xor_b32", "v_xor_b32", false, lane, *off, nullptr);
      break;
    case gpu::ShuffleMode::IDX:
      dst = *off;
      break;
    case gpu::ShuffleMode::DOWN:
      dst = add(lane, *off);
      break;
    case gpu::ShuffleMode::UP:
      dst = ibin("s_sub_u32", "v_sub_u32", false, lane, *off, nullptr);
      break;
    }
    RV segEnd = ibin("s_and_b32", "v_and_b32", false, add(lane, *w), RV::imm(-w->bits), nullptr);
    Value valid;
    Value src;
    {
      valid = inst("v_cmp_lt_u32", s2T, vOps({dst, segEnd}));
      src = inst("v_cndmask_b32", vT, {toV(lane), toV(dst), valid});
    }
    Value addr = inst("v_lshlrev_b32", vT, {cst(2), src});
    Value r = inst("ds_bpermute_b32", vT, {addr, toV(*v)});
    vals[s.getShuffleResult()] = RV::of(RV::V, r, v->isFloat);
    vals[s.getValid()] = RV::of(RV::Mask, valid);
    return success();
  }
  if (auto r = dyn_cast<gpu::SubgroupReduceOp>(op)) {
    if (r.getClusterSize() || !is32(r.getType()))
      return unsupported(op, "only whole-wave reductions of 32-bit values are lowered");
    auto x = get(r.getValue());
    if (failed(x))
      return failure();
    bool fl = isF32(r.getType());
    using K = gpu::AllReduceOperation;
    StringRef mn;
    switch (r.getOp()) {
    case K::ADD: mn = fl ? "v_add_f32" : "v_add_u32"; break;
    case K::MUL: mn = fl ? "v_mul_f32" : "v_mul_lo_u32"; break;
    case K::MINUI: mn = "v_min_u32"; break;
    case K::MINSI: mn = "v_min_i32"; break;
    case K::MAXUI: mn = "v_max_u32"; break;
    case K::MAXSI: mn = "v_max_i32"; break;
    case K::MINNUMF: mn = "v_min_f32"; break;
    case K::MAXNUMF: mn = "v_max_f32"; break;
    case K::AND: mn = "v_and_b32"; break;
    case K::OR: mn = "v_or_b32"; break;
    case K::XOR: mn = "v_xor_b32"; break;
    default: return unsupported(op, "this reduction kind is not lowered");
    }
    // Butterfly over the 64 lanes: after step k every lane holds the
    // reduction of its 2^k-lane group (ds_swizzle within 32 lanes, then
    // ds_bpermute across the halves).
    Value acc = toV(*x);
    for (unsigned k = 1; k < 32; k <<= 1) {
      // ds_swizzle bit mode: offset = and_mask | or_mask << 5 | xor_mask << 10
      // (CDNA3 ISA 12.13.x, "DS_SWIZZLE_B32": bit 15 clear = bitmask mode).
      unsigned pattern = 0x1f | (k << 10);
      Value other = inst("ds_swizzle_b32", vT, {acc},
                         {b.getNamedAttr("offset", b.getI32IntegerAttr(pattern))});
      acc = inst(mn, vT, {acc, other});
    }
    Value xaddr = valu("v_xor_b32", {RV::imm(128), RV::of(RV::V, laneByteAddr())}, false).reg;
    Value other = inst("ds_bpermute_b32", vT, {xaddr, acc});
    acc = inst(mn, vT, {acc, other});
    vals[r] = RV::of(RV::S, inst("v_readfirstlane_b32", sT, acc), fl);
    return success();
  }
  return unsupported(op);
}

// ---------------------------------------------------------------------------
// memref
// ---------------------------------------------------------------------------
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

// ---------------------------------------------------------------------------
// scf.if
//   uniform:   s_cmp_lg c, 0; s_cbranch_scc0 else; then...; s_branch join;
//              else...; join(results)
//   divergent: saved = s_and_saveexec_b64 M; s_cbranch_execz elseHead;
//              then...; elseHead(then results): exec = saved & ~M;
//              s_cbranch_execz join; else...; join(both results):
//              exec = saved; r = v_cndmask(else r, then r, M)
//   A skipped side passes zeros for its results (all their lanes are
//   taken from the other side by the v_cndmask).
// ---------------------------------------------------------------------------
LogicalResult KernelLowering::lowerIf(scf::IfOp op) {
  auto cond = get(op.getCondition());
  if (failed(cond))
    return failure();
  bool hasElse = !op.getElseRegion().empty();
  if (cond->k == RV::Imm) {
    Region &r = cond->bits ? op.getThenRegion() : op.getElseRegion();
    if (r.empty())
      return success();
    if (failed(lowerBlock(r.front())))
      return failure();
    auto ys = yields(r.front());
    if (failed(ys))
      return failure();
    for (auto [res, y] : llvm::zip(op.getResults(), *ys))
      vals[res] = y;
    return success();
  }
  SmallVector<Type> types;
  for (Value r : op.getResults()) {
    if (r.getType().isInteger(1) && uni.isDivergent(r))
      return unsupported(op, "divergent i1 results are not lowered");
    types.push_back(uni.isDivergent(op.getCondition()) ? (Type)vT : regTypeFor(r));
  }
  // Lowers a branch's block and gives the values its scf.yield passes on,
  // each in the register class of its result.
  auto passOn = [&](Block &blk) -> FailureOr<SmallVector<Value>> {
    if (failed(lowerBlock(blk)))
      return failure();
    auto ys = yields(blk);
    if (failed(ys))
      return failure();
    SmallVector<Value> out;
    for (auto [y, t] : llvm::zip(*ys, types))
      out.push_back(inClass(y, t).reg);
    return out;
  };
  auto isFloat = [&](unsigned i) { return isF32(op.getResult(i).getType()); };
  if (!uni.isDivergent(op.getCondition())) {
    toSCC(*cond);
    Block *thenB = newBlock(), *join = newBlock(types);
    Block *elseB = hasElse ? newBlock() : join;
    branch("s_cbranch_scc0", elseB, {}, thenB, {});
    start(thenB);
    auto tv = passOn(op.getThenRegion().front());
    if (failed(tv))
      return failure();
    cf::BranchOp::create(b, loc, join, *tv);
    if (hasElse) {
      start(elseB);
      auto ev = passOn(op.getElseRegion().front());
      if (failed(ev))
        return failure();
      cf::BranchOp::create(b, loc, join, *ev);
    }
    start(join);
    for (unsigned i = 0; i < op.getNumResults(); ++i)
      vals[op.getResult(i)] = fromArg(join->getArgument(i), types[i], isFloat(i));
    return success();
  }
  Value m = toMask(*cond);
  Value saved = inst("s_and_saveexec_b64", s2T, m);
  SmallVector<Value> zeros;
  for (unsigned i = 0; i < types.size(); ++i)
    zeros.push_back(inst("v_mov_b32", vT, cst(0)));
  Block *thenB = newBlock(), *elseHead = newBlock(types);
  branch("s_cbranch_execz", elseHead, zeros, thenB, {});
  start(thenB);
  auto tv = passOn(op.getThenRegion().front());
  if (failed(tv))
    return failure();
  cf::BranchOp::create(b, loc, elseHead, *tv);
  start(elseHead);
  if (!hasElse) {
    inst("s_mov_b64", execT, saved);
    return success();
  }
  inst("s_andn2_b64", execT, {saved, m});
  SmallVector<Value> passT(elseHead->getArguments().begin(), elseHead->getArguments().end());
  SmallVector<Value> skipArgs = passT;
  for (unsigned i = 0; i < types.size(); ++i)
    skipArgs.push_back(inst("v_mov_b32", vT, cst(0)));
  SmallVector<Type> joinTypes(types);
  joinTypes.append(types.begin(), types.end());
  Block *elseB = newBlock(), *join = newBlock(joinTypes);
  branch("s_cbranch_execz", join, skipArgs, elseB, {});
  start(elseB);
  auto ev = passOn(op.getElseRegion().front());
  if (failed(ev))
    return failure();
  SmallVector<Value> joinArgs = passT;
  joinArgs.append(ev->begin(), ev->end());
  cf::BranchOp::create(b, loc, join, joinArgs);
  start(join);
  inst("s_mov_b64", execT, saved);
  unsigned n = types.size();
  for (unsigned i = 0; i < n; ++i)
    vals[op.getResult(i)] =
        RV::of(RV::V,
               inst("v_cndmask_b32", vT, {join->getArgument(n + i), join->getArgument(i), m}),
               isFloat(i));
  return success();
}

// ---------------------------------------------------------------------------
// scf.for
//   uniform bounds: (s_cmp_lt_i32 lb, ub; s_cbranch_scc0 exit) body(iv,
//     args): ...; iv += step; s_cmp_lt_i32 iv, ub; s_cbranch_scc1 body;
//     exit(results)
//   divergent bounds: saved = exec; head(iv, args): exec &= (iv < ub);
//     s_cbranch_execz exit; body...; br head; exit: exec = saved. A lane that
//     leaves keeps its last arguments: later iterations write only the
//     lanes still in exec.
// ---------------------------------------------------------------------------
LogicalResult KernelLowering::lowerFor(scf::ForOp op) {
  auto lb = get(op.getLowerBound()), ub = get(op.getUpperBound()), st = get(op.getStep());
  if (failed(lb) || failed(ub) || failed(st))
    return failure();
  if (!is32(op.getInductionVar().getType()))
    return unsupported(op, "the induction variable must be index or i32");
  SmallVector<Type> types;
  SmallVector<RV> inits;
  for (auto [arg, init] : llvm::zip(op.getRegionIterArgs(), op.getInitArgs())) {
    if (arg.getType().isInteger(1) && uni.isDivergent(arg))
      return unsupported(op, "divergent i1 loop-carried values are not lowered");
    types.push_back(regTypeFor(arg));
    auto r = get(init);
    if (failed(r))
      return failure();
    inits.push_back(*r);
  }
  bool divergent = uni.isDivergent(op.getInductionVar());
  Block &src = *op.getBody();
  auto mapArgs = [&](Block *blk, unsigned first) {
    for (unsigned i = 0; i < types.size(); ++i)
      vals[op.getRegionIterArgs()[i]] =
          fromArg(blk->getArgument(first + i), types[i], isF32(op.getRegionIterArgs()[i].getType()));
  };
  auto nextArgs = [&]() -> FailureOr<SmallVector<Value>> {
    auto ys = yields(src);
    if (failed(ys))
      return failure();
    SmallVector<Value> out;
    for (auto [y, t] : llvm::zip(*ys, types))
      out.push_back(inClass(y, t).reg);
    return out;
  };
  SmallVector<Value> initRegs;
  for (auto [r, t] : llvm::zip(inits, types))
    initRegs.push_back(inClass(r, t).reg);
  if (!divergent) {
    SmallVector<Type> bodyTypes{sT};
    bodyTypes.append(types);
    Block *bodyB = newBlock(bodyTypes), *exit = newBlock(types);
    SmallVector<Value> entryArgs{toS(*lb)};
    entryArgs.append(initRegs);
    bool runsOnce = lb->k == RV::Imm && ub->k == RV::Imm && (int32_t)lb->bits < (int32_t)ub->bits;
    if (runsOnce) {
      cf::BranchOp::create(b, loc, bodyB, entryArgs);
    } else {
      inst("s_cmp_lt_i32", {}, {sOp(*lb), sOp(*ub)});
      branch("s_cbranch_scc0", exit, initRegs, bodyB, entryArgs);
    }
    start(bodyB);
    vals[op.getInductionVar()] = RV::of(RV::S, bodyB->getArgument(0));
    mapArgs(bodyB, 1);
    if (failed(lowerBlock(src)))
      return failure();
    auto next = nextArgs();
    if (failed(next))
      return failure();
    Value iv1 = inst("s_add_u32", sT, {bodyB->getArgument(0), sOp(*st)});
    inst("s_cmp_lt_i32", {}, {iv1, sOp(*ub)});
    SmallVector<Value> back{iv1};
    back.append(*next);
    branch("s_cbranch_scc1", bodyB, back, exit, *next);
    start(exit);
    for (unsigned i = 0; i < types.size(); ++i)
      vals[op.getResult(i)] = fromArg(exit->getArgument(i), types[i], isF32(op.getResult(i).getType()));
    return success();
  }
  Value saved = inst("s_mov_b64", s2T, execReg());
  SmallVector<Type> headTypes{vT};
  headTypes.append(types);
  Block *head = newBlock(headTypes), *bodyB = newBlock(), *exit = newBlock();
  SmallVector<Value> entryArgs{toV(*lb)};
  entryArgs.append(initRegs);
  cf::BranchOp::create(b, loc, head, entryArgs);
  start(head);
  Value iv = head->getArgument(0);
  Value inRange = inst("v_cmp_lt_i32", s2T, vOps({RV::of(RV::V, iv), *ub}));
  inst("s_and_b64", execT, {execReg(), inRange});
  branch("s_cbranch_execz", exit, {}, bodyB, {});
  start(bodyB);
  vals[op.getInductionVar()] = RV::of(RV::V, iv);
  mapArgs(head, 1);
  if (failed(lowerBlock(src)))
    return failure();
  auto next = nextArgs();
  if (failed(next))
    return failure();
  Value iv1 = valu("v_add_u32", {RV::of(RV::V, iv), *st}, false).reg;
  SmallVector<Value> back{iv1};
  back.append(*next);
  cf::BranchOp::create(b, loc, head, back);
  start(exit);
  inst("s_mov_b64", execT, saved);
  for (unsigned i = 0; i < types.size(); ++i)
    vals[op.getResult(i)] = fromArg(head->getArgument(1 + i), types[i], isF32(op.getResult(i).getType()));
  return success();
}

} // namespace

LogicalResult lowerGpuModules(ModuleOp top, StringRef target) {
  if (!ISA::targetBit(target))
    return top.emitError("amdgcn-lower: unknown target '") << target << "'";
  SmallVector<gpu::GPUModuleOp> gms;
  for (auto gm : top.getOps<gpu::GPUModuleOp>())
    gms.push_back(gm);
  SmallVector<Operation *> made;
  bool ok = true;
  OpBuilder b(top.getContext());
  for (gpu::GPUModuleOp gm : gms) {
    b.setInsertionPoint(gm);
    auto km = KernelModuleOp::create(b, gm.getLoc(), gm.getName(), target);
    km.getBody().push_back(new Block());
    made.push_back(km);
    for (Operation &op : gm.getBody()->getOperations()) {
      auto fn = dyn_cast<gpu::GPUFuncOp>(&op);
      if (!fn) {
        op.emitOpError("cannot be lowered to amdgcn (a gpu.module holds gpu.func kernels)");
        ok = false;
        continue;
      }
      if (!fn.isKernel()) {
        fn.emitOpError("cannot be lowered to amdgcn: only kernels (gpu.func ... kernel)");
        ok = false;
        continue;
      }
      KernelLowering kl(fn, km);
      if (failed(kl.run()))
        ok = false;
    }
  }
  if (!ok) {
    for (Operation *op : made)
      op->erase();
    return failure();
  }
  for (gpu::GPUModuleOp gm : gms)
    gm.erase();
  return success();
}

} // namespace aster::lower
