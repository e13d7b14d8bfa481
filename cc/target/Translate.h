//===- Translate.h - amdgcn IR to assembly text and hsaco ----------------===//
#ifndef ASTER_TARGET_TRANSLATE_H
#define ASTER_TARGET_TRANSLATE_H

#include "dialect/Dialect.h"

#include "llvm/BinaryFormat/MsgPackDocument.h"
#include "llvm/Support/raw_ostream.h"
#include <vector>

namespace aster::target {
using amdgcn::KernelModuleOp;
using amdgcn::KernelOp;

/// Facts about one kernel that the descriptor and metadata need; computed
/// from the IR (registers used, kernarg layout).
struct KernelInfo {
  std::string name;
  struct Arg {
    std::string name;
    unsigned offset, size;
    bool pointer;
    std::string typeName;
    /// A code-object-v5 hidden argument (the launcher fills it): its name is
    /// its value kind, e.g. hidden_block_count_x (AMDGPUUsage, "Code Object
    /// V5 Metadata").
    bool hidden = false;
  };
  std::vector<Arg> args;
  unsigned kernargSize = 0;
  unsigned nextFreeVGPR = 0, nextFreeSGPR = 0, numAGPR = 0, accumOffset = 4;
  unsigned lds = 0, privateSegment = 0, wavefrontSize = 64;
  /// Scratch beyond privateSegment is used (the kernel's `dynamic_stack`:
  /// dynamic-size allocas, cc/lower/LowerMemory.cpp): metadata
  /// `.uses_dynamic_stack`, so the runtime adds its dynamic stack.
  bool dynamicStack = false;
  unsigned block[3] = {256, 1, 1};
  unsigned workitemIds = 1;
  std::vector<std::string> sgprSetup;
  unsigned userSGPRs = 0;
};

/// Computes KernelInfo for `k` (no diagnostics: the verifier ran).
KernelInfo analyzeKernel(KernelOp k, uint8_t target);

/// Writes the module as assembly. With `lineLocs`, records for every line
/// the location of the op that produced it (or an unknown location).
mlir::LogicalResult translateToAsm(KernelModuleOp module, llvm::raw_ostream &os,
                                   std::vector<mlir::Location> *lineLocs = nullptr);

/// The assembly's first lines: target, code-object version, `.text`.
void writeModuleHeader(KernelModuleOp module, llvm::raw_ostream &os);

/// A kernel's instructions and block labels as assembly (kernel `kernelIdx`
/// of its module: labels are `.LBB<kernelIdx>_<block>`).
mlir::LogicalResult writeKernelBody(KernelOp k, unsigned kernelIdx, llvm::raw_ostream &os);

/// The instructions and block labels (`labelPrefix` N) of a kernel's or a
/// device function's body as assembly.
mlir::LogicalResult writeBody(mlir::Region &body, const std::string &labelPrefix,
                              llvm::raw_ostream &os);

/// The module's code-object metadata (`infos`: its kernels' analyzeKernel);
/// raised kernels keep their recorded metadata.
void buildMetadata(KernelModuleOp module, llvm::ArrayRef<KernelInfo> infos,
                   llvm::msgpack::Document &doc);

/// Translates and links the module into a code object: with `direct`,
/// instructions go to LLVM MC as MCInsts (DirectEmit.h; kernels it cannot
/// encode go through text), otherwise the whole module is printed as assembly
/// and parsed by LLVM MC. Errors are reported as diagnostics at the offending
/// op's location (through the text path).
mlir::FailureOr<std::vector<char>> translateToHsaco(KernelModuleOp module,
                                                    bool direct = true);

/// Checks a terminator's successor operands after register allocation (each
/// value already in its block argument's register); a diagnostic otherwise.
mlir::LogicalResult checkSuccessorOperands(mlir::Operation *term);

/// Finds the single amdgcn.module in `op` (itself or nested in a builtin
/// module); emits an error otherwise.
mlir::FailureOr<KernelModuleOp> findKernelModule(mlir::Operation *op);

/// Registers --mlir-to-asm and --mlir-to-hsaco with mlir-translate.
void registerTranslations();

} // namespace aster::target

#endif
