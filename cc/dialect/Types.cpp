//===- Types.cpp - amdgcn register and argument types --------------------===//
#include "dialect/Types.h"
#include "dialect/Dialect.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;

namespace aster::amdgcn {
namespace detail {
struct RegTypeStorage : public TypeStorage {
  using KeyTy = std::tuple<unsigned, int, unsigned, unsigned>;
  RegTypeStorage(const KeyTy &k) : key(k) {}
  bool operator==(const KeyTy &k) const { return k == key; }
  static llvm::hash_code hashKey(const KeyTy &k) {
    return llvm::hash_combine(std::get<0>(k), std::get<1>(k), std::get<2>(k),
                              std::get<3>(k));
  }
  static RegTypeStorage *construct(TypeStorageAllocator &a, const KeyTy &k) {
    return new (a.allocate<RegTypeStorage>()) RegTypeStorage(k);
  }
  KeyTy key;
};
struct SpecialRegTypeStorage : public TypeStorage {
  using KeyTy = unsigned;
  SpecialRegTypeStorage(unsigned r) : reg(r) {}
  bool operator==(const KeyTy &k) const { return k == reg; }
  static SpecialRegTypeStorage *construct(TypeStorageAllocator &a, unsigned k) {
    return new (a.allocate<SpecialRegTypeStorage>()) SpecialRegTypeStorage(k);
  }
  unsigned reg;
};
struct PtrTypeStorage : public TypeStorage {
  using KeyTy = Type;
  PtrTypeStorage(Type t) : elem(t) {}
  bool operator==(const KeyTy &k) const { return k == elem; }
  static PtrTypeStorage *construct(TypeStorageAllocator &a, Type k) {
    return new (a.allocate<PtrTypeStorage>()) PtrTypeStorage(k);
  }
  Type elem;
};
} // namespace detail

StringRef regKindName(RegKind k) {
  switch (k) {
  case RegKind::VGPR: return "vgpr";
  case RegKind::SGPR: return "sgpr";
  case RegKind::AGPR: return "agpr";
  }
  return "";
}
char regKindPrefix(RegKind k) { return regKindName(k)[0]; }

RegType RegType::get(MLIRContext *ctx, RegKind kind, int index, unsigned width,
                     unsigned align) {
  return Base::get(ctx, std::make_tuple((unsigned)kind, index < 0 ? -1 : index,
                                        width, align));
}
RegKind RegType::getKind() const { return (RegKind)std::get<0>(getImpl()->key); }
int RegType::getIndex() const { return std::get<1>(getImpl()->key); }
unsigned RegType::getWidth() const { return std::get<2>(getImpl()->key); }
unsigned RegType::getAlign() const { return std::get<3>(getImpl()->key); }
RegType RegType::withIndex(int index) const {
  return get(getContext(), getKind(), index, getWidth(), index < 0 ? getAlign() : 1);
}

static const struct {
  const char *name;
  unsigned width;
} kSpecials[] = {
#define ASTER_SPECIAL(N, W) {#N, W},
#include "dialect/SpecialRegs.def"
};
StringRef specialRegName(SpecialReg r) { return kSpecials[(unsigned)r].name; }
unsigned specialRegWidth(SpecialReg r) { return kSpecials[(unsigned)r].width; }
std::optional<SpecialReg> parseSpecialReg(StringRef name) {
  for (unsigned i = 0; i < std::size(kSpecials); ++i)
    if (name == kSpecials[i].name)
      return (SpecialReg)i;
  return std::nullopt;
}

SpecialRegType SpecialRegType::get(MLIRContext *ctx, SpecialReg reg) {
  return Base::get(ctx, (unsigned)reg);
}
SpecialReg SpecialRegType::getReg() const { return (SpecialReg)getImpl()->reg; }

PtrType PtrType::get(MLIRContext *ctx, Type elem) { return Base::get(ctx, elem); }
Type PtrType::getElementType() const { return getImpl()->elem; }

unsigned requiredRegAlign(RegKind kind, unsigned width, uint8_t target) {
  if (width < 2)
    return 1;
  if (kind == RegKind::SGPR)
    return width >= 4 ? 4 : 2;
  // gfx90a and later (gfx942, gfx950) require even-aligned VGPR/AGPR tuples.
  return target == ISA::T_GFX1201 ? 1 : 2;
}

bool isRegisterType(Type t) { return isa<RegType, SpecialRegType>(t); }
unsigned registerWidth(Type t) {
  if (auto r = dyn_cast<RegType>(t))
    return r.getWidth();
  if (auto s = dyn_cast<SpecialRegType>(t))
    return s.getWidth();
  return 0;
}
std::string registerAsm(Type t) {
  if (auto s = dyn_cast<SpecialRegType>(t))
    return specialRegName(s.getReg()).str();
  auto r = cast<RegType>(t);
  return registerAsm(r.getKind(), r.getIndex(), r.getWidth());
}

std::string registerAsm(RegKind kind, int index, unsigned width) {
  std::string out(1, regKindPrefix(kind));
  if (width == 1)
    return out + std::to_string(index);
  return out + "[" + std::to_string(index) + ":" +
         std::to_string(index + width - 1) + "]";
}

//===----------------------------------------------------------------------===//
// Parsing and printing.
//===----------------------------------------------------------------------===//

static Type parseRegBody(DialectAsmParser &p, RegKind kind) {
  MLIRContext *ctx = p.getContext();
  SMLoc loc = p.getCurrentLocation();
  if (p.parseLess())
    return {};
  int index = -1;
  unsigned width = 1, align = 1;
  if (succeeded(p.parseOptionalQuestion())) {
    // ?  or  ?xN  (the lexer may produce `x4` as one keyword)
    StringRef kw;
    if (succeeded(p.parseOptionalKeyword(&kw))) {
      if (!kw.consume_front("x") || kw.getAsInteger(10, width) || width == 0) {
        p.emitError(loc, "expected `?xN` with N > 0 for a virtual register range");
        return {};
      }
    }
    if (succeeded(p.parseOptionalComma())) {
      if (p.parseKeyword("align") || p.parseInteger(align))
        return {};
      if (align == 0 || (align & (align - 1))) {
        p.emitError(loc, "alignment must be a power of two");
        return {};
      }
    }
  } else if (succeeded(p.parseOptionalLSquare())) {
    int lo, hi;
    if (p.parseInteger(lo) || p.parseColon() || p.parseInteger(hi) ||
        p.parseRSquare())
      return {};
    if (lo < 0 || hi < lo) {
      p.emitError(loc, "invalid register range [") << lo << ":" << hi << "]";
      return {};
    }
    index = lo;
    width = hi - lo + 1;
  } else {
    if (p.parseInteger(index))
      return {};
    if (index < 0) {
      p.emitError(loc, "register index must be non-negative");
      return {};
    }
  }
  if (p.parseGreater())
    return {};
  return RegType::get(ctx, kind, index, width, align);
}

Type AMDGCNDialect::parseType(DialectAsmParser &p) const {
  StringRef kw;
  SMLoc loc = p.getCurrentLocation();
  if (p.parseKeyword(&kw))
    return {};
  if (kw == "vgpr")
    return parseRegBody(p, RegKind::VGPR);
  if (kw == "sgpr")
    return parseRegBody(p, RegKind::SGPR);
  if (kw == "agpr")
    return parseRegBody(p, RegKind::AGPR);
  if (kw == "ptr") {
    Type elem;
    if (p.parseLess() || p.parseType(elem) || p.parseGreater())
      return {};
    return PtrType::get(getContext(), elem);
  }
  if (auto s = parseSpecialReg(kw))
    return SpecialRegType::get(getContext(), *s);
  p.emitError(loc, "unknown amdgcn type '") << kw << "'";
  return {};
}

void AMDGCNDialect::printType(Type type, DialectAsmPrinter &os) const {
  if (auto r = dyn_cast<RegType>(type)) {
    os << regKindName(r.getKind()) << "<";
    if (r.isVirtual()) {
      os << "?";
      if (r.getWidth() != 1)
        os << "x" << r.getWidth();
      if (r.getAlign() != 1)
        os << ", align " << r.getAlign();
    } else if (r.getWidth() == 1) {
      os << r.getIndex();
    } else {
      os << "[" << r.getIndex() << ":" << r.getIndex() + r.getWidth() - 1 << "]";
    }
    os << ">";
    return;
  }
  if (auto s = dyn_cast<SpecialRegType>(type)) {
    os << specialRegName(s.getReg());
    return;
  }
  if (auto p = dyn_cast<PtrType>(type)) {
    os << "ptr<" << p.getElementType() << ">";
    return;
  }
}

void AMDGCNDialect::registerTypes() {
  addTypes<RegType, SpecialRegType, PtrType>();
}

} // namespace aster::amdgcn
