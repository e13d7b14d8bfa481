// The schema of aster's instruction table: the single source for every
// amdgcn instruction op (its IR parser/printer and verifier), the assembly
// printer, the Python builder methods and the emulator dispatch.
// gen_isa.py reads the records (through `llvm-tblgen --dump-json`) and emits
// C++ and Python from them.

// ---- Targets --------------------------------------------------------------
class Target<string name, int wave> {
  string Name = name;
  int WaveSize = wave;
}
def gfx942  : Target<"gfx942", 64>;
def gfx950  : Target<"gfx950", 64>;
def gfx1201 : Target<"gfx1201", 32>;

defvar CDNA3 = [gfx942, gfx950];
defvar CDNA4 = [gfx950];
defvar ALL = [gfx942, gfx950, gfx1201];

// ---- Operands ---------------------------------------------------------------
// Cls is a set of letters naming what the operand may be:
//   v VGPR   s SGPR (also the special registers of the same width: vcc, exec,
//   m0, ...)   a AGPR   i inline constant   l 32-bit literal
//   (an operand with both i and l accepts any immediate of its type).
//   o  an immediate byte offset encoded in the instruction itself (SMEM
//      offset: 21-bit signed, printed in hex), neither inline nor literal.
// Width is in 32-bit registers. Ty is the value type, which selects the
// inline-constant table and literal encoding: b32 i32 u32 f32 f16 bf16 b16
// v2f16 v2bf16 v2i16 b64 u64 i64 f64.
// Optional operands print as `off` when absent; an instruction has at most one.
// AltWidth, when non-zero, is the width when the instruction's optional
// operand is present (global vaddr: 64-bit address, or 32-bit offset with saddr).
// TiedTo names a destination: the source is that destination's old value,
// which the hardware reads (read-modify-write: v_fmac, s_addk, v_writelane,
// returning buffer atomics). It is not written in the assembly and must be
// allocated the same register as the destination. Tied sources come last.
class Opd<string name, string cls, int width = 1, string ty = "b32",
          bit optional = 0, int altWidth = 0> {
  string Name = name;
  string Cls = cls;
  int Width = width;
  string Ty = ty;
  bit Optional = optional;
  int AltWidth = altWidth;
  string TiedTo = "";
}
// The old value of destination `dst` (see TiedTo).
class Tied<string dst, string cls, int width = 1, string ty = "b32">
    : Opd<dst # "_in", cls, width, ty> {
  let TiedTo = dst;
}

// ---- Modifiers --------------------------------------------------------------
// A modifier is an attribute of the op; Kind tells how it is written:
//   flag      unit attribute, printed as its name (sc0, nt, offen, clamp)
//   int       printed `name:N` when non-zero (offset, offset0, cbsz, ...)
//   hexint    like int but printed as LLVM prints such fields: hex above 10
//             (`bitop3:0x12`, `bitop3:9`)
//   pos       positional decimal immediate after the operands (s_nop 3)
//   hex16     positional 16-bit immediate printed in hex (s_movk_i32 s0, 0x1234)
//   bits      printed `name:[b0,b1,...]` when not Default; Len bits. An absent
//             attribute means Default; Default -1: always printed (absent: 0)
//   omod      output modifier: 1 -> `mul:2`, 2 -> `mul:4`, 3 -> `div:2`
//   srcneg    bitmask per source, printed as `-src` (VOP3 float)
//   srcabs    bitmask per source, printed as `|src|`
//   waitcnt   an s_waitcnt counter, printed `name(N)` when present
//   dpp       DPP control, printed as LLVM spells it (quad_perm:[..],
//             row_shl:N, row_shr:N, row_ror:N, wave_shl:1, wave_rol:1,
//             wave_shr:1, wave_ror:1, row_mirror, row_half_mirror,
//             row_bcast:15, row_bcast:31, row_newbcast:N); always printed,
//             absent = Default
//   hexmask   always printed `name:0xN` (absent = Default)
//   sel       SDWA select, always printed: BYTE_0..BYTE_3, WORD_0, WORD_1,
//             DWORD (0..6; absent = Default)
//   unused    SDWA dst_unused: UNUSED_PAD, UNUSED_SEXT, UNUSED_PRESERVE
//   srcsext   bitmask per source, printed as `sext(src)` (SDWA integer ops)
//   swizzle   ds_swizzle_b32's offset, printed `name:swizzle(MODE,...)` as LLVM
//             spells it (QUAD_PERM, BITMASK_PERM, SWAP, REVERSE, BROADCAST,
//             ROTATE, FFT) when not 0; a number when the pattern would read
//             back as another offset
//   hwreg     s_getreg/s_setreg field, `hwreg(NAME[, offset, size])`, written
//             right after the destinations
//   sendmsg   positional `sendmsg(MSG[, OP[, stream]])`
//   gpridx    positional `gpr_idx(SRC0,...,DST)` (VGPR index mode)
//   fixed     always printed as its name, not an attribute (the sc0 that
//             makes a gfx940 atomic return its pre-op value)
// NeedsOpt marks flags that select the instruction's optional operand (MUBUF
// offen/idxen: vaddr is present exactly when one of them is set).
class Mod<string name, string kind, int nbits = 16, int lo = 0, int hi = 65535,
          int len = 0, int dflt = 0> {
  string Name = name;
  string Kind = kind;
  int Bits = nbits;      // field width (for range checking)
  int Min = lo;
  int Max = hi;
  int Len = len;         // for `bits`: number of entries
  int Default = dflt;    // for `bits`: the value an absent attribute means
  bit NeedsOpt = 0;
}

// ---- Instructions -------------------------------------------------------------
// Dsts and Srcs are in assembly order (destinations first). Props:
//   SALU VALU SMEM VMEM LDS MFMA TRANS BRANCH TERMINATOR BARRIER WAITCNT
//   MAYLOAD MAYSTORE ATOMIC VMCNT LGKMCNT EXPCNT SIDE_EFFECT RETURNS
// (RETURNS: an atomic that writes the pre-op memory value back.)
// ImplicitDefs / ImplicitUses name special registers the hardware reads or
// writes without them being written in the assembly (scc, vcc, exec, m0).
// Successors is the number of block successors (branches).
class Inst<string mnemonic, string enc, list<Opd> dsts, list<Opd> srcs,
           list<Mod> mods = [], list<Target> targets = CDNA3,
           list<string> props = []> {
  string Mnemonic = mnemonic;
  string Encoding = enc;   // SOP1 SOP2 SOPK SOPC SOPP SMEM VOP1 VOP2 VOP3 VOPC
                           // VOP3P MFMA DS FLAT GLOBAL MUBUF
  list<Opd> Dsts = dsts;
  list<Opd> Srcs = srcs;
  list<Mod> Mods = mods;
  list<Target> Targets = targets;
  // The mnemonic in assembly when it differs from the table's (several
  // forms of one LLVM mnemonic: global_atomic_add_rtn prints global_atomic_add).
  string AsmName = "";
  list<string> Props = props;
  list<string> ImplicitDefs = [];
  list<string> ImplicitUses = [];
  int Successors = 0;
  // Timing (cc/emulator/timing): for MFMA/SMFMAC, the passes of 4 cycles the
  // SIMD's matrix core is busy (the issue interval of independent MFMAs of one
  // wave). Source: AMD's matrix instruction calculator "cycles" / 4 for
  // CDNA3 (the same counts as the HWXDL/HWVALU resource cycles of LLVM's
  // SISchedule.td gfx940 model, which tests/py/test_timing.py checks through
  // llvm-mca-22). 0 for everything else.
  int Passes = 0;
  // Short description shown in docstrings.
  string Doc = "";
}
