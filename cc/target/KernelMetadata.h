//===- KernelMetadata.h - kernel descriptor and code-object metadata -----===//
#ifndef ASTER_TARGET_KERNELMETADATA_H
#define ASTER_TARGET_KERNELMETADATA_H

#include "target/Translate.h"

#include "llvm/BinaryFormat/MsgPackDocument.h"

namespace aster::target {

/// Size in SGPRs of a hardware-initialised SGPR (see KernelOp docs), or 0 if
/// the name is unknown; `isUser` tells user SGPRs from system SGPRs.
unsigned sgprSetupSize(llvm::StringRef name, bool *isUser = nullptr);

/// SGPRs a `.amdhsa_user_sgpr_*` directive enables (0 if unknown).
unsigned sgprSetupSizeOfDirective(llvm::StringRef directive);

/// aster's kernel descriptor of `k` as `.amdhsa_*` directive values (names
/// without the prefix), in the order the text writes them.
std::vector<std::pair<std::string, int64_t>> descriptorDirectives(const KernelInfo &k,
                                                                  uint8_t target);

/// `.amdhsa_kernel` block (in .rodata) with these directive values.
void writeDescriptorText(llvm::StringRef kernel,
                         llvm::ArrayRef<std::pair<std::string, int64_t>> directives,
                         llvm::raw_ostream &os);

/// `.amdhsa_kernel` block (in .rodata) for one kernel.
void writeKernelDescriptor(const KernelInfo &k, uint8_t target,
                           llvm::raw_ostream &os);

/// aster's code-object metadata map of one kernel (an `amdhsa.kernels`
/// entry), built in `doc`.
llvm::msgpack::DocNode kernelMetadata(llvm::msgpack::Document &doc, const KernelInfo &k);

/// Makes `doc`'s root the module's metadata map (code object v5) with these
/// `amdhsa.kernels` entries.
void moduleMetadata(llvm::msgpack::Document &doc, llvm::msgpack::ArrayDocNode kernels,
                    llvm::StringRef target);

/// `.amdgpu_metadata` (code object v5) for all kernels of a module: the
/// document of moduleMetadata as YAML.
void writeMetadata(llvm::ArrayRef<KernelInfo> kernels, llvm::StringRef target,
                   llvm::raw_ostream &os);

} // namespace aster::target

#endif
