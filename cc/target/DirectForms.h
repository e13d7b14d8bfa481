//===- DirectForms.h - instruction forms learned from LLVM's matcher -----===//
//
// A *form* is what every op of one table row, register pattern, immediates
// and modifiers becomes as an MCInst: an opcode and operands, some of them
// the op's registers (slots) or successors (labels). It is learned once per
// process by letting LLVM's own assembler parse two sample lines of the form
// with different registers: the MCInst of the first, checked against the
// second with the registers swapped (so e32/e64, literal and modifier choices
// are exactly LLVM's).
//
//===----------------------------------------------------------------------===//
#ifndef ASTER_TARGET_DIRECTFORMS_H
#define ASTER_TARGET_DIRECTFORMS_H

#include "dialect/Types.h"
#include "target/MCTarget.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <string>
#include <vector>

namespace llvm {
class MCContext;
class MCExpr;
} // namespace llvm

namespace aster::target::direct {

using amdgcn::RegKind;

/// One operand of a learned MCInst: a constant, or the place of one of the
/// op's registers (Slot), successors (Label) or relocation operands (Sym:
/// `sym@kind+addend` of an amdgcn.reloc, the symbol the op's own).
struct TOp {
  enum Kind : uint8_t { Reg, Imm, SFPImm, DFPImm, Slot, Label, Sym } kind;
  enum ExprShape : uint8_t { SymOnly, SymPlus, SymMinus };
  uint32_t index = 0; ///< Slot: register operand; Label: successor; Sym: reloc operand
  int64_t value = 0;  ///< Reg, Imm, SFPImm, DFPImm; Sym: the MC specifier
  ExprShape shape = SymOnly; ///< Sym: how the addend is written
  int64_t addend = 0;        ///< Sym: its magnitude
};

/// The expression of a Sym operand for `symbol`.
const llvm::MCExpr *symbolExpr(const TOp &t, llvm::StringRef symbol, llvm::MCContext &ctx);

/// What every op of one form becomes.
struct Form {
  bool ok = false;
  bool hasLabel = false; ///< a label or a symbol operand (not cached as bytes)
  unsigned opcode = 0, flags = 0;
  unsigned numSlots = 0; ///< registers of the op (its RegRefs)
  llvm::SmallVector<TOp, 8> ops;
};

/// An allocated register operand, in assembly order.
struct RegRef {
  RegKind kind;
  int index;
  unsigned width;
  bool operator==(const RegRef &o) const {
    return kind == o.kind && index == o.index && width == o.width;
  }
};

/// Sample registers for a form: the op's pattern of equal registers, each
/// new one at the next free index from `base` (aligned to 4).
std::vector<RegRef> sampleRegs(llvm::ArrayRef<RegRef> regs, int base);

/// The label a sample line uses for successor `i`.
std::string sampleLabel(unsigned i);

/// Parses the sample lines (two per form: `printable` says which forms have
/// them; `sampleMC` the MC registers of each line) with LLVM's assembler; the
/// form learned from each pair (not ok where the pair does not agree).
std::vector<Form> parseSamples(const MCTarget &t, const std::string &text,
                               llvm::ArrayRef<std::vector<unsigned>> sampleMC,
                               const std::vector<bool> &printable);

} // namespace aster::target::direct

#endif
