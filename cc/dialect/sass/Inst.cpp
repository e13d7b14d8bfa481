//===- Inst.cpp - sass instruction ops: parser, printer, verifier ---------===//
//
// Every generated instruction op (SassInsts.td) stores its instruction as the
// table keys it: `mods`, `kinds`, `vals` (Sass.td), plus `ctrl`. Printed form:
//   sass.IMAD "[B------:R-:W-:Y:S01] IMAD.MOV.U32 R1, RZ, RZ, c[0x0][0x28]"
//   sass.BRA "[B------:R-:W-:Y:S05] @!P0 BRA" [^bb3]
// i.e. the control bits as a listing prefix, then the text nvdisasm prints,
// its branch target (always the last operand in the table) as a successor.
// The text is split by the rules of python/aster/sass/syntax.py (register
// classes R UR P UP B SB, hex I, decimal D, float F, label L); the verifier
// requires `opcode.mods kinds` to be a row of the table (SassRows.inc, from
// table.json) and every register index to fit its field.
// Needs: SassRows.inc. Guarantees: print(parse(x)) == x for printed ops;
// parse/verify failures are diagnostics at the op's location.
//
//===----------------------------------------------------------------------===//
#include "dialect/sass/Dialect.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringExtras.h"

#include <cmath>
#include <cstring>

using namespace mlir;
using namespace aster::sass;

namespace {

struct RowDef {
  const char *key;
  int n;
  const char *fields;
};
const RowDef kRows[] = {
#define ROW(k, n, f) {k, n, f},
#include "dialect/sass/SassRows.inc"
#undef ROW
};

const llvm::StringMap<Row> &rows() {
  static const llvm::StringMap<Row> *m = [] {
    auto *out = new llvm::StringMap<Row>();
    for (const RowDef &d : kRows) {
      Row r;
      SmallVector<StringRef> parts;
      StringRef(d.fields).split(parts, ' ', -1, false);
      for (StringRef p : parts) {
        auto [c, w] = p.split(':');
        r.cls.push_back(c.str());
        int width = 0;
        w.getAsInteger(10, width);
        r.width.push_back(width);
      }
      (*out)[d.key] = std::move(r);
    }
    return out;
  }();
  return *m;
}

bool isWord(char c) { return llvm::isAlnum(c) || c == '_'; }

std::vector<std::string> splitOperands(StringRef s) {
  std::vector<std::string> out;
  int depth = 0;
  std::string cur;
  for (char ch : s) {
    if (ch == '[' || ch == '{' || ch == '(')
      ++depth;
    else if (ch == ']' || ch == '}' || ch == ')')
      --depth;
    if (ch == ',' && depth == 0) {
      out.push_back(StringRef(cur).trim().str());
      cur.clear();
    } else {
      cur += ch;
    }
  }
  if (!StringRef(cur).trim().empty())
    out.push_back(StringRef(cur).trim().str());
  return out;
}

int64_t doubleBits(double d) {
  int64_t b;
  std::memcpy(&b, &d, 8);
  return b;
}
double bitsDouble(int64_t b) {
  double d;
  std::memcpy(&d, &b, 8);
  return d;
}

// One operand's text -> its kind, appending field values; "" or an error.
std::string scanOperand(StringRef op, std::string &kind, ParsedInst &out) {
  size_t n = op.size(), i = 0;
  static const char *prefixes[] = {"UR", "UP", "SB", "R", "P", "B"};
  while (i < n) {
    if (op[i] == '`' && i + 1 < n && op[i + 1] == '(') {
      size_t close = op.find(')', i);
      if (close == StringRef::npos)
        return "unterminated branch target";
      kind += "%L";
      ++out.labels;
      i = close + 1;
      continue;
    }
    bool okPrev = i == 0 || !(isWord(op[i - 1]) || op[i - 1] == '.');
    if (okPrev) {
      bool matched = false;
      for (const char *pf : prefixes) { // registers
        StringRef p(pf);
        if (!op.substr(i).starts_with(p))
          continue;
        size_t j = i + p.size();
        int64_t idx = -1;
        bool named = false;
        if (j < n && llvm::isDigit(op[j])) {
          size_t k = j;
          while (k < n && llvm::isDigit(op[k]))
            ++k;
          op.substr(j, k - j).getAsInteger(10, idx);
          j = k;
        } else if (j < n && (op[j] == 'Z' || op[j] == 'T')) {
          named = true;
          char c = op[j++];
          if (p == "R" && c == 'Z')
            idx = 255;
          else if (p == "UR" && c == 'Z')
            idx = 63;
          else if ((p == "P" || p == "UP") && c == 'T')
            idx = 7;
        } else {
          continue;
        }
        if (j < n && isWord(op[j]))
          continue;
        if (named && idx < 0)
          return ("unknown register " + op.substr(i, j - i)).str();
        kind += "%" + p.str();
        out.vals.push_back(idx);
        i = j;
        matched = true;
        break;
      }
      if (matched)
        continue;
      { // hex
        size_t j = i;
        bool neg = j < n && op[j] == '-';
        if (neg)
          ++j;
        if (op.substr(j).starts_with("0x") && j + 2 < n && llvm::isHexDigit(op[j + 2])) {
          size_t k = j + 2;
          while (k < n && llvm::isHexDigit(op[k]))
            ++k;
          if (!(k < n && isWord(op[k]))) {
            uint64_t v = 0;
            if (op.substr(j + 2, k - j - 2).getAsInteger(16, v))
              return ("immediate out of range: " + op.substr(i, k - i)).str();
            kind += "%I";
            out.vals.push_back(neg ? -(int64_t)v : (int64_t)v);
            i = k;
            continue;
          }
        }
      }
      { // float
        size_t j = i;
        if (j < n && (op[j] == '-' || op[j] == '+'))
          ++j;
        size_t k = j;
        bool isFloat = false;
        auto exponent = [&](size_t at) -> size_t { // e[-+]?\d+ at `at`, or 0
          if (at < n && op[at] == 'e') {
            size_t e = at + 1;
            if (e < n && (op[e] == '-' || op[e] == '+'))
              ++e;
            size_t d = e;
            while (d < n && llvm::isDigit(op[d]))
              ++d;
            if (d > e)
              return d;
          }
          return 0;
        };
        while (k < n && llvm::isDigit(op[k]))
          ++k;
        if (k > j) {
          if (k < n && op[k] == '.') {
            ++k;
            while (k < n && llvm::isDigit(op[k]))
              ++k;
            if (size_t e = exponent(k))
              k = e;
            isFloat = true;
          } else if (size_t e = exponent(k)) {
            k = e;
            isFloat = true;
          }
        } else {
          for (StringRef w : {"INF", "QNAN", "NAN"})
            if (op.substr(j).starts_with(w)) {
              k = j + w.size();
              isFloat = true;
              break;
            }
        }
        if (isFloat && !(k < n && isWord(op[k]))) {
          StringRef t = op.substr(i, k - i);
          StringRef body = t.ltrim("+-");
          bool neg = t.starts_with("-");
          double d;
          if (body == "INF")
            d = neg ? -INFINITY : INFINITY;
          else if (body == "QNAN" || body == "NAN")
            d = neg ? -NAN : NAN;
          else
            d = std::strtod(t.str().c_str(), nullptr);
          kind += "%F";
          out.vals.push_back(doubleBits(d));
          i = k;
          continue;
        }
      }
      { // decimal
        size_t j = i;
        if (j < n && op[j] == '-')
          ++j;
        size_t k = j;
        while (k < n && llvm::isDigit(op[k]))
          ++k;
        if (k > j && !(k < n && (isWord(op[k]) || op[k] == '.'))) {
          int64_t v = 0;
          if (op.substr(i, k - i).getAsInteger(10, v))
            return ("number out of range: " + op.substr(i, k - i)).str();
          kind += "%D";
          out.vals.push_back(v);
          i = k;
          continue;
        }
      }
    }
    kind += op[i++];
  }
  return "";
}

std::string keyOf(StringRef opcode, ArrayRef<std::string> kinds) {
  return (opcode + " " + llvm::join(kinds, ",")).str();
}

std::string formatFloat(double d) {
  if (std::isinf(d))
    return d > 0 ? "+INF" : "-INF";
  if (std::isnan(d))
    return std::signbit(d) ? "-QNAN" : "+QNAN";
  char buf[64];
  for (int p = 1; p <= 17; ++p) {
    std::snprintf(buf, sizeof buf, "%.*g", p, d);
    if (std::strtod(buf, nullptr) == d)
      break;
  }
  std::string s(buf);
  if (s.find_first_of(".e") == std::string::npos)
    s += ".0";
  return s;
}

} // namespace

const Row *aster::sass::findRow(StringRef key) {
  auto it = rows().find(key);
  return it == rows().end() ? nullptr : &it->second;
}

std::string aster::sass::tokenize(StringRef text, ParsedInst &out) {
  StringRef t = text.trim();
  if (t.ends_with(";"))
    t = t.drop_back().rtrim();
  out = ParsedInst();
  std::string guardKind;
  if (t.starts_with("@")) {
    size_t i = 1;
    bool neg = i < t.size() && t[i] == '!';
    if (neg)
      ++i;
    bool up = t.substr(i).starts_with("UP");
    if (!up && !t.substr(i).starts_with("P"))
      return "bad guard predicate";
    i += up ? 2 : 1;
    if (i >= t.size() || !(llvm::isDigit(t[i]) || t[i] == 'T'))
      return "bad guard predicate";
    out.vals.push_back(t[i] == 'T' ? 7 : t[i] - '0');
    out.vals.push_back(neg);
    ++i;
    if (i >= t.size() || !llvm::isSpace(t[i]))
      return "bad guard predicate";
    t = t.substr(i).ltrim();
    guardKind = up ? "@%UP" : "@%P";
  } else {
    out.vals.push_back(7);
    out.vals.push_back(0);
  }
  auto [opcode, rest] = t.split(' ');
  if (opcode.empty())
    return "empty instruction";
  out.opcode = opcode.str();
  if (!guardKind.empty())
    out.kinds.push_back(guardKind);
  for (const std::string &op : splitOperands(rest.trim())) {
    if (StringRef(op).contains(".reuse"))
      return "`.reuse` flags are control bits (`:U<mask>` in the control field), not text";
    std::string kind;
    std::string err = scanOperand(op, kind, out);
    if (!err.empty())
      return err;
    out.kinds.push_back(kind);
  }
  return "";
}

std::string aster::sass::formatCtrl(int64_t c) {
  std::string s = "[B";
  for (int b = 0; b < 6; ++b)
    s += (c >> (11 + b) & 1) ? char('0' + b) : '-';
  auto bar = [](int64_t v) { return v == 7 ? std::string("-") : std::to_string(v); };
  s += ":R" + bar(c >> 8 & 7) + ":W" + bar(c >> 5 & 7) + ":" + ((c >> 4 & 1) ? "-" : "Y");
  char st[8];
  std::snprintf(st, sizeof st, ":S%02d", int(c & 15));
  s += st;
  if (c >> 17 & 15)
    s += ":U" + std::to_string(c >> 17 & 15);
  if (c >> 21 & 3)
    s += ":X" + std::to_string(c >> 21 & 3);
  return s + "]";
}

std::optional<int64_t> aster::sass::parseCtrl(StringRef s) {
  if (!s.consume_front("[B") || !s.consume_back("]") || s.size() < 6)
    return std::nullopt;
  int64_t c = 0;
  for (int b = 0; b < 6; ++b) {
    if (s[b] == char('0' + b))
      c |= int64_t(1) << (11 + b);
    else if (s[b] != '-')
      return std::nullopt;
  }
  s = s.drop_front(6);
  auto bar = [&](StringRef tag, int shift) {
    if (!s.consume_front(tag) || s.empty())
      return false;
    char ch = s[0];
    s = s.drop_front();
    if (ch == '-')
      c |= int64_t(7) << shift;
    else if (ch >= '0' && ch <= '6')
      c |= int64_t(ch - '0') << shift;
    else
      return false;
    return true;
  };
  if (!bar(":R", 8) || !bar(":W", 5))
    return std::nullopt;
  if (s.consume_front(":-"))
    c |= 1 << 4;
  else if (!s.consume_front(":Y"))
    return std::nullopt;
  unsigned v;
  if (!s.consume_front(":S") || s.size() < 2 || s.substr(0, 2).getAsInteger(10, v) || v > 15)
    return std::nullopt;
  c |= v;
  s = s.drop_front(2);
  if (s.consume_front(":U")) {
    size_t k = s.find(':');
    if (s.substr(0, k).getAsInteger(10, v) || v > 15)
      return std::nullopt;
    c |= int64_t(v) << 17;
    s = k == StringRef::npos ? StringRef() : s.substr(k);
  }
  if (s.consume_front(":X")) {
    if (s.getAsInteger(10, v) || v > 3)
      return std::nullopt;
    c |= int64_t(v) << 21;
    s = StringRef();
  }
  if (!s.empty())
    return std::nullopt;
  return c;
}

std::string aster::sass::formatInst(Operation *op, std::optional<std::string> label) {
  StringRef base = op->getName().stripDialect();
  auto mods = op->getAttrOfType<StringAttr>("mods");
  auto kindsAttr = op->getAttrOfType<StringAttr>("kinds");
  auto valsAttr = op->getAttrOfType<DenseI64ArrayAttr>("vals");
  if (!mods || !kindsAttr || !valsAttr)
    return "<malformed>";
  ArrayRef<int64_t> vals = valsAttr.asArrayRef();
  std::vector<std::string> kinds = splitOperands(kindsAttr.getValue());
  std::string pre;
  size_t first = 0, vi = 2;
  if (!kinds.empty() && StringRef(kinds[0]).starts_with("@")) {
    bool up = kinds[0] == "@%UP";
    int64_t g = vals.size() > 0 ? vals[0] : 7, gn = vals.size() > 1 ? vals[1] : 0;
    pre = std::string("@") + (gn ? "!" : "") + (up ? "UP" : "P") +
          (g == 7 ? std::string("T") : std::to_string(g)) + " ";
    first = 1;
  }
  static const char *classes[] = {"UR", "UP", "SB", "R", "P", "B", "I", "D", "F", "L"};
  std::vector<std::string> ops;
  for (size_t k = first; k < kinds.size(); ++k) {
    StringRef kd = kinds[k];
    std::string o;
    for (size_t i = 0; i < kd.size();) {
      if (kd[i] != '%') {
        o += kd[i++];
        continue;
      }
      StringRef cls;
      for (const char *c : classes)
        if (kd.substr(i + 1).starts_with(c)) {
          cls = c;
          break;
        }
      if (cls.empty()) {
        o += kd[i++];
        continue;
      }
      i += 1 + cls.size();
      if (cls == "L") {
        if (label)
          o += "`(" + *label + ")";
        continue;
      }
      int64_t x = vi < vals.size() ? vals[vi] : 0;
      ++vi;
      if (cls == "R" && x == 255)
        o += "RZ";
      else if (cls == "UR" && x == 63)
        o += "URZ";
      else if ((cls == "P" || cls == "UP") && x == 7)
        o += cls.str() + "T";
      else if (cls == "I")
        o += x >= 0 ? "0x" + llvm::utohexstr(x, true) : "-0x" + llvm::utohexstr(-x, true);
      else if (cls == "D")
        o += std::to_string(x);
      else if (cls == "F")
        o += formatFloat(bitsDouble(x));
      else
        o += cls.str() + std::to_string(x);
    }
    StringRef trimmed = StringRef(o).rtrim();
    if (!trimmed.empty())
      ops.push_back(trimmed.str());
  }
  std::string s = pre + base.str() + mods.getValue().str();
  if (!ops.empty())
    s += " " + llvm::join(ops, ", ");
  return s;
}

ParseResult aster::sass::parseInst(OpAsmParser &p, OperationState &s, StringRef opName) {
  SMLoc loc = p.getCurrentLocation();
  std::string text;
  if (p.parseString(&text))
    return failure();
  SmallVector<Block *> succs;
  if (succeeded(p.parseOptionalLSquare())) {
    if (p.parseCommaSeparatedList([&]() {
          Block *b;
          if (p.parseSuccessor(b))
            return failure();
          succs.push_back(b);
          return success();
        }) ||
        p.parseRSquare())
      return failure();
  }
  if (p.parseOptionalAttrDict(s.attributes))
    return failure();
  StringRef t(text);
  size_t close = t.find(']');
  if (!t.starts_with("[") || close == StringRef::npos)
    return p.emitError(loc, "expected control bits `[B------:R-:W-:Y:S00]` before the instruction");
  std::optional<int64_t> ctrl = parseCtrl(t.substr(0, close + 1));
  if (!ctrl)
    return p.emitError(loc, "bad control bits '") << t.substr(0, close + 1) << "'";
  ParsedInst pi;
  std::string err = tokenize(t.substr(close + 1), pi);
  if (!err.empty())
    return p.emitError(loc, err);
  if (pi.labels)
    return p.emitError(loc, "a branch target is a block successor after the text, not `(label)");
  StringRef base = StringRef(opName).split('.').second;
  auto [opBase, mods] = StringRef(pi.opcode).split('.');
  if (opBase != base)
    return p.emitError(loc, "instruction '") << pi.opcode << "' in a '" << opName << "' op";
  std::vector<std::string> kinds = pi.kinds;
  if (succs.size() > 1)
    return p.emitError(loc, "at most one branch target");
  if (succs.size() == 1) { // the target is the last operand: `, L` or ` L`
    std::vector<std::string> a = kinds, c = kinds;
    a.push_back("%L");
    kinds = a;
    if (!findRow(keyOf(pi.opcode, a)) && !c.empty()) {
      c.back() += " %L";
      if (findRow(keyOf(pi.opcode, c)))
        kinds = c;
    }
  }
  Builder bld(p.getContext());
  s.addAttribute("mods", bld.getStringAttr(mods.empty() ? "" : "." + mods.str()));
  s.addAttribute("kinds", bld.getStringAttr(llvm::join(kinds, ",")));
  s.addAttribute("vals", bld.getDenseI64ArrayAttr(pi.vals));
  s.addAttribute("ctrl", bld.getI64IntegerAttr(*ctrl));
  s.addSuccessors(succs);
  return success();
}

void aster::sass::printInst(OpAsmPrinter &p, Operation *op) {
  int64_t ctrl = 0;
  if (auto c = op->getAttrOfType<IntegerAttr>("ctrl"))
    ctrl = c.getInt();
  p << ' ';
  p.printString(formatCtrl(ctrl) + " " + formatInst(op, std::nullopt));
  if (op->getNumSuccessors()) {
    p << " [";
    llvm::interleaveComma(op->getSuccessors(), p, [&](Block *b) { p.printSuccessor(b); });
    p << "]";
  }
  p.printOptionalAttrDict(op->getAttrs(), {"mods", "kinds", "vals", "ctrl"});
}

LogicalResult aster::sass::verifyInst(Operation *op) {
  StringRef base = op->getName().stripDialect();
  auto mods = op->getAttrOfType<StringAttr>("mods");
  auto kinds = op->getAttrOfType<StringAttr>("kinds");
  auto vals = op->getAttrOfType<DenseI64ArrayAttr>("vals").asArrayRef();
  std::string key = (base + mods.getValue() + " " + kinds.getValue()).str();
  const Row *row = findRow(key);
  if (!row)
    return op->emitOpError("'") << formatInst(op, std::string("L")) << "' (key '" << key
                                << "') is not a row of the sm_90a SASS table "
                                << "(python/aster/sass/table.json)";
  size_t labels = 0;
  for (const std::string &c : row->cls)
    labels += c == "L";
  if (vals.size() + labels != row->cls.size())
    return op->emitOpError("has ") << vals.size() << " field values; row '" << key << "' has "
                                   << row->cls.size() - labels;
  if (op->getNumSuccessors() != labels)
    return op->emitOpError("row '") << key << "' has " << labels << " branch target(s), the op "
                                    << op->getNumSuccessors() << " successor(s)";
  size_t vi = 0;
  for (size_t f = 0; f < row->cls.size(); ++f) {
    const std::string &c = row->cls[f];
    if (c == "L")
      continue;
    int64_t x = vals[vi++];
    bool reg = c == "R" || c == "UR" || c == "P" || c == "UP" || c == "B" || c == "SB" ||
               c == "G" || c == "UG" || c == "Gn";
    if (reg && row->width[f] > 0 && (x < 0 || x >> row->width[f]))
      return op->emitOpError("field ") << f << " (" << c << ") value " << x << " does not fit "
                                       << row->width[f] << " bits";
  }
  if (auto c = op->getAttrOfType<IntegerAttr>("ctrl"); c && (c.getInt() < 0 || c.getInt() >> 23))
    return op->emitOpError("control bits ") << c.getInt() << " do not fit 23 bits";
  return success();
}
