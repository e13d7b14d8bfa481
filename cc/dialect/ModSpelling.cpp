//===- ModSpelling.cpp - symbolic modifier values (DPP, SDWA) ------------===//
#include "dialect/ModSpelling.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include "llvm/ADT/bit.h"

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

std::string formatSwizzle(unsigned v) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "swizzle(";
  if ((v & 0xe000) == 0xe000) {
    os << "FFT," << (v & 0x1f);
  } else if ((v & 0xc000) == 0xc000) {
    os << "ROTATE," << ((v >> 10) & 1) << ',' << ((v >> 5) & 0x1f);
  } else if (v & 0x8000) {
    os << "QUAD_PERM";
    for (unsigned i = 0; i < 4; ++i)
      os << ',' << ((v >> (2 * i)) & 3);
  } else {
    unsigned andm = v & 0x1f, orm = (v >> 5) & 0x1f, xorm = (v >> 10) & 0x1f;
    unsigned group = 1 + (~andm & 0x1f);
    if (andm == 0x1f && orm == 0 && llvm::popcount(xorm) == 1) {
      os << "SWAP," << xorm;
    } else if (andm == 0x1f && orm == 0 && xorm && llvm::isPowerOf2_32(xorm + 1)) {
      os << "REVERSE," << xorm + 1;
    } else if (group >= 2 && llvm::isPowerOf2_32(group) && orm < group && xorm == 0) {
      os << "BROADCAST," << group << ',' << orm;
    } else {
      os << "BITMASK_PERM,\"";
      // Per lane-id bit: kept ('p'), inverted ('i') or a constant; LLVM
      // prints the constant ((0 or 1) | or) ^ xor, so the text can lose
      // encodings that compute the same lanes.
      for (int b = 4; b >= 0; --b) {
        unsigned m = 1u << b;
        if ((andm & m) && !(orm & m))
          os << ((xorm & m) ? 'i' : 'p');
        else
          os << (((orm ^ xorm) & m) ? '1' : '0');
      }
      os << '"';
    }
  }
  os << ')';
  return s;
}

std::optional<unsigned> parseSwizzle(StringRef v) {
  v = v.trim();
  if (!v.consume_front("swizzle(") || !v.consume_back(")"))
    return std::nullopt;
  llvm::SmallVector<StringRef, 6> p;
  v.split(p, ',');
  for (StringRef &s : p)
    s = s.trim();
  unsigned a[4] = {};
  auto ints = [&](size_t n, unsigned hi) {
    if (p.size() != n + 1)
      return false;
    for (size_t i = 0; i < n; ++i)
      if (p[i + 1].getAsInteger(10, a[i]) || a[i] > hi)
        return false;
    return true;
  };
  if (p[0] == "QUAD_PERM") {
    if (!ints(4, 3))
      return std::nullopt;
    return 0x8000 | a[0] | a[1] << 2 | a[2] << 4 | a[3] << 6;
  }
  if (p[0] == "FFT") {
    if (!ints(1, 31))
      return std::nullopt;
    return 0xe000 | a[0];
  }
  if (p[0] == "ROTATE") {
    if (!ints(2, 31) || a[0] > 1)
      return std::nullopt;
    return 0xc000 | a[0] << 10 | a[1] << 5;
  }
  unsigned andm = 0x1f, orm = 0, xorm = 0;
  if (p[0] == "BITMASK_PERM") {
    if (p.size() != 2)
      return std::nullopt;
    StringRef m = p[1].trim('"');
    if (m.size() != 5)
      return std::nullopt;
    andm = 0;
    for (unsigned i = 0; i < 5; ++i) {
      unsigned bit = 1u << (4 - i);
      switch (m[i]) {
      case '0': break;
      case '1': orm |= bit; break;
      case 'p': andm |= bit; break;
      case 'i': andm |= bit; xorm |= bit; break;
      default: return std::nullopt;
      }
    }
  } else if (p[0] == "SWAP") {
    if (!ints(1, 16) || !llvm::isPowerOf2_32(a[0]))
      return std::nullopt;
    xorm = a[0];
  } else if (p[0] == "REVERSE") {
    if (!ints(1, 32) || a[0] < 2 || !llvm::isPowerOf2_32(a[0]))
      return std::nullopt;
    xorm = a[0] - 1;
  } else if (p[0] == "BROADCAST") {
    if (!ints(2, 32) || a[0] < 2 || !llvm::isPowerOf2_32(a[0]) || a[1] >= a[0])
      return std::nullopt;
    andm = 0x1f & ~(a[0] - 1);
    orm = a[1];
  } else {
    return std::nullopt;
  }
  return andm | orm << 5 | xorm << 10;
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
