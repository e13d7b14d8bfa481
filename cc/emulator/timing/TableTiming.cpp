//===- TableTiming.cpp - the instruction table's timing facts, by mnemonic ===//
//
// A library of its own (AsterTimingFacts) that the emulator's timing model
// and amdgcn-schedule both link (Costs.h).
//
//===----------------------------------------------------------------------===//
#include "emulator/timing/Costs.h"

#include "llvm/ADT/StringMap.h"

#include <vector>

namespace aster::emu::timing {

namespace {
/// From the instruction table (gen_isa.py --timing).
const TableTiming kRows[] = {
#include "dialect/InstTiming.inc"
};
} // namespace

const TableTiming *tableTiming(llvm::StringRef mnemonic) {
  static const llvm::StringMap<const TableTiming *> rows = [] {
    llvm::StringMap<const TableTiming *> r;
    for (const TableTiming &t : kRows)
      r[t.mnemonic] = &t;
    return r;
  }();
  auto it = rows.find(mnemonic);
  return it == rows.end() ? nullptr : it->second;
}

const TableTiming *tableTiming(llvm::StringRef asmName, unsigned srcA, unsigned srcB) {
  static const llvm::StringMap<std::vector<const TableTiming *>> forms = [] {
    llvm::StringMap<std::vector<const TableTiming *>> r;
    for (const TableTiming &t : kRows)
      r[t.asmName].push_back(&t);
    return r;
  }();
  auto it = forms.find(asmName);
  if (it == forms.end())
    return nullptr;
  for (const TableTiming *t : it->second)
    if (t->srcA == srcA && t->srcB == srcB)
      return t;
  return it->second.front();
}

} // namespace aster::emu::timing
