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

EntryValues::EntryValues(Region &body) : body(&body) {}

OpBuilder EntryValues::entryBuilder() {
  OpBuilder b(body->getContext());
  if (last)
    b.setInsertionPointAfter(last);
  else
    b.setInsertionPointToStart(&body->front());
  return b;
}

Value EntryValues::reg(Type t) {
  auto it = regs.find(t);
  if (it != regs.end())
    return it->second;
  OpBuilder b = entryBuilder();
  Value v = RegOp::create(b, body->getParentOp()->getLoc(), t).getResult();
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
  Value v = arith::ConstantOp::create(b, body->getParentOp()->getLoc(), t, attr).getResult();
  last = v.getDefiningOp();
  return constants[key] = v;
}

Value EntryValues::reloc(StringRef symbol, StringRef kind, int64_t addend) {
  std::string key = (symbol + "@" + kind + "@" + Twine(addend)).str();
  auto it = relocs.find(key);
  if (it != relocs.end())
    return it->second;
  OpBuilder b = entryBuilder();
  Value v = RelocOp::create(b, body->getParentOp()->getLoc(), b.getI32Type(),
                            FlatSymbolRefAttr::get(b.getContext(), symbol),
                            b.getStringAttr(kind), b.getI64IntegerAttr(addend))
                .getResult();
  last = v.getDefiningOp();
  return relocs[key] = v;
}

/// A register operand (`v3`, `s[4:7]`, `vcc`, ...) as a register type; null
/// for anything else (ttmp registers have no type in aster).
static Type registerType(MLIRContext *ctx, const ISA::TextOperand &t) {
  if (t.kind == ISA::TextOperand::Name) {
    if (auto sp = parseSpecialReg(t.text))
      return SpecialRegType::get(ctx, *sp);
    return {};
  }
  if (t.kind != ISA::TextOperand::Reg)
    return {};
  RegKind kind;
  switch (t.file) {
  case 'v': kind = RegKind::VGPR; break;
  case 's': kind = RegKind::SGPR; break;
  case 'a': kind = RegKind::AGPR; break;
  default: return {};
  }
  return RegType::get(ctx, kind, (int)t.first, t.count);
}

/// The constant type of an immediate operand of value type `ty` (a packed
/// 16-bit operand: 32 bits, as a literal holds both halves).
static Type immediateType(MLIRContext *ctx, ISA::ValTy ty) {
  if (isPacked16(ty))
    return IntegerType::get(ctx, 32);
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

/// Bits of an immediate (integer or float inline constant) for an operand
/// of type `ty` with constant type `ct`; false if not a number.
static bool immediateBits(const ISA::TextOperand &t, ISA::ValTy ty, Type ct, uint64_t &bits) {
  unsigned w = ct.getIntOrFloatBitWidth();
  uint64_t mask = w == 64 ? ~0ull : ((1ull << w) - 1);
  if (t.kind == ISA::TextOperand::Int) {
    bits = integerImmediateBits(t.ival, ty) & mask;
    return true;
  }
  if (t.kind != ISA::TextOperand::Float)
    return false;
  // A float spelled for an integer operand is the float inline constant of
  // the operand's width.
  const llvm::fltSemantics *sem;
  if (auto ft = dyn_cast<FloatType>(ct))
    sem = &ft.getFloatSemantics();
  else if (ty == ISA::ValTy::v2f16)
    sem = &APFloat::IEEEhalf();          // the low half's inline constant
  else if (ty == ISA::ValTy::v2bf16)
    sem = &APFloat::BFloat();
  else
    sem = ISA::valTyImmBits(ty) == 64 ? &APFloat::IEEEdouble() : &APFloat::IEEEsingle();
  APFloat f(t.fval);
  bool lost;
  f.convert(*sem, APFloat::rmNearestTiesToEven, &lost);
  bits = f.bitcastToAPInt().getZExtValue() & mask;
  return true;
}

//===----------------------------------------------------------------------===//
// The parser
//===----------------------------------------------------------------------===//

InstParser::InstParser(MLIRContext *ctx, uint8_t targetBit)
    : ctx(ctx), target(targetBit), index(ISA::RowIndex::forTarget(targetBit)) {
  diagHandler = ctx->getDiagEngine().registerHandler([this](Diagnostic &dg) {
    if (!diagSink)
      return failure(); // not ours: the next handler
    if (diagSink->empty())
      *diagSink = dg.str();
    return success();
  });
}

InstParser::~InstParser() { ctx->getDiagEngine().eraseHandler(diagHandler); }

bool InstParser::isBranch(StringRef mnemonic) const {
  for (const ISA::InstDesc *d : index.rows(ISA::splitEncodingSuffix(mnemonic).first))
    if (d->successors)
      return true;
  return false;
}

namespace {
/// Builds a match of the text against row `d` as the row's op state.
struct Attempt {
  MLIRContext *ctx;
  const ISA::InstDesc &d;
  EntryValues &values;
  InstParser::LabelFn label;
  OperationState st;
  std::string error;
  llvm::DenseMap<Block *, StringRef> labelTokens;
  ArrayRef<int32_t> encoding;

  Attempt(MLIRContext *ctx, const ISA::InstDesc &d, EntryValues &values,
          InstParser::LabelFn label, Location loc)
      : ctx(ctx), d(d), values(values), label(label),
        st(loc, getInstOpName(ctx, d)) {}

  bool fail(const Twine &msg) {
    error = msg.str();
    return false;
  }

  bool source(const ISA::OperandDesc &o, const ISA::TextOperand &t) {
    if (t.kind == ISA::TextOperand::Off)
      return true; // an absent optional operand (checked by the match)
    if (Type r = registerType(ctx, t)) {
      st.operands.push_back(values.reg(r));
      return true;
    }
    StringRef sym, kind;
    int64_t addend;
    if (t.kind == ISA::TextOperand::Name && ISA::parseRelocText(t.text, sym, kind, addend)) {
      st.operands.push_back(values.reloc(sym, kind, addend));
      return true;
    }
    Type ct = immediateType(ctx, o.ty);
    uint64_t bits;
    if (!immediateBits(t, o.ty, ct, bits))
      return fail(Twine("cannot read source '") + o.name + "' from '" + t.text + "'");
    st.operands.push_back(values.constant(ct, bits));
    return true;
  }

  bool build(const ISA::InstText &m) {
    IntegerType i32 = IntegerType::get(ctx, 32);
    if (!m.suffix.empty())
      st.addAttribute(kEncodingAttr, StringAttr::get(ctx, m.suffix));
    for (unsigned i = 0; i < d.numDsts; ++i) {
      Type r = registerType(ctx, m.dsts()[i]);
      if (!r)
        return fail(Twine("destination '") + d.dsts()[i].name + "' must be a register, got '" +
                    m.dsts()[i].text + "'");
      st.types.push_back(r);
    }
    int64_t negMask = 0, absMask = 0, sextMask = 0, litMask = 0;
    unsigned ai = 0;
    for (unsigned i = 0; i < d.numSrcs; ++i) {
      const ISA::OperandDesc &o = d.srcs()[i];
      if (o.tiedTo >= 0)
        continue;
      const ISA::TextOperand &t = m.srcs()[ai++];
      negMask |= (int64_t)t.neg << i;
      absMask |= (int64_t)t.abs << i;
      sextMask |= (int64_t)t.sext << i;
      litMask |= (int64_t)t.lit << i;
      if (!source(o, t))
        return false;
    }
    for (unsigned i = 0; i < d.numSrcs; ++i)
      if (d.srcs()[i].tiedTo >= 0)
        st.operands.push_back(values.reg(st.types[d.srcs()[i].tiedTo]));
    for (const ISA::TextOperand &t : m.labels()) {
      Block *b = label(t.text);
      if (!b)
        return fail("unknown branch target '" + t.text + "'");
      labelTokens[b] = t.text;
      st.addSuccessors(b);
    }
    if (d.successors == 2) // falls through to the block that follows
      st.addSuccessors(label(""));
    unsigned pi = 0;
    for (const ISA::ModDesc *md : d.mods()) {
      if (!ISA::isPositionalMod(md->kind))
        continue;
      const ISA::TextOperand &t =
          md->kind == ISA::ModKind::Hwreg ? m.lead().front() : m.posMods()[pi++];
      if (md->kind != ISA::ModKind::FixedPos)
        st.addAttribute(md->name, IntegerAttr::get(i32, t.ival));
    }
    for (const ISA::TextModifier &tm : m.mods) {
      const ISA::ModDesc *md = tm.desc;
      if (ISA::isFixedMod(md->kind))
        continue;
      if (md->kind == ISA::ModKind::Flag)
        st.addAttribute(md->name, UnitAttr::get(ctx));
      // DS encoding: the offset is bits 15:0 of the first word.
      else if (md->kind == ISA::ModKind::Swizzle && !encoding.empty())
        st.addAttribute(md->name, IntegerAttr::get(i32, encoding[0] & 0xffff));
      // An absent bit-list attribute means the default; set it only if
      // different.
      else if (md->kind != ISA::ModKind::Bits || md->def < 0 || tm.value != md->def)
        st.addAttribute(md->name, IntegerAttr::get(i32, tm.value));
    }
    if (litMask)
      st.addAttribute(kLiteralAttr, IntegerAttr::get(i32, litMask));
    bool hasNeg = false, hasAbs = false, hasSext = false;
    for (const ISA::ModDesc *md : d.mods()) {
      if (md->kind == ISA::ModKind::SrcNeg && negMask)
        st.addAttribute(md->name, IntegerAttr::get(i32, negMask));
      if (md->kind == ISA::ModKind::SrcAbs && absMask)
        st.addAttribute(md->name, IntegerAttr::get(i32, absMask));
      if (md->kind == ISA::ModKind::SrcSext && sextMask)
        st.addAttribute(md->name, IntegerAttr::get(i32, sextMask));
      hasNeg |= md->kind == ISA::ModKind::SrcNeg;
      hasAbs |= md->kind == ISA::ModKind::SrcAbs;
      hasSext |= md->kind == ISA::ModKind::SrcSext;
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
    if (ISA::parseModifierInt(va, x) && ISA::parseModifierInt(vb, y) && x == y)
      return true;
    // An offset LLVM prints as a pattern that reads back as another one.
    return sep == ':' && ((parseAsmInteger(va, x) && ISA::formatSwizzle(x) == vb) ||
                          (parseAsmInteger(vb, y) && ISA::formatSwizzle(y) == va));
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
  if (m1 != m2 || p1.size() != p2.size() || d1.size() > d2.size())
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
  // A zero offset is not printed (LLVM writes some offsets that assemble to
  // 0 as a swizzle pattern, `offset:swizzle(BITMASK_PERM,"00000")`).
  for (size_t j = 0; j < d2.size(); ++j) {
    int64_t v;
    if (!used[j] && !(d2[j].consume_front("offset:") && ISA::parseModifierInt(d2[j], v) && !v))
      return false;
  }
  return true;
}

static bool isDigit(char c) { return c >= '0' && c <= '9'; }

static bool isWordChar(char c) {
  return llvm::isAlnum(c) || c == '_' || c == '.' || c == '$';
}

void textShape(StringRef text, std::string &out) {
  // One scan over the characters: a token starts after a blank, ',' or the
  // start; `[`/`]`/`:` split a token into parts but only the forms listed
  // in the header are masked.
  size_t n = text.size(), i = 0;
  out.reserve(out.size() + n);
  auto tokenEnd = [&](size_t j) { return j >= n || text[j] == ',' || text[j] == ' ' ||
                                         text[j] == '\t'; };
  while (i < n) {
    char c = text[i];
    bool start = i == 0 || text[i - 1] == ' ' || text[i - 1] == ',' || text[i - 1] == '\t';
    bool afterColon = i > 0 && text[i - 1] == ':';
    if (start || afterColon) {
      size_t j = i;
      bool neg = j < n && text[j] == '-';
      j += neg;
      // hex literal
      if (j + 2 < n && text[j] == '0' && (text[j + 1] == 'x' || text[j + 1] == 'X')) {
        size_t k = j + 2;
        while (k < n && llvm::isHexDigit(text[k]))
          ++k;
        if (k > j + 2 && tokenEnd(k)) {
          out += neg ? "-0x#" : "0x#";
          i = k;
          continue;
        }
      }
      // plain integer
      size_t k = j;
      while (k < n && isDigit(text[k]))
        ++k;
      if (k > j && tokenEnd(k)) {
        out += neg ? "-#" : "#";
        i = k;
        continue;
      }
      // register: v12, s[4:7]
      if (start && (c == 'v' || c == 's' || c == 'a') && i + 1 < n) {
        k = i + 1;
        while (k < n && isDigit(text[k]))
          ++k;
        if (k > i + 1 && tokenEnd(k)) {
          out.push_back(c);
          out.push_back('#');
          i = k;
          continue;
        }
        if (text[i + 1] == '[') {
          k = i + 2;
          size_t d1 = k;
          while (k < n && isDigit(text[k]))
            ++k;
          if (k > d1 && k < n && text[k] == ':') {
            size_t d2 = ++k;
            while (k < n && isDigit(text[k]))
              ++k;
            if (k > d2 && k < n && text[k] == ']' && tokenEnd(k + 1)) {
              out.push_back(c);
              out += "[#]";
              i = k + 1;
              continue;
            }
          }
        }
      }
    }
    // Anything else: copy the rest of this word (so `row_shr:1` keeps its
    // value unless it stands as `name:N`).
    if (isWordChar(c)) {
      size_t k = i;
      while (k < n && isWordChar(text[k]))
        ++k;
      out.append(text.data() + i, k - i);
      i = k;
      continue;
    }
    out.push_back(c);
    ++i;
  }
}

/// The op as the table prints it (leading blanks dropped).
static std::string printedBack(Operation *op, const ISA::InstDesc &d,
                               const llvm::DenseMap<Block *, StringRef> &labels) {
  std::string s;
  llvm::raw_string_ostream os(s);
  if (failed(target::printInstAsm(op, d, os, [&](Block *b) {
        auto it = labels.find(b);
        return it == labels.end() ? std::string("?") : it->second.str();
      })))
    return "?";
  size_t i = s.find_first_not_of(" \t");
  return i == std::string::npos ? std::string() : s.substr(i);
}

FailureOr<Operation *> InstParser::parse(StringRef text, OpBuilder &b, Location loc,
                                         EntryValues &values, LabelFn label,
                                         std::string &error, ArrayRef<int32_t> encoding) {
  text = text.trim();
  Operation *result = nullptr;
  auto accept = [&](const ISA::InstText &m) {
    const ISA::InstDesc &d = *m.row;
    Attempt a(ctx, d, values, label, loc);
    a.encoding = encoding;
    if (!a.build(m)) {
      error = a.error;
      return false;
    }
    Operation *op = b.create(a.st);
    // The table's verifier decides; its message is kept for the error.
    std::string diag;
    {
      diagSink = &diag;
      bool verified = succeeded(verifyInstruction(op, d));
      diagSink = nullptr;
      if (verified) {
        // Exact: the op must print back as the text it came from, else it
        // would not assemble to the same encoding.
        // (Mostly the very same characters: compared first, tokens only if
        // not.) Known shapes are not compared again.
        std::string shape(reinterpret_cast<const char *>(&m.row), sizeof(m.row));
        textShape(text, shape);
        if (exactShapes.contains(shape)) {
          result = op;
          return true;
        }
        std::string back = printedBack(op, d, a.labelTokens);
        if (back == text || sameInstruction(normalized(back), text)) {
          exactShapes.insert(shape);
          result = op;
          return true;
        }
        diag = "aster's table would write it as '" + normalized(back) + "'";
      }
    }
    op->erase();
    error = diag;
    return false;
  };
  if (!ISA::matchInstText(text, index, accept, error))
    return failure();
  return result;
}

} // namespace aster::raise
