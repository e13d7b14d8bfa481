"""MFMA tile steps: D = A @ B + C on one 16x16 or 32x32 tile of a wave.

Each step is one matrix instruction on registers the caller chooses. Lane
layouts (AMD's matrix instruction calculator, CDNA3: tests/py/mfma_layouts.py
restates its formulas, and the tests check these pieces against it). With l
the lane (0..63) and j = 0..3 the value's place in the lane (two 16-bit
values per register, low half first):

  16x16x16 (f16, bf16)            A: VGPR x2   B: VGPR x2   C, D: x4
      A[l % 16][4 (l // 16) + j]      B[4 (l // 16) + j][l % 16]
      D register r (0..3) of lane l:  D[4 (l // 16) + r][l % 16]
  32x32x8 (f16, bf16)             A: VGPR x2   B: VGPR x2   C, D: x16
      A[l % 32][4 (l // 32) + j]      B[4 (l // 32) + j][l % 32]
      D register r (0..15) of lane l: D[8 (r // 4) + 4 (l // 32) + r % 4][l % 32]

(For 32x32x8, registers 4q..4q+3 hold rows 8q + 4 (l // 32) + 0..3.)

gfx950 only: the double-K shapes 16x16x32 and 32x32x16 (f16, bf16) take
A and B in VGPR x4, 8 consecutive k per lane (j = 0..7): A[l % M][8 (l // M)
+ j], B[8 (l // M) + j][l % M]; C and D as for 16x16x16 / 32x32x8.
store_result(shape) writes D to a row-major f32 matrix in global memory.

So a lane's A fragment is 4 consecutive k of one row of A, and its B
fragment 4 consecutive k of one column of B, i.e. of one row of B^T: both
are read from row-major tiles (A as M x K, B^T as N x K) by
lds.lds_fragment. The accumulator C and the result D are f32.

    (acc,) = k.call(mfma.mfma_16x16x16_f16, a, b, acc)   # acc: AGPR(4)

The result needs wait states before a VALU, memory or MFMA reads it:
amdgcn-hazards inserts them."""
from ..functions import function
from ..registers import AGPR, SGPR, VGPR

__all__ = ["mfma_step", "store_result", "mfma_16x16x16_f16", "mfma_16x16x16_bf16", "mfma_32x32x8_f16",
           "mfma_32x32x8_bf16", "SHAPES"]

# shape -> (instruction, registers of A, of B, of C/D)
SHAPES = {
    "16x16x16_f16": ("v_mfma_f32_16x16x16_f16", 2, 2, 4),
    "16x16x16_bf16": ("v_mfma_f32_16x16x16_bf16", 2, 2, 4),
    "32x32x8_f16": ("v_mfma_f32_32x32x8_f16", 2, 2, 16),
    "32x32x8_bf16": ("v_mfma_f32_32x32x8_bf16", 2, 2, 16),
    "16x16x32_f16": ("v_mfma_f32_16x16x32_f16", 4, 4, 4),       # gfx950
    "16x16x32_bf16": ("v_mfma_f32_16x16x32_bf16", 4, 4, 4),     # gfx950
    "32x32x16_f16": ("v_mfma_f32_32x32x16_f16", 4, 4, 16),      # gfx950
    "32x32x16_bf16": ("v_mfma_f32_32x32x16_bf16", 4, 4, 16),    # gfx950
    # int8 (i32 accumulators): 8 k per lane in the registers of the 16-bit
    # shapes' 4 (A[l % M][8 (l // M) + j], j = 0..7: the same bytes)
    "16x16x32_i8": ("v_mfma_i32_16x16x32_i8", 2, 2, 4),
    "32x32x16_i8": ("v_mfma_i32_32x32x16_i8", 2, 2, 16),
    # fp8 x fp8 (f32 accumulators; gfx942 reads FNUZ E4M3, gfx950 OCP E4M3)
    "16x16x32_fp8": ("v_mfma_f32_16x16x32_fp8_fp8", 2, 2, 4),
    "32x32x16_fp8": ("v_mfma_f32_32x32x16_fp8_fp8", 2, 2, 16),
    # gfx950 f8f6f4 with both formats fp8 (cbsz = blgp = 0: OCP E4M3): a
    # lane holds 32 consecutive k (A[l % M][32 (l // M) + j]), 8 registers
    "16x16x128_f8f6f4": ("v_mfma_f32_16x16x128_f8f6f4", 8, 8, 4),
    "32x32x64_f8f6f4": ("v_mfma_f32_32x32x64_f8f6f4", 8, 8, 16),
}
_CACHE = {}


def mfma_step(shape, acc="agpr"):
    """The tile step of `shape` (a key of SHAPES) with the accumulator C and
    result D in AGPRs (acc="agpr") or VGPRs (acc="vgpr"): a function
    (A, B, C) -> D."""
    if shape not in SHAPES:
        raise ValueError(f"unknown MFMA shape {shape!r} (known: {', '.join(SHAPES)})")
    if acc not in ("agpr", "vgpr"):
        raise ValueError(f"acc must be 'agpr' or 'vgpr', got {acc!r}")
    key = (shape, acc)
    if key not in _CACHE:
        name, na, nb, nc = SHAPES[shape]
        Acc = AGPR if acc == "agpr" else VGPR

        def step(f, a, b, c):
            return getattr(f, name)(Acc(nc), a, b, c)
        step.__doc__ = f"D = A @ B + C with {name} (C and D in {acc.upper()}s)."
        _CACHE[key] = function(params=[VGPR(na), VGPR(nb), Acc(nc)], results=[Acc(nc)],
                               name=f"mfma_{shape}_{acc}")(step)
    return _CACHE[key]


mfma_16x16x16_f16 = mfma_step("16x16x16_f16")
mfma_16x16x16_bf16 = mfma_step("16x16x16_bf16")
mfma_32x32x8_f16 = mfma_step("32x32x8_f16")
mfma_32x32x8_bf16 = mfma_step("32x32x8_bf16")


def _result_row(shape, r):
    """Row of D, less the lane's first row 4 (l // M), held in register r."""
    return r if shape.startswith("16x16") else 8 * (r // 4) + r % 4


def store_result(shape, acc="agpr"):
    """A function (d: the step's result, ptr: SGPR x2, pitch: SGPR, lane:
    VGPR) -> () storing D (f32) to the row-major matrix at `ptr` whose rows
    are `pitch` bytes apart: D[i][j] at ptr + i * pitch + 4 j. Lane l writes
    column l % M of rows 4 (l // M) + (the rows of its registers, see the
    layout above) with one global_store_dword per register (AGPR data is
    stored directly)."""
    if shape not in SHAPES:
        raise ValueError(f"unknown MFMA shape {shape!r} (known: {', '.join(SHAPES)})")
    key = ("store", shape, acc)
    if key not in _CACHE:
        nc = SHAPES[shape][3]
        M = 16 if shape.startswith("16x16") else 32
        Acc = AGPR if acc == "agpr" else VGPR

        def store(f, d, ptr, pitch, lane):
            col = f.v_and_b32(VGPR(), M - 1, lane)
            col4 = f.v_lshlrev_b32(VGPR(), 2, col)
            grp = f.v_lshrrev_b32(VGPR(), M.bit_length() - 1, lane)
            row0 = f.v_lshlrev_b32(VGPR(), 2, grp)                  # 4 (l // M)
            base = f.v_mad_u32_u24(VGPR(), row0, pitch, col4)
            for r in range(nc):
                rows = _result_row(shape, r)
                addr = base if rows == 0 else f.v_add_u32(
                    VGPR(), f.s_mul_i32(SGPR(), pitch, rows), base)
                f.global_store_dword(addr, d[r], ptr)
        store.__doc__ = store_result.__doc__
        _CACHE[key] = function(params=[Acc(nc), SGPR(2, align=2), SGPR(), VGPR()],
                               results=[], name=f"store_result_{shape}_{acc}")(store)
    return _CACHE[key]
