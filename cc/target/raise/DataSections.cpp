//===- DataSections.cpp - global variables raised from data sections -----===//
#include "target/raise/DataSections.h"
#include "target/raise/InstParser.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace aster::amdgcn;
using llvm::StringRef;

namespace aster::raise {

GlobalOp addGlobal(RaisedModule &rm, const RawGlobal &g) {
  MLIRContext *ctx = rm.context();
  OpBuilder b(ctx);
  b.setInsertionPointToEnd(rm.body());
  bool nobits = StringRef(g.section).starts_with(".bss");
  bool constant = StringRef(g.section).starts_with(".rodata");
  ElementsAttr data;
  if (!nobits && llvm::any_of(g.bytes, [](uint8_t x) { return x != 0; })) {
    if (g.bytes.size() % 4 == 0) {
      SmallVector<int32_t> words;
      for (size_t i = 0; i < g.bytes.size(); i += 4)
        words.push_back((int32_t)(g.bytes[i] | g.bytes[i + 1] << 8 | g.bytes[i + 2] << 16 |
                                  (uint32_t)g.bytes[i + 3] << 24));
      data = DenseElementsAttr::get(
          RankedTensorType::get({(int64_t)words.size()}, b.getI32Type()), ArrayRef(words));
    } else {
      SmallVector<int8_t> bytes(g.bytes.begin(), g.bytes.end());
      data = DenseElementsAttr::get(
          RankedTensorType::get({(int64_t)bytes.size()}, b.getI8Type()), ArrayRef(bytes));
    }
  }
  ArrayAttr relocs;
  if (!g.relocs.empty()) {
    SmallVector<Attribute> rs;
    for (const RawGlobal::Reloc &r : g.relocs) {
      SmallVector<NamedAttribute> f{
          b.getNamedAttr("offset", b.getI64IntegerAttr(r.offset)),
          b.getNamedAttr("symbol", FlatSymbolRefAttr::get(ctx, r.symbol))};
      if (r.addend)
        f.push_back(b.getNamedAttr("addend", b.getI64IntegerAttr(r.addend)));
      if (r.width != 8)
        f.push_back(b.getNamedAttr("width", b.getI64IntegerAttr(r.width)));
      rs.push_back(b.getDictionaryAttr(f));
    }
    relocs = b.getArrayAttr(rs);
  }
  auto op = GlobalOp::create(
      b, g.loc, b.getStringAttr(g.name), b.getStringAttr(g.section),
      b.getI64IntegerAttr(g.alignment), b.getI64IntegerAttr(g.bytes.size()), data, relocs,
      g.linkage == "protected" ? StringAttr() : b.getStringAttr(g.linkage),
      constant ? b.getUnitAttr() : UnitAttr(),
      g.symbolSize && *g.symbolSize != g.bytes.size() ? b.getI64IntegerAttr(*g.symbolSize)
                                                      : IntegerAttr());
  return op;
}

void AsmData::symbolDirective(StringRef dir, StringRef args) {
  if (dir == ".size") {
    auto [name, size] = args.split(',');
    int64_t n;
    if (parseAsmInteger(size.trim(), n))
      sizes[name.trim()] = n;
    return;
  }
  std::string &l = linkage[args.trim()];
  if (dir == ".protected" || dir == ".hidden")
    l = dir.drop_front().str();
  else if (dir == ".globl" && l.empty())
    l = "default";
}

void AsmData::section(StringRef name) {
  open = nullptr;
  pendingAlign = 1;
  bool data = name == ".data" || name.starts_with(".data.") || name == ".bss" ||
              name.starts_with(".bss.") || name == ".rodata" || name.starts_with(".rodata.");
  current = data ? name.str() : "";
}

void AsmData::label(StringRef name, Location loc) {
  if (current.empty())
    return;
  RawGlobal g{name.str(), current, pendingAlign, {}, {}, "local", std::nullopt, loc};
  globals.push_back(std::move(g));
  open = &globals.back();
  pendingAlign = 1;
}

bool AsmData::value(StringRef v, unsigned width, std::string &error) {
  int64_t x;
  if (parseAsmInteger(v, x)) {
    for (unsigned b = 0; b < width; ++b)
      open->bytes.push_back((uint8_t)((uint64_t)x >> (8 * b)));
    return true;
  }
  // A symbol's address (+/- a constant): a relocation.
  StringRef sym = v.take_while([](char c) {
    return llvm::isAlnum(c) || c == '_' || c == '.' || c == '$';
  });
  StringRef rest = v.drop_front(sym.size()).trim();
  int64_t addend = 0;
  if (sym.empty() || llvm::isDigit(sym[0]) ||
      (!rest.empty() && !((rest[0] == '+' || rest[0] == '-') &&
                          parseAsmInteger(rest.drop_front().trim(), addend)))) {
    error = "cannot read the value '" + v.str() + "'";
    return false;
  }
  if (!rest.empty() && rest[0] == '-')
    addend = -addend;
  if (width != 4 && width != 8) {
    error = "a symbol's address must fill 4 or 8 bytes: '" + v.str() + "'";
    return false;
  }
  open->relocs.push_back({open->bytes.size(), sym.str(), addend, width});
  open->bytes.resize(open->bytes.size() + width, 0);
  return true;
}

bool AsmData::directive(StringRef dir, StringRef args, std::string &error) {
  if (current.empty())
    return true;
  if (dir == ".p2align" || dir == ".align" || dir == ".balign") {
    int64_t n;
    if (!parseAsmInteger(args.split(',').first.trim(), n) || n < 0 || n > 16) {
      error = "cannot read the alignment '" + args.str() + "'";
      return false;
    }
    // The alignment of the next label (clang writes it before each global).
    pendingAlign = dir == ".p2align" ? 1ull << n : (uint64_t)n;
    if (!llvm::isPowerOf2_64(pendingAlign)) {
      error = "the alignment " + std::to_string(pendingAlign) + " is not a power of two";
      return false;
    }
    return true;
  }
  if (!open) {
    error = "data before any label in section " + current;
    return false;
  }
  unsigned width = llvm::StringSwitch<unsigned>(dir)
                       .Cases({".byte"}, 1)
                       .Cases({".short", ".2byte", ".hword"}, 2)
                       .Cases({".long", ".4byte", ".int"}, 4)
                       .Cases({".quad", ".8byte"}, 8)
                       .Default(0);
  if (width) {
    SmallVector<StringRef> vals;
    args.split(vals, ',');
    for (StringRef v : vals)
      if (!value(v.trim(), width, error))
        return false;
    return true;
  }
  if (dir == ".zero" || dir == ".space" || dir == ".skip") {
    int64_t n;
    if (!parseAsmInteger(args.split(',').first.trim(), n) || n < 0) {
      error = "cannot read the size '" + args.str() + "'";
      return false;
    }
    if (open->bytes.size() + (uint64_t)n > (1u << 28)) {
      error = "global " + open->name + " would exceed 256 MiB (not raised)";
      return false;
    }
    open->bytes.resize(open->bytes.size() + n, 0);
    return true;
  }
  if (dir == ".ascii" || dir == ".asciz" || dir == ".string") {
    StringRef s = args.trim();
    if (s.size() < 2 || s.front() != '"' || s.back() != '"') {
      error = "cannot read the string " + args.str();
      return false;
    }
    s = s.drop_front().drop_back();
    for (size_t i = 0; i < s.size(); ++i) {
      char c = s[i];
      if (c != '\\' || i + 1 == s.size()) {
        open->bytes.push_back((uint8_t)c);
        continue;
      }
      char e = s[++i];
      if (e >= '0' && e <= '7') {
        unsigned v = 0, k = 0;
        for (; k < 3 && i < s.size() && s[i] >= '0' && s[i] <= '7'; ++k, ++i)
          v = v * 8 + (s[i] - '0');
        --i;
        open->bytes.push_back((uint8_t)v);
        continue;
      }
      open->bytes.push_back(e == 'n' ? '\n' : e == 't' ? '\t' : e == 'r' ? '\r' : e == 'b' ? '\b' : e == 'f' ? '\f' : (uint8_t)e);
    }
    if (dir != ".ascii")
      open->bytes.push_back(0);
    return true;
  }
  error = "the directive " + dir.str() + " in a data section is not raised";
  return false;
}

void AsmData::finish(RaisedModule &rm) {
  for (RawGlobal &g : globals) {
    auto l = linkage.find(g.name);
    if (l != linkage.end() && !l->second.empty())
      g.linkage = l->second;
    auto s = sizes.find(g.name);
    if (s != sizes.end())
      g.symbolSize = s->second;
    addGlobal(rm, g);
  }
}

} // namespace aster::raise
