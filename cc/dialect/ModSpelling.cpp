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

//===----------------------------------------------------------------------===//
// hwreg, sendmsg, swizzle, gpr_idx (gfx9 encodings)
//===----------------------------------------------------------------------===//

namespace aster::ISA {

namespace {
/// Hardware register names of gfx940/gfx950 by id (AMD CDNA3 ISA, S_GETREG).
const char *hwregName(unsigned id) {
  static const char *const kLow[] = {nullptr, "HW_REG_MODE", "HW_REG_STATUS", "HW_REG_TRAPSTS",
                                     "HW_REG_HW_ID", "HW_REG_GPR_ALLOC", "HW_REG_LDS_ALLOC",
                                     "HW_REG_IB_STS"};
  static const char *const kHigh[] = {
      "HW_REG_SH_MEM_BASES", "HW_REG_TBA_LO", "HW_REG_TBA_HI", "HW_REG_TMA_LO",
      "HW_REG_TMA_HI", "HW_REG_XCC_ID", "HW_REG_SQ_PERF_SNAPSHOT_DATA",
      "HW_REG_SQ_PERF_SNAPSHOT_DATA1", "HW_REG_SQ_PERF_SNAPSHOT_PC_LO",
      "HW_REG_SQ_PERF_SNAPSHOT_PC_HI"};
  if (id < 8)
    return kLow[id];
  if (id >= 15 && id < 25)
    return kHigh[id - 15];
  return nullptr;
}

/// `name(a, b, ...)` -> the trimmed arguments; false if not that shape.
bool callArgs(StringRef tok, StringRef name, llvm::SmallVectorImpl<StringRef> &args) {
  tok = tok.trim();
  if (!tok.consume_front(name) || !tok.consume_front("(") || !tok.consume_back(")"))
    return false;
  if (tok.trim().empty())
    return true;
  tok.split(args, ',');
  for (StringRef &a : args)
    a = a.trim();
  return true;
}

bool number(StringRef s, unsigned &out) {
  return !s.trim().getAsInteger(0, out);
}

const char *const kMsgNames[16] = {
    nullptr, "MSG_INTERRUPT", "MSG_GS", "MSG_GS_DONE", "MSG_SAVEWAVE", "MSG_STALL_WAVE_GEN",
    "MSG_HALT_WAVES", "MSG_ORDERED_PS_DONE", "MSG_EARLY_PRIM_DEALLOC", "MSG_GS_ALLOC_REQ",
    "MSG_GET_DOORBELL", nullptr, nullptr, nullptr, nullptr, "MSG_SYSMSG"};
const char *const kGsOps[4] = {"GS_OP_NOP", "GS_OP_CUT", "GS_OP_EMIT", "GS_OP_EMIT_CUT"};
const char *sysmsgOp(unsigned op) {
  return op == 1 ? "SYSMSG_OP_ECC_ERR_INTERRUPT"
         : op == 2 ? "SYSMSG_OP_REG_RD"
         : op == 4 ? "SYSMSG_OP_TTRACE_PC"
                   : nullptr;
}
const char *const kGprIdx[4] = {"SRC0", "SRC1", "SRC2", "DST"};
} // namespace

static std::string formatHwreg(unsigned v) {
  unsigned id = v & 0x3f, off = (v >> 6) & 0x1f, size = ((v >> 11) & 0x1f) + 1;
  const char *n = hwregName(id);
  std::string s = "hwreg(" + (n ? std::string(n) : std::to_string(id));
  if (off != 0 || size != 32)
    s += ", " + std::to_string(off) + ", " + std::to_string(size);
  return s + ")";
}

static std::optional<unsigned> parseHwreg(StringRef tok) {
  llvm::SmallVector<StringRef, 3> a;
  if (!callArgs(tok, "hwreg", a) || (a.size() != 1 && a.size() != 3))
    return std::nullopt;
  unsigned id = 64, off = 0, size = 32;
  for (unsigned i = 0; i < 64 && id == 64; ++i)
    if (const char *n = hwregName(i); n && a[0] == n)
      id = i;
  if (id == 64 && (!number(a[0], id) || id > 63))
    return std::nullopt;
  if (a.size() == 3 && (!number(a[1], off) || !number(a[2], size) || off > 31 || size < 1 ||
                        size > 32))
    return std::nullopt;
  return id | off << 6 | (size - 1) << 11;
}

static std::string formatSendMsg(unsigned v) {
  unsigned id = v & 0xf, op = (v >> 4) & 7, stream = (v >> 8) & 3;
  // Fields LLVM cannot name are written as numbers, or the whole value when
  // bits outside the fields are set.
  std::string num = (v & ~0x37fu) ? std::to_string(v)
                                  : "sendmsg(" + std::to_string(id) + ", " +
                                        std::to_string(op) + ", " + std::to_string(stream) + ")";
  std::string name = kMsgNames[id] ? kMsgNames[id] : "";
  if (id == 2 || id == 3) {
    if (id == 3 && op == 0 && stream == 0)
      return "sendmsg(MSG_GS_DONE, GS_OP_NOP)";
    if (op >= 1 && op <= 3)
      return "sendmsg(" + name + ", " + kGsOps[op] + ", " + std::to_string(stream) + ")";
    return num;
  }
  if (id == 15)
    return sysmsgOp(op) && stream == 0 ? "sendmsg(MSG_SYSMSG, " + std::string(sysmsgOp(op)) + ")"
                                       : num;
  return !name.empty() && op == 0 && stream == 0 ? "sendmsg(" + name + ")" : num;
}

static std::optional<unsigned> parseSendMsg(StringRef tok) {
  unsigned v;
  if (number(tok, v))
    return v <= 0xffff ? std::optional<unsigned>(v) : std::nullopt;
  llvm::SmallVector<StringRef, 3> a;
  if (!callArgs(tok, "sendmsg", a) || a.empty() || a.size() > 3)
    return std::nullopt;
  unsigned f[3] = {16, 0, 0};
  for (unsigned i = 0; i < 16; ++i)
    if (kMsgNames[i] && a[0] == kMsgNames[i])
      f[0] = i;
  if (f[0] == 16 && (!number(a[0], f[0]) || f[0] > 15))
    return std::nullopt;
  if (a.size() > 1) {
    f[1] = 8;
    for (unsigned i = 0; i < 8; ++i)
      if ((i < 4 && a[1] == kGsOps[i]) || (sysmsgOp(i) && a[1] == sysmsgOp(i)))
        f[1] = i;
    if (f[1] == 8 && (!number(a[1], f[1]) || f[1] > 7))
      return std::nullopt;
  }
  if (a.size() > 2 && (!number(a[2], f[2]) || f[2] > 3))
    return std::nullopt;
  return f[0] | f[1] << 4 | f[2] << 8;
}

/// ds_swizzle_b32's offset: "" for 0; the pattern when it reads back as the
/// same offset, else the number (LLVM's text of some bit-mask offsets reads
/// back as another one; the raiser takes those from the code word).
static std::string formatSwizzleOffset(unsigned v) {
  if (v == 0)
    return "";
  std::string p = formatSwizzle(v);
  return parseSwizzle(p) == v ? p : std::to_string(v);
}

static std::optional<unsigned> parseSwizzleOffset(StringRef tok) {
  unsigned v;
  if (number(tok, v))
    return v <= 0xffff ? std::optional<unsigned>(v) : std::nullopt;
  return parseSwizzle(tok);
}

static std::string formatGprIdx(unsigned v) {
  std::string s = "gpr_idx(";
  bool first = true;
  for (unsigned i = 0; i < 4; ++i)
    if (v >> i & 1) {
      s += (first ? "" : ",") + std::string(kGprIdx[i]);
      first = false;
    }
  return s + ")";
}

static std::optional<unsigned> parseGprIdx(StringRef tok) {
  llvm::SmallVector<StringRef, 4> a;
  if (!callArgs(tok, "gpr_idx", a))
    return std::nullopt;
  unsigned v = 0;
  for (StringRef x : a) {
    unsigned bit = 4;
    for (unsigned i = 0; i < 4; ++i)
      if (x == kGprIdx[i])
        bit = i;
    if (bit == 4 || (v >> bit & 1))
      return std::nullopt;
    v |= 1u << bit;
  }
  return v;
}

std::string formatSymbolic(ModKind kind, unsigned v) {
  switch (kind) {
  case ModKind::Hwreg: return formatHwreg(v);
  case ModKind::SendMsg: return formatSendMsg(v);
  case ModKind::Swizzle: return formatSwizzleOffset(v);
  case ModKind::GprIdx: return formatGprIdx(v);
  default: return std::to_string(v);
  }
}

std::optional<unsigned> parseSymbolic(ModKind kind, StringRef tok) {
  switch (kind) {
  case ModKind::Hwreg: return parseHwreg(tok);
  case ModKind::SendMsg: return parseSendMsg(tok);
  case ModKind::Swizzle: return parseSwizzleOffset(tok);
  case ModKind::GprIdx: return parseGprIdx(tok);
  default: return std::nullopt;
  }
}

} // namespace aster::ISA
