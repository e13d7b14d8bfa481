"""The facts every part of the GEMM generator shares (aster.generators.gemm_gen
and its parts gemm_setup, gemm_kstep, gemm_block_scale, gemm_store,
gemm_splitk): the input formats, the MFMA shapes, the LDS row padding, the
split-K counters' spacing, the stream-K work table's row and the K loop's
unroll. Needs nothing; each constant states its source."""
import numpy as np


def _dtypes():
    import ml_dtypes
    return {"f16": np.dtype(np.float16), "bf16": np.dtype(ml_dtypes.bfloat16),
            "i8": np.dtype(np.int8),
            "fp8": np.dtype(ml_dtypes.float8_e4m3fnuz),   # gfx942's FNUZ E4M3
            "ofp8": np.dtype(ml_dtypes.float8_e4m3fn)}     # gfx950's OCP E4M3


BYTE_DTYPES = ("i8", "fp8", "ofp8")     # a8w8: 1-byte inputs, scaled bf16 C


DTYPES = _dtypes()
MFMA_SHAPES = {32: (8, 16), 16: (16, 4)}     # MFMA M (= N) -> (K per instruction, acc regs)
PAD = 4                     # elements of padding per LDS row: a row stride of
#                             an odd number of dword pairs, so the 16 rows a
#                             ds_read_b64 serves per cycle hit 32 distinct banks


CNT_BYTES = 128             # split-K counters: one per 128-byte L2 line (the
#                             line size of the timing model's Params.h
#                             lineBytes, [WP]: AMD's CDNA3 white paper), so
#                             waves of different tiles do not queue on one
#                             line's atomics

BLOCK_SCALE = 128           # fp8 elements per block-scale block along K (and
#                             along N for B's scales): AMD's gfx950 block-scale
#                             GEMM's TileK = TileN (asm_mi350_a8w8_blockscale.cu)

STREAM_K_WORDS = 8          # i32 per row of a stream-K work table (6 used)

K_UNROLL = 2                # K steps per trip of the K loop (one per LDS buffer)


def _log2(x):
    return x.bit_length() - 1
