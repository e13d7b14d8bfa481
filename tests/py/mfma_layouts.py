"""Published register layouts of the gfx942 (CDNA3) dense MFMA instructions,
as data for the tests: which matrix element lives in which lane and register.

Source (facts only, restated here): AMD's Matrix Instruction Calculator,
github.com/ROCm/amd_matrix_instruction_calculator, matrix_calculator.py
(version 1.02), class `InstCalcGfx9`: the CDNA ("gfx9") register-layout
formulas it prints with `--detail-instruction`:

  A[i][k].block / B[k][j].block  lane (`_coord_to_lane_eqn`, matrix a/b):
      M * block + (M * blocks) * floor(k / kpl) + i      (j for B)
      where kpl = M * K * blocks / 64 (the k values one lane holds); the
      middle term is absent when M * blocks == 64 (one lane holds all K).
  A/B register (`_coord_to_input_reg_eqn`): the kpl values of a lane are
      packed in k order, low bits first: 16-bit values two per register
      ('floor(k / 2) % 2' . '[16*(k % 2)+15 : 16*(k % 2)]'), 8-bit values
      four per register ('floor(k / 4) % 2' . '[8*(k % 4)+7 : 8*(k % 4)]'),
      32-bit values one per register ('(k % 2)'), 64-bit values in a
      register pair ('[1:0]').
  C[i][j].block / D[i][j].block (`_coord_to_output_reg_eqn`,
  `_coord_to_lane_eqn`, matrix c/d), 32-bit outputs:
      4x4,   16 blocks: register i,                       lane 4 * block + j
      16x16,  4 blocks: register 4 * block + (i % 4),     lane 16 * floor(i / 4) + j
      16x16,  1 block:  register i % 4,                   lane 16 * floor(i / 4) + j
      32x32,  2 blocks: register 16 * block + 4 * floor(i / 8) + (i % 4),
                                                          lane (32 * floor(i / 4)) % 64 + j
      32x32,  1 block:  register 4 * floor(i / 8) + (i % 4), lane as above
    64-bit (f64) outputs, one register pair per element:
      16x16, 1 block:  pair floor(i / 4) ('[2*floor(i / 4)+1 : 2*floor(i / 4)]'),
                       lane 16 * (i % 4) + j
      4x4,   4 blocks: pair 0 ('[1:0]'), lane 16 * (i % 4) + 4 * block + j

Modifiers (same source, `InstCalc._get_cbsz_abid_transformed_block` and
`_get_blgp_transformed_lane`): with CBSZ and ABID, block X of the product
uses the A of block floor(X / 2^CBSZ) * 2^CBSZ + ABID (one block, chosen by
ABID, is broadcast to each group of 2^CBSZ blocks). With BLGP, the B value a lane would
hold is read from another lane: 1 lane % 32, 2 lanes < 32 read lane + 32,
3 lane + 16 (mod 64), 4 lane % 16, 5 / 6 / 7 every lane reads the 2nd / 3rd
/ 4th group of 16 lanes.

The calculator's README (current version) lists CDNA3 (gfx940/941/942,
MI300) among the architectures these CDNA rules cover, documents CBSZ/ABID/
BLGP as above and NEG as three bits negating A, B and C respectively, and
has an example of the BLGP field negating the FP64 inputs on CDNA 3 (f64
MFMAs carry NEG in the BLGP field). The shapes below are read off the mnemonics: MxNxK, and
the _Nb suffix is the block count (1 without it). gfx942's fp8/bf8 are the
FNUZ formats (HIP documentation, "FP8 numbers": gfx940/941/942 support FNUZ
FP8, not OCP FP8).

gfx950 (CDNA4) keeps these instructions (its fp8/bf8 are the OCP formats,
E4M3 / E5M2) and adds single-block shapes with twice the K. Their layouts
are the same CDNA rules with kpl = M * K / 64 consecutive k per lane:
  * composable_kernel, include/ck_tile/ops/gemm/warp/
    warp_gemm_attribute_mfma_impl.hpp (github.com/ROCm/composable_kernel),
    the "gfx950" structs for v_mfma_f32_16x16x32_f16/bf16 (kAMLane = kBNLane
    = 16 lanes per row group, kABKLane = 4 groups, kABKPerLane = 8 k per lane;
    C: kCMLane = 4, kCNLane = 16, kCM1PerLane = 4) and
    v_mfma_f32_32x32x16_f16/bf16 (32 lanes, 2 groups, 8 k per lane; C:
    kCMLane = 2, kCNLane = 32, kCM0PerLane = kCM1PerLane = 4); on gfx942 the
    same structs split a lane's 8 k into two v_mfma_f32_32x32x8 / 16x16x16
    halves, i.e. k = kpl * (lane / M) + slot;
  * AMD's "CDNA4 dense MFMA intrinsics" reference (ROCm documentation,
    gfx950 / MI350): the C/D formulas above for 16x16 and 32x32 outputs.
The i8 shapes (i32_16x16x64_i8, i32_32x32x32_i8: 16 k per lane, four per
register) follow the same rule; no outside table was found that states
their input layout separately.
"""
from typing import NamedTuple

import numpy as np


class Shape(NamedTuple):
    m: int
    n: int
    k: int
    blocks: int
    a: str        # element type of A: f32 xf32 f16 bf16 i8 fp8 bf8 f64
    b: str        # element type of B
    out: str      # f32 i32 f64


def _s(m, n, k, blocks, a, out, b=None):
    return Shape(m, n, k, blocks, a, b or a, out)


# gfx942 dense MFMA instructions (LLVM mnemonics) and their shapes.
SHAPES = {
    "v_mfma_f32_32x32x1_2b_f32": _s(32, 32, 1, 2, "f32", "f32"),
    "v_mfma_f32_16x16x1_4b_f32": _s(16, 16, 1, 4, "f32", "f32"),
    "v_mfma_f32_4x4x1_16b_f32": _s(4, 4, 1, 16, "f32", "f32"),
    "v_mfma_f32_32x32x2_f32": _s(32, 32, 2, 1, "f32", "f32"),
    "v_mfma_f32_16x16x4_f32": _s(16, 16, 4, 1, "f32", "f32"),
    "v_mfma_f32_32x32x4_2b_f16": _s(32, 32, 4, 2, "f16", "f32"),
    "v_mfma_f32_16x16x4_4b_f16": _s(16, 16, 4, 4, "f16", "f32"),
    "v_mfma_f32_4x4x4_16b_f16": _s(4, 4, 4, 16, "f16", "f32"),
    "v_mfma_f32_32x32x8_f16": _s(32, 32, 8, 1, "f16", "f32"),
    "v_mfma_f32_16x16x16_f16": _s(16, 16, 16, 1, "f16", "f32"),
    "v_mfma_i32_32x32x4_2b_i8": _s(32, 32, 4, 2, "i8", "i32"),
    "v_mfma_i32_16x16x4_4b_i8": _s(16, 16, 4, 4, "i8", "i32"),
    "v_mfma_i32_4x4x4_16b_i8": _s(4, 4, 4, 16, "i8", "i32"),
    "v_mfma_i32_32x32x16_i8": _s(32, 32, 16, 1, "i8", "i32"),
    "v_mfma_i32_16x16x32_i8": _s(16, 16, 32, 1, "i8", "i32"),
    "v_mfma_f32_32x32x4_2b_bf16": _s(32, 32, 4, 2, "bf16", "f32"),
    "v_mfma_f32_16x16x4_4b_bf16": _s(16, 16, 4, 4, "bf16", "f32"),
    "v_mfma_f32_4x4x4_16b_bf16": _s(4, 4, 4, 16, "bf16", "f32"),
    "v_mfma_f32_32x32x8_bf16": _s(32, 32, 8, 1, "bf16", "f32"),
    "v_mfma_f32_16x16x16_bf16": _s(16, 16, 16, 1, "bf16", "f32"),
    "v_mfma_f64_16x16x4_f64": _s(16, 16, 4, 1, "f64", "f64"),
    "v_mfma_f64_4x4x4_4b_f64": _s(4, 4, 4, 4, "f64", "f64"),
    "v_mfma_f32_16x16x8_xf32": _s(16, 16, 8, 1, "xf32", "f32"),
    "v_mfma_f32_32x32x4_xf32": _s(32, 32, 4, 1, "xf32", "f32"),
}
for _a in ("fp8", "bf8"):
    for _b in ("fp8", "bf8"):
        SHAPES[f"v_mfma_f32_16x16x32_{_a}_{_b}"] = _s(16, 16, 32, 1, _a, "f32", _b)
        SHAPES[f"v_mfma_f32_32x32x16_{_a}_{_b}"] = _s(32, 32, 16, 1, _a, "f32", _b)

# gfx950-only dense MFMA instructions and their shapes.
GFX950_SHAPES = {
    "v_mfma_f32_16x16x32_f16": _s(16, 16, 32, 1, "f16", "f32"),
    "v_mfma_f32_32x32x16_f16": _s(32, 32, 16, 1, "f16", "f32"),
    "v_mfma_f32_16x16x32_bf16": _s(16, 16, 32, 1, "bf16", "f32"),
    "v_mfma_f32_32x32x16_bf16": _s(32, 32, 16, 1, "bf16", "f32"),
    "v_mfma_i32_16x16x64_i8": _s(16, 16, 64, 1, "i8", "i32"),
    "v_mfma_i32_32x32x32_i8": _s(32, 32, 32, 1, "i8", "i32"),
}
SHAPES.update(GFX950_SHAPES)

BITS = {"f64": 64, "f32": 32, "xf32": 32, "i32": 32, "f16": 16, "bf16": 16, "i8": 8,
        "fp8": 8, "bf8": 8}


def k_per_lane(sh: Shape) -> int:
    """kpl: how many k values of one row of A (column of B) a lane holds."""
    return sh.m * sh.k * sh.blocks // 64


def input_dwords(sh: Shape, which: str) -> int:
    """32-bit registers per lane of the A ('a') or B ('b') operand."""
    return max(1, k_per_lane(sh) * BITS[getattr(sh, which)] // 32)


def output_dwords(sh: Shape) -> int:
    """32-bit registers per lane of C and D."""
    return sh.m * sh.n * sh.blocks * BITS[sh.out] // 32 // 64


def input_place(sh: Shape, block: int, row: int, k: int):
    """(lane, slot) of A[row][k] of `block` (or B[k][row] with row = j): the
    lane, and the position among the lane's kpl packed values."""
    kpl = k_per_lane(sh)
    lane = sh.m * block + row
    if sh.m * sh.blocks < 64:
        lane += sh.m * sh.blocks * (k // kpl)
    return lane, k % kpl


def output_place(sh: Shape, block: int, i: int, j: int):
    """(lane, slot) of C/D[i][j] of `block`; slot counts elements of the
    output type (a register for 32-bit outputs, a register pair for f64)."""
    m, n, b = sh.m, sh.n, sh.blocks
    if sh.out == "f64":
        if (m, n, b) == (16, 16, 1):
            return 16 * (i % 4) + j, i // 4
        if (m, n, b) == (4, 4, 4):
            return 16 * (i % 4) + 4 * block + j, 0
    elif (m, n) == (4, 4) and b == 16:
        return 4 * block + j, i
    elif (m, n) == (16, 16) and b in (1, 4):
        return 16 * (i // 4) + j, 4 * block + i % 4
    elif (m, n) == (32, 32) and b in (1, 2):
        return (32 * (i // 4)) % 64 + j, 16 * block + 4 * (i // 8) + i % 4
    raise ValueError(f"no published output layout for {sh}")


def cbsz_abid_block(block: int, cbsz: int, abid: int) -> int:
    """The block whose A is used for `block` under CBSZ/ABID."""
    n = 1 << cbsz
    return block // n * n + abid


def blgp_lane(lane: int, blgp: int) -> int:
    """The lane whose B register value is used where `lane`'s would be."""
    if blgp == 1:
        return lane % 32
    if blgp == 2:
        return lane + 32 if lane < 32 else lane
    if blgp == 3:
        return (lane + 16) % 64
    if blgp >= 4:
        return 16 * (blgp - 4) + lane % 16
    return lane


def scaled_one_block_reference(sh: Shape, va, vb, scale_a, scale_b, c):
    """D of a one-block scaled MFMA (gfx950 v_mfma_scale_f32_*_f8f6f4):
    lane values va / vb (64 x slots, already decoded to float64) times
    their lane's scale, summed over k in float64, plus C (64 x registers),
    rounded once to f32, in the output's (lane, register) places."""
    m = sh.m
    A, B = np.zeros((m, sh.k)), np.zeros((sh.k, m))
    for r in range(m):
        for k in range(sh.k):
            lane, slot = input_place(sh, 0, r, k)
            A[r, k] = va[lane, slot] * scale_a[lane]
            B[k, r] = vb[lane, slot] * scale_b[lane]
    acc = np.zeros((m, m))
    for k in range(sh.k):
        acc += A[:, k:k + 1] * B[k:k + 1, :]
    want = np.zeros((64, m * m // 64), np.float32)
    for i in range(m):
        for j in range(m):
            lane, slot = output_place(sh, 0, i, j)
            want[lane, slot] = np.float32(acc[i, j] + np.float64(c[lane, slot]))
    return want
