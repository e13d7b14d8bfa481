// Modifiers shared by many instructions (see Schema.td for the kinds).
// An instruction lists its modifiers in the order LLVM prints them.

// Cache policy bits (gfx940+ names), in LLVM's print order.
def sc0 : Mod<"sc0", "flag">;
def nt  : Mod<"nt", "flag">;
def sc1 : Mod<"sc1", "flag">;
defvar CPol = [sc0, nt, sc1];
// A gfx940 atomic returns the pre-op value exactly when sc0 is set; the
// returning forms are separate records that always print it.
def sc0_rtn : Mod<"sc0", "fixed">;
defvar CPolRtn = [sc0_rtn, nt, sc1];
defvar CPolNoRtn = [nt, sc1];
// Scalar memory on gfx940 still spells its one policy bit glc.
def glc : Mod<"glc", "flag">;
def off_saddr : Mod<"off", "fixedpos">;   // an absent scratch saddr

// Memory offsets.
def GlobalOffset : Mod<"offset", "int", 13, -4096, 4095>;
def FlatOffset   : Mod<"offset", "int", 12, 0, 4095>;
def MubufOffset  : Mod<"offset", "int", 12, 0, 4095>;
def DSOffset     : Mod<"offset", "int", 16, 0, 65535>;
def DSOffset0    : Mod<"offset0", "int", 8, 0, 255>;
def DSOffset1    : Mod<"offset1", "int", 8, 0, 255>;
def SwizzleOffset : Mod<"offset", "swizzle", 16, 0, 65535>;
def Gfx12Offset  : Mod<"offset", "int", 24, -8388608, 8388607>;
// MUBUF addressing: vaddr is present exactly when one of these is set.
def idxen : Mod<"idxen", "flag"> { let NeedsOpt = 1; }
def offen : Mod<"offen", "flag"> { let NeedsOpt = 1; }
defvar MubufAddr = [idxen, offen, MubufOffset];

// VALU result and source modifiers (VOP3 encoding).
def clamp : Mod<"clamp", "flag">;
def omod  : Mod<"omod", "omod", 2, 0, 3>;
def neg   : Mod<"neg", "srcneg", 3, 0, 7>;
def abs   : Mod<"abs", "srcabs", 3, 0, 7>;
defvar FMods = [clamp, omod, neg, abs];
defvar SrcMods = [neg, abs];

// VOP3P packed-math selectors (one bit per source). op_sel_hi defaults to
// all ones: the high halves come from the high halves.
def op_sel2    : Mod<"op_sel", "bits", 2, 0, 3, 2>;
def op_sel_hi2 : Mod<"op_sel_hi", "bits", 2, 0, 3, 2, 3>;
def neg_lo2    : Mod<"neg_lo", "bits", 2, 0, 3, 2>;
def neg_hi2    : Mod<"neg_hi", "bits", 2, 0, 3, 2>;
def op_sel3    : Mod<"op_sel", "bits", 3, 0, 7, 3>;
def op_sel_hi3 : Mod<"op_sel_hi", "bits", 3, 0, 7, 3, 7>;
def neg_lo3    : Mod<"neg_lo", "bits", 3, 0, 7, 3>;
def neg_hi3    : Mod<"neg_hi", "bits", 3, 0, 7, 3>;
def op_sel4    : Mod<"op_sel", "bits", 4, 0, 15, 4>;
defvar PkMods2 = [op_sel2, op_sel_hi2, neg_lo2, neg_hi2, clamp];
defvar PkMods3 = [op_sel3, op_sel_hi3, neg_lo3, neg_hi3, clamp];
defvar PkIntMods2 = [op_sel2, op_sel_hi2, clamp];
defvar PkIntMods3 = [op_sel3, op_sel_hi3, clamp];

// MFMA broadcast controls.
def cbsz : Mod<"cbsz", "int", 3, 0, 7>;
def abid : Mod<"abid", "int", 4, 0, 15>;
def blgp : Mod<"blgp", "int", 3, 0, 7>;
defvar MfmaMods = [cbsz, abid, blgp];
def mfma_neg : Mod<"neg", "bits", 3, 0, 7, 3>;
// f8f6f4 MFMAs reuse cbsz/blgp as the A/B formats (0 fp8, 1 bf8, 2 fp6,
// 3 bf6, 4 fp4) and the format sets the source width (8, 6 or 4 registers):
// one form per width pair, each with the formats of its widths (an absent
// attribute means the first; it is always printed when not 0).
def cbsz_f8 : Mod<"cbsz", "int", 3, 0, 1>;
def blgp_f8 : Mod<"blgp", "int", 3, 0, 1>;
def cbsz_f6 : Mod<"cbsz", "int", 3, 2, 3, 0, 2>;
def blgp_f6 : Mod<"blgp", "int", 3, 2, 3, 0, 2>;
def cbsz_f4 : Mod<"cbsz", "int", 3, 4, 4, 0, 4>;
def blgp_f4 : Mod<"blgp", "int", 3, 4, 4, 0, 4>;
class F8F6F4Mods<int wa, int wb> {
  list<Mod> r = [!if(!eq(wa, 8), cbsz_f8, !if(!eq(wa, 6), cbsz_f6, cbsz_f4)),
                 !if(!eq(wb, 8), blgp_f8, !if(!eq(wb, 6), blgp_f6, blgp_f4))];
}
// Scaled MFMAs pick the scale bytes with op_sel/op_sel_hi (always printed).
def op_sel_mx    : Mod<"op_sel", "bits", 2, 0, 3, 3>;
def op_sel_hi_mx : Mod<"op_sel_hi", "bits", 2, 0, 3, 3, -1>;
// v_bitop3: the truth table of the three-input bitwise function.
def bitop3 : Mod<"bitop3", "hexint", 8, 0, 255>;

// DPP: the lane permutation of src0, rows (16 lanes) and banks (4 rows)
// written, and whether a disabled/out-of-range source lane reads 0.
def dpp_ctrl   : Mod<"dpp_ctrl", "dpp", 9, 0, 351, 0, 228>;   // absent: quad_perm:[0,1,2,3]
def row_mask   : Mod<"row_mask", "hexmask", 4, 0, 15, 0, 15>;
def bank_mask  : Mod<"bank_mask", "hexmask", 4, 0, 15, 0, 15>;
def bound_ctrl : Mod<"bound_ctrl", "int", 1, 0, 1>;
defvar DppMods = [dpp_ctrl, row_mask, bank_mask, bound_ctrl];
// SDWA: which byte/word of each 32-bit operand is used, and what happens to
// the destination bits not written.
def dst_sel    : Mod<"dst_sel", "sel", 3, 0, 6, 0, 6>;
def dst_unused : Mod<"dst_unused", "unused", 2, 0, 2, 0, 0>;
def src0_sel   : Mod<"src0_sel", "sel", 3, 0, 6, 0, 6>;
def src1_sel   : Mod<"src1_sel", "sel", 3, 0, 6, 0, 6>;
def sext       : Mod<"sext", "srcsext", 2, 0, 3>;

// SOPP/SOPK immediates.
def simm16 : Mod<"imm", "hex16", 16, -32768, 65535>;
def prio   : Mod<"imm", "pos", 2, 0, 3>;
def sleep  : Mod<"imm", "pos", 7, 0, 127>;
def nopcnt : Mod<"imm", "pos", 4, 0, 15>;
def trapid : Mod<"imm", "pos", 8, 0, 255>;
def perfcnt : Mod<"imm", "pos", 4, 0, 15>;
def killbit : Mod<"imm", "pos", 1, 0, 1>;
// Symbolic operands of gfx9 program control (see ModSpelling.h for the
// spellings): hwreg(...) (id | offset << 6 | (size - 1) << 11; default the
// whole MODE register), sendmsg(...) (default MSG_INTERRUPT), gpr_idx(...)
// (SRC0 1, SRC1 2, SRC2 4, DST 8). ds_swizzle_b32's offset is SwizzleOffset.
def hwreg   : Mod<"hwreg", "hwreg", 16, 0, 65535, 0, 0xf801>;
def sendmsg : Mod<"sendmsg", "sendmsg", 16, 0, 65535, 0, 1>;
def gpr_idx : Mod<"gpr_idx", "gpridx", 4, 0, 15, 0, 9>;
// s_waitcnt counters (gfx9 encoding): an absent counter is not waited on.
def vmcnt   : Mod<"vmcnt", "waitcnt", 6, 0, 63>;
def expcnt  : Mod<"expcnt", "waitcnt", 3, 0, 7>;
def lgkmcnt : Mod<"lgkmcnt", "waitcnt", 4, 0, 15>;

// The VOP3 modifiers of a VALU operation with result type D and source types
// S: clamp and output modifier for a float result, neg/abs for float sources.
// Registers of a value of type t (64-bit types take a pair).
class W<string ty> {
  int r = !if(!or(!eq(ty, "f64"), !eq(ty, "b64"), !eq(ty, "u64"), !eq(ty, "i64"),
                  !eq(ty, "v2f32")), 2, 1);
}
class IsFloat<string t> {
  bit r = !or(!eq(t, "f16"), !eq(t, "bf16"), !eq(t, "f32"), !eq(t, "f64"));
}
class VMods<string d, list<string> s> {
  list<Mod> r = !listconcat(!if(IsFloat<d>.r, [clamp, omod], []),
                            !if(!foldl(0, s, acc, t, !or(acc, IsFloat<t>.r)),
                                SrcMods, []));
}

// A (name, number) pair for foreach lists (TableGen lists are homogeneous).
class P<string s, int n, list<Target> t = CDNA3> {
  string S = s;
  int N = n;
  list<Target> T = t;
}
