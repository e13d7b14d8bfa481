//===- ModSpelling.cpp - symbolic modifier values (DPP, SDWA) ------------===//
#include "dialect/ModSpelling.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"

using llvm::StringRef;

namespace aster::ISA {

namespace {
/// Controls with a count: first encoding, name, count range.
struct Ranged {
  unsigned base;
  const char *name;
  unsigned lo, hi;
};
const Ranged kRanged[] = {
    {0x100, "row_shl", 1, 15},  {0x110, "row_shr", 1, 15}, {0x120, "row_ror", 1, 15},
    {0x150, "row_newbcast", 0, 15},
};
struct Single {
  unsigned value;
  const char *text;
};
const Single kSingle[] = {
    {0x130, "wave_shl:1"}, {0x134, "wave_rol:1"}, {0x138, "wave_shr:1"},
    {0x13C, "wave_ror:1"}, {0x140, "row_mirror"}, {0x141, "row_half_mirror"},
    {0x142, "row_bcast:15"}, {0x143, "row_bcast:31"},
};
const char *const kSel[] = {"BYTE_0", "BYTE_1", "BYTE_2", "BYTE_3", "WORD_0", "WORD_1", "DWORD"};
const char *const kUnused[] = {"UNUSED_PAD", "UNUSED_SEXT", "UNUSED_PRESERVE"};
} // namespace

std::string formatDppCtrl(unsigned v) {
  if (v <= 0xFF)
    return "quad_perm:[" + std::to_string(v & 3) + "," + std::to_string((v >> 2) & 3) + "," +
           std::to_string((v >> 4) & 3) + "," + std::to_string((v >> 6) & 3) + "]";
  for (const Ranged &r : kRanged)
    if (v >= r.base + r.lo && v <= r.base + r.hi)
      return std::string(r.name) + ":" + std::to_string(v - r.base);
  for (const Single &s : kSingle)
    if (v == s.value)
      return s.text;
  return "";
}

bool isDppCtrlName(StringRef name) {
  return llvm::StringSwitch<bool>(name)
      .Cases({"quad_perm", "row_shl", "row_shr", "row_ror", "wave_shl", "wave_rol",
              "wave_shr", "wave_ror", "row_mirror", "row_half_mirror", "row_bcast",
              "row_newbcast"},
             true)
      .Default(false);
}

std::optional<unsigned> parseDppCtrl(StringRef tok) {
  tok = tok.trim();
  if (tok.consume_front("quad_perm:")) {
    if (!tok.consume_front("[") || !tok.consume_back("]"))
      return std::nullopt;
    llvm::SmallVector<StringRef, 4> parts;
    tok.split(parts, ',');
    if (parts.size() != 4)
      return std::nullopt;
    unsigned v = 0;
    for (unsigned i = 0; i < 4; ++i) {
      unsigned x;
      if (parts[i].trim().getAsInteger(10, x) || x > 3)
        return std::nullopt;
      v |= x << (2 * i);
    }
    return v;
  }
  for (const Single &s : kSingle)
    if (tok == s.text)
      return s.value;
  auto [name, count] = tok.split(':');
  for (const Ranged &r : kRanged) {
    unsigned n;
    if (name == r.name && !count.getAsInteger(10, n) && n >= r.lo && n <= r.hi)
      return r.base + n;
  }
  return std::nullopt;
}

StringRef selName(unsigned v) { return v < 7 ? kSel[v] : ""; }
std::optional<unsigned> parseSel(StringRef s) {
  for (unsigned i = 0; i < 7; ++i)
    if (s == kSel[i])
      return i;
  return std::nullopt;
}
StringRef unusedName(unsigned v) { return v < 3 ? kUnused[v] : ""; }
std::optional<unsigned> parseUnused(StringRef s) {
  for (unsigned i = 0; i < 3; ++i)
    if (s == kUnused[i])
      return i;
  return std::nullopt;
}

} // namespace aster::ISA
