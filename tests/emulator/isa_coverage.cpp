//===- isa_coverage.cpp - table instructions without emulator semantics ---===//
//
// Checks aster's instruction table (dialect/ISA.h) against the emulator's
// semantics:
//  * every instruction valid on gfx942 must have a semantic, or be listed
//    below as not emulated (its semantic is marked SF_NOT_EMULATED, so
//    decoding reports it);
//  * every gfx950-only instruction must have one, or be listed below as not
//    emulated yet (executing it fails with its name and pc); a listed one
//    that gains a semantic must leave the list.
// gfx942 fp8/bf8 instructions mean the OCP formats in gfx950 code: those
// with a gfx950 semantic (emu::hasGfx950Meaning) are counted, the others are
// refused on gfx950 (emu::gfx950Refusal) and counted as such.
// The decoder executes only table rows: registered semantics whose name no
// row has are errors, except the few listed in kNoRowYet with the reason.
// Exits non-zero on any violation; --all also lists the not-emulated ones.
//
//===----------------------------------------------------------------------===//
#include "dialect/ISA.h"
#include "emulator/Decoder.h"
#include "emulator/Semantics.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

#include <vector>

using namespace aster;

/// gfx942 instructions the emulator does not run: their semantic would be
/// marked SF_NOT_EMULATED, so decoding reports them (unsupported()) and a
/// launch refuses them. s_sendmsghalt halts the wave until the host resumes
/// it, which no host does here. (s_sendmsg runs MSG_INTERRUPT and reports
/// the other messages when decoding; s_setvskip skips vector instructions.)
static const std::vector<const char *> kGfx942NotEmulated = {"s_sendmsghalt"};

/// Registered semantics without a table row, and why.
static const char *const kNoRowYet[][2] = {
    {"s_call_b64", "its target is a function symbol; the table has no symbol operand for "
                   "it yet (clang calls through s_getpc_b64/s_swappc_b64, which are rows)"}};

/// gfx950-only instructions without emulator semantics, each with the reason
/// (none at present).
static const std::vector<const char *> kGfx950NotEmulated = {};

int main(int argc, char **argv) {
  bool all = argc > 1 && llvm::StringRef(argv[1]) == "--all";
  llvm::StringSet<> notEmulated, notEmulated942;
  for (const char *n : kGfx950NotEmulated)
    notEmulated.insert(n);
  for (const char *n : kGfx942NotEmulated)
    notEmulated942.insert(n);
  unsigned reported = 0;
  unsigned total = 0, missing = 0, only950 = 0, with950 = 0, listed = 0, refused = 0, ocp = 0,
           bad = 0;
  for (const ISA::InstDesc &d : ISA::instructions()) {
    bool on942 = d.validOn(ISA::T_GFX942), on950 = d.validOn(ISA::T_GFX950);
    // What the decoder runs for this row (DPP/SDWA forms: their base row's;
    // gfx950-only rows: what gfx950 code runs).
    bool has = emu::semanticOf(d, on950 && !on942) != nullptr;
    if (on942) {
      ++total;
      const emu::SemInfo *si = emu::semanticOf(d, false);
      bool marked = si && (si->flags & emu::SF_NOT_EMULATED);
      if (marked != notEmulated942.contains(d.mnemonic)) {
        ++bad;
        llvm::outs() << "gfx942: " << d.mnemonic
                     << (marked ? " is SF_NOT_EMULATED but not in kGfx942NotEmulated\n"
                                : " is in kGfx942NotEmulated but has a semantic now\n");
      }
      if (marked) {
        ++reported;
        if (all)
          llvm::outs() << "gfx942, not emulated (reported): " << d.mnemonic << "\n";
        continue;
      }
      if (!has) {
        ++missing;
        llvm::outs() << "missing: " << d.mnemonic << " (" << ISA::encName(d.enc) << ")\n";
      } else if (on950 && !emu::gfx950Refusal(d.mnemonic).empty()) {
        ++refused;
      } else if (on950 && emu::hasGfx950Meaning(d.mnemonic)) {
        ++ocp;
      }
      continue;
    }
    if (!on950)
      continue;
    ++only950;
    bool isListed = notEmulated.contains(d.mnemonic);
    if (has && isListed) {
      ++bad;
      llvm::outs() << "gfx950: " << d.mnemonic
                   << " has semantics now: remove it from kGfx950NotEmulated\n";
    } else if (!has && !isListed) {
      ++bad;
      llvm::outs() << "gfx950: missing: " << d.mnemonic << "\n";
    } else if (has) {
      ++with950;
    } else {
      ++listed;
      if (all)
        llvm::outs() << "gfx950 only, not emulated: " << d.mnemonic << "\n";
    }
  }
  // Registrations no row reaches yet (the decoder runs only table rows).
  llvm::StringSet<> rowNames;
  for (const ISA::InstDesc &d : ISA::instructions())
    rowNames.insert(emu::semanticName(d));
  unsigned unreachable = 0;
  for (const emu::SemInfo &s : emu::allSemantics()) {
    if (rowNames.contains(s.name))
      continue;
    ++unreachable;
    const char *why = nullptr;
    for (const auto &e : kNoRowYet)
      if (llvm::StringRef(e[0]) == s.name)
        why = e[1];
    if (!why) {
      ++bad;
      llvm::outs() << "semantic without a table row: " << s.name << "\n";
    } else if (all) {
      llvm::outs() << "semantic waiting for a table row: " << s.name << " (" << why << ")\n";
    }
  }
  llvm::outs() << total << " gfx942 table instructions, " << (total - missing - reported)
               << " with emulator semantics, " << reported
               << " not emulated (reported when decoding), " << missing << " missing; "
               << only950
               << " gfx950-only: " << with950 << " with semantics, " << listed
               << " not emulated yet (listed); gfx942 fp8/bf8 instructions in gfx950 code: "
               << ocp << " with their OCP meaning, " << refused << " refused; " << unreachable
               << " registered semantics wait for a table row\n";
  return missing || bad ? 1 : 0;
}
