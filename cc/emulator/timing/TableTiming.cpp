//===- TableTiming.cpp - the instruction table's timing facts, by mnemonic ===//
//
// A library of its own (AsterTimingFacts) that the emulator's timing model
// and amdgcn-schedule both link (Costs.h).
//
//===----------------------------------------------------------------------===//
#include "emulator/timing/Costs.h"

#include "llvm/ADT/StringMap.h"

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

} // namespace aster::emu::timing
