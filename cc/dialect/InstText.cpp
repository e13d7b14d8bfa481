//===- InstText.cpp - one printed instruction matched against the table --===//
#include "dialect/InstText.h"
#include "dialect/ModSpelling.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"

#include <cstdlib>
#include <cstring>

using llvm::StringRef;
using llvm::Twine;

namespace aster::ISA {

//===----------------------------------------------------------------------===//
// Tokens
//===----------------------------------------------------------------------===//

bool parseAsmInteger(StringRef v, int64_t &out) {
  v = v.trim();
  bool neg = v.consume_front("-");
  uint64_t u = 0;
  if (v.starts_with_insensitive("0x")) {
    if (v.drop_front(2).getAsInteger(16, u))
      return false;
  } else if (v.empty() || v.getAsInteger(10, u)) {
    return false;
  }
  out = neg ? (int64_t)(0 - u) : (int64_t)u;
  return true;
}

void tokenizeOperands(StringRef s, llvm::SmallVectorImpl<StringRef> &toks,
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

/// `7`, `[4:7]` or `[4]` after a register file prefix.
static bool parseRegNumber(StringRef t, unsigned &first, unsigned &count) {
  unsigned lo, hi;
  if (t.consume_front("[")) {
    if (!t.consume_back("]"))
      return false;
    auto [a, b] = t.split(':');
    if (a.trim().getAsInteger(10, lo))
      return false;
    if (b.empty())
      hi = lo;
    else if (b.trim().getAsInteger(10, hi) || hi < lo)
      return false;
  } else {
    if (t.empty() || !llvm::isDigit(t[0]) || t.getAsInteger(10, lo))
      return false;
    hi = lo;
  }
  first = lo;
  count = hi - lo + 1;
  return true;
}

bool parseModifierInt(StringRef v, int64_t &out) {
  if (parseAsmInteger(v, out))
    return true;
  std::optional<unsigned> s = parseSwizzle(v);
  if (s)
    out = *s;
  return s.has_value();
}

static bool isIdentifier(StringRef t) {
  if (t.empty() || !(llvm::isAlpha(t[0]) || t[0] == '_' || t[0] == '.' || t[0] == '$'))
    return false;
  for (char c : t)
    if (!(llvm::isAlnum(c) || c == '_' || c == '.' || c == '$'))
      return false;
  return true;
}

bool parseRelocText(StringRef t, StringRef &symbol, StringRef &kind, int64_t &addend) {
  size_t at = t.find('@');
  if (at == StringRef::npos || !isIdentifier(t.take_front(at)))
    return false;
  symbol = t.take_front(at);
  StringRef rest = t.drop_front(at + 1);
  size_t sign = rest.find_first_of("+-");
  kind = rest.take_front(sign);
  if (!llvm::is_contained({"rel32@lo", "rel32@hi", "gotpcrel32@lo", "gotpcrel32@hi",
                           "abs32@lo", "abs32@hi"},
                          kind))
    return false;
  addend = 0;
  if (sign == StringRef::npos)
    return true;
  StringRef num = rest.drop_front(sign + 1);
  if (num.empty() || num[0] == '-' || !parseAsmInteger(num, addend))
    return false;
  if (rest[sign] == '-')
    addend = -addend;
  return true;
}

bool parseTextOperand(StringRef t, TextOperand &op) {
  // Source modifiers: -x, |x|, neg(x), abs(x), sext(x), lit(x)/lit64(x).
  struct Wrap { const char *open; bool TextOperand::*flag; };
  static const Wrap wraps[] = {{"neg(", &TextOperand::neg}, {"abs(", &TextOperand::abs},
                               {"sext(", &TextOperand::sext}, {"lit(", &TextOperand::lit},
                               {"lit64(", &TextOperand::lit}};
  for (const Wrap &w : wraps)
    if (t.starts_with(w.open) && t.ends_with(")")) {
      if (!parseTextOperand(t.drop_front(strlen(w.open)).drop_back(), op))
        return false;
      op.*w.flag = true;
      return true;
    }
  if (t.size() > 2 && t.front() == '|' && t.back() == '|') {
    if (!parseTextOperand(t.drop_front().drop_back(), op))
      return false;
    op.abs = true;
    return true;
  }
  if (t.size() > 1 && t[0] == '-' && !llvm::isDigit(t[1]) && t[1] != '.') {
    if (!parseTextOperand(t.drop_front(), op))
      return false;
    op.neg = true;
    return true;
  }
  op.text = t;
  if (t.empty())
    return false;
  char c = t[0];
  if (c == 'v' || c == 's' || c == 'a' || c == 't') {
    StringRef rest = t.drop_front(c == 't' ? 4 : 1);
    if ((c != 't' || t.starts_with("ttmp")) && parseRegNumber(rest, op.first, op.count)) {
      op.kind = TextOperand::Reg;
      op.file = c;
      return true;
    }
  }
  if (t == "off") {
    op.kind = TextOperand::Off;
    return true;
  }
  StringRef sym, kind;
  int64_t addend;
  if (isIdentifier(t) || parseRelocText(t, sym, kind, addend)) {
    op.kind = TextOperand::Name;
    return true;
  }
  if (parseAsmInteger(t, op.ival)) {
    op.kind = TextOperand::Int;
    op.hex = t.contains_insensitive("0x");
    return true;
  }
  if (!(llvm::isDigit(c) || c == '-') || !t.contains('.'))
    return false;
  std::string s = t.str();
  char *end = nullptr;
  op.fval = std::strtod(s.c_str(), &end);
  if (!end || *end)
    return false;
  op.kind = TextOperand::Float;
  return true;
}

//===----------------------------------------------------------------------===//
// Rows
//===----------------------------------------------------------------------===//

RowIndex::RowIndex(uint8_t targetBit) : targetBit(targetBit) {
  for (const InstDesc &d : instructions())
    if (d.validOn(targetBit))
      byAsmName[d.asmName].push_back(&d);
}

const RowIndex &RowIndex::forTarget(uint8_t targetBit) {
  static const RowIndex gfx942(T_GFX942), gfx950(T_GFX950), gfx1201(T_GFX1201);
  switch (targetBit) {
  case T_GFX950: return gfx950;
  case T_GFX1201: return gfx1201;
  default: return gfx942;
  }
}

llvm::ArrayRef<const InstDesc *> RowIndex::rows(StringRef asmName) const {
  auto it = byAsmName.find(asmName);
  if (it == byAsmName.end())
    return {};
  return it->second;
}

std::pair<StringRef, StringRef> splitEncodingSuffix(StringRef mn) {
  for (StringRef s : {"_e32", "_e64"})
    if (mn.ends_with(s))
      return {mn.drop_back(4), s.drop_front()};
  return {mn, ""};
}

const TextModifier *InstText::mod(StringRef name) const {
  for (const TextModifier &m : mods)
    if (name == m.desc->name)
      return &m;
  return nullptr;
}

namespace {
/// One attempt at reading the tokens as row `d`.
struct RowMatch {
  const InstDesc &d;
  InstText &out;
  std::string error;

  bool fail(const Twine &msg) {
    error = msg.str();
    return false;
  }

  /// hwreg(...), sendmsg(...), gpr_idx(...) as the row's modifier `m`.
  bool symbolic(const ModDesc *m, StringRef tok, TextOperand &t) {
    std::optional<unsigned> v = parseSymbolic(m->kind, tok);
    if (!v)
      return fail("cannot read '" + tok + "' as the " + m->name + " operand");
    t = TextOperand();
    t.kind = TextOperand::Symbolic;
    t.ival = *v;
    t.text = tok;
    return true;
  }

  bool modifier(StringRef t) {
    StringRef name = t, value;
    bool call = false;
    size_t colon = t.find(':'), paren = t.find('(');
    if (colon != StringRef::npos && (paren == StringRef::npos || colon < paren)) {
      name = t.substr(0, colon);
      value = t.substr(colon + 1);
    } else if (paren != StringRef::npos && t.ends_with(")")) {
      name = t.substr(0, paren);
      value = t.substr(paren + 1).drop_back();
      call = true;
    }
    auto add = [&](const ModDesc *m, int64_t v) {
      out.mods.push_back({m, v, t});
      return true;
    };
    for (const ModDesc *m : d.mods()) {
      if (m->kind == ModKind::Omod && (name == "mul" || name == "div")) {
        int v = name == "div" ? (value == "2" ? 3 : 0) : value == "2" ? 1 : value == "4" ? 2 : 0;
        if (!v)
          return fail("bad output modifier '" + t + "'");
        return add(m, v);
      }
      if (m->kind == ModKind::Dpp && isDppCtrlName(name)) {
        std::optional<unsigned> v = parseDppCtrl(t);
        if (!v)
          return fail("bad DPP control '" + t + "'");
        return add(m, *v);
      }
      if (name != m->name)
        continue;
      switch (m->kind) {
      case ModKind::Fixed:
      case ModKind::Flag:
        if (!value.empty())
          return fail("modifier '" + t + "' takes no value");
        return add(m, 1);
      case ModKind::Swizzle: {
        std::optional<unsigned> v = parseSymbolic(m->kind, value);
        if (!v)
          return fail("cannot read '" + value + "' as the " + m->name + " operand");
        return add(m, *v);
      }
      case ModKind::Waitcnt:
        if (!call)
          break;
        [[fallthrough]];
      case ModKind::Int:
      case ModKind::HexInt:
      case ModKind::HexMask: {
        int64_t v;
        if (!parseModifierInt(value, v))
          return fail("bad value in '" + t + "'");
        return add(m, v);
      }
      case ModKind::Sel:
      case ModKind::Unused: {
        std::optional<unsigned> v =
            m->kind == ModKind::Sel ? parseSel(value) : parseUnused(value);
        if (!v)
          return fail("bad value in '" + t + "'");
        return add(m, *v);
      }
      case ModKind::Bits: {
        StringRef list = value.trim();
        if (!list.consume_front("[") || !list.consume_back("]"))
          return fail("expected [b0,b1,...] in '" + t + "'");
        llvm::SmallVector<StringRef, 4> parts;
        list.split(parts, ',');
        if (parts.size() != m->len)
          return fail("'" + t + "' needs " + Twine(m->len) + " bits");
        int64_t v = 0;
        for (unsigned b = 0; b < parts.size(); ++b) {
          StringRef p = parts[b].trim();
          if (p != "0" && p != "1")
            return fail("bad bit in '" + t + "'");
          v |= (int64_t)(p == "1") << b;
        }
        return add(m, v);
      }
      default:
        break;
      }
    }
    return fail("unknown modifier '" + t + "' for this instruction");
  }

  bool match(llvm::ArrayRef<StringRef> toks, llvm::ArrayRef<bool> comma) {
    unsigned nAsmSrcs = d.numAsmSrcs();
    unsigned nLabels = d.successors == 2 ? 1 : d.successors;
    llvm::SmallVector<const ModDesc *, 2> posMods;
    const ModDesc *hwreg = nullptr; // written before the sources
    for (const ModDesc *m : d.mods())
      if (m->kind == ModKind::Hwreg)
        hwreg = m;
      else if (isPositionalMod(m->kind))
        posMods.push_back(m);
    unsigned nLead = hwreg ? 1 : 0;
    unsigned nPos = d.numDsts + nLead + nAsmSrcs + nLabels + posMods.size();
    if (toks.size() < nPos)
      return fail(Twine("expected ") + Twine(nPos) + " operands, got " + Twine(toks.size()));
    for (unsigned i = 0; i + 1 < nPos; ++i)
      if (!comma[i])
        return fail(Twine("expected ") + Twine(nPos) + " comma-separated operands");
    if (nPos && nPos - 1 < comma.size() && comma[nPos - 1])
      return fail("more operands than the instruction takes");
    out.row = &d;
    out.numDsts = d.numDsts;
    out.numLead = nLead;
    out.numSrcs = nAsmSrcs;
    out.numLabels = nLabels;
    out.ops.resize(nPos);
    unsigned ti = 0;
    for (unsigned i = 0; i < d.numDsts; ++i, ++ti) {
      TextOperand &o = out.ops[ti];
      if (!parseTextOperand(toks[ti], o) || o.neg || o.abs || o.sext || o.lit ||
          (o.kind != TextOperand::Reg && o.kind != TextOperand::Name))
        return fail(Twine("destination '") + d.dsts()[i].name + "' must be a register, got '" +
                    toks[ti] + "'");
    }
    if (hwreg && !symbolic(hwreg, toks[ti], out.ops[ti]))
      return false;
    ti += nLead;
    for (unsigned i = 0; i < d.numSrcs; ++i) {
      const OperandDesc &o = d.srcs()[i];
      if (o.tiedTo >= 0)
        continue;
      TextOperand &t = out.ops[ti];
      StringRef tok = toks[ti++];
      if (!parseTextOperand(tok, t))
        return fail(Twine("cannot read source '") + o.name + "' from '" + tok + "'");
      if (t.kind == TextOperand::Off && !o.optional)
        return fail(Twine("source '") + o.name + "' is not optional but got 'off'");
    }
    for (unsigned i = 0; i < nLabels; ++i, ++ti) {
      TextOperand &t = out.ops[ti];
      if (!parseTextOperand(toks[ti], t) ||
          (t.kind != TextOperand::Name && t.kind != TextOperand::Int)) {
        t = TextOperand();
        t.kind = TextOperand::Name;
        t.text = toks[ti];
      }
    }
    for (const ModDesc *m : posMods) {
      TextOperand &t = out.ops[ti];
      StringRef tok = toks[ti++];
      if (m->kind == ModKind::FixedPos) {
        if (tok != m->name)
          return fail(Twine("expected '") + m->name + "'");
        parseTextOperand(tok, t);
        continue;
      }
      if (m->kind != ModKind::Pos && m->kind != ModKind::Hex16) {
        if (!symbolic(m, tok, t))
          return false;
        continue;
      }
      if (!parseTextOperand(tok, t) || t.kind != TextOperand::Int)
        return fail("expected an integer, got '" + tok + "'");
    }
    for (; ti < toks.size(); ++ti)
      if (!modifier(toks[ti]))
        return false;
    return true;
  }
};
} // namespace

bool matchInstText(StringRef text, const RowIndex &index,
                   llvm::function_ref<bool(const InstText &)> accept, std::string &error) {
  text = text.trim();
  size_t sp = text.find_first_of(" \t");
  StringRef mn = text.substr(0, sp);
  StringRef rest = sp == StringRef::npos ? StringRef() : text.substr(sp + 1);
  auto [base, suffix] = splitEncodingSuffix(mn);
  llvm::ArrayRef<const InstDesc *> cands = index.rows(base);
  if (cands.empty()) {
    error = "'" + mn.str() + "' is not in aster's instruction table for " +
            targetName(index.target()).str();
    return false;
  }
  llvm::SmallVector<StringRef, 12> toks;
  llvm::SmallVector<bool, 12> comma;
  tokenizeOperands(rest, toks, comma);
  std::string first;
  for (const InstDesc *d : cands) {
    InstText it;
    it.mnemonic = mn;
    it.suffix = suffix;
    RowMatch m{*d, it, {}};
    if (!m.match(toks, comma)) {
      if (first.empty())
        first = m.error;
      continue;
    }
    error.clear();
    if (accept(it))
      return true;
    if (first.empty())
      first = error;
  }
  error = first.empty() ? "cannot read the operands" : first;
  return false;
}

} // namespace aster::ISA
