//===- KernelLowering.cpp - gpu.func kernels to amdgcn instructions -------===//
//
// What it needs and guarantees: Lower.h. How (KernelLowering.h has the
// value representation and the split into dialect files):
//   1. Uniformity (Uniformity.h) marks the divergent values of the kernel.
//   2. Kernel arguments are loaded with s_load from the kernarg segment in
//      the entry block (which also names the hardware-initialised
//      registers), so every use is dominated (setupInterface).
//   3. The body is walked once in order; each op goes to the function the
//      LoweringTable holds for it (its dialect file). Structured control
//      flow becomes blocks in layout order (LowerControlFlow.cpp); values
//      flow between blocks as block arguments of register type, as for
//      hand-written kernels.
//   4. lowerGpuModules makes one amdgcn.module per gpu.module; on any error
//      the modules made so far are erased (nothing is half lowered).
//===----------------------------------------------------------------------===//
#include "lower/KernelLowering.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace aster::lower {

void registerTensorBufferization(DialectRegistry &registry); // LowerTensors.cpp

void registerUpstreamDialects(DialectRegistry &registry) {
  registry.insert<linalg::LinalgDialect, affine::AffineDialect>(); // LowerLinalg.cpp
  registerTensorBufferization(registry); // bufferization, tensor (LowerTensors.cpp)
  registry.insert<gpu::GPUDialect, arith::ArithDialect, math::MathDialect, scf::SCFDialect,
                  cf::ControlFlowDialect, memref::MemRefDialect, vector::VectorDialect,
                  amdgpu::AMDGPUDialect, func::FuncDialect, index::IndexDialect,
                  LLVM::LLVMDialect, ub::UBDialect>();
}

const LoweringTable::Fn *LoweringTable::lookup(Operation *op) const {
  auto it = fns.find(op->getName().getStringRef());
  if (it != fns.end())
    return &it->second;
  it = fns.find(op->getName().getDialectNamespace());
  return it != fns.end() ? &it->second : nullptr;
}

const LoweringTable &loweringTable() {
  static const LoweringTable table = [] {
    LoweringTable t;
#define ASTER_LOWERING(Name) populate##Name##Lowering(t);
#include "lower/Lowerings.def"
#undef ASTER_LOWERING
    return t;
  }();
  return table;
}

// ---------------------------------------------------------------------------
// Kernel interface: arguments and the hardware-initialised registers
// ---------------------------------------------------------------------------
LogicalResult KernelLowering::setupInterface() {
  if (!fn.isKernel()) // a function's parameters instead (LowerFunction.cpp)
    return setupFunction();
  // ROCDL's calling convention (mlir/lib/Conversion/GPUCommon): bare pointers
  // when every memref is static with identity layout, else descriptors.
  bool bare = true;
  for (BlockArgument a : kernelArgs())
    if (auto mt = dyn_cast<MemRefType>(a.getType()))
      bare &= mt.hasStaticShape() && mt.getLayout().isIdentity();
  SmallVector<Attribute> names, types;
  // The metadata's .type_name per slot: the memref type on each memref's
  // first slot (aster.lowering.signature.from_metadata reads it back).
  SmallVector<Attribute> typeNames;
  unsigned off = 0;
  auto slot = [&](StringRef name, Type t, unsigned size) {
    off = (off + size - 1) / size * size;
    names.push_back(b.getStringAttr(name));
    types.push_back(TypeAttr::get(t));
    typeNames.push_back(b.getStringAttr(""));
    Slot s{off, size};
    off += size;
    return s;
  };
  for (BlockArgument a : kernelArgs()) {
    std::string n = ("arg" + Twine(a.getArgNumber())).str();
    Type t = a.getType();
    if (auto mt = dyn_cast<MemRefType>(t)) {
      Type elem = mt.getElementType();
      if (!memElementBytes(elem))
        return fn.emitOpError("argument ") << a.getArgNumber() << " of type " << t
                                          << " cannot be lowered to amdgcn: memref elements "
                                             "must be f16, bf16, f32, f64, i8, i16, i32 or i64";
      if (mt.getMemorySpace() && !isa<gpu::AddressSpaceAttr>(mt.getMemorySpace()))
        ;
      MemArg m;
      m.type = mt;
      Type pt = PtrType::get(ctx, elem);
      unsigned firstSlot = names.size();
      auto nameType = [&] {
        std::string ts;
        llvm::raw_string_ostream os(ts);
        os << mt;
        typeNames[firstSlot] = b.getStringAttr(ts);
      };
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
      nameType();
      mems[a] = m;
    } else if (t.isIndex() || t.isInteger(64)) {
      scalars[a] = slot(n, b.getI64Type(), 8);
    } else if (t.isF64()) {
      scalars[a] = slot(n, t, 8);
    } else if (t.isInteger(32) || t.isF32()) {
      scalars[a] = slot(n, t, 4);
    } else {
      return fn.emitOpError("argument ") << a.getArgNumber() << " of type " << t
                                        << " cannot be lowered to amdgcn (memrefs, index, "
                                           "i32, i64, f32 are)";
    }
  }
  // Workgroup attributions: static LDS, each at a 16-byte aligned offset,
  // after the workgroup globals of the functions it calls (LowerModuleLds.cpp).
  unsigned lds = 0;
  if (auto a = fn->getAttrOfType<IntegerAttr>("aster.module_lds"))
    lds = (unsigned)a.getInt();
  for (BlockArgument a : fn.getWorkgroupAttributions()) {
    auto mt = cast<MemRefType>(a.getType());
    if (!mt.hasStaticShape() || !mt.getLayout().isIdentity() ||
        !memElementBytes(mt.getElementType()))
      return fn.emitOpError("workgroup attribution of type ")
             << mt << " cannot be lowered to amdgcn (static shapes of f16, bf16, f32, f64, i8, "
                      "i16, i32, i64)";
    MemArg m;
    m.type = mt;
    m.lds = true;
    m.ldsOffset = lds;
    lds += (unsigned)((mt.getNumElements() * memElementBytes(mt.getElementType()) + 15) / 16 *
                      16);
    mems[a] = m;
  }
  reserveLds(lds); // gpu.all_reduce scratch (LowerGpu.cpp)
  // Which ids and dims the body reads.
  bool dims = false, gridDims = false;
  unsigned maxTid = 0, maxWg = 0;
  auto known = fn.getKnownBlockSizeAttr();
  fn.walk([&](Operation *op) {
    if (auto t = dyn_cast<gpu::ThreadIdOp>(op))
      maxTid = std::max(maxTid, (unsigned)t.getDimension() + 1);
    if (auto t = dyn_cast<gpu::BlockIdOp>(op))
      maxWg = std::max(maxWg, (unsigned)t.getDimension() + 1);
    if (isa<gpu::BlockDimOp>(op) && !known)
      dims = true;
    if (isa<gpu::GridDimOp>(op) && !fn.getKnownGridSizeAttr())
      gridDims = true;
    // gpu.all_reduce needs the linear work-item id and the block size
    // (LowerGpu.cpp): every id dimension the block may have, the dispatch
    // packet when the size is not known.
    if (isa<gpu::AllReduceOp>(op)) {
      dims |= !known;
      maxTid = std::max(maxTid, !known || known[2] > 1 ? 3u : known[1] > 1 ? 2u : 1u);
    }
  });
  // gpu.grid_dim reads the code-object-v5 hidden arguments
  // hidden_block_count_x/y/z (u32, after the explicit arguments, 8-aligned;
  // AMDGPUUsage "Code Object V5 Metadata"): the launcher fills them, so one
  // code object serves any grid.
  if (gridDims) {
    off = (off + 7) / 8 * 8;
    for (unsigned d = 0; d < 3; ++d)
      blockCount[d] = slot(std::string("hidden_block_count_") + "xyz"[d], b.getI32Type(), 4);
  }
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
  kernel->setAttr("arg_type_names", b.getArrayAttr(typeNames));
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
  // Private attributions: as memref.alloca (LowerMemory.cpp).
  for (BlockArgument a : fn.getPrivateAttributions())
    if (failed(allocatePrivate(*this, fn.getOperation(), a)))
      return failure();
  for (BlockArgument a : kernelArgs())
    if (auto it = scalars.find(a); it != scalars.end())
      vals[a] = is64(a.getType()) ? fromS64(loadArg(Slot{it->second.offset, 8}))
                                  : loadScalar(it->second, a.getType().isF32());
  return success();
}

// LowerMemory.cpp: the dynamic stack's base past the static private bytes.
void finishDynamicStack(KernelLowering &L);
/// Erases the moves, pair joins and splits nothing reads (LowerDeadMoves.cpp).
void eraseDeadMoves(Region &body);
/// Constants moved into VGPRs folded into their readers (LowerFoldLiterals.cpp).
void foldLiterals(Region &body);

LogicalResult KernelLowering::run() {
  if (!fn.getBody().hasOneBlock()) // lifted by structurizeKernelCFG before
    return fn.emitOpError("cannot be lowered to amdgcn: a body of several blocks");
  if (failed(setupInterface()))
    return failure();
  LogicalResult ok = lowerBlock(fn.getBody().front());
  finishDynamicStack(*this);
  if (failed(ok))
    return failure();
  foldLiterals(*body);   // LowerFoldLiterals.cpp
  eraseDeadMoves(*body); // LowerDeadMoves.cpp
  return success();
}

LogicalResult KernelLowering::lowerBlock(Block &blk) {
  for (Operation &op : blk) {
    if (isa<scf::YieldOp, scf::ConditionOp>(op))
      continue;
    loc = op.getLoc();
    if (failed(lowerOp(&op)))
      return failure();
  }
  return success();
}

FailureOr<SmallVector<RV>> KernelLowering::getAll(ValueRange values) {
  SmallVector<RV> out;
  for (Value v : values) {
    auto r = get(v);
    if (failed(r))
      return failure();
    out.push_back(*r);
  }
  return out;
}

FailureOr<SmallVector<RV>> KernelLowering::yields(Block &blk) {
  return getAll(blk.getTerminator()->getOperands());
}

FailureOr<SmallVector<Value>> KernelLowering::yieldedRegs(Block &blk, ArrayRef<Type> types) {
  auto ys = yields(blk);
  if (failed(ys))
    return failure();
  SmallVector<Value> out;
  for (auto [y, t] : llvm::zip(*ys, types))
    out.push_back(inClass(y, t).reg);
  return out;
}

// LowerVectorBitcast.cpp: arith.bitcast of a vector to a scalar of the same
// bits or back (the words moved, no instruction).
LogicalResult lowerVectorScalarBitcast(KernelLowering &L, Operation *op);

LogicalResult KernelLowering::lowerOp(Operation *op) {
  // A function's return and the kernel-only ids (LowerFunction.cpp).
  if (func && isa<gpu::ReturnOp, gpu::ThreadIdOp, gpu::BlockIdOp, gpu::BlockDimOp,
                  gpu::GridDimOp>(op))
    return lowerInFunction(op);
  // arith.bitcast between a vector and a scalar of its size (LowerVectorBitcast.cpp).
  if (auto bc = dyn_cast<arith::BitcastOp>(op);
      bc && isa<VectorType>(bc.getIn().getType()) != isa<VectorType>(bc.getType()))
    return lowerVectorScalarBitcast(*this, op);
  // arith / math ops on vectors: the scalar op per element (LowerVectorElementwise.cpp).
  if (op->getDialect() && isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) &&
      llvm::any_of(op->getResultTypes(), [](Type t) { return isa<VectorType>(t); }))
    return lowerElementwise(*this, op);
  if (const LoweringTable::Fn *fn = loweringTable().lookup(op))
    return (*fn)(*this, op);
  return unsupported(op);
}

// LowerFunction.cpp: whether `gm` holds func.func bodies; each becomes a
// non-kernel gpu.func of the same name, body and type.
bool hasFuncBodies(gpu::GPUModuleOp gm);
void funcBodiesToGpuFuncs(gpu::GPUModuleOp gm);

// LowerVectorExpand.cpp: whether `gm` holds vector ops amdgcn-lower takes
// through upstream's own vector lowering patterns first; applies them
// (upstream IR in, upstream IR out, on the clone lowered below).
bool hasExpandableVector(gpu::GPUModuleOp gm);
LogicalResult expandVector(gpu::GPUModuleOp gm);
// LowerSubgroupExpand.cpp: the same for gpu ops (global_id, subgroup_id,
// 64-bit and narrow shuffles, subgroup_reduce forms LowerGpu.cpp leaves).
bool hasExpandableGpu(gpu::GPUModuleOp gm);
LogicalResult expandGpu(gpu::GPUModuleOp gm);
// LowerArithExpand.cpp: the same for arith / math ops that are other
// lowered ops in disguise (i1 arithmetic, *_extended, ipowi, ...).
bool hasExpandableArith(gpu::GPUModuleOp gm);
LogicalResult expandArith(gpu::GPUModuleOp gm);
// LowerMemExpand.cpp: the same for memref.copy / reshape / workgroup
// globals, vector expandload / compressstore / scatter and gpu.rotate (our
// own rewrites, run first: they make ops the expansions above may take).
bool hasExpandableMem(gpu::GPUModuleOp gm);
LogicalResult expandMem(gpu::GPUModuleOp gm);
// LowerArithNarrowFloat.cpp: casts of 8/6/4-bit floats by upstream's
// ArithToAMDGPU and arith expansions for the target.
bool hasNarrowFloatCasts(gpu::GPUModuleOp gm);
LogicalResult expandNarrowFloatCasts(gpu::GPUModuleOp gm, StringRef target);

// LowerMemPairs.cpp: adjacent 32-bit memref.load / store pairs as one
// vector access (LLVM's LoadStoreVectorizer).
void mergeAdjacentAccesses(gpu::GPUFuncOp fn);

// One gpu.func (kernel or function) into `km`: cf branches lifted to scf
// (LowerCFG.cpp), vector loop carries split, then the ops lowered.
static LogicalResult lowerOneFunction(gpu::GPUFuncOp fn, KernelModuleOp km) {
  if (failed(structurizeKernelCFG(fn)))
    return failure();
  scalarizeVectorCarries(fn);
  carryMemrefsAsValues(fn);
  mergeAdjacentAccesses(fn);
  KernelLowering kl(fn, km);
  return kl.run();
}

LogicalResult lowerGpuModules(ModuleOp top, StringRef target) {
  if (!ISA::targetBit(target))
    return top.emitError("amdgcn-lower: unknown target '") << target << "'";
  SmallVector<gpu::GPUModuleOp> gms;
  for (auto gm : top.getOps<gpu::GPUModuleOp>())
    gms.push_back(gm);
  SmallVector<Operation *> made;
  bool ok = true;
  OpBuilder b(top.getContext());
  // linalg ops become loops first, in a clone lowered in place of the
  // gpu.module (LowerLinalg.cpp): the input stays as it was on error.
  SmallVector<Operation *> loopClones, originals;
  // So do func.func bodies: gpu.funcs (LowerFunction.cpp).
  for (gpu::GPUModuleOp &gm : gms) {
    // ... and so do the math ops upstream's expansions rewrite (LowerMathExpand.cpp).
    bool linalg = hasLinalg(gm), math = hasExpandableMath(gm), funcs = hasFuncBodies(gm);
    bool vec = hasExpandableVector(gm); // ... and the vector ops of LowerVectorExpand.cpp
    bool gpuOps = hasExpandableGpu(gm); // ... and the gpu ops of LowerSubgroupExpand.cpp
    bool mem = hasExpandableMem(gm);    // ... and the ops of LowerMemExpand.cpp
    bool arithOps = hasExpandableArith(gm); // ... and those of LowerArithExpand.cpp
    bool narrowF = hasNarrowFloatCasts(gm); // ... and LowerArithNarrowFloat.cpp's casts
    if (!linalg && !math && !funcs && !vec && !gpuOps && !mem && !arithOps && !narrowF)
      continue;
    b.setInsertionPoint(gm);
    auto c = cast<gpu::GPUModuleOp>(b.clone(*gm));
    loopClones.push_back(c);
    originals.push_back(gm);
    gm = c;
    if (funcs)
      funcBodiesToGpuFuncs(c);
    if (mem) {
      if (failed(expandMem(c))) {
        for (Operation *op : loopClones)
          op->erase();
        return failure();
      }
      vec = hasExpandableVector(c), gpuOps = hasExpandableGpu(c);
    }
    if ((narrowF && failed(expandNarrowFloatCasts(c, target))) ||
        (linalg && failed(linalgToLoops(c))) || (vec && failed(expandVector(c))) ||
        (gpuOps && failed(expandGpu(c))) || (arithOps && failed(expandArith(c))) ||
        (math && failed(expandMath(c)))) {
      for (Operation *op : loopClones)
        op->erase();
      return failure();
    }
  }
  for (gpu::GPUModuleOp gm : gms) {
    b.setInsertionPoint(gm);
    auto km = KernelModuleOp::create(b, gm.getLoc(), gm.getName(), target);
    km.getBody().push_back(new Block());
    made.push_back(km);
    if (failed(importFunctions(top, gm, km))) // func.call's callees (LowerCall.cpp)
      ok = false;
    // Functions first (amdgcn.funcs: LowerFunction.cpp), each after the
    // functions it calls, so that func.call finds its amdgcn.func (a call
    // cycle or an unknown callee: the first left, whose call then fails).
    SmallVector<gpu::GPUFuncOp> funcs;
    for (auto f : gm.getOps<gpu::GPUFuncOp>())
      if (!f.isKernel())
        funcs.push_back(f);
    while (!funcs.empty()) {
      auto *next = llvm::find_if(funcs, [&](gpu::GPUFuncOp f) {
        return !f.walk([&](func::CallOp c) {
                   return km.lookupSymbol(c.getCallee()) ? WalkResult::advance()
                                                         : WalkResult::interrupt();
                 }).wasInterrupted();
      });
      if (next == funcs.end())
        next = funcs.begin();
      gpu::GPUFuncOp fn = *next;
      funcs.erase(next);
      if (failed(lowerOneFunction(fn, km)))
        ok = false;
    }
    for (Operation &op : gm.getBody()->getOperations()) {
      auto fn = dyn_cast<gpu::GPUFuncOp>(&op);
      if (fn && !fn.isKernel())
        continue;
      if (auto decl = dyn_cast<func::FuncOp>(&op); decl && decl.isDeclaration())
        continue;
      // memref.globals are lowered where get_global uses them (LowerMemrefGlobal.cpp).
      if (isa<memref::GlobalOp>(&op))
        continue;
      if (!fn) {
        op.emitOpError("cannot be lowered to amdgcn (a gpu.module holds gpu.func kernels)");
        ok = false;
        continue;
      }
      if (failed(lowerOneFunction(fn, km)))
        ok = false;
    }
  }
  if (!ok) {
    for (Operation *op : made)
      op->erase();
    for (Operation *op : loopClones)
      op->erase();
    return failure();
  }
  for (gpu::GPUModuleOp gm : gms)
    gm.erase();
  for (Operation *op : originals)
    op->erase();
  // amdgcn.modules of the input holding only functions were libraries for
  // func.call (copied where called): not modules of the result.
  for (auto lib : llvm::make_early_inc_range(top.getOps<KernelModuleOp>()))
    if (!llvm::is_contained(made, lib.getOperation()) && lib.getOps<KernelOp>().empty())
      lib.erase();
  return success();
}

} // namespace aster::lower
