//===- RaiseTranslate.cpp - aster-translate --asm-to-mlir / --hsaco-to-mlir ===//
#include "target/raise/Raise.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;

namespace aster::raise {

static llvm::cl::opt<std::string>
    raiseTarget("raise-target",
                llvm::cl::desc("target of --asm-to-mlir input (default: its .amdgcn_target)"),
                llvm::cl::init(""));
static llvm::cl::opt<bool> raiseKeepUnknown(
    "raise-keep-unknown",
    llvm::cl::desc("keep instructions the table does not know as amdgcn.data "
                   "(default: an error naming the line or pc)"),
    llvm::cl::init(false));

static OwningOpRef<Operation *> finish(MLIRContext *ctx,
                                       llvm::Expected<OwningOpRef<ModuleOp>> r) {
  if (!r) {
    emitError(UnknownLoc::get(ctx)) << llvm::toString(r.takeError());
    return {};
  }
  return OwningOpRef<Operation *>(r->release());
}

void registerRaiseTranslations() {
  static TranslateToMLIRRegistration fromAsm(
      "asm-to-mlir", "raise AMDGCN assembly (clang -S or hand-written) into amdgcn IR",
      [](llvm::SourceMgr &sm, MLIRContext *ctx) {
        const llvm::MemoryBuffer *buf = sm.getMemoryBuffer(sm.getMainFileID());
        RaiseOptions opts;
        opts.keepUnknown = raiseKeepUnknown;
        opts.sourceName = buf->getBufferIdentifier().str();
        return finish(ctx, raiseAsm(ctx, buf->getBuffer(), raiseTarget, opts));
      },
      [](DialectRegistry &r) { amdgcn::registerAllDialects(r); });
  static TranslateToMLIRRegistration fromHsaco(
      "hsaco-to-mlir", "raise every kernel of a code object (hsaco) into amdgcn IR",
      [](llvm::SourceMgr &sm, MLIRContext *ctx) {
        const llvm::MemoryBuffer *buf = sm.getMemoryBuffer(sm.getMainFileID());
        llvm::StringRef bytes = buf->getBuffer();
        RaiseOptions opts;
        opts.keepUnknown = raiseKeepUnknown;
        opts.sourceName = buf->getBufferIdentifier().str();
        return finish(ctx, raiseCodeObject(
                               ctx,
                               llvm::ArrayRef<uint8_t>((const uint8_t *)bytes.data(),
                                                       bytes.size()),
                               opts));
      },
      [](DialectRegistry &r) { amdgcn::registerAllDialects(r); });
}

} // namespace aster::raise
