//===- CodeObjectData.h - a linked code object's data and references -----===//
//
// The data sections of a linked code object (every allocated, non-code
// section but the linker's own: .dynamic, .got, notes, symbol and hash
// tables), cut into regions at each symbol (an unnamed start gets a `.L`
// name), with their dynamic relocations (R_AMDGPU_RELATIVE64 /
// R_AMDGPU_ABS64) as symbol fields; kernel descriptors (`K.kd`) are left
// to translation. And the addresses the code computes: an address (the
// value of s_getpc_b64 plus a constant) named as `symbol + offset`, or a GOT
// slot named by the symbol whose address it holds.
//
//===----------------------------------------------------------------------===//
#ifndef ASTER_TARGET_RAISE_CODEOBJECTDATA_H
#define ASTER_TARGET_RAISE_CODEOBJECTDATA_H

#include "target/raise/DataSections.h"

#include "llvm/Object/ELFObjectFile.h"

#include <map>

namespace aster::raise {

class CodeObjectData {
public:
  using ELFO = llvm::object::ELF64LEObjectFile;
  /// Reads sections, symbols and dynamic relocations; problems go to `errors`.
  CodeObjectData(const ELFO &obj, mlir::Location loc, std::vector<std::string> &errors);

  /// `addr` as (symbol, offset), or false if it is in no function or data
  /// region. `got` is set if it is a GOT slot (then the symbol is the one
  /// whose address the slot holds, offset 0).
  bool name(uint64_t addr, std::string &symbol, int64_t &offset, bool &got) const;

  /// The data regions as globals, into the module.
  void addGlobals(RaisedModule &rm) const;

private:
  struct Region {
    std::string name;
    uint64_t addr, end;
    unsigned section;
  };
  /// Address -> region or function (start, name); and GOT slot -> symbol.
  std::map<uint64_t, Region> regions;
  std::map<uint64_t, std::string> gotSlots;
  struct Section {
    std::string name;
    uint64_t addr, size, align;
    bool nobits;
    llvm::ArrayRef<uint8_t> bytes;
  };
  std::vector<Section> sections;
  struct SymInfo {
    std::string linkage;
    uint64_t size;
  };
  std::map<std::string, SymInfo> symInfo;
  std::vector<RawGlobal> globals;
  std::map<uint64_t, std::pair<std::string, int64_t>> dataRelocs; ///< at -> (sym, addend)
  std::pair<uint64_t, uint64_t> gotRange{0, 0};
  const Region *regionAt(uint64_t addr) const;
};

} // namespace aster::raise

#endif
