//===- GlobalData.cpp - amdgcn.global into assembly text or an MC streamer =//
#include "target/GlobalData.h"

#include "llvm/BinaryFormat/ELF.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCExpr.h"
#include "llvm/MC/MCSectionELF.h"
#include "llvm/Support/Format.h"

using namespace mlir;
using namespace aster::amdgcn;

namespace aster::target {

namespace {
/// A piece of a global's contents: bytes, a zero run, or a relocation.
struct Piece {
  enum Kind { Bytes, Zeros, Reloc } kind;
  uint64_t offset, size;
  StringRef symbol;
  int64_t addend = 0;
};

/// The global's contents in pieces (runs of 16+ zero bytes, and NOBITS
/// contents, as zeros).
std::vector<Piece> piecesOf(GlobalOp g, const std::vector<uint8_t> &bytes) {
  std::vector<Piece> out;
  auto addRun = [&](uint64_t from, uint64_t to) {
    if (from >= to)
      return;
    if (g.isNoBits()) {
      out.push_back({Piece::Zeros, from, to - from});
      return;
    }
    uint64_t start = from;
    for (uint64_t i = from; i < to;) {
      if (bytes[i]) {
        ++i;
        continue;
      }
      uint64_t z = i;
      while (z < to && bytes[z] == 0)
        ++z;
      if (z - i >= 16) {
        if (i > start)
          out.push_back({Piece::Bytes, start, i - start});
        out.push_back({Piece::Zeros, i, z - i});
        start = z;
      }
      i = z;
    }
    if (to > start)
      out.push_back({Piece::Bytes, start, to - start});
  };
  uint64_t at = 0;
  if (auto relocs = g.getRelocs())
    for (Attribute a : *relocs) {
      auto d = cast<DictionaryAttr>(a);
      uint64_t off = d.getAs<IntegerAttr>("offset").getInt();
      auto w = d.getAs<IntegerAttr>("width");
      auto ad = d.getAs<IntegerAttr>("addend");
      addRun(at, off);
      out.push_back({Piece::Reloc, off, w ? (uint64_t)w.getInt() : 8,
                     d.getAs<FlatSymbolRefAttr>("symbol").getValue(), ad ? ad.getInt() : 0});
      at = out.back().offset + out.back().size;
    }
  addRun(at, bytes.size());
  return out;
}

bool isLabelOnly(StringRef name) { return name.starts_with(".L"); }

/// `.section` flags and type of a data section.
std::pair<const char *, const char *> sectionKind(GlobalOp g) {
  if (g.isNoBits())
    return {"aw", "@nobits"};
  if (g.getConstant())
    return {"a", "@progbits"};
  return {"aw", "@progbits"};
}
} // namespace

void writeGlobal(GlobalOp g, llvm::raw_ostream &os) {
  StringRef name = g.getSymName();
  StringRef vis = g.linkageOrDefault();
  bool sym = !isLabelOnly(name);
  if (sym && (vis == "protected" || vis == "hidden"))
    os << "\t." << vis << "\t" << name << "\n";
  if (sym)
    os << "\t.type\t" << name << ",@object\n";
  auto [flags, type] = sectionKind(g);
  os << "\t.section\t" << g.getSection() << ",\"" << flags << "\"," << type << "\n";
  if (sym && vis != "local")
    os << "\t.globl\t" << name << "\n";
  os << "\t.p2align\t" << llvm::Log2_64(g.getAlignment()) << ", 0x0\n";
  os << name << ":\n";
  std::vector<uint8_t> bytes = g.contents();
  for (const Piece &p : piecesOf(g, bytes)) {
    switch (p.kind) {
    case Piece::Zeros:
      os << "\t.zero\t" << p.size << "\n";
      break;
    case Piece::Reloc:
      os << (p.size == 8 ? "\t.quad\t" : "\t.long\t") << p.symbol;
      if (p.addend > 0)
        os << "+" << p.addend;
      else if (p.addend < 0)
        os << p.addend;
      os << "\n";
      break;
    case Piece::Bytes: {
      uint64_t i = p.offset, end = p.offset + p.size;
      for (; i + 4 <= end; i += 4)
        os << "\t.long\t"
           << llvm::format_hex(bytes[i] | bytes[i + 1] << 8 | bytes[i + 2] << 16 |
                                   (uint32_t)bytes[i + 3] << 24,
                               10)
           << "\n";
      for (; i < end; ++i)
        os << "\t.byte\t" << (unsigned)bytes[i] << "\n";
      break;
    }
    }
  }
  if (sym)
    os << "\t.size\t" << name << ", " << g.getSymbolSize().value_or(g.getBytes()) << "\n";
}

void emitGlobal(GlobalOp g, llvm::MCStreamer &out) {
  using namespace llvm;
  MCContext &ctx = out.getContext();
  StringRef name = g.getSymName();
  StringRef vis = g.linkageOrDefault();
  bool sym = !isLabelOnly(name);
  MCSymbol *s = ctx.getOrCreateSymbol(name);
  if (sym && vis == "protected")
    out.emitSymbolAttribute(s, MCSA_Protected);
  else if (sym && vis == "hidden")
    out.emitSymbolAttribute(s, MCSA_Hidden);
  if (sym)
    out.emitSymbolAttribute(s, MCSA_ELF_TypeObject);
  unsigned flags = ELF::SHF_ALLOC | (g.getConstant() ? 0 : ELF::SHF_WRITE);
  out.switchSection(ctx.getELFSection(g.getSection(),
                                      g.isNoBits() ? ELF::SHT_NOBITS : ELF::SHT_PROGBITS,
                                      flags));
  if (sym && vis != "local")
    out.emitSymbolAttribute(s, MCSA_Global);
  out.emitValueToAlignment(Align(g.getAlignment()), 0, 1, 0);
  out.emitLabel(s);
  std::vector<uint8_t> bytes = g.contents();
  for (const Piece &p : piecesOf(g, bytes)) {
    switch (p.kind) {
    case Piece::Zeros:
      out.emitFill(p.size, 0);
      break;
    case Piece::Reloc: {
      const MCExpr *e = MCSymbolRefExpr::create(ctx.getOrCreateSymbol(p.symbol), ctx);
      if (p.addend > 0)
        e = MCBinaryExpr::createAdd(e, MCConstantExpr::create(p.addend, ctx), ctx);
      else if (p.addend < 0)
        e = MCBinaryExpr::createSub(e, MCConstantExpr::create(-p.addend, ctx), ctx);
      out.emitValue(e, p.size);
      break;
    }
    case Piece::Bytes: {
      uint64_t i = p.offset, end = p.offset + p.size;
      for (; i + 4 <= end; i += 4)
        out.emitIntValue(bytes[i] | bytes[i + 1] << 8 | bytes[i + 2] << 16 |
                             (uint32_t)bytes[i + 3] << 24,
                         4);
      for (; i < end; ++i)
        out.emitIntValue(bytes[i], 1);
      break;
    }
    }
  }
  if (sym)
    out.emitELFSize(s, MCConstantExpr::create(g.getSymbolSize().value_or(g.getBytes()), ctx));
}

} // namespace aster::target
