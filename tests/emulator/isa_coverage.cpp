//===- isa_coverage.cpp - table instructions without emulator semantics ---===//
//
// Lists every instruction of aster's instruction table (dialect/ISA.h) that
// is valid on gfx942 but has no emulator semantic; exits non-zero if any.
// With --all, also lists gfx950-only instructions lacking semantics (not an
// error: the emulator runs gfx940/941/942 code objects).
//
//===----------------------------------------------------------------------===//
#include "dialect/ISA.h"
#include "emulator/Semantics.h"

#include "llvm/Support/raw_ostream.h"

using namespace aster;

int main(int argc, char **argv) {
  bool all = argc > 1 && llvm::StringRef(argv[1]) == "--all";
  unsigned total = 0, missing = 0, other = 0;
  for (const ISA::InstDesc &d : ISA::instructions()) {
    bool on942 = d.validOn(ISA::T_GFX942);
    bool on950 = d.validOn(ISA::T_GFX950);
    if (!on942 && !(all && on950))
      continue;
    if (on942)
      ++total;
    if (emu::findSemantic(d.mnemonic))
      continue;
    if (on942) {
      ++missing;
      llvm::outs() << "missing: " << d.mnemonic << " (" << ISA::encName(d.enc) << ")\n";
    } else {
      ++other;
      llvm::outs() << "gfx950 only, missing: " << d.mnemonic << "\n";
    }
  }
  llvm::outs() << total << " gfx942 table instructions, " << (total - missing)
               << " with emulator semantics, " << missing << " missing";
  if (all)
    llvm::outs() << "; " << other << " gfx950-only without semantics";
  llvm::outs() << "\n";
  return missing ? 1 : 0;
}
