//===- ModSpelling.h - symbolic modifier values (DPP, SDWA, ...) ---------===//
//
// The spellings LLVM's AMDGPU syntax uses for DPP controls and SDWA selects,
// and their field values (AMD CDNA3 ISA, "DPP" and "SDWA" sections; LLVM's
// SIDefines.h DppCtrl / SdwaSel); the hwreg(...), sendmsg(...),
// swizzle(...) and gpr_idx(...) operands of gfx9 (CDNA3/CDNA4). Used by the
// asm printer and the raiser. The formatters print every 16-bit value as
// llvm-mc-22 disassembles it for gfx942/gfx950, except swizzle offsets whose
// LLVM text reads back as another offset, written as numbers
// (tests/py/test_raise_syntax.py compares all 65536 values of each).
//
//===----------------------------------------------------------------------===//
#ifndef ASTER_DIALECT_MODSPELLING_H
#define ASTER_DIALECT_MODSPELLING_H

#include "dialect/ISA.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace aster::ISA {

/// dpp_ctrl (0..0x15F) as LLVM prints it; empty for a reserved value.
std::string formatDppCtrl(unsigned v);
/// A printed DPP control token (`row_shr:1`, `quad_perm:[3,2,1,0]`, ...).
std::optional<unsigned> parseDppCtrl(llvm::StringRef tok);
/// True for the token names of DPP controls (row_shr, quad_perm, ...).
bool isDppCtrlName(llvm::StringRef name);

/// ds_swizzle_b32's offset as LLVM prints it (`swizzle(SWAP,1)`, ...); the
/// mode is picked from the bits as AMD's ISA defines them (bit 15: QUAD_PERM,
/// 0xc000: ROTATE, 0xe000: FFT, else and/or/xor lane masks), the name from
/// the masks as LLVM chooses it.
std::string formatSwizzle(unsigned v);
/// `swizzle(MODE,...)` back to the offset.
std::optional<unsigned> parseSwizzle(llvm::StringRef text);

/// SDWA select 0..6 (BYTE_0 .. DWORD) and dst_unused 0..2.
llvm::StringRef selName(unsigned v);
std::optional<unsigned> parseSel(llvm::StringRef s);
llvm::StringRef unusedName(unsigned v);
std::optional<unsigned> parseUnused(llvm::StringRef s);

/// The symbolic operands, by modifier kind: Hwreg (s_getreg/s_setreg field:
/// id[5:0], offset[10:6], size-1[15:11]), SendMsg (message[3:0],
/// operation[6:4], stream[9:8]), Swizzle (the ds_swizzle_b32 offset:
/// `swizzle(...)`, or the number when the pattern would read back as
/// another offset; "" for 0), GprIdx (VGPR index mode bits SRC0
/// 1, SRC1 2, SRC2 4, DST 8). The spelling of a value, and the value of a
/// spelling (nullopt when malformed or another kind).
std::string formatSymbolic(ModKind kind, unsigned v);
std::optional<unsigned> parseSymbolic(ModKind kind, llvm::StringRef tok);

} // namespace aster::ISA

#endif
