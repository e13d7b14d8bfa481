//===- RaiseCommon.h - the module both raisers fill in -------------------===//
#ifndef ASTER_TARGET_RAISE_RAISECOMMON_H
#define ASTER_TARGET_RAISE_RAISECOMMON_H

#include "dialect/Dialect.h"

#include "mlir/IR/OwningOpRef.h"
#include "llvm/BinaryFormat/MsgPackDocument.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace aster::raise {

/// The location of an instruction raised from code: its address, as column
/// `pc` of line 0 of the source (lines count from 1, so line 0 says "this
/// is a code address"; one uniqued location, cheaper than a named one).
mlir::Location pcLocation(mlir::StringAttr source, uint64_t pc);
/// The address of a pcLocation, if `loc` is one.
std::optional<uint64_t> pcOfLocation(mlir::Location loc);

/// An amdgcn.module being raised: kernels in order, and what the source
/// said about them (descriptor, metadata), attached by kernel name.
class RaisedModule {
public:
  RaisedModule(mlir::MLIRContext *ctx, llvm::StringRef target, mlir::Location loc);

  amdgcn::KernelOp addKernel(llvm::StringRef name, mlir::Location loc);
  /// A non-kernel function (called through s_swappc_b64), after the
  /// kernels and functions added so far; aligned to 2^p2align bytes.
  amdgcn::DeviceFunctionOp addDeviceFunction(llvm::StringRef name, mlir::Location loc,
                                             unsigned p2align);
  bool hasKernels() const { return !kernels.empty(); }
  mlir::MLIRContext *context() const { return ctx; }
  /// The amdgcn.module's block (globals are appended to it).
  mlir::Block *body() { return &module.getBody().front(); }
  void setDescriptor(llvm::StringRef kernel, mlir::DictionaryAttr d);
  void setCodeObjectVersion(int64_t v);
  void setTextTail(llvm::StringRef lines);
  /// The metadata document (from YAML text or a msgpack note).
  llvm::Error setMetadataYAML(llvm::StringRef yaml);
  llvm::Error setMetadata(llvm::msgpack::Document &doc);

  /// Attaches descriptors and metadata to their kernels; the module, or an
  /// error listing every problem in `errors` and found here.
  llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>> finish(std::vector<std::string> &errors);

private:
  mlir::MLIRContext *ctx;
  mlir::OwningOpRef<mlir::ModuleOp> top;
  amdgcn::KernelModuleOp module;
  std::vector<amdgcn::KernelOp> kernels;
  llvm::StringMap<mlir::DictionaryAttr> descriptors, metadata;
  bool sawMetadata = false;
};

} // namespace aster::raise

#endif
