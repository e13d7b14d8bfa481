//===- ISA.h - The instruction table, as data ---------------------------===//
//
// Types of the records generated from isa/*.td by gen_isa.py (InstTable.inc).
// Everything that knows about individual instructions (IR parser/printer,
// verifier, asm printer, Python builders, emulator dispatch) reads these.
//
//===----------------------------------------------------------------------===//
#ifndef ASTER_DIALECT_ISA_H
#define ASTER_DIALECT_ISA_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>

namespace aster::ISA {

/// What an operand slot accepts (bit set).
enum OpdClass : uint8_t {
  CLS_V = 1,   ///< VGPR
  CLS_S = 2,   ///< SGPR or special register of the same width
  CLS_A = 4,   ///< AGPR
  CLS_I = 8,   ///< inline constant
  CLS_L = 16,  ///< literal
  CLS_O = 32,  ///< byte offset immediate encoded in the instruction (SMEM)
};

/// Value type of an operand; selects inline constants and literal width.
enum class ValTy : uint8_t {
#define ASTER_VALTY(N) N,
#include "ValTypes.def"
};
llvm::StringRef valTyName(ValTy t);
/// Bits per element-lane of an immediate (16, 32 or 64).
unsigned valTyImmBits(ValTy t);
bool valTyIsFloat(ValTy t);

struct OperandDesc {
  const char *name;
  uint8_t cls;    ///< OpdClass bits
  uint8_t width;  ///< in 32-bit registers
  ValTy ty;
  bool optional;  ///< printed as `off` when absent
  uint8_t altWidth; ///< width when the optional operand is present (0: same)
  int8_t tiedTo;    ///< for a source: index of the destination whose old value
                    ///< it is (same register, not printed); -1 otherwise
  unsigned widthFor(bool optionalPresent) const {
    return optionalPresent && altWidth ? altWidth : width;
  }
};

enum class ModKind : uint8_t {
  Flag, Int, HexInt, Pos, Hex16, Bits, Omod, SrcNeg, SrcAbs, Waitcnt,
  Fixed, ///< always printed as its name; never an attribute
  Dpp,     ///< DPP control (dpp_ctrl), printed symbolically (row_shr:1, ...)
  HexMask, ///< always printed as `name:0xN` (DPP row_mask, bank_mask)
  Sel,     ///< SDWA operand select: BYTE_0..3, WORD_0/1, DWORD
  Unused,  ///< SDWA dst_unused: UNUSED_PAD, UNUSED_SEXT, UNUSED_PRESERVE
  SrcSext, ///< bitmask per source, printed as `sext(src)` (SDWA integer)
  FixedPos, ///< always printed as its name, after the operands (`off`)
  Hwreg,   ///< s_getreg/s_setreg field, `hwreg(NAME[, offset, size])`, written
           ///< right after the destinations (before the sources)
  SendMsg, ///< s_sendmsg message, `sendmsg(MSG[, OP[, stream]])`, positional
  Swizzle, ///< ds_swizzle_b32 pattern, `offset:swizzle(...)` when non-zero
  GprIdx,  ///< VGPR index mode, `gpr_idx(SRC0,...,DST)`, positional
};
/// Kinds written as positional operands after the sources (or, Hwreg, after
/// the destinations).
inline bool isPositionalMod(ModKind k) {
  return k == ModKind::Pos || k == ModKind::Hex16 || k == ModKind::FixedPos ||
         k == ModKind::Hwreg || k == ModKind::SendMsg || k == ModKind::GprIdx;
}
/// Kinds that are part of the form (printed as their name), never attributes.
inline bool isFixedMod(ModKind k) { return k == ModKind::Fixed || k == ModKind::FixedPos; }

struct ModDesc {
  const char *name;  ///< attribute name, and spelling in assembly
  ModKind kind;
  uint8_t bits;
  int32_t min, max;
  uint8_t len;       ///< entries for ModKind::Bits
  int32_t def;       ///< ModKind::Bits: value of an absent attribute (-1:
                     ///< absent means 0 and the field is always printed)
  bool needsOpt;     ///< a flag that selects the optional operand (offen)
};

enum class Enc : uint8_t {
#define ASTER_ENC(N) N,
#include "Encodings.def"
};
llvm::StringRef encName(Enc e);

enum Prop : uint32_t {
#define ASTER_PROP(N, B) PROP_##N = 1u << B,
#include "Props.def"
};

/// Special registers read or written implicitly.
enum Implicit : uint8_t { IMP_SCC = 1, IMP_VCC = 2, IMP_EXEC = 4, IMP_M0 = 8 };

/// Targets (bit per target); see isa/Schema.td.
enum TargetBit : uint8_t { T_GFX942 = 1, T_GFX950 = 2, T_GFX1201 = 4 };
/// Returns 0 for an unknown target name.
uint8_t targetBit(llvm::StringRef name);
llvm::StringRef targetName(uint8_t bit);
unsigned targetWaveSize(uint8_t bit);
constexpr uint8_t kAllTargets = T_GFX942 | T_GFX950 | T_GFX1201;

struct InstDesc {
  const char *mnemonic;
  Enc enc;
  uint16_t firstDst, numDsts;
  uint16_t firstSrc, numSrcs;
  uint16_t firstMod, numMods;
  uint8_t targets;
  uint32_t props;
  uint8_t implicitDefs, implicitUses;
  uint8_t successors;
  const char *doc;
  const char *asmName; ///< mnemonic in assembly (differs for e.g. `_rtn` forms)

  llvm::ArrayRef<OperandDesc> dsts() const;
  llvm::ArrayRef<OperandDesc> srcs() const;
  /// Modifier descriptors of this instruction, in assembly order.
  llvm::ArrayRef<const ModDesc *> mods() const;
  bool has(Prop p) const { return props & p; }
  bool validOn(uint8_t targetBit) const { return targets & targetBit; }
  /// Index of the optional source operand, or -1.
  int optionalSrc() const;
  /// Sources written in the assembly (tied sources come last and are not).
  unsigned numAsmSrcs() const;
  unsigned index() const;
};

llvm::ArrayRef<InstDesc> instructions();
/// nullptr when no instruction has this mnemonic.
const InstDesc *lookup(llvm::StringRef mnemonic);

} // namespace aster::ISA

#endif
