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
/// An instruction-encoded byte offset (operand class `o`): hex, signed.
std::string formatOffset(int64_t v);
} // namespace aster::amdgcn

#endif
