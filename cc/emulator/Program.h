//===- Program.h - pre-decoded instructions -------------------------------===//
//
// A code object's text is decoded once (Decoder.cpp) into an array of Inst:
// operands resolved to register indices or immediate values of the type the
// semantic expects, modifiers in fields, branch targets as indices, and the
// semantic function to call. Executing an instruction is one indirect call.
//
//===----------------------------------------------------------------------===//
#ifndef ASTER_EMULATOR_PROGRAM_H
#define ASTER_EMULATOR_PROGRAM_H

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

namespace aster::emu {

struct Wave;
struct Inst;
using SemFn = void (*)(Wave &, const Inst &);

/// Scalar register file indices (hardware operand encoding).
enum SReg : uint16_t {
  SR_FLAT_SCRATCH = 102, SR_XNACK = 104, SR_VCC = 106, SR_TTMP0 = 108,
  SR_M0 = 124, SR_NULL = 125, SR_EXEC = 126, SR_COUNT = 128
};
/// Registers in the VGPR array: 256 architectural + scratch ones used by
/// the SDWA/DPP wrappers.
constexpr unsigned kNumVgprs = 256, kScratchVgpr = 256, kNumVgprSlots = 264;
/// MODE register bit of VSKIP (gfx9 SQ_WAVE_MODE).
constexpr unsigned kModeVskipBit = 28;
constexpr unsigned kNumAgprs = 256;

enum class OpKind : uint8_t { None, S, V, A, Imm };
enum OpMod : uint8_t { MOD_NEG = 1, MOD_ABS = 2, MOD_SEXT = 4 };

struct Opnd {
  OpKind kind = OpKind::None;
  uint8_t count = 0;  ///< registers (1 for immediates)
  uint8_t mods = 0;   ///< OpMod bits
  uint16_t reg = 0;
  uint64_t imm = 0;   ///< value for Imm, already extended for the source type
  bool isReg() const { return kind == OpKind::S || kind == OpKind::V || kind == OpKind::A; }
  bool isVector() const { return kind == OpKind::V || kind == OpKind::A; }
};

/// Instruction modifier flags.
enum InstFlag : uint32_t {
  IF_SC0 = 1u << 0,   ///< sc0 (glc): returning atomics, coherence
  IF_SC1 = 1u << 1,
  IF_NT = 1u << 2,
  IF_OFFEN = 1u << 3,
  IF_IDXEN = 1u << 4,
  IF_LDS = 1u << 5,
  IF_GDS = 1u << 6,
  IF_CLAMP = 1u << 7,
  IF_TFE = 1u << 8,
  IF_BOUND_CTRL = 1u << 9,
  IF_SDWA = 1u << 10,
  IF_DPP = 1u << 11,
  IF_VOP3 = 1u << 12,  ///< _e64 form
  IF_MATRIX = 1u << 13, ///< a dense MFMA (SF_MATRIX_JOB, MatrixThread.h)
  IF_FI = 1u << 14,     ///< fi:1 (v_permlane*_swap_b32: fetch inactive lanes)
};

/// Instruction classes, for statistics and the s_waitcnt model.
enum class ICls : uint8_t { SALU, VALU, SMEM, VMEM, LDS, MFMA, BRANCH, OTHER };
/// Which counter a load's result waits on.
enum class MemKind : uint8_t { None, VM, LDS, SMEM };

struct RegRange {
  uint16_t first;  ///< tracking index: SGPR n, 128 + VGPR n, 384 + AGPR n
  uint8_t count;
};
constexpr unsigned kTrackV = 128, kTrackA = 384, kTrackCount = 640;

/// SDWA operand selects.
enum SdwaSel : uint8_t { SEL_B0, SEL_B1, SEL_B2, SEL_B3, SEL_W0, SEL_W1, SEL_DWORD };
enum SdwaUnused : uint8_t { UNUSED_PAD, UNUSED_SEXT, UNUSED_PRESERVE };

struct Inst {
  SemFn fn = nullptr;
  const Inst *inner = nullptr;  ///< SDWA/DPP: the plain operation
  uint64_t pc = 0;              ///< address in the code object
  uint32_t index = 0, next = 0; ///< position in Program::insts, fallthrough
  uint32_t target = 0;          ///< branch target index
  uint8_t nop = 0, ndst = 0;
  Opnd op[6];                   ///< destinations, then sources
  uint32_t flags = 0;
  int32_t offset = 0;
  uint8_t offset0 = 0, offset1 = 0;
  uint8_t omod = 0, opsel = 0, opselHi = 0, negLo = 0, negHi = 0;
  uint8_t cbsz = 0, abid = 0, blgp = 0;
  uint8_t vmcnt = 63, lgkmcnt = 15, expcnt = 7;
  uint8_t sel[3] = {SEL_DWORD, SEL_DWORD, SEL_DWORD};  ///< SDWA src0, src1, dst
  uint8_t dstUnused = UNUSED_PAD;
  uint16_t dppCtrl = 0;
  uint8_t rowMask = 0xf, bankMask = 0xf;
  ICls cls = ICls::OTHER;
  MemKind mem = MemKind::None;   ///< set on loads that write registers
  uint8_t nreads = 0, nwrites = 0;
  RegRange reads[8];
  RegRange writes[3];
  uint32_t aux = 0;              ///< semantic-specific data

  const Opnd &dst(unsigned i = 0) const { return op[i]; }
  const Opnd &src(unsigned i) const { return op[ndst + i]; }
  unsigned nsrc() const { return nop - ndst; }
  bool has(InstFlag f) const { return flags & f; }
};

/// The decoded text of a code object.
class Program {
public:
  std::vector<Inst> insts;
  std::vector<std::string> text;      ///< printed instruction, per index
  std::vector<std::string> problems;  ///< why an index cannot execute ("" if ok)
  std::deque<Inst> wrapped;           ///< inner instructions of SDWA/DPP
  uint64_t base = 0, end = 0;         ///< address range of the decoded text
  std::vector<int32_t> pcIndex;       ///< (pc - base) / 4 -> index, or -1
  bool gfx950 = false;                ///< gfx950 code (OCP fp8/bf8 meanings)
  /// Some instruction (or SDWA/DPP inner one) names an AGPR: without one, no
  /// semantic reads or writes Wave::a and a wave's start leaves it as it is.
  bool usesAgprs = false;
  /// What the timing model derives from the decoded text, made at its first
  /// timed launch and kept for the next ones (timing/InstInfo.h:
  /// programFacts; a code object is loaded once and launched many times).
  mutable std::shared_ptr<const void> timingFacts;

  int64_t indexOf(uint64_t pc) const {
    if (pc < base || pc >= end || (pc & 3))
      return -1;
    return pcIndex[(pc - base) / 4];
  }
};

} // namespace aster::emu

#endif
