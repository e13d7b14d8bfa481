//===- Types.h - amdgcn register and argument types ----------------------===//
#ifndef ASTER_DIALECT_TYPES_H
#define ASTER_DIALECT_TYPES_H

#include "mlir/IR/Types.h"
#include "mlir/IR/MLIRContext.h"

namespace aster::amdgcn {
namespace detail {
struct RegTypeStorage;
struct SpecialRegTypeStorage;
struct PtrTypeStorage;
} // namespace detail

enum class RegKind : uint8_t { VGPR, SGPR, AGPR };
/// "vgpr", "sgpr", "agpr"; and the assembly prefix 'v', 's', 'a'.
llvm::StringRef regKindName(RegKind k);
char regKindPrefix(RegKind k);

/// A range of `width` consecutive registers of one file. `index` < 0 means
/// virtual (not yet allocated); `align` constrains the start index of a
/// virtual range (1 = only the target's own rules).
///   !amdgcn.vgpr<3>  !amdgcn.vgpr<[4:7]>  !amdgcn.vgpr<?x4>  !amdgcn.sgpr<?x2, align 4>
class RegType : public mlir::Type::TypeBase<RegType, mlir::Type,
                                            detail::RegTypeStorage> {
public:
  using Base::Base;
  static constexpr llvm::StringLiteral name = "amdgcn.reg";
  static RegType get(mlir::MLIRContext *ctx, RegKind kind, int index,
                     unsigned width = 1, unsigned align = 1);
  static RegType getVirtual(mlir::MLIRContext *ctx, RegKind kind,
                            unsigned width = 1, unsigned align = 1) {
    return get(ctx, kind, -1, width, align);
  }
  RegKind getKind() const;
  int getIndex() const;
  unsigned getWidth() const;
  unsigned getAlign() const;
  bool isVirtual() const { return getIndex() < 0; }
  /// The same class and width, allocated at `index`.
  RegType withIndex(int index) const;
};

/// Special registers.
enum class SpecialReg : uint8_t {
#define ASTER_SPECIAL(N, W) N,
#include "SpecialRegs.def"
};
llvm::StringRef specialRegName(SpecialReg r);
unsigned specialRegWidth(SpecialReg r);
std::optional<SpecialReg> parseSpecialReg(llvm::StringRef name);

/// !amdgcn.vcc, !amdgcn.exec, !amdgcn.m0, ...
class SpecialRegType : public mlir::Type::TypeBase<SpecialRegType, mlir::Type,
                                                   detail::SpecialRegTypeStorage> {
public:
  using Base::Base;
  static constexpr llvm::StringLiteral name = "amdgcn.special";
  static SpecialRegType get(mlir::MLIRContext *ctx, SpecialReg reg);
  SpecialReg getReg() const;
  unsigned getWidth() const { return specialRegWidth(getReg()); }
};

/// A kernel argument that points to global memory: !amdgcn.ptr<f32>.
class PtrType : public mlir::Type::TypeBase<PtrType, mlir::Type,
                                            detail::PtrTypeStorage> {
public:
  using Base::Base;
  static constexpr llvm::StringLiteral name = "amdgcn.ptr";
  static PtrType get(mlir::MLIRContext *ctx, mlir::Type elem);
  mlir::Type getElementType() const;
};

/// Alignment (in registers) the start of an allocated range of `width`
/// registers of `kind` must have on `targetBit` (ISA::TargetBit): SGPR pairs
/// 2, quads and more 4; VGPR/AGPR tuples 2 on gfx9 (gfx90a and later), none
/// on gfx12. The one rule used by the verifier and the register allocator.
unsigned requiredRegAlign(RegKind kind, unsigned width, uint8_t targetBit);

/// Any register value type (RegType or SpecialRegType).
bool isRegisterType(mlir::Type t);
/// Width in 32-bit registers of a register type (scc counts as 1).
unsigned registerWidth(mlir::Type t);
/// Assembly spelling of an allocated or special register type: v1, s[2:3], vcc.
std::string registerAsm(mlir::Type t);
/// The same for `width` registers of `kind` from `index`.
std::string registerAsm(RegKind kind, int index, unsigned width);

} // namespace aster::amdgcn

#endif
