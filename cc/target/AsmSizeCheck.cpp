//===- AsmSizeCheck.cpp - reject assembly whose expansion is runaway -----===//
#include "target/AsmSizeCheck.h"
#include "target/AsmLexCheck.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/MC/MCParser/AsmLexer.h"

#include <string>
#include <vector>

using namespace llvm;

namespace aster::target {
namespace {

/// Values saturate here: any count this large is over every limit.
constexpr __int128 kHuge = (__int128)1 << 100;

__int128 saturate(__int128 v) { return v > kHuge ? kHuge : v < -kHuge ? -kHuge : v; }

/// A constant expression over one statement's tokens: integers, constant
/// symbols, unary - ~ !, * / % << >>, + -, & | ^, parentheses. Anything
/// else makes it unknown (nullopt).
class ConstEval {
public:
  ConstEval(ArrayRef<AsmToken> toks, const StringMap<__int128> &syms)
      : toks(toks), syms(syms) {}

  /// The value of the tokens from `pos` up to a top-level comma or the end.
  std::optional<__int128> operand(size_t &pos) {
    i = pos;
    auto v = binary(0);
    if (!v || (i < toks.size() && toks[i].isNot(AsmToken::Comma)))
      return std::nullopt;
    pos = i;
    return v;
  }

private:
  static int precedence(AsmToken::TokenKind k) {
    switch (k) {
    case AsmToken::Pipe: case AsmToken::Caret: case AsmToken::Amp: return 1;
    case AsmToken::Plus: case AsmToken::Minus: return 2;
    case AsmToken::Star: case AsmToken::Slash: case AsmToken::Percent:
    case AsmToken::LessLess: case AsmToken::GreaterGreater: return 3;
    default: return 0;
    }
  }

  std::optional<__int128> binary(int minPrec) {
    auto lhs = unary();
    while (lhs && i < toks.size()) {
      AsmToken::TokenKind k = toks[i].getKind();
      int p = precedence(k);
      if (p == 0 || p <= minPrec)
        break;
      ++i;
      auto rhs = binary(p);
      if (!rhs)
        return std::nullopt;
      __int128 a = *lhs, b = *rhs;
      switch (k) {
      case AsmToken::Pipe: lhs = a | b; break;
      case AsmToken::Caret: lhs = a ^ b; break;
      case AsmToken::Amp: lhs = a & b; break;
      case AsmToken::Plus: lhs = saturate(a + b); break;
      case AsmToken::Minus: lhs = saturate(a - b); break;
      case AsmToken::Star: lhs = saturate(a * b); break;
      case AsmToken::Slash: if (b == 0) return std::nullopt; lhs = a / b; break;
      case AsmToken::Percent: if (b == 0) return std::nullopt; lhs = a % b; break;
      case AsmToken::LessLess:
        if (b < 0) return std::nullopt;
        lhs = b >= 100 ? (a == 0 ? 0 : a > 0 ? kHuge : -kHuge) : saturate(a << (int)b);
        break;
      case AsmToken::GreaterGreater:
        if (b < 0) return std::nullopt;
        lhs = b >= 127 ? (a < 0 ? -1 : 0) : a >> (int)b;
        break;
      default: return std::nullopt;
      }
    }
    return lhs;
  }

  std::optional<__int128> unary() {
    if (i >= toks.size())
      return std::nullopt;
    const AsmToken &t = toks[i++];
    switch (t.getKind()) {
    case AsmToken::Minus: { auto v = unary(); if (!v) return v; return saturate(-*v); }
    case AsmToken::Plus: return unary();
    case AsmToken::Tilde: { auto v = unary(); if (!v) return v; return ~*v; }
    case AsmToken::Exclaim: { auto v = unary(); if (!v) return v; return (__int128)(*v == 0); }
    case AsmToken::LParen: {
      auto v = binary(0);
      if (!v || i >= toks.size() || toks[i].isNot(AsmToken::RParen))
        return std::nullopt;
      ++i;
      return v;
    }
    case AsmToken::Integer: {
      const APInt &ap = t.getAPIntVal();
      if (ap.getActiveBits() > 64)
        return kHuge;
      return (__int128)ap.getZExtValue();
    }
    case AsmToken::Identifier: {
      auto it = syms.find(t.getIdentifier());
      if (it == syms.end())
        return std::nullopt;
      return it->second;
    }
    default:
      return std::nullopt;
    }
  }

  ArrayRef<AsmToken> toks;
  const StringMap<__int128> &syms;
  size_t i = 0;
};

std::string str(__int128 v) {
  if (v >= kHuge)
    return "more than 2^100";
  if (v < 0)
    return "-" + str(-v);
  std::string s;
  do {
    s.insert(s.begin(), char('0' + int(v % 10)));
    v /= 10;
  } while (v);
  return s;
}

} // namespace

std::optional<AsmDiagnostic> findRunawaySize(StringRef input, const MCAsmInfo &mai) {
  std::string text = input.str(); // NUL-terminated, as the lexer requires
  StringRef buf(text);
  AsmLexer lexer(mai);
  lexer.setBuffer(buf);
  lexer.Lex();
  StringMap<__int128> syms;
  std::vector<__int128> repeats; // the counts of the enclosing .rept/.irp
  __int128 repeated = 1;         // their product
  std::vector<AsmToken> st;
  while (!lexer.is(AsmToken::Eof)) {
    st.clear();
    while (!lexer.is(AsmToken::Eof) && !lexer.is(AsmToken::EndOfStatement) &&
           !lexer.is(AsmToken::Error)) {
      st.push_back(lexer.getTok());
      lexer.Lex();
    }
    if (lexer.is(AsmToken::Error))
      return std::nullopt; // AsmLexCheck reports it
    if (!lexer.is(AsmToken::Eof))
      lexer.Lex();
    // Labels before the statement ("k: .fill ...").
    size_t at = 0;
    while (at + 1 < st.size() && st[at].is(AsmToken::Identifier) &&
           st[at + 1].is(AsmToken::Colon))
      at += 2;
    if (at >= st.size() || st[at].isNot(AsmToken::Identifier))
      continue;
    StringRef dir = st[at].getIdentifier();
    ArrayRef<AsmToken> ops = ArrayRef<AsmToken>(st).drop_front(at + 1);
    ConstEval eval(ops, syms);
    const char *loc = st[at].getLoc().getPointer();
    auto tooBig = [&](__int128 bytes, StringRef what) -> std::optional<AsmDiagnostic> {
      __int128 total = saturate(bytes * repeated);
      if (total <= (__int128)kMaxBytes)
        return std::nullopt;
      return diagnosticAt(buf, loc, what.str() + " makes " + str(total) +
                                        " bytes; aster assembles at most " +
                                        str(kMaxBytes) + " bytes per directive");
    };
    // NAME = EXPR
    if (ops.size() >= 2 && ops[0].is(AsmToken::Equal)) {
      size_t p = 1;
      auto v = eval.operand(p);
      if (v && p == ops.size())
        syms[dir] = *v;
      else
        syms.erase(dir);
      continue;
    }
    if (dir == ".set" || dir == ".equ" || dir == ".equiv" || dir == ".eqv") {
      if (ops.size() >= 3 && ops[0].is(AsmToken::Identifier) && ops[1].is(AsmToken::Comma)) {
        size_t p = 2;
        auto v = eval.operand(p);
        if (v && p == ops.size())
          syms[ops[0].getIdentifier()] = *v;
        else
          syms.erase(ops[0].getIdentifier());
      }
      continue;
    }
    if (dir == ".rept" || dir == ".irp" || dir == ".irpc") {
      __int128 n = 1;
      if (dir == ".rept") {
        size_t p = 0;
        if (auto v = eval.operand(p); v && *v > 1)
          n = *v;
      }
      repeats.push_back(n);
      repeated = saturate(repeated * n);
      if (repeated > (__int128)kMaxRepeats)
        return diagnosticAt(buf, loc, ".rept repeats its body " + str(repeated) +
                                          " times (nested counts multiplied); aster "
                                          "assembles at most " + str(kMaxRepeats));
      continue;
    }
    if (dir == ".endr") {
      if (!repeats.empty()) {
        repeats.pop_back();
        repeated = 1;
        for (__int128 r : repeats)
          repeated = saturate(repeated * r);
      }
      continue;
    }
    if (dir == ".skip" || dir == ".space" || dir == ".zero") {
      size_t p = 0;
      if (auto v = eval.operand(p); v && *v > 0)
        if (auto d = tooBig(*v, dir))
          return d;
      continue;
    }
    if (dir == ".fill") {
      size_t p = 0;
      auto n = eval.operand(p);
      __int128 size = 1;
      if (p < ops.size() && ops[p].is(AsmToken::Comma)) {
        ++p;
        if (auto s = eval.operand(p); s && *s > 0)
          size = *s > 8 ? 8 : *s;
      }
      if (n && *n > 0)
        if (auto d = tooBig(saturate(*n * size), ".fill"))
          return d;
      continue;
    }
  }
  return std::nullopt;
}

} // namespace aster::target
