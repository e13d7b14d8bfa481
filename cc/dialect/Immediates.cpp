//===- Immediates.cpp - immediate operands: values and inline constants --===//
//
// Inline constants (AMD CDNA3 ISA, "Scalar/Vector operand encoding"): the
// integers -16..64 and, per operand width, the floats +-0.5, +-1.0, +-2.0,
// +-4.0 and 1/(2*pi).
//
//===----------------------------------------------------------------------===//
#include "dialect/Dialect.h"
#include "dialect/Immediates.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/Format.h"

using namespace mlir;

namespace aster::amdgcn {

std::optional<uint64_t> getImmediateBits(Value v) {
  Attribute a;
  if (!matchPattern(v, m_Constant(&a)))
    return std::nullopt;
  if (auto i = dyn_cast<IntegerAttr>(a)) {
    if (!i.getType().isIntOrIndex())
      return std::nullopt;
    return i.getValue().getZExtValue();
  }
  if (auto f = dyn_cast<FloatAttr>(a))
    return f.getValue().bitcastToAPInt().getZExtValue();
  return std::nullopt;
}

namespace {
struct InlineFloat {
  uint16_t f16, bf16;
  uint32_t f32;
  uint64_t f64;
  const char *spelling;
};
} // namespace

static const InlineFloat kInlineFloats[] = {
    {0x3800, 0x3f00, 0x3f000000, 0x3fe0000000000000ull, "0.5"},
    {0xb800, 0xbf00, 0xbf000000, 0xbfe0000000000000ull, "-0.5"},
    {0x3c00, 0x3f80, 0x3f800000, 0x3ff0000000000000ull, "1.0"},
    {0xbc00, 0xbf80, 0xbf800000, 0xbff0000000000000ull, "-1.0"},
    {0x4000, 0x4000, 0x40000000, 0x4000000000000000ull, "2.0"},
    {0xc000, 0xc000, 0xc0000000, 0xc000000000000000ull, "-2.0"},
    {0x4400, 0x4080, 0x40800000, 0x4010000000000000ull, "4.0"},
    {0xc400, 0xc080, 0xc0800000, 0xc010000000000000ull, "-4.0"},
    {0x3118, 0x3e22, 0x3e22f983, 0x3fc45f306dc9c882ull, "0.15915494"},
};

static const InlineFloat *findInlineFloat(uint64_t bits, ISA::ValTy ty) {
  // 16-bit integer operands have no float inline constants (LLVM encodes
  // 0x3c00 there as a literal); 32- and 64-bit integer operands do.
  switch (ty) {
  case ISA::ValTy::b16: case ISA::ValTy::i16: case ISA::ValTy::u16:
  case ISA::ValTy::v2i16: case ISA::ValTy::v2u16:
    return nullptr;
  default:
    break;
  }
  unsigned w = ISA::valTyImmBits(ty);
  bool bf = ty == ISA::ValTy::bf16 || ty == ISA::ValTy::v2bf16;
  for (const InlineFloat &f : kInlineFloats) {
    uint64_t pat = w == 16 ? (bf ? f.bf16 : f.f16) : w == 32 ? f.f32 : f.f64;
    if (bits == pat)
      return &f;
  }
  return nullptr;
}

static int64_t signExtend(uint64_t bits, unsigned w) {
  if (w >= 64)
    return (int64_t)bits;
  uint64_t m = 1ull << (w - 1);
  bits &= (1ull << w) - 1;
  return (int64_t)((bits ^ m) - m);
}

bool isInlineConstant(uint64_t bits, ISA::ValTy ty) {
  unsigned w = ISA::valTyImmBits(ty);
  int64_t s = signExtend(bits, w);
  // The w-bit pattern, zero- or sign-extended (16-bit values may also come
  // sign-extended to 32 bits).
  bool extended = w == 64 || (bits >> w) == 0 || (int64_t)bits == s ||
                  (w == 16 && (uint64_t)(uint32_t)s == bits);
  if (s >= -16 && s <= 64 && extended)
    return true;
  return findInlineFloat(bits, ty) != nullptr;
}

bool fitsImmediate(uint64_t bits, ISA::ValTy ty) {
  unsigned w = ISA::valTyImmBits(ty);
  if (w == 64)
    return true;
  // Accept the zero- or sign-extended forms of a w-bit pattern; 16-bit
  // operands take 32-bit literals of which only the low half is used, so
  // they accept 32-bit patterns too.
  unsigned lim = w == 16 ? 32 : w;
  int64_t s = (int64_t)bits;
  return (bits >> lim) == 0 || (s < 0 && s >= -(int64_t)(1ull << (lim - 1)));
}

/// A packed 16-bit operand (v2f16, ...) whose 32-bit value is no 16-bit
/// pattern zero- or sign-extended: a literal of both halves (VOP2's
/// v_dot2c_*, v_pk_fmac_f16 take one; LLVM prints it as 32-bit hex).
bool isPacked16(ISA::ValTy ty) {
  return ty == ISA::ValTy::v2f16 || ty == ISA::ValTy::v2bf16 || ty == ISA::ValTy::v2i16 ||
         ty == ISA::ValTy::v2u16;
}

static bool packedLiteral(uint64_t bits, ISA::ValTy ty) {
  if (!isPacked16(ty))
    return false;
  uint32_t hi = uint32_t(bits) >> 16;
  return !(hi == 0 || (hi == 0xffff && (bits & 0x8000)));
}

std::string formatImmediate(uint64_t bits, ISA::ValTy ty) {
  unsigned w = ISA::valTyImmBits(ty);
  if (packedLiteral(bits, ty)) {
    std::string out;
    llvm::raw_string_ostream os(out);
    os << llvm::format_hex(uint32_t(bits), 2);
    return out;
  }
  int64_t s = signExtend(bits, w);
  if (s >= -16 && s <= 64)
    return std::to_string(s);
  uint64_t trunc = w == 64 ? bits : (bits & ((1ull << w) - 1));
  if (const InlineFloat *f = findInlineFloat(trunc, ty)) {
    // LLVM spells 1/(2*pi) with the digits its width needs.
    if (w == 64 && f == &kInlineFloats[8])
      return "0.15915494309189532";
    return f->spelling;
  }
  // Literals print as 32-bit hex; a 64-bit float literal is the high half
  // of the double (its low half is zero; Verify.cpp checks).
  uint32_t lit = (uint32_t)(w == 16 ? (bits & 0xffff)
                                    : ty == ISA::ValTy::f64 ? bits >> 32 : bits);
  std::string out;
  llvm::raw_string_ostream os(out);
  os << llvm::format_hex(lit, 2);
  return out;
}

uint64_t integerImmediateBits(int64_t v, ISA::ValTy ty) {
  if (ty == ISA::ValTy::f64 && !(v >= -16 && v <= 64) && (uint64_t)v >> 32 == 0)
    return (uint64_t)v << 32;
  return (uint64_t)v;
}

std::string formatOffset(int64_t v) {
  std::string out;
  llvm::raw_string_ostream os(out);
  if (v < 0)
    os << '-' << llvm::format_hex((uint64_t)-v, 2);
  else
    os << llvm::format_hex((uint64_t)v, 2);
  return out;
}

} // namespace aster::amdgcn
