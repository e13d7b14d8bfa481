//===- InstText.h - one printed instruction matched against the table ----===//
//
// The one parser of instruction text in LLVM's AMDGPU syntax (as clang -S or
// LLVM's disassembler print it). It reads the syntax (registers, immediates,
// source modifiers, named modifiers) and matches the text against the
// table's rows that spell its mnemonic: operand count and roles, `off` only
// where the row has an optional operand, modifiers only the row's own. Users
// turn a match into what they need: the raiser into the row's op (its
// verifier then has the last word), the emulator's decoder into an
// executable instruction whose semantic is the row's. No MLIR here.
//
//===----------------------------------------------------------------------===//
#ifndef ASTER_DIALECT_INSTTEXT_H
#define ASTER_DIALECT_INSTTEXT_H

#include "dialect/ISA.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"

#include <string>

namespace aster::ISA {

/// One operand token: a register (tuple), a named operand (special register,
/// aperture, label), a number, `off`, or a symbolic operand of the row
/// (hwreg(...), sendmsg(...), gpr_idx(...)); with source modifiers.
struct TextOperand {
  enum Kind : uint8_t { Reg, Name, Int, Float, Off, Symbolic } kind = Int;
  char file = 0;          ///< Reg: 'v', 's', 'a' or 't' (ttmp)
  unsigned first = 0, count = 1;
  int64_t ival = 0;       ///< Int value; Symbolic: the field's value
  double fval = 0;        ///< Float value
  bool hex = false;       ///< Int written in hex (LLVM prints literals so)
  bool neg = false, abs = false, sext = false, lit = false;
  llvm::StringRef text;   ///< the token without its source modifiers
};

/// A named modifier of the row, with its value (flags: 1; op_sel-like bit
/// lists: bit i = element i; DPP controls, selects: the field value).
struct TextModifier {
  const ModDesc *desc;
  int64_t value;
  llvm::StringRef token;
};

/// A match of a text against one row.
struct InstText {
  const InstDesc *row = nullptr;
  llvm::StringRef mnemonic;  ///< as written (with _e32/_e64)
  llvm::StringRef suffix;    ///< "e32", "e64" or empty
  /// Positional tokens in written order: destinations, the hwreg(...) of
  /// s_getreg/s_setreg (lead), written sources, branch labels, positional
  /// modifiers (s_nop's count, `off`, sendmsg(...), gpr_idx(...)).
  llvm::SmallVector<TextOperand, 8> ops;
  unsigned numDsts = 0, numLead = 0, numSrcs = 0, numLabels = 0;
  llvm::SmallVector<TextModifier, 6> mods;

  llvm::ArrayRef<TextOperand> dsts() const { return llvm::ArrayRef(ops).take_front(numDsts); }
  /// The row's Hwreg modifier, written before the sources (0 or 1).
  llvm::ArrayRef<TextOperand> lead() const {
    return llvm::ArrayRef(ops).slice(numDsts, numLead);
  }
  llvm::ArrayRef<TextOperand> srcs() const {
    return llvm::ArrayRef(ops).slice(numDsts + numLead, numSrcs);
  }
  llvm::ArrayRef<TextOperand> labels() const {
    return llvm::ArrayRef(ops).slice(numDsts + numLead + numSrcs, numLabels);
  }
  /// Positional modifiers, in the order of the row's positional mods other
  /// than Hwreg (isPositionalMod).
  llvm::ArrayRef<TextOperand> posMods() const {
    return llvm::ArrayRef(ops).drop_front(numDsts + numLead + numSrcs + numLabels);
  }
  const TextModifier *mod(llvm::StringRef name) const;
};

/// The rows of one target by assembly mnemonic.
class RowIndex {
public:
  /// Built once per target and kept.
  static const RowIndex &forTarget(uint8_t targetBit);
  llvm::ArrayRef<const InstDesc *> rows(llvm::StringRef asmName) const;
  uint8_t target() const { return targetBit; }

private:
  explicit RowIndex(uint8_t targetBit);
  uint8_t targetBit;
  llvm::StringMap<llvm::SmallVector<const InstDesc *, 2>> byAsmName;
};

/// Splits `v_add_u32_e32` into (`v_add_u32`, `e32`).
std::pair<llvm::StringRef, llvm::StringRef> splitEncodingSuffix(llvm::StringRef mnemonic);

/// Matches `text` against the rows of `index` that spell its mnemonic, in
/// table order; calls `accept` with each row the text fits and stops at the
/// first it accepts (returns true). Otherwise `error` says why the first
/// candidate (or the last rejected one, if `accept` set `error`) failed.
bool matchInstText(llvm::StringRef text, const RowIndex &index,
                   llvm::function_ref<bool(const InstText &)> accept, std::string &error);

/// One operand token; false if it is none (then it is a modifier).
bool parseTextOperand(llvm::StringRef t, TextOperand &op);

/// Splits an operand list at top-level commas and spaces; `comma[i]` tells
/// whether token i was followed by a comma.
void tokenizeOperands(llvm::StringRef s, llvm::SmallVectorImpl<llvm::StringRef> &toks,
                      llvm::SmallVectorImpl<bool> &comma);

/// A relocation operand `sym@kind`, `sym@kind+N` or `sym@kind-N` (kind one
/// of rel32@lo, rel32@hi, gotpcrel32@lo, gotpcrel32@hi, abs32@lo,
/// abs32@hi): its parts. parseTextOperand reads it as a Name.
bool parseRelocText(llvm::StringRef t, llvm::StringRef &symbol, llvm::StringRef &kind,
                    int64_t &addend);

/// Parses a decimal or 0x-hex integer with an optional '-'.
bool parseAsmInteger(llvm::StringRef v, int64_t &out);
/// The value of an integer modifier: an integer or, for ds_swizzle_b32's
/// offset, a swizzle(...) pattern.
bool parseModifierInt(llvm::StringRef v, int64_t &out);

} // namespace aster::ISA

#endif
