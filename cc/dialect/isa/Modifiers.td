// Modifiers shared by many instructions (see Schema.td for the kinds).

// Cache policy bits (gfx940+ names).
def sc0 : Mod<"sc0", "flag">;
def sc1 : Mod<"sc1", "flag">;
def nt  : Mod<"nt", "flag">;
defvar CPol = [sc0, sc1, nt];

// Memory offsets.
def GlobalOffset : Mod<"offset", "int", 13, -4096, 4095>;
def MubufOffset  : Mod<"offset", "int", 12, 0, 4095>;
def DSOffset     : Mod<"offset", "int", 16, 0, 65535>;
def DSOffset0    : Mod<"offset0", "int", 8, 0, 255>;
def DSOffset1    : Mod<"offset1", "int", 8, 0, 255>;
def gds   : Mod<"gds", "flag">;
def offen : Mod<"offen", "flag">;
def idxen : Mod<"idxen", "flag">;
def lds   : Mod<"lds", "flag">;

// VALU result and source modifiers.
def clamp : Mod<"clamp", "flag">;
def omod  : Mod<"omod", "omod", 2, 0, 3>;
def neg   : Mod<"neg", "srcneg", 3, 0, 7>;
def abs   : Mod<"abs", "srcabs", 3, 0, 7>;
defvar FMods = [clamp, omod, neg, abs];

// VOP3P packed-math selectors (one bit per source).
def op_sel2    : Mod<"op_sel", "bits", 2, 0, 3, 2>;
def op_sel_hi2 : Mod<"op_sel_hi", "bits", 2, 0, 3, 2>;
def neg_lo2    : Mod<"neg_lo", "bits", 2, 0, 3, 2>;
def neg_hi2    : Mod<"neg_hi", "bits", 2, 0, 3, 2>;
def op_sel3    : Mod<"op_sel", "bits", 3, 0, 7, 3>;
def op_sel_hi3 : Mod<"op_sel_hi", "bits", 3, 0, 7, 3>;
def neg_lo3    : Mod<"neg_lo", "bits", 3, 0, 7, 3>;
def neg_hi3    : Mod<"neg_hi", "bits", 3, 0, 7, 3>;

// MFMA broadcast controls.
def cbsz : Mod<"cbsz", "int", 3, 0, 7>;
def abid : Mod<"abid", "int", 4, 0, 15>;
def blgp : Mod<"blgp", "int", 3, 0, 7>;

// SOPP/SOPK immediates.
def simm16 : Mod<"imm", "hex16", 16, -32768, 65535>;
def prio   : Mod<"imm", "pos", 2, 0, 3>;
def sleep  : Mod<"imm", "pos", 7, 0, 127>;
def nopcnt : Mod<"imm", "pos", 4, 0, 15>;
// s_waitcnt counters (gfx9 encoding): an absent counter is not waited on.
def vmcnt   : Mod<"vmcnt", "waitcnt", 6, 0, 63>;
def expcnt  : Mod<"expcnt", "waitcnt", 3, 0, 7>;
def lgkmcnt : Mod<"lgkmcnt", "waitcnt", 4, 0, 15>;
