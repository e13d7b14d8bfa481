//===- AsmPlainLines.cpp - raise_asm's fast path: lines MC need not read -===//
//
// See AsmPlainLines.h. The scan is one pass over the lines with no
// allocation per line beyond the reduced text; the merge walks MC's printed
// lines and the plain lines together, both in source order.
//
//===----------------------------------------------------------------------===//
#include "target/raise/AsmPlainLines.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Location.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace llvm;

namespace aster::raise {

namespace {

bool isWordChar(char c) { return isAlnum(c) || c == '_' || c == '.' || c == '$'; }

/// Directives after which lines read otherwise than written (see the
/// header); MC's directive names ignore case.
bool changesOtherLines(StringRef name) {
  std::string d = name.lower();
  StringRef s(d);
  if (s.starts_with(".if"))
    return true;
  return StringSwitch<bool>(s)
      .Cases({".macro", ".endm", ".endmacro", ".exitm", ".purgem", ".altmacro", ".noaltmacro"},
             true)
      .Cases({".rept", ".rep", ".irp", ".irpc", ".endr", ".else", ".elseif", ".endif"}, true)
      .Cases({".include", ".set", ".equ", ".equiv", ".eqv", ".lto_set_conditional", ".end"},
             true)
      .Default(false);
}

/// A number MC and aster's parser read alike: 0, a decimal without a
/// leading zero, 0x hex, a decimal fraction (`0.5`). Not octal (`010`,
/// which MC reads as 8), binary, suffixed or exponent forms.
bool plainNumber(StringRef t) {
  if (t.consume_front_insensitive("0x"))
    return !t.empty() && all_of(t, isHexDigit);
  auto [whole, frac] = t.split('.');
  if (whole.empty() || !all_of(whole, isDigit) || (whole.size() > 1 && whole[0] == '0'))
    return false;
  return t.size() == whole.size() || (!frac.empty() && all_of(frac, isDigit));
}

/// The instruction of `t` (blanks trimmed at the front) if the line is
/// plain, else an empty StringRef.
StringRef plainInstruction(StringRef t) {
  if (t.empty() || !isAlpha(t[0]))
    return {};
  size_t n = 1;
  while (n < t.size() && isWordChar(t[n]))
    ++n;
  StringRef after = t.drop_front(n).ltrim(" \t");
  if (after.starts_with(":") || after.starts_with("="))
    return {}; // a label or an assignment
  // A vector instruction without its encoding suffix: MC prints `_e32` /
  // `_e64` where the instruction has both forms (`v_add_f32` is
  // `v_add_f32_e32`, an op with its encoding named), so MC reads it.
  StringRef mnemonic = t.take_front(n);
  if (mnemonic.starts_with("v_") && !mnemonic.ends_with("_e32") && !mnemonic.ends_with("_e64") &&
      !mnemonic.ends_with("_sdwa") && !mnemonic.ends_with("_dpp"))
    return {};
  // Cut a `;` or `//` comment (no strings can precede it: `"` is not plain).
  size_t cut = t.size();
  for (size_t i = 0; i < t.size(); ++i)
    if (t[i] == ';' || (t[i] == '/' && i + 1 < t.size() && t[i + 1] == '/')) {
      cut = i;
      break;
    }
  StringRef inst = t.take_front(cut).rtrim(" \t");
  for (size_t i = 0; i < inst.size();) {
    char c = inst[i];
    if (isDigit(c) && (i == 0 || !isWordChar(inst[i - 1]))) {
      size_t j = i;
      while (j < inst.size() && isWordChar(inst[j]))
        ++j;
      if (!plainNumber(inst.slice(i, j)))
        return {};
      i = j;
      continue;
    }
    // Not `-` or `|` (source modifiers: MC knows where they are allowed,
    // e.g. not on a VOP2 `_e32` source, better than a table verifier).
    if (!isWordChar(c) && !StringRef(" \t,:[]+()@").contains(c))
      return {};
    ++i;
  }
  return inst;
}

} // namespace

std::optional<PlainSplit> splitPlainLines(StringRef text) {
  if (text.contains('\r') || text.contains("/*"))
    return std::nullopt;
  PlainSplit out;
  out.reduced.reserve(text.size() / 4);
  bool inMeta = false;
  unsigned lineNo = 0;
  for (size_t pos = 0;;) {
    size_t nl = text.find('\n', pos);
    bool last = nl == StringRef::npos;
    StringRef raw = text.slice(pos, last ? text.size() : nl);
    pos = nl + 1;
    ++lineNo;
    StringRef t = raw.ltrim(" \t");
    auto keep = [&] {
      out.reduced.append(raw.data(), raw.size());
      if (!last)
        out.reduced.push_back('\n');
    };
    if (inMeta) {
      StringRef d = t.rtrim(" \t");
      if (d.equals_insensitive(".end_amdgpu_metadata") ||
          d.equals_insensitive(".end_amdgpu_pal_metadata"))
        inMeta = false;
      keep();
    } else if (t.starts_with("#")) {
      return std::nullopt; // a line marker (`# 5 "k.s"`) renames lines
    } else if (t.starts_with(".")) {
      size_t n = 1;
      while (n < t.size() && isWordChar(t[n]))
        ++n;
      StringRef name = t.take_front(n);
      if (changesOtherLines(name) || t.drop_front(n).ltrim(" \t").starts_with("="))
        return std::nullopt;
      std::string lower = name.lower();
      inMeta = lower == ".amdgpu_metadata" || lower == ".amdgpu_pal_metadata";
      keep();
    } else if (!t.empty() && isDigit(t[0])) {
      return std::nullopt; // a numeric label (`1:`, referred to as 1b / 1f)
    } else if (StringRef inst = plainInstruction(t); !inst.empty()) {
      out.lines.push_back({lineNo, (unsigned)(t.data() - raw.data()) + 1, inst});
      if (!last)
        out.reduced.push_back('\n');
    } else {
      // A label, an assignment (`x = 1` changes other lines), a comment, or
      // an instruction MC must read: the assignment needs all of the text
      // read by MC; the rest stays for MC.
      if (!t.empty() && isAlpha(t[0])) {
        size_t n = 1;
        while (n < t.size() && isWordChar(t[n]))
          ++n;
        if (t.drop_front(n).ltrim(" \t").starts_with("="))
          return std::nullopt;
      }
      keep();
    }
    if (last)
      break;
  }
  return out;
}

ExpandedAsm mergePlainLines(mlir::MLIRContext *ctx, ExpandedAsm printed,
                            const PlainSplit &split, StringRef sourceName) {
  ExpandedAsm out;
  out.text.reserve(printed.text.size() + split.lines.size() * 32);
  out.lines.reserve(printed.lines.size() + split.lines.size());
  mlir::StringAttr file = mlir::StringAttr::get(ctx, sourceName);
  std::string prefix = sourceName.str() + ":";
  size_t next = 0;
  auto putPlainBefore = [&](unsigned line) {
    for (; next < split.lines.size() && split.lines[next].line < line; ++next) {
      const PlainLine &p = split.lines[next];
      out.text += '\t';
      out.text.append(p.text.data(), p.text.size());
      out.text += '\n';
      out.lines.push_back({mlir::FileLineColLoc::get(file, p.line, p.col),
                           prefix + std::to_string(p.line)});
    }
  };
  // MC's lines: the source line each came from (line 0 for what MC prints
  // before any statement; no macros here, so every origin is a file line).
  StringRef text = printed.text;
  unsigned key = 0;
  for (size_t i = 0; i < printed.lines.size() && !text.empty(); ++i) {
    auto [line, rest] = text.split('\n');
    if (auto f = dyn_cast<mlir::FileLineColLoc>(printed.lines[i].loc))
      key = std::max(key, f.getLine());
    putPlainBefore(key);
    out.text.append(line.data(), line.size());
    out.text += '\n';
    out.lines.push_back(std::move(printed.lines[i]));
    text = rest;
  }
  putPlainBefore(~0u);
  return out;
}

} // namespace aster::raise
