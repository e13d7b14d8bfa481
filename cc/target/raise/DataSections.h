//===- DataSections.h - global variables raised from data sections -------===//
//
// What both raisers learn about a global variable (a HIP `__device__` /
// `__constant__` variable, or an unnamed piece of a data section that code
// refers to): its section, alignment, bytes, relocations (pointer fields the
// linker fills in), symbol binding and `.size`; `addGlobal` makes it an
// amdgcn.global. AsmData reads it from assembler text (clang -S): the
// section directives, symbol attributes, labels and data directives outside
// `.text`.
//
//===----------------------------------------------------------------------===//
#ifndef ASTER_TARGET_RAISE_DATASECTIONS_H
#define ASTER_TARGET_RAISE_DATASECTIONS_H

#include "target/raise/RaiseCommon.h"

#include "llvm/ADT/StringMap.h"

#include <string>
#include <vector>

namespace aster::raise {

struct RawGlobal {
  std::string name, section;
  uint64_t alignment = 1;
  std::vector<uint8_t> bytes;
  struct Reloc {
    uint64_t offset;
    std::string symbol;
    int64_t addend;
    unsigned width;
  };
  std::vector<Reloc> relocs;
  std::string linkage = "local"; ///< protected, hidden, default, local
  std::optional<uint64_t> symbolSize;
  mlir::Location loc;
};

/// Appends `g` to the module as an amdgcn.global (data as i32 words when
/// the size is a multiple of 4, else bytes; none when all zero).
amdgcn::GlobalOp addGlobal(RaisedModule &rm, const RawGlobal &g);

/// Globals of assembler text, fed the lines outside `.text` (and symbol
/// directives from anywhere).
class AsmData {
public:
  explicit AsmData(mlir::MLIRContext *ctx) : ctx(ctx) {}
  /// `.globl`, `.protected`, `.hidden`, `.local`, `.weak` X; `.size X, N`.
  void symbolDirective(llvm::StringRef dir, llvm::StringRef args);
  /// The section now current (`.data`, `.section .bss,"aw",@nobits`, ...);
  /// an empty name for one that holds no globals (notes, `.AMDGPU.*`).
  void section(llvm::StringRef name);
  /// A directive in the current data section; false (with `error`) if it
  /// is not one aster reads.
  bool directive(llvm::StringRef dir, llvm::StringRef args, std::string &error);
  void label(llvm::StringRef name, mlir::Location loc);
  /// The globals read, in order, into the module.
  void finish(RaisedModule &rm);

private:
  bool value(llvm::StringRef v, unsigned width, std::string &error);
  mlir::MLIRContext *ctx;
  std::string current;
  uint64_t pendingAlign = 1;
  std::vector<RawGlobal> globals;
  RawGlobal *open = nullptr;
  llvm::StringMap<std::string> linkage;
  llvm::StringMap<uint64_t> sizes;
};

} // namespace aster::raise

#endif
