//===- InstParser.cpp - one printed instruction into the table's op -----===//
#include "target/raise/InstParser.h"
#include "target/InstAsm.h"
#include "dialect/ModSpelling.h"
#include "dialect/Immediates.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringExtras.h"

#include <cmath>
#include <cstdlib>

using namespace mlir;
using namespace aster;
using namespace aster::amdgcn;
using llvm::StringRef;

namespace aster::raise {

//===----------------------------------------------------------------------===//
// Entry values
//===----------------------------------------------------------------------===//

EntryValues::EntryValues(KernelOp k) : kernel(k) {}

OpBuilder EntryValues::entryBuilder() {
  OpBuilder b(kernel.getContext());
  if (last)
    b.setInsertionPointAfter(last);
  else
    b.setInsertionPointToStart(&kernel.getBody().front());
  return b;
}

Value EntryValues::reg(Type t) {
  auto it = regs.find(t);
  if (it != regs.end())
    return it->second;
  OpBuilder b = entryBuilder();
  Value v = RegOp::create(b, kernel.getLoc(), t).getResult();
  last = v.getDefiningOp();
  return regs[t] = v;
}

Value EntryValues::constant(Type t, uint64_t bits) {
  auto key = std::make_pair(t, bits);
  auto it = constants.find(key);
  if (it != constants.end())
    return it->second;
  TypedAttr attr;
  if (auto ft = dyn_cast<FloatType>(t))
    attr = FloatAttr::get(ft, APFloat(ft.getFloatSemantics(), APInt(ft.getWidth(), bits)));
  else
    attr = IntegerAttr::get(t, APInt(t.getIntOrFloatBitWidth(), bits));
  OpBuilder b = entryBuilder();
  Value v = arith::ConstantOp::create(b, kernel.getLoc(), t, attr).getResult();
  last = v.getDefiningOp();
  return constants[key] = v;
}

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

void tokenizeOperands(StringRef s, SmallVectorImpl<StringRef> &toks,
                      SmallVectorImpl<bool> &comma) {
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

/// `v3`, `s[4:7]`, `a[0:15]`, `vcc`, `exec_lo`, `m0`, ... as a register type.
static Type parseRegister(MLIRContext *ctx, StringRef t) {
  if (auto sp = parseSpecialReg(t))
    return SpecialRegType::get(ctx, *sp);
  if (t.empty())
    return {};
  RegKind kind;
  switch (t[0]) {
  case 'v': kind = RegKind::VGPR; break;
  case 's': kind = RegKind::SGPR; break;
  case 'a': kind = RegKind::AGPR; break;
  default: return {};
  }
  StringRef rest = t.drop_front();
  unsigned lo, hi;
  if (rest.consume_front("[")) {
    if (!rest.consume_back("]"))
      return {};
    auto [a, b] = rest.split(':');
    if (a.trim().getAsInteger(10, lo))
      return {};
    if (b.empty())
      hi = lo;
    else if (b.trim().getAsInteger(10, hi) || hi < lo)
      return {};
  } else {
    if (rest.empty() || rest.getAsInteger(10, lo))
      return {};
    hi = lo;
  }
  return RegType::get(ctx, kind, (int)lo, hi - lo + 1);
}

/// The constant type of an immediate operand of value type `ty`.
static Type immediateType(MLIRContext *ctx, ISA::ValTy ty) {
  unsigned w = ISA::valTyImmBits(ty);
  if (ISA::valTyIsFloat(ty)) {
    if (w == 16)
      return (ty == ISA::ValTy::bf16 || ty == ISA::ValTy::v2bf16)
                 ? (Type)BFloat16Type::get(ctx)
                 : (Type)Float16Type::get(ctx);
    return w == 64 ? (Type)Float64Type::get(ctx) : (Type)Float32Type::get(ctx);
  }
  return IntegerType::get(ctx, w == 64 ? 64 : 32);
}

/// Bits of a printed immediate (integer or float inline constant) for an
/// operand of type `ty` with constant type `ct`; false if not a number.
static bool immediateBits(StringRef t, ISA::ValTy ty, Type ct, uint64_t &bits) {
  unsigned w = ct.getIntOrFloatBitWidth();
  uint64_t mask = w == 64 ? ~0ull : ((1ull << w) - 1);
  int64_t v;
  if (parseAsmInteger(t, v)) {
    bits = integerImmediateBits(v, ty) & mask;
    return true;
  }
  if (t.empty() || !(llvm::isDigit(t[0]) || t[0] == '-') || !t.contains('.'))
    return false;
  std::string s = t.str();
  char *end = nullptr;
  double d = std::strtod(s.c_str(), &end);
  if (!end || *end)
    return false;
  // A float spelled for an integer operand is the float inline constant of
  // the operand's width.
  const llvm::fltSemantics *sem;
  if (auto ft = dyn_cast<FloatType>(ct))
    sem = &ft.getFloatSemantics();
  else
    sem = ISA::valTyImmBits(ty) == 64 ? &APFloat::IEEEdouble() : &APFloat::IEEEsingle();
  APFloat f(d);
  bool lost;
  f.convert(*sem, APFloat::rmNearestTiesToEven, &lost);
  bits = f.bitcastToAPInt().getZExtValue() & mask;
  return true;
}

//===----------------------------------------------------------------------===//
// The parser
//===----------------------------------------------------------------------===//

InstParser::InstParser(MLIRContext *ctx, uint8_t targetBit) : ctx(ctx), target(targetBit) {
  for (const ISA::InstDesc &d : ISA::instructions())
    if (d.validOn(targetBit))
      byAsmName[d.asmName].push_back(&d);
}

ArrayRef<const ISA::InstDesc *> InstParser::rows(StringRef mnemonic) const {
  auto it = byAsmName.find(mnemonic);
  if (it == byAsmName.end())
    return {};
  return it->second;
}

/// Splits `v_add_u32_e32` into (`v_add_u32`, `e32`).
static std::pair<StringRef, StringRef> splitSuffix(StringRef mn) {
  for (StringRef s : {"_e32", "_e64"})
    if (mn.ends_with(s))
      return {mn.drop_back(4), s.drop_front()};
  return {mn, ""};
}

bool InstParser::isBranch(StringRef mnemonic) const {
  for (const ISA::InstDesc *d : rows(splitSuffix(mnemonic).first))
    if (d->successors)
      return true;
  return false;
}

namespace {
/// One attempt at building `text` as row `d`.
struct Attempt {
  MLIRContext *ctx;
  const ISA::InstDesc &d;
  EntryValues &values;
  InstParser::LabelFn label;
  OperationState st;
  std::string error;
  int64_t negMask = 0, absMask = 0, sextMask = 0, litMask = 0;
  llvm::DenseMap<Block *, StringRef> labelTokens;

  Attempt(MLIRContext *ctx, const ISA::InstDesc &d, EntryValues &values,
          InstParser::LabelFn label, Location loc)
      : ctx(ctx), d(d), values(values), label(label),
        st(loc, getInstOpName(ctx, d)) {}

  bool fail(const Twine &msg) {
    error = msg.str();
    return false;
  }

  /// A source: register, immediate, `off`; with -x / |x| / neg() / abs().
  bool source(unsigned si, const ISA::OperandDesc &o, StringRef t) {
    if (t == "off") {
      if (!o.optional)
        return fail(Twine("source '") + o.name + "' is not optional but got 'off'");
      return true;
    }
    bool neg = false, abs = false;
    if (t.size() > 1 && t[0] == '-' && !llvm::isDigit(t[1]) && t[1] != '.') {
      neg = true;
      t = t.drop_front();
    }
    if (t.consume_front("neg(")) {
      if (!t.consume_back(")"))
        return fail("unbalanced neg(");
      neg = true;
    }
    if (t.consume_front("lit(")) {
      if (!t.consume_back(")"))
        return fail("unbalanced lit(");
      litMask |= 1ll << si;
    }
    if (t.consume_front("sext(")) {
      if (!t.consume_back(")"))
        return fail("unbalanced sext(");
      sextMask |= 1ll << si;
    }
    if (t.size() > 2 && t.front() == '|' && t.back() == '|') {
      abs = true;
      t = t.drop_front().drop_back();
    } else if (t.consume_front("abs(")) {
      if (!t.consume_back(")"))
        return fail("unbalanced abs(");
      abs = true;
    }
    if (neg)
      negMask |= 1ll << si;
    if (abs)
      absMask |= 1ll << si;
    if (Type r = parseRegister(ctx, t)) {
      st.operands.push_back(values.reg(r));
      return true;
    }
    Type ct = immediateType(ctx, o.ty);
    uint64_t bits;
    if (!immediateBits(t, o.ty, ct, bits))
      return fail(Twine("cannot read source '") + o.name + "' from '" + t + "'");
    st.operands.push_back(values.constant(ct, bits));
    return true;
  }

  /// hwreg(...), sendmsg(...), gpr_idx(...) and swizzle(...) operands.
  bool symbolic(const ISA::ModDesc *m, StringRef t) {
    std::optional<unsigned> v = ISA::parseSymbolic(m->kind, t);
    if (!v)
      return fail(Twine("cannot read '") + t + "' as the " + m->name + " operand");
    if (*v || m->kind != ISA::ModKind::Swizzle)
      st.addAttribute(m->name, IntegerAttr::get(IntegerType::get(ctx, 32), *v));
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
    IntegerType i32 = IntegerType::get(ctx, 32);
    for (const ISA::ModDesc *m : d.mods()) {
      if (m->kind == ISA::ModKind::Omod && (name == "mul" || name == "div")) {
        int v = name == "div" ? (value == "2" ? 3 : 0) : value == "2" ? 1 : value == "4" ? 2 : 0;
        if (!v)
          return fail("bad output modifier '" + t + "'");
        st.addAttribute(m->name, IntegerAttr::get(i32, v));
        return true;
      }
      if (m->kind == ISA::ModKind::Dpp && ISA::isDppCtrlName(name)) {
        std::optional<unsigned> v = ISA::parseDppCtrl(t);
        if (!v)
          return fail("bad DPP control '" + t + "'");
        st.addAttribute(m->name, IntegerAttr::get(i32, *v));
        return true;
      }
      if (name != m->name)
        continue;
      switch (m->kind) {
      case ISA::ModKind::Fixed:
        return value.empty() || fail("modifier '" + t + "' takes no value");
      case ISA::ModKind::Swizzle:
        return symbolic(m, value);
      case ISA::ModKind::Flag:
        if (!value.empty())
          return fail("modifier '" + t + "' takes no value");
        st.addAttribute(m->name, UnitAttr::get(ctx));
        return true;
      case ISA::ModKind::Waitcnt:
        if (!call)
          break;
        [[fallthrough]];
      case ISA::ModKind::Int:
      case ISA::ModKind::HexInt: {
        int64_t v;
        if (!parseAsmInteger(value, v))
          return fail("bad value in '" + t + "'");
        st.addAttribute(m->name, IntegerAttr::get(i32, v));
        return true;
      }
      case ISA::ModKind::HexMask: {
        int64_t v;
        if (!parseAsmInteger(value, v))
          return fail("bad value in '" + t + "'");
        st.addAttribute(m->name, IntegerAttr::get(i32, v));
        return true;
      }
      case ISA::ModKind::Sel:
      case ISA::ModKind::Unused: {
        std::optional<unsigned> v =
            m->kind == ISA::ModKind::Sel ? ISA::parseSel(value) : ISA::parseUnused(value);
        if (!v)
          return fail("bad value in '" + t + "'");
        st.addAttribute(m->name, IntegerAttr::get(i32, *v));
        return true;
      }
      case ISA::ModKind::Bits: {
        StringRef list = value.trim();
        if (!list.consume_front("[") || !list.consume_back("]"))
          return fail("expected [b0,b1,...] in '" + t + "'");
        SmallVector<StringRef, 4> parts;
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
        // An absent attribute means the default; set it only if different.
        if (m->def < 0 || v != m->def)
          st.addAttribute(m->name, IntegerAttr::get(i32, v));
        return true;
      }
      default:
        break;
      }
    }
    return fail("unknown modifier '" + t + "' for this instruction");
  }

  bool build(ArrayRef<StringRef> toks, ArrayRef<bool> comma, StringRef suffix) {
    if (!suffix.empty())
      st.addAttribute(kEncodingAttr, StringAttr::get(ctx, suffix));

    // Positional tokens: destinations, written sources, labels, pos/hex16.
    unsigned nAsmSrcs = d.numAsmSrcs();
    unsigned nLabels = d.successors == 2 ? 1 : d.successors;
    SmallVector<const ISA::ModDesc *, 2> posMods;
    const ISA::ModDesc *hwreg = nullptr; // written before the sources
    for (const ISA::ModDesc *m : d.mods())
      if (m->kind == ISA::ModKind::Hwreg)
        hwreg = m;
      else if (ISA::isPositionalMod(m->kind))
        posMods.push_back(m);
    unsigned nPos = d.numDsts + nAsmSrcs + nLabels + posMods.size() + (hwreg ? 1 : 0);
    if (toks.size() < nPos)
      return fail(Twine("expected ") + Twine(nPos) + " operands, got " + Twine(toks.size()));
    for (unsigned i = 0; i + 1 < nPos; ++i)
      if (!comma[i])
        return fail(Twine("expected ") + Twine(nPos) + " comma-separated operands");
    if (nPos && nPos - 1 < comma.size() && comma[nPos - 1])
      return fail("more operands than the instruction takes");
    unsigned ti = 0;
    for (unsigned i = 0; i < d.numDsts; ++i, ++ti) {
      Type r = parseRegister(ctx, toks[ti]);
      if (!r)
        return fail(Twine("destination '") + d.dsts()[i].name + "' must be a register, got '" +
                    toks[ti] + "'");
      st.types.push_back(r);
    }
    if (hwreg && !symbolic(hwreg, toks[ti++]))
      return false;
    for (unsigned i = 0; i < d.numSrcs; ++i) {
      const ISA::OperandDesc &o = d.srcs()[i];
      if (o.tiedTo >= 0)
        continue;
      if (!source(i, o, toks[ti++]))
        return false;
    }
    for (unsigned i = 0; i < d.numSrcs; ++i)
      if (d.srcs()[i].tiedTo >= 0)
        st.operands.push_back(values.reg(st.types[d.srcs()[i].tiedTo]));
    for (unsigned i = 0; i < nLabels; ++i, ++ti) {
      Block *b = label(toks[ti]);
      if (!b)
        return fail("unknown branch target '" + toks[ti] + "'");
      labelTokens[b] = toks[ti];
      st.addSuccessors(b);
    }
    if (d.successors == 2) // falls through to the block that follows
      st.addSuccessors(label(""));
    for (const ISA::ModDesc *m : posMods) {
      if (m->kind == ISA::ModKind::FixedPos) {
        if (toks[ti++] != m->name)
          return fail(Twine("expected '") + m->name + "'");
        continue;
      }
      if (m->kind != ISA::ModKind::Pos && m->kind != ISA::ModKind::Hex16) {
        if (!symbolic(m, toks[ti++]))
          return false;
        continue;
      }
      int64_t v;
      if (!parseAsmInteger(toks[ti], v))
        return fail("expected an integer, got '" + toks[ti] + "'");
      ++ti;
      st.addAttribute(m->name, IntegerAttr::get(IntegerType::get(ctx, 32), v));
    }
    for (; ti < toks.size(); ++ti)
      if (!modifier(toks[ti]))
        return false;
    IntegerType i32 = IntegerType::get(ctx, 32);
    if (litMask)
      st.addAttribute(kLiteralAttr, IntegerAttr::get(i32, litMask));
    for (const ISA::ModDesc *m : d.mods()) {
      if (m->kind == ISA::ModKind::SrcNeg && negMask)
        st.addAttribute(m->name, IntegerAttr::get(i32, negMask));
      if (m->kind == ISA::ModKind::SrcAbs && absMask)
        st.addAttribute(m->name, IntegerAttr::get(i32, absMask));
      if (m->kind == ISA::ModKind::SrcSext && sextMask)
        st.addAttribute(m->name, IntegerAttr::get(i32, sextMask));
    }
    bool hasNeg = false, hasAbs = false, hasSext = false;
    for (const ISA::ModDesc *m : d.mods()) {
      hasNeg |= m->kind == ISA::ModKind::SrcNeg;
      hasAbs |= m->kind == ISA::ModKind::SrcAbs;
      hasSext |= m->kind == ISA::ModKind::SrcSext;
    }
    if ((negMask && !hasNeg) || (absMask && !hasAbs) || (sextMask && !hasSext))
      return fail("source modifiers (-x, |x|) are not available for this instruction");
    return true;
  }
};
} // namespace

/// `text` with runs of blanks made one space.
static std::string normalized(StringRef text) {
  std::string out;
  bool space = false;
  for (char c : text.trim()) {
    if (c == ' ' || c == '\t') {
      space = true;
      continue;
    }
    if (space && !out.empty())
      out += ' ';
    space = false;
    out += c;
  }
  return out;
}

/// Two spellings of one instruction: the same mnemonic and operands in
/// order, the same modifiers in any order; numbers compare by value.
static bool sameToken(StringRef a, StringRef b) {
  if (a == b)
    return true;
  int64_t x, y;
  if (parseAsmInteger(a, x) && parseAsmInteger(b, y))
    return x == y;
  for (char sep : {':', '('}) {
    size_t i = a.find(sep), j = b.find(sep);
    if (i == StringRef::npos || i != j || a.take_front(i) != b.take_front(j))
      continue;
    StringRef va = a.drop_front(i + 1), vb = b.drop_front(j + 1);
    if (sep == '(' && !(va.consume_back(")") && vb.consume_back(")")))
      return false;
    return parseAsmInteger(va, x) && parseAsmInteger(vb, y) && x == y;
  }
  return false;
}

static bool sameInstruction(StringRef printed, StringRef source) {
  auto split = [](StringRef t, StringRef &mn, SmallVectorImpl<StringRef> &pos,
                  SmallVectorImpl<StringRef> &mods) {
    t = t.trim();
    size_t sp = t.find_first_of(" \t");
    mn = t.substr(0, sp);
    SmallVector<StringRef, 12> toks;
    SmallVector<bool, 12> comma;
    tokenizeOperands(sp == StringRef::npos ? StringRef() : t.substr(sp + 1), toks, comma);
    size_t i = 0;
    for (; i < toks.size(); ++i) {
      pos.push_back(toks[i]);
      if (!comma[i]) {
        ++i;
        break;
      }
    }
    for (; i < toks.size(); ++i)
      mods.push_back(toks[i]);
  };
  StringRef m1, m2;
  SmallVector<StringRef, 8> p1, p2, d1, d2;
  split(printed, m1, p1, d1);
  split(source, m2, p2, d2);
  if (m1 != m2 || p1.size() != p2.size() || d1.size() != d2.size())
    return false;
  for (size_t i = 0; i < p1.size(); ++i)
    if (!sameToken(p1[i], p2[i]))
      return false;
  SmallVector<bool, 8> used(d2.size(), false);
  for (StringRef a : d1) {
    bool found = false;
    for (size_t j = 0; j < d2.size() && !found; ++j)
      if (!used[j] && sameToken(a, d2[j]))
        used[j] = found = true;
    if (!found)
      return false;
  }
  return true;
}

static std::string printedBack(Operation *op, const ISA::InstDesc &d,
                               ArrayRef<StringRef> toks,
                               const llvm::DenseMap<Block *, StringRef> &labels) {
  std::string s;
  llvm::raw_string_ostream os(s);
  if (failed(target::printInstAsm(op, d, os, [&](Block *b) {
        auto it = labels.find(b);
        return it == labels.end() ? std::string("?") : it->second.str();
      })))
    return "?";
  return normalized(s);
}

FailureOr<Operation *> InstParser::parse(StringRef text, OpBuilder &b, Location loc,
                                         EntryValues &values, LabelFn label,
                                         std::string &error) {
  text = text.trim();
  size_t sp = text.find_first_of(" \t");
  StringRef mn = text.substr(0, sp);
  StringRef rest = sp == StringRef::npos ? StringRef() : text.substr(sp + 1);
  auto [base, suffix] = splitSuffix(mn);
  ArrayRef<const ISA::InstDesc *> cands = rows(base);
  if (cands.empty()) {
    error = "'" + mn.str() + "' is not in aster's instruction table for " +
            ISA::targetName(target).str();
    return failure();
  }
  SmallVector<StringRef, 12> toks;
  SmallVector<bool, 12> comma;
  tokenizeOperands(rest, toks, comma);
  std::string first;
  for (const ISA::InstDesc *d : cands) {
    Attempt a(ctx, *d, values, label, loc);
    if (!a.build(toks, comma, suffix)) {
      if (first.empty())
        first = a.error;
      continue;
    }
    Operation *op = b.create(a.st);
    // The table's verifier decides; its message is kept for the error.
    std::string diag;
    {
      ScopedDiagnosticHandler h(ctx, [&](Diagnostic &dg) {
        if (diag.empty())
          diag = dg.str();
        return success();
      });
      if (succeeded(verifyInstruction(op, *d))) {
        // Exact: the op must print back as the text it came from, else it
        // would not assemble to the same encoding.
        std::string back = printedBack(op, *d, toks, a.labelTokens);
        if (sameInstruction(back, text))
          return op;
        diag = "aster's table would write it as '" + back + "'";
      }
    }
    op->erase();
    if (first.empty())
      first = diag;
  }
  error = first.empty() ? "cannot read the operands" : first;
  return failure();
}

} // namespace aster::raise
