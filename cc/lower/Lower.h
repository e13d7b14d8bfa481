//===- Lower.h - upstream MLIR GPU kernels to amdgcn instructions --------===//
//
// amdgcn-lower: every `gpu.module` of a builtin module whose kernels are
// already outlined (mlir-opt -gpu-kernel-outlining) becomes an
// `amdgcn.module` of the same name, each `gpu.func ... kernel` an
// `amdgcn.kernel` of the same name.
//
// Needs before: gpu.func kernels whose bodies are one block of the ops
// listed in docs/lowering.md (gpu ids and dims, barrier, shuffle xor/idx,
// arith on i1/i32/index/f32, select, compares, casts between i32 and index,
// math.fma/sqrt/rsqrt/exp2, memref.load/store/dim on global memrefs of 4-byte
// elements, scf.for/if/yield, uniform or divergent). `index` is lowered as
// 32 bits: indices and sizes must be below 2^31.
// Anything else is an error at the op, naming it; nothing is half lowered
// (the module is left as it was on error).
//
// Guarantees after: amdgcn ops on virtual registers (not yet allocated; run
// amdgcn-regalloc, amdgcn-waitcnt, amdgcn-hazards as for Python kernels).
// Values uniform across a wave (Uniformity.h) are in SGPRs computed with
// scalar instructions; divergent ones in VGPRs. Branches on uniform
// conditions use SCC (s_cbranch_scc0/1); divergent scf.if and scf.for run
// under EXEC masks (s_and_saveexec_b64 / s_andn2_b64, restored after) with
// s_cbranch_execz skipping a region no lane runs. Kernel arguments keep
// MLIR's ROCDL calling convention (convert-gpu-to-rocdl): when every memref
// argument has a static shape and identity layout, each is one pointer
// (use-bare-ptr-memref-call-conv); otherwise each memref is its descriptor
// (allocated pointer, aligned pointer, offset, sizes, strides as i64), so
// the same arguments launch aster's and LLVM's build of a kernel.
//
//===----------------------------------------------------------------------===//
#ifndef ASTER_LOWER_LOWER_H
#define ASTER_LOWER_LOWER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"

#include <string>

namespace aster::lower {

/// Lowers every gpu.module of `top` in place (see above). On failure the
/// diagnostics name the op and `top` is unchanged.
mlir::LogicalResult lowerGpuModules(mlir::ModuleOp top, llvm::StringRef target);

/// The upstream dialects a lowered module may hold before lowering (gpu,
/// arith, math, scf, cf, memref, vector, amdgpu, func, index, llvm).
void registerUpstreamDialects(mlir::DialectRegistry &registry);

/// Registers the amdgcn-lower pass (option `target`, default gfx942).
void registerLowerPass();

/// The pass documentation (what it needs before, what it guarantees after).
extern const char *const kLowerDoc;

} // namespace aster::lower

#endif
