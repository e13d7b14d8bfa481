//===- ISA.cpp - the generated instruction table and its queries ---------===//
#include "dialect/ISA.h"

#include "llvm/ADT/StringMap.h"

namespace aster::ISA {
using llvm::ArrayRef;

#include "dialect/InstTable.inc"

llvm::ArrayRef<InstDesc> instructions() { return kInstTable; }

llvm::ArrayRef<OperandDesc> InstDesc::dsts() const {
  return ArrayRef<OperandDesc>(kOperandTable + firstDst, numDsts);
}
llvm::ArrayRef<OperandDesc> InstDesc::srcs() const {
  return ArrayRef<OperandDesc>(kOperandTable + firstSrc, numSrcs);
}
llvm::ArrayRef<const ModDesc *> InstDesc::mods() const {
  return ArrayRef<const ModDesc *>(kInstModTable + firstMod, numMods);
}
int InstDesc::optionalSrc() const {
  for (unsigned i = 0; i < numSrcs; ++i)
    if (srcs()[i].optional)
      return i;
  return -1;
}
unsigned InstDesc::numAsmSrcs() const {
  unsigned n = 0;
  for (const OperandDesc &o : srcs())
    n += o.tiedTo < 0;
  return n;
}
unsigned InstDesc::index() const { return this - kInstTable; }

const InstDesc *lookup(llvm::StringRef mnemonic) {
  static const llvm::StringMap<const InstDesc *> map = [] {
    llvm::StringMap<const InstDesc *> m;
    for (const InstDesc &d : kInstTable)
      m[d.mnemonic] = &d;
    return m;
  }();
  auto it = map.find(mnemonic);
  return it == map.end() ? nullptr : it->second;
}

static const char *const kValTyNames[] = {
#define ASTER_VALTY(N) #N,
#include "dialect/ValTypes.def"
};
llvm::StringRef valTyName(ValTy t) { return kValTyNames[(unsigned)t]; }

unsigned valTyImmBits(ValTy t) {
  switch (t) {
  case ValTy::b16: case ValTy::i16: case ValTy::u16: case ValTy::f16:
  case ValTy::bf16: case ValTy::v2f16: case ValTy::v2bf16: case ValTy::v2i16:
  case ValTy::v2u16:
    return 16;
  case ValTy::b64: case ValTy::i64: case ValTy::u64: case ValTy::f64:
    return 64;
  default:
    return 32;
  }
}

bool valTyIsFloat(ValTy t) {
  switch (t) {
  case ValTy::f16: case ValTy::bf16: case ValTy::f32: case ValTy::f64:
  case ValTy::v2f16: case ValTy::v2bf16: case ValTy::v2f32:
    return true;
  default:
    return false;
  }
}

static const char *const kEncNames[] = {
#define ASTER_ENC(N) #N,
#include "dialect/Encodings.def"
};
llvm::StringRef encName(Enc e) { return kEncNames[(unsigned)e]; }

uint8_t targetBit(llvm::StringRef name) {
  if (name == "gfx942") return T_GFX942;
  if (name == "gfx950") return T_GFX950;
  if (name == "gfx1201") return T_GFX1201;
  return 0;
}
llvm::StringRef targetName(uint8_t bit) {
  switch (bit) {
  case T_GFX942: return "gfx942";
  case T_GFX950: return "gfx950";
  case T_GFX1201: return "gfx1201";
  }
  return "";
}
unsigned targetWaveSize(uint8_t bit) { return bit == T_GFX1201 ? 32 : 64; }

} // namespace aster::ISA
