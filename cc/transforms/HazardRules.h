//===- HazardRules.h - wait states the hardware does not interlock --------===//
//
// The facts behind insertHazardNops (Hazards.h): what one instruction reads
// and writes, in hardware registers (not SSA values), and how many wait states
// must separate two instructions on gfx942 / gfx950. The numbers and their
// sources are in HazardRules.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef ASTER_TRANSFORMS_HAZARDRULES_H
#define ASTER_TRANSFORMS_HAZARDRULES_H

#include "dialect/ISA.h"

#include "mlir/IR/Operation.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

namespace aster::hazards {

/// Register files as the rules see them. Special registers share one file:
/// vcc_lo 0, vcc_hi 1, exec_lo 2, exec_hi 3, m0 4, scc 5, flat_scratch 6-7.
enum class RegFile : uint8_t { V, S, A, Special };

/// The registers lo..hi (inclusive) of one file.
struct RegRange {
  RegFile file;
  uint16_t lo, hi;
  bool overlaps(const RegRange &o) const {
    return file == o.file && lo <= o.hi && o.lo <= hi;
  }
  bool operator==(const RegRange &o) const {
    return file == o.file && lo == o.lo && hi == o.hi;
  }
};

/// The hardware registers a value of type `t` names (an allocated RegType or
/// a special register), or nullopt (virtual register, immediate, ...).
std::optional<RegRange> rangeOf(mlir::Type t);
/// Calls `add` for each special register of an ISA::Implicit bit set
/// (InstDesc::implicitUses / implicitDefs).
void addImplicit(uint8_t bits, llvm::function_ref<void(RegRange)> add);

/// How a source is read, where a rule depends on it.
enum class ReadRole : uint8_t {
  Plain,
  SrcC,       ///< the accumulator of an MFMA or v_dot* (src2, or the tied vdst)
  LaneSelect, ///< the lane operand of v_readlane_b32 / v_writelane_b32
  LaneSource, ///< the VGPR read by v_readlane_b32 / v_readfirstlane_b32
  Implicit,   ///< read without being an operand (exec, vcc, m0 of the row)
};
struct Read {
  RegRange reg;
  ReadRole role;
};

/// What the rules need to know about one op.
struct InstFacts {
  /// Wait states the op provides to the instructions after it: s_nop k
  /// counts k+1, any other instruction 1, ops that emit nothing (amdgcn.reg,
  /// constants, cf.br) 0.
  unsigned waitStates = 0;
  bool valu = false;  ///< VALU other than MFMA (v_accvgpr_read/write included)
  bool mfma = false;  ///< MFMA or SMFMAC
  bool dgemm = false; ///< an f64 MFMA
  unsigned passes = 0; ///< MFMA passes (mfmaPasses)
  bool salu = false;
  bool vmem = false;   ///< buffer, global, scratch or flat
  bool smem = false;   ///< scalar memory
  bool store = false;  ///< writes memory
  bool lds = false;    ///< DS
  bool readsM0Late = false; ///< reads m0 without interlock (mnemonicReadsM0Late)
  bool divFmas = false;     ///< v_div_fmas_*: reads vcc
  bool rwLane = false;      ///< v_readlane_b32 / v_writelane_b32
  bool lanes = false;       ///< rwLane or v_readfirstlane_b32
  bool dpp = false;         ///< a DPP form (src0 read across lanes)
  bool dot = false;         ///< v_dot* (LLVM's isDOT)
  uint16_t row = 0;         ///< the table row (same instruction: same row)
  /// Hardware registers: the hwreg id an s_setreg writes / an s_getreg
  /// reads (-1: none); MODE.VSKIP set by s_setvskip or an s_setreg of MODE
  /// covering bit 28; s_setvskip itself.
  int8_t setHwreg = -1, getHwreg = -1;
  bool setsVskip = false, setvskip = false;
  /// Could be the first instruction of some rule (worth keeping in history).
  bool producer = false;
  /// Passes control to code this analysis does not see (s_swappc_b64 calls,
  /// s_setpc_b64 returns and jumps): every pending hazard is resolved before
  /// it, so the code on the other side may start from an empty history.
  bool boundary = false;
  /// Its hazards are to be padded (set by insertHazardNops from mayPad).
  bool pad = false;
  /// No rule asks for more wait states after it than this (reachOf).
  uint8_t reach = 0;
  /// Writes a special register (exec, vcc, m0, ...): rules that need no
  /// common register with the later instruction.
  bool writesSpecial = false;
  /// Register signatures (a bit per register, hashed): `sigOut` of what a
  /// rule may find in the first instruction (writes, srcC reads, wide store
  /// data), `sigIn` of what it may find in the second (reads, writes). Two
  /// instructions with disjoint signatures, the first writing no special
  /// register, need no wait states (mayInteract).
  uint64_t sigOut = 0, sigIn = 0;
  llvm::SmallVector<Read, 6> reads;
  llvm::SmallVector<RegRange, 2> writes;
  /// Store data wider than 64 bits (VMEM): the registers a VALU must not
  /// overwrite right after the store.
  std::optional<RegRange> wideStoreData;
};

/// Reads and writes of `op` in hardware registers: sources and results of
/// allocated (RegType with an index) or special register type, and the
/// implicit ones of its instruction-table row. Virtual registers are not
/// seen (the analysis needs an allocated kernel).
InstFacts describe(mlir::Operation *op, uint8_t targetBit);

/// Passes (4 cycles each) of an MFMA/SMFMAC on `targetBit`, from its shape.
unsigned mfmaPasses(llvm::StringRef mnemonic, uint8_t targetBit);

/// False only if requiredWaitStates(first, second) is 0 for sure (a quick
/// test on the signatures).
inline bool mayInteract(const InstFacts &first, const InstFacts &second) {
  return first.writesSpecial || first.setHwreg >= 0 || first.setsVskip ||
         (first.sigOut & second.sigIn);
}

/// Wait states that must separate `first` from a later `second` on
/// `targetBit` (0 when no rule applies).
unsigned requiredWaitStates(const InstFacts &first, const InstFacts &second,
                            uint8_t targetBit);

/// A soft clause: consecutive VMEM (or consecutive SMEM) instructions, with
/// the registers they write and read. With XNACK replay, an instruction of a
/// clause may be issued again after later ones, so a clause must not read a
/// register it writes.
struct Clause {
  enum Kind : uint8_t { None, VMem, SMem } kind = None;
  llvm::SmallVector<RegRange, 8> defs, uses;
  bool pad = false; ///< some instruction of it has `pad`
  /// Adds `f` (which ends the clause if it is of another kind).
  void add(const InstFacts &f);
  /// Adds another clause (a predecessor's tail) to this one.
  void merge(const Clause &other);
};
/// Wait states `f` needs to break `c` (0 or 1).
unsigned clauseWaitStates(const Clause &c, const InstFacts &f);

/// No rule asks for more wait states than this (gfx950: 16-pass MFMA write,
/// then a read as srcA/B).
constexpr unsigned kMaxWaitStates = 20;

} // namespace aster::hazards

#endif
