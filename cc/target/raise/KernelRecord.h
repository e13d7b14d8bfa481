//===- KernelRecord.h - descriptor and metadata kept as attributes -------===//
//
// A raised kernel keeps everything its code object said about it:
//   `descriptor`: every kernel-descriptor field as `.amdhsa_*` directive
//                 values ({"next_free_vgpr" = 8, "ieee_mode" = 1, ...});
//   `metadata`:   its code-object metadata map (".args", ".sgpr_count", ...),
//                 msgpack values as integer/bool/string/array/dictionary
//                 attributes.
// The module keeps `code_object_version`, the metadata outside
// `amdhsa.kernels` (`metadata`) and code after the last kernel (`text_tail`,
// assembler lines). Translation writes these back instead of what it would
// compute, so the code object comes out the same.
//
//===----------------------------------------------------------------------===//
#ifndef ASTER_TARGET_RAISE_KERNELRECORD_H
#define ASTER_TARGET_RAISE_KERNELRECORD_H

#include "dialect/Dialect.h"

#include "llvm/BinaryFormat/MsgPackDocument.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/Support/Error.h"

#include <array>
#include "llvm/Support/raw_ostream.h"

namespace aster::raise {

inline constexpr llvm::StringLiteral kDescriptorAttr = "descriptor";
inline constexpr llvm::StringLiteral kMetadataAttr = "metadata";
inline constexpr llvm::StringLiteral kCodeObjectVersionAttr = "code_object_version";
inline constexpr llvm::StringLiteral kTextTailAttr = "text_tail";
/// Data after a kernel's last instruction (assembler lines).
inline constexpr llvm::StringLiteral kCodeTailAttr = "code_tail";

/// amdgcn.data as one assembler line: `.long` words (its text as a
/// comment), or its text.
void writeDataLine(amdgcn::DataOp data, llvm::raw_ostream &os);

/// The 64-byte kernel descriptor as `.amdhsa_*` directive values (names
/// without the prefix). Fields no directive can express must be zero;
/// otherwise an error names them.
llvm::Expected<mlir::DictionaryAttr>
decodeKernelDescriptor(mlir::MLIRContext *ctx, llvm::ArrayRef<uint8_t> kd,
                       uint8_t targetBit);

/// Writes `.amdhsa_kernel NAME` ... `.end_amdhsa_kernel` from the attribute.
void writeDescriptorDirectives(llvm::StringRef kernel, mlir::DictionaryAttr desc,
                               llvm::raw_ostream &os);

/// The attribute's directive values (name without `.amdhsa_`, value).
std::vector<std::pair<std::string, int64_t>> descriptorDirectiveValues(mlir::DictionaryAttr desc);

/// The 64-byte kernel descriptor the assembler makes of these `.amdhsa_*`
/// directive values (its defaults for the rest). An error for anything the
/// assembler would reject (the caller takes the text path, which reports it).
llvm::Expected<std::array<uint8_t, 64>>
encodeKernelDescriptor(llvm::ArrayRef<std::pair<std::string, int64_t>> directives,
                       uint8_t targetBit, const llvm::MCSubtargetInfo &sti);

/// A msgpack node as an attribute, and back.
mlir::Attribute msgpackToAttr(mlir::MLIRContext *ctx, const llvm::msgpack::DocNode &n);
llvm::msgpack::DocNode attrToMsgpack(llvm::msgpack::Document &doc, mlir::Attribute a);

/// True if the module holds raised kernels (their metadata is kept).
bool hasRecordedMetadata(amdgcn::KernelModuleOp m);

/// The metadata document of a module with recorded metadata; kernels
/// without it get `computed(i)` (aster's entry for kernel i, built in `doc`).
void buildRecordedMetadata(amdgcn::KernelModuleOp m, llvm::msgpack::Document &doc,
                           llvm::function_ref<llvm::msgpack::DocNode(unsigned)> computed);

/// `.amdgpu_metadata` text of such a document (LLVM's YAML).
void writeRecordedMetadata(llvm::msgpack::Document &doc, llvm::raw_ostream &os);

} // namespace aster::raise

#endif
