//===- KernelBody.h - a kernel's code lines into blocks and ops ----------===//
//
// Shared by both raisers, for a kernel or a device function (whose code ends
// with its return, s_setpc_b64): instructions, labels and data are fed in
// program order; labels start blocks (falling through with cf.br), a terminator ends
// its block, a conditional branch falls through to the block that follows.
// Problems are collected (with their location text) rather than stopping at
// the first one.
//
//===----------------------------------------------------------------------===//
#ifndef ASTER_TARGET_RAISE_KERNELBODY_H
#define ASTER_TARGET_RAISE_KERNELBODY_H

#include "target/raise/InstParser.h"

#include <string>
#include <vector>

namespace aster::raise {

class KernelBody {
public:
  /// `owner` is an amdgcn.kernel or amdgcn.device_function with one
  /// (empty) entry block.
  KernelBody(mlir::Operation *owner, InstParser &parser, bool keepUnknown,
             std::vector<std::string> &errors);

  /// `where` names the line or pc in messages ("k.s:12", "pc 0x1614"); it
  /// is called only for a message.
  void label(llvm::StringRef name, mlir::Location loc);
  void inst(llvm::StringRef text, mlir::Location loc,
            llvm::function_ref<std::string()> where, llvm::ArrayRef<int32_t> encoding = {});
  void data(llvm::ArrayRef<int32_t> words, llvm::StringRef text, mlir::Location loc);
  /// Checks every label was bound and the last block ends in a terminator.
  void finish(llvm::StringRef where);

private:
  mlir::Block *blockFor(llvm::StringRef name);
  void startBlockIfNeeded();
  void append(mlir::Block *b);

  mlir::Operation *kernel;
  mlir::Region &region;
  InstParser &parser;
  bool keepUnknown;
  std::vector<std::string> &errors;
  EntryValues values;
  mlir::OpBuilder builder;
  mlir::Block *current;
  bool needNew = false;
  mlir::Block *fallthrough = nullptr; ///< made by a conditional branch
  llvm::StringMap<mlir::Block *> labels;
  llvm::DenseSet<mlir::Block *> bound;
  /// Ops made from each text (and code words) seen, to copy for repeats.
  llvm::StringMap<mlir::Operation *, llvm::BumpPtrAllocator> made;
};

} // namespace aster::raise

#endif
