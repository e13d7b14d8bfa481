//===- Globals.cpp - amdgcn.global (module data) and amdgcn.reloc ---------===//
//
// A global's rules: a section of a data kind, a power-of-two alignment,
// data that fits (whole bytes per element), relocation fields inside it
// naming symbols of the module; constant globals read-only, NOBITS (.bss)
// ones without data. A reloc names a symbol of the module with a kind the
// AMDGPU assembler knows.
//
//===----------------------------------------------------------------------===//
#include "dialect/Dialect.h"

#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace aster::amdgcn;

/// The element bits of dense data, little-endian; false if an element is
/// not whole bytes.
static bool denseBytes(Attribute data, std::vector<uint8_t> &out) {
  auto dense = dyn_cast<DenseIntOrFPElementsAttr>(data);
  if (!dense)
    return false;
  Type et = dense.getElementType();
  if (!et.isIntOrFloat() || et.getIntOrFloatBitWidth() % 8)
    return false;
  unsigned bytes = et.getIntOrFloatBitWidth() / 8;
  auto put = [&](const APInt &v) {
    for (unsigned b = 0; b < bytes; ++b)
      out.push_back((uint8_t)v.extractBitsAsZExtValue(8, 8 * b));
  };
  if (isa<FloatType>(et))
    for (APFloat f : dense.getValues<APFloat>())
      put(f.bitcastToAPInt());
  else
    for (APInt i : dense.getValues<APInt>())
      put(i);
  return true;
}

std::vector<uint8_t> GlobalOp::contents() {
  std::vector<uint8_t> out;
  if (auto d = getData())
    denseBytes(*d, out);
  out.resize(getBytes(), 0);
  return out;
}

/// A reloc field of a global: offset, symbol, addend, width.
struct RelocField {
  int64_t offset = -1, addend = 0, width = 8;
  FlatSymbolRefAttr symbol;
};
static std::optional<RelocField> relocField(Attribute a) {
  auto d = dyn_cast<DictionaryAttr>(a);
  if (!d)
    return std::nullopt;
  RelocField f;
  auto off = d.getAs<IntegerAttr>("offset");
  f.symbol = d.getAs<FlatSymbolRefAttr>("symbol");
  if (!off || !f.symbol)
    return std::nullopt;
  f.offset = off.getInt();
  if (auto ad = d.getAs<IntegerAttr>("addend"))
    f.addend = ad.getInt();
  if (auto w = d.getAs<IntegerAttr>("width"))
    f.width = w.getInt();
  for (NamedAttribute na : d)
    if (!llvm::is_contained({"offset", "symbol", "addend", "width"}, na.getName().getValue()))
      return std::nullopt;
  return f;
}

static Operation *moduleSymbol(Operation *from, StringRef name) {
  Operation *m = from->getParentOp();
  while (m && !isa<KernelModuleOp>(m))
    m = m->getParentOp();
  return m ? SymbolTable::lookupSymbolIn(m, name) : nullptr;
}

static bool isAddressable(Operation *s) {
  return s && isa<GlobalOp, KernelOp, DeviceFunctionOp>(s);
}

LogicalResult GlobalOp::verify() {
  StringRef sec = getSection();
  bool ro = sec == ".rodata" || sec.starts_with(".rodata.");
  bool rw = sec == ".data" || sec.starts_with(".data.") || sec == ".bss" ||
            sec.starts_with(".bss.");
  if (!ro && !rw)
    return emitOpError("section '") << sec << "' is not a data section (.rodata, .data, "
                                              ".bss or one of theirs, e.g. .rodata.tables)";
  if (getConstant() && !ro)
    return emitOpError("is constant but its section '") << sec << "' is writable";
  if (!getConstant() && ro)
    return emitOpError("is in the read-only section '") << sec << "' but not constant";
  int64_t align = (int64_t)getAlignment();
  if (align < 1 || align > (1 << 16) || !llvm::isPowerOf2_64(align))
    return emitOpError("alignment ") << align << " is not a power of two in [1, 65536]";
  int64_t n = (int64_t)getBytes();
  if (n < 0 || n > (int64_t(1) << 28))
    return emitOpError("bytes = ") << n << " is out of range [0, 2^28] (256 MiB)";
  if (auto d = getData()) {
    std::vector<uint8_t> raw;
    if (!denseBytes(*d, raw))
      return emitOpError("data must be dense integer or float elements of whole bytes");
    if ((int64_t)raw.size() > n)
      return emitOpError("data holds ") << raw.size() << " bytes but the global has " << n;
    if (isNoBits() && llvm::any_of(raw, [](uint8_t b) { return b != 0; }))
      return emitOpError("is in the NOBITS section '") << sec << "' but has non-zero data";
  }
  if (auto s = getSymbolSize(); s && ((int64_t)*s < 0 || (int64_t)*s > n))
    return emitOpError("symbol_size ") << (int64_t)*s << " is out of range [0, " << n << "]";
  if (auto v = getLinkage();
      v && !llvm::is_contained({"protected", "hidden", "default", "local"}, *v))
    return emitOpError("linkage must be \"protected\", \"hidden\", \"default\" or "
                       "\"local\", got \"")
           << *v << "\"";
  if (auto relocs = getRelocs()) {
    if (isNoBits() && !relocs->empty())
      return emitOpError("is in the NOBITS section '") << sec << "' but has relocations";
    int64_t prevEnd = 0;
    for (Attribute a : *relocs) {
      auto f = relocField(a);
      if (!f)
        return emitOpError("relocation ") << a << " must be {offset, symbol[, addend, width]}";
      if ((f->width != 4 && f->width != 8) || f->offset < prevEnd || f->offset + f->width > n)
        return emitOpError("relocation at offset ")
               << f->offset << " (width " << f->width
               << ") must be 4 or 8 bytes inside the global, in increasing order";
      prevEnd = f->offset + f->width;
      if (!isAddressable(moduleSymbol(getOperation(), f->symbol.getValue())))
        return emitOpError("relocation at offset ")
               << f->offset << " names " << f->symbol
               << ", which is no global, kernel or device function of the module";
    }
  }
  return success();
}

std::string RelocOp::asmText() {
  std::string s = getSymbol().str() + "@" + getKind().str();
  int64_t a = (int64_t)getAddend();
  if (a > 0)
    s += "+" + std::to_string(a);
  else if (a < 0)
    s += std::to_string(a);
  return s;
}

LogicalResult RelocOp::verify() {
  if (!llvm::is_contained({"rel32@lo", "rel32@hi", "gotpcrel32@lo", "gotpcrel32@hi",
                           "abs32@lo", "abs32@hi"},
                          getKind()))
    return emitOpError("kind \"") << getKind()
                                  << "\" is not one of rel32@lo, rel32@hi, gotpcrel32@lo, "
                                     "gotpcrel32@hi, abs32@lo, abs32@hi";
  int64_t a = (int64_t)getAddend();
  if (a < INT32_MIN || a > INT32_MAX)
    return emitOpError("addend ") << a << " does not fit 32 bits";
  return success();
}

LogicalResult RelocOp::verifySymbolUses(SymbolTableCollection &tables) {
  Operation *m = (*this)->getParentOfType<KernelModuleOp>();
  Operation *s = m ? tables.lookupSymbolIn(m, getSymbolAttr()) : nullptr;
  if (!isAddressable(s))
    return emitOpError("names ") << getSymbolAttr()
                                 << ", which is no global, kernel or device function of the "
                                    "module";
  return success();
}
