//===- AsmText.cpp - parsing printed AMDGPU instructions ------------------===//
#include "emulator/AsmText.h"

#include "emulator/Program.h"

#include "llvm/ADT/StringSwitch.h"

#include <cmath>
#include <cstdlib>

using llvm::StringRef;

namespace aster::emu {

bool parseInteger(StringRef v, int64_t &out) {
  v = v.trim();
  bool neg = v.consume_front("-");
  uint64_t u = 0;
  if (v.starts_with_insensitive("0x")) {
    if (v.drop_front(2).getAsInteger(16, u))
      return false;
  } else if (v.getAsInteger(10, u)) {
    return false;
  }
  out = neg ? -int64_t(u) : int64_t(u);
  return true;
}

bool parseBitList(StringRef v, unsigned &bits) {
  v = v.trim();
  bits = 0;
  if (!v.consume_front("[")) {
    int64_t x;
    if (!parseInteger(v, x))
      return false;
    bits = unsigned(x);
    return true;
  }
  if (!v.consume_back("]"))
    return false;
  unsigned i = 0;
  while (!v.empty()) {
    auto [elt, rest] = v.split(',');
    int64_t x;
    if (!parseInteger(elt, x) || x < 0 || x > 1)
      return false;
    bits |= unsigned(x) << i++;
    v = rest;
  }
  return true;
}

/// Splits the operand/modifier part into top-level tokens; `comma[i]` tells
/// whether token i was followed by a comma.
static void tokenize(StringRef s, llvm::SmallVectorImpl<StringRef> &toks,
                     llvm::SmallVectorImpl<bool> &comma) {
  size_t i = 0, n = s.size();
  while (i < n) {
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
      ++i;
    if (i >= n)
      break;
    size_t start = i;
    int depth = 0;
    bool inBars = false;
    while (i < n) {
      char c = s[i];
      if (c == '(' || c == '[')
        ++depth;
      else if (c == ')' || c == ']')
        --depth;
      else if (c == '|')
        inBars = !inBars;
      else if (depth == 0 && !inBars && (c == ',' || c == ' ' || c == '\t'))
        break;
      ++i;
    }
    toks.push_back(s.slice(start, i).trim());
    size_t j = i;
    while (j < n && (s[j] == ' ' || s[j] == '\t'))
      ++j;
    bool c = j < n && s[j] == ',';
    comma.push_back(c);
    i = c ? j + 1 : j;
  }
}

static bool parseRegNumber(StringRef t, unsigned &first, unsigned &count) {
  if (t.consume_front("[")) {
    if (!t.consume_back("]"))
      return false;
    auto [a, b] = t.split(':');
    unsigned lo, hi;
    if (a.trim().getAsInteger(10, lo))
      return false;
    if (b.empty())
      hi = lo;
    else if (b.trim().getAsInteger(10, hi))
      return false;
    if (hi < lo)
      return false;
    first = lo;
    count = hi - lo + 1;
    return true;
  }
  if (t.empty() || t.getAsInteger(10, first))
    return false;
  count = 1;
  return true;
}

static unsigned hwregId(StringRef name, bool &ok) {
  ok = true;
  unsigned id = llvm::StringSwitch<unsigned>(name)
                    .Case("HW_REG_MODE", 1)
                    .Case("HW_REG_STATUS", 2)
                    .Case("HW_REG_TRAPSTS", 3)
                    .Case("HW_REG_HW_ID", 4)
                    .Case("HW_REG_GPR_ALLOC", 5)
                    .Case("HW_REG_LDS_ALLOC", 6)
                    .Case("HW_REG_IB_STS", 7)
                    .Case("HW_REG_SH_MEM_BASES", 15)
                    .Case("HW_REG_TBA_LO", 16)
                    .Case("HW_REG_TBA_HI", 17)
                    .Case("HW_REG_TMA_LO", 18)
                    .Case("HW_REG_TMA_HI", 19)
                    .Case("HW_REG_XCC_ID", 20)
                    .Case("HW_REG_SQ_PERF_SNAPSHOT_DATA", 21)
                    .Case("HW_REG_SQ_PERF_SNAPSHOT_DATA1", 22)
                    .Case("HW_REG_SQ_PERF_SNAPSHOT_PC_LO", 23)
                    .Case("HW_REG_SQ_PERF_SNAPSHOT_PC_HI", 24)
                    .Case("HW_REG_POPS_PACKER", 25)
                    .Case("HW_REG_SHADER_CYCLES", 29)
                    .Default(~0u);
  if (id != ~0u)
    return id;
  int64_t v;
  if (parseInteger(name, v) && v >= 0 && v < 64)
    return unsigned(v);
  ok = false;
  return 0;
}

/// Parses a source/destination operand; false if the token is not one
/// (then it is a modifier).
static bool parseOperand(StringRef t, AsmOperand &op, std::string &err) {
  // Source modifiers: -x, |x|, -|x|, neg(x), abs(x), sext(x).
  if (t.starts_with("sext(") && t.ends_with(")")) {
    if (!parseOperand(t.drop_front(5).drop_back(), op, err))
      return false;
    op.sext = true;
    return true;
  }
  // lit(x) / lit64(x): a literal that would otherwise print like an inline
  // constant.
  if ((t.starts_with("lit(") || t.starts_with("lit64(")) && t.ends_with(")")) {
    StringRef inner = t.drop_front(t.starts_with("lit(") ? 4 : 6).drop_back();
    if (!parseOperand(inner, op, err))
      return false;
    if (op.kind == AsmOperand::Int)
      op.hex = true;
    return true;
  }
  if (t.starts_with("neg(") && t.ends_with(")")) {
    if (!parseOperand(t.drop_front(4).drop_back(), op, err))
      return false;
    op.neg = !op.neg;
    return true;
  }
  if (t.starts_with("abs(") && t.ends_with(")")) {
    if (!parseOperand(t.drop_front(4).drop_back(), op, err))
      return false;
    op.abs = true;
    return true;
  }
  if (t.size() > 2 && t.starts_with("|") && t.ends_with("|")) {
    if (!parseOperand(t.drop_front().drop_back(), op, err))
      return false;
    op.abs = true;
    return true;
  }
  if (t.size() > 1 && t[0] == '-' && !std::isdigit((unsigned char)t[1])) {
    if (!parseOperand(t.drop_front(), op, err))
      return false;
    op.neg = !op.neg;
    return true;
  }

  // Special scalar registers.
  struct Special { const char *name; unsigned reg, count; };
  static const Special specials[] = {
      {"vcc", SR_VCC, 2},           {"vcc_lo", SR_VCC, 1},
      {"vcc_hi", SR_VCC + 1, 1},    {"exec", SR_EXEC, 2},
      {"exec_lo", SR_EXEC, 1},      {"exec_hi", SR_EXEC + 1, 1},
      {"m0", SR_M0, 1},             {"flat_scratch", SR_FLAT_SCRATCH, 2},
      {"flat_scratch_lo", SR_FLAT_SCRATCH, 1},
      {"flat_scratch_hi", SR_FLAT_SCRATCH + 1, 1},
      {"xnack_mask", SR_XNACK, 2},  {"xnack_mask_lo", SR_XNACK, 1},
      {"xnack_mask_hi", SR_XNACK + 1, 1},
  };
  for (const Special &s : specials)
    if (t == s.name) {
      op.kind = AsmOperand::SGPR;
      op.reg = s.reg;
      op.count = s.count;
      return true;
    }
  if (t == "off") {
    op.kind = AsmOperand::Off;
    return true;
  }
  int aperture = llvm::StringSwitch<int>(t)
                     .Case("src_shared_base", 0)
                     .Case("src_shared_limit", 1)
                     .Case("src_private_base", 2)
                     .Case("src_private_limit", 3)
                     .Default(-1);
  if (aperture >= 0) {
    op.kind = AsmOperand::Aperture;
    op.ival = aperture;
    return true;
  }
  if (t.starts_with("src_") || t == "lds_direct" || t == "null" ||
      t.starts_with("pops_exiting_wave_id")) {
    err = "the operand '" + t.str() + "' is not emulated";
    return true;
  }

  // Register files.
  auto tryFile = [&](StringRef prefix, AsmOperand::Kind k, unsigned base) {
    if (!t.starts_with(prefix))
      return false;
    unsigned first, count;
    if (!parseRegNumber(t.drop_front(prefix.size()), first, count))
      return false;
    op.kind = k;
    op.reg = base + first;
    op.count = count;
    return true;
  };
  if (tryFile("ttmp", AsmOperand::SGPR, SR_TTMP0) || tryFile("v", AsmOperand::VGPR, 0) ||
      tryFile("s", AsmOperand::SGPR, 0) || tryFile("a", AsmOperand::AGPR, 0))
    return true;

  // gpr_idx(SRC0,SRC1,SRC2,DST): the VGPR index mode bits 1, 2, 4, 8.
  if (t.starts_with("gpr_idx(") && t.ends_with(")")) {
    llvm::SmallVector<StringRef, 4> parts;
    t.drop_front(8).drop_back().split(parts, ',', -1, false);
    int64_t mask = 0;
    for (StringRef p : parts) {
      int bit = llvm::StringSwitch<int>(p.trim())
                    .Case("SRC0", 1).Case("SRC1", 2).Case("SRC2", 4).Case("DST", 8).Default(0);
      if (!bit) {
        err = "malformed '" + t.str() + "'";
        return true;
      }
      mask |= bit;
    }
    op.kind = AsmOperand::Hwreg;
    op.ival = mask;
    return true;
  }

  // hwreg(ID[, offset, size]).
  if (t.starts_with("hwreg(") && t.ends_with(")")) {
    llvm::SmallVector<StringRef, 3> parts;
    t.drop_front(6).drop_back().split(parts, ',');
    bool ok;
    unsigned id = hwregId(parts[0].trim(), ok);
    if (!ok) {
      err = "unknown hardware register in '" + t.str() + "'";
      return true;
    }
    int64_t off = 0, size = 32;
    if (parts.size() == 3 &&
        (!parseInteger(parts[1], off) || !parseInteger(parts[2], size) || size < 1 ||
         size > 32 || off < 0 || off > 31)) {
      err = "malformed '" + t.str() + "'";
      return true;
    }
    op.kind = AsmOperand::Hwreg;
    op.ival = int64_t(id | (off << 6) | ((size - 1) << 11));
    return true;
  }

  // Numbers.
  if (t.empty())
    return false;
  char c0 = t[0];
  if (!(std::isdigit((unsigned char)c0) || c0 == '-'))
    return false;
  if (t.contains('.') && !t.starts_with_insensitive("0x") &&
      !t.starts_with_insensitive("-0x")) {
    char *end = nullptr;
    std::string s = t.str();
    double d = std::strtod(s.c_str(), &end);
    if (!end || *end)
      return false;
    op.kind = AsmOperand::Float;
    op.fval = d;
    op.inv2pi = std::fabs(d - 0.15915494) < 1e-7;
    return true;
  }
  int64_t v;
  if (!parseInteger(t, v))
    return false;
  op.kind = AsmOperand::Int;
  op.ival = v;
  op.hex = t.contains_insensitive("0x");
  return true;
}

std::string parseAsm(StringRef text, AsmInst &out) {
  text = text.trim();
  size_t sp = text.find_first_of(" \t");
  out.mnemonic = text.substr(0, sp).str();
  StringRef rest = sp == StringRef::npos ? StringRef() : text.substr(sp + 1);
  llvm::SmallVector<StringRef, 12> toks;
  llvm::SmallVector<bool, 12> comma;
  tokenize(rest, toks, comma);
  bool inOperands = true;
  for (size_t i = 0; i < toks.size(); ++i) {
    StringRef t = toks[i];
    AsmOperand op;
    std::string err;
    if (inOperands && parseOperand(t, op, err)) {
      if (!err.empty())
        return err;
      out.operands.push_back(op);
      if (!comma[i])
        inOperands = false;
      continue;
    }
    inOperands = false;
    AsmModifier m;
    size_t colon = t.find(':');
    size_t paren = t.find('(');
    if (colon != StringRef::npos && (paren == StringRef::npos || colon < paren)) {
      m.name = t.substr(0, colon).str();
      m.value = t.substr(colon + 1).str();
    } else if (paren != StringRef::npos && t.ends_with(")")) {
      m.name = t.substr(0, paren).str();
      m.value = t.substr(paren + 1).drop_back().str();
    } else {
      m.name = t.str();
    }
    if (m.name.empty())
      return "cannot parse '" + t.str() + "'";
    out.modifiers.push_back(std::move(m));
  }
  return "";
}

} // namespace aster::emu
