//===- WaitcntOpaque.cpp - what an instruction kept as text accesses -------===//
//
// Raising keeps an instruction the table cannot print back exactly as an
// amdgcn.data op with its assembly text (a DPP or SDWA form, a scratch
// access with an operand form the table lacks, ...). amdgcn-waitcnt reads
// that text: the mnemonic (less an encoding suffix) names a table row, whose
// destinations are the first operands and whose counters it increments; the
// other register operands are read. A VALU mnemonic the table lacks is
// taken as one destination then sources, with no counters.
//
//===----------------------------------------------------------------------===//
#include "transforms/WaitcntModel.h"

#include "llvm/ADT/StringExtras.h"

namespace aster::waitcnt {

using hazards::RegFile;
using hazards::RegRange;

/// A register operand token (v3, s[0:1], a[4:7], vcc, m0, ...), or nullopt.
static std::optional<RegRange> parseReg(llvm::StringRef t) {
  t = t.trim(" \t|-!");
  if (t.consume_front("sext(") || t.consume_front("neg(") || t.consume_front("abs("))
    t = t.rtrim(")");
  // The special registers as HazardRules numbers them (RegFile::Special).
  static const struct {
    const char *name;
    uint16_t lo, hi;
  } specials[] = {{"vcc", 0, 1},  {"vcc_lo", 0, 0},  {"vcc_hi", 1, 1}, {"exec", 2, 3},
                  {"exec_lo", 2, 2}, {"exec_hi", 3, 3}, {"m0", 4, 4},    {"scc", 5, 5}};
  for (const auto &sp : specials)
    if (t == sp.name)
      return RegRange{RegFile::Special, sp.lo, sp.hi};
  if (t.size() < 2)
    return std::nullopt;
  RegFile f;
  switch (t[0]) {
  case 'v': f = RegFile::V; break;
  case 's': f = RegFile::S; break;
  case 'a': f = RegFile::A; break;
  default: return std::nullopt;
  }
  t = t.drop_front();
  unsigned lo, hi;
  if (t.consume_front("[")) {
    auto [a, b] = t.rtrim("]").split(':');
    if (a.getAsInteger(10, lo) || b.getAsInteger(10, hi) || hi < lo)
      return std::nullopt;
  } else if (t.getAsInteger(10, lo)) {
    return std::nullopt;
  } else {
    hi = lo;
  }
  return RegRange{f, uint16_t(lo), uint16_t(hi)};
}

const ISA::InstDesc *describeText(llvm::StringRef text,
                                  llvm::SmallVectorImpl<RegRange> &reads,
                                  llvm::SmallVectorImpl<RegRange> &writes) {
  text = text.trim();
  auto [mn, rest] = text.split(' ');
  const ISA::InstDesc *row = ISA::lookup(mn);
  for (llvm::StringRef suffix : {"_e32", "_e64", "_dpp", "_sdwa", "_vop3"})
    if (!row && mn.ends_with(suffix))
      row = ISA::lookup(mn.drop_back(suffix.size()));
  if (!row)
    for (const ISA::InstDesc &d : ISA::instructions())
      if (d.asmName && *d.asmName && mn == d.asmName) {
        row = &d;
        break;
      }
  // A VALU instruction the table lacks (v_pack_b32_f16, ...): destination
  // first, no memory counters, as v_mov_b32's row says.
  if (!row && mn.starts_with("v_"))
    row = ISA::lookup("v_mov_b32");
  if (!row)
    return nullptr;
  llvm::SmallVector<llvm::StringRef, 8> pieces;
  rest.split(pieces, ',');
  for (unsigned i = 0; i < pieces.size(); ++i) {
    llvm::SmallVector<llvm::StringRef, 4> toks;
    llvm::SplitString(pieces[i], toks, " \t");
    for (llvm::StringRef tok : toks)
      if (std::optional<RegRange> r = parseReg(tok))
        (i < row->numDsts ? writes : reads).push_back(*r);
  }
  return row;
}

} // namespace aster::waitcnt
