//===- KernelMetadata.h - kernel descriptor and code-object metadata -----===//
#ifndef ASTER_TARGET_KERNELMETADATA_H
#define ASTER_TARGET_KERNELMETADATA_H

#include "target/Translate.h"

namespace aster::target {

/// Size in SGPRs of a hardware-initialised SGPR (see KernelOp docs), or 0 if
/// the name is unknown; `isUser` tells user SGPRs from system SGPRs.
unsigned sgprSetupSize(llvm::StringRef name, bool *isUser = nullptr);

/// `.amdhsa_kernel` block (in .rodata) for one kernel.
void writeKernelDescriptor(const KernelInfo &k, uint8_t target,
                           llvm::raw_ostream &os);

/// `.amdgpu_metadata` (code object v5) for all kernels of a module.
void writeMetadata(llvm::ArrayRef<KernelInfo> kernels, llvm::StringRef target,
                   llvm::raw_ostream &os);

} // namespace aster::target

#endif
