//===- AsmText.h - parsing printed AMDGPU instructions --------------------===//
//
// The decoder prints every instruction with LLVM's MCInstPrinter and parses
// the text back into operands and modifiers; this is that parser. It knows
// the syntax only (registers, immediates, modifiers), not the instructions.
//
//===----------------------------------------------------------------------===//
#ifndef ASTER_EMULATOR_ASMTEXT_H
#define ASTER_EMULATOR_ASMTEXT_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace aster::emu {

struct AsmOperand {
  enum Kind : uint8_t {
    SGPR,       ///< s[n:m], ttmp, vcc, exec, m0, ... as scalar-file index
    VGPR,
    AGPR,
    Int,        ///< integer immediate
    Float,      ///< floating-point inline constant (value in `fval`)
    Off,        ///< `off`: an absent optional address operand
    Aperture,   ///< src_shared_base & co. (`ival` = 0 shared base, 1 shared
                ///< limit, 2 private base, 3 private limit)
    Hwreg,      ///< hwreg(ID, offset, size), encoded as s_getreg's simm16
  } kind = Int;
  unsigned reg = 0, count = 1;
  int64_t ival = 0;
  double fval = 0;
  bool hex = false;       ///< integer written in hex (a literal)
  bool inv2pi = false;    ///< the 1/(2*pi) inline constant
  bool neg = false, abs = false, sext = false;
};

struct AsmModifier {
  std::string name;   ///< "offset", "sc0", "op_sel", "vmcnt", ...
  std::string value;  ///< text after ':' or inside '(...)'; empty for flags
};

struct AsmInst {
  std::string mnemonic;
  llvm::SmallVector<AsmOperand, 6> operands;
  llvm::SmallVector<AsmModifier, 6> modifiers;
};

/// Parses one printed instruction. Returns an error message, or "" on success.
std::string parseAsm(llvm::StringRef text, AsmInst &out);

/// Parses "[a,b,c]" (or a plain integer) into bits: element i -> bit i.
bool parseBitList(llvm::StringRef v, unsigned &bits);
/// Parses a decimal or 0x-hex integer, with optional '-'.
bool parseInteger(llvm::StringRef v, int64_t &out);

} // namespace aster::emu

#endif
