//===- Immediates.h - immediate operands -------------------------------===//
#ifndef ASTER_DIALECT_IMMEDIATES_H
#define ASTER_DIALECT_IMMEDIATES_H

#include "dialect/ISA.h"
#include <cstdint>
#include <string>

namespace aster::amdgcn {
/// True if `bits` (zero- or sign-extended) fits an operand of type `ty`.
bool fitsImmediate(uint64_t bits, ISA::ValTy ty);
/// Assembly spelling of an immediate of type `ty`, as LLVM prints it:
/// inline integers in decimal, inline floats by value, literals in hex.
std::string formatImmediate(uint64_t bits, ISA::ValTy ty);
/// The operand bits an integer written for an operand of type `ty` stands
/// for: itself, except a 32-bit literal for an f64 operand, which is the
/// double's high half (AMD ISA: 64-bit float literals keep 32 bits).
uint64_t integerImmediateBits(int64_t v, ISA::ValTy ty);
/// v2f16, v2bf16, v2i16, v2u16: a literal holds both halves.
bool isPacked16(ISA::ValTy ty);
/// An instruction-encoded byte offset (operand class `o`): hex, signed.
std::string formatOffset(int64_t v);
} // namespace aster::amdgcn

#endif
