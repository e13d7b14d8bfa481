"""The operands of an `aster.ops.gemm` launch as the library's kernels take
them (aster.generators.gemm): the input format checked, 16-bit matrices
with one element of slack, 1-byte matrices in K pairs, scale vectors and
block scales."""
import numpy as np

from ..generators.gemm import BLOCK_SCALE, DTYPES


def _operand(x, what):
    if not isinstance(x, np.ndarray):
        raise TypeError(f"gemm: {what} must be a NumPy array, got {type(x).__name__}")
    if x.ndim != 2:
        raise ValueError(f"gemm: {what} must be 2-D, got shape {x.shape}")
    for name, dt in DTYPES.items():
        if x.dtype == dt:
            return name
    raise TypeError(f"gemm: {what} must be float16 or bfloat16 (or int8 / fp8: a8w8), got {x.dtype}")


def _i8_pairs(x):
    """A 1-byte matrix (int8, fp8) with K padded to even (zero bytes: 0 in
    every format), flattened as int8, 2 zero bytes after it: the a8w8
    kernels move K in pairs (aster.generators.gemm)."""
    rows, k = x.shape
    kp = -(-k // 2)
    out = np.zeros(rows * 2 * kp + 2, np.int8)
    out[:rows * 2 * kp].reshape(rows, 2 * kp)[:, :k] = x.view(np.int8)
    return out


def _vector(v, size, what, default):
    if v is None:
        if default is None:
            raise ValueError(f"gemm: int8 operands need {what} ({size} float32 values)")
        return np.full(size, default, np.float32)
    v = np.ascontiguousarray(v, np.float32).reshape(-1)
    if v.size != size:
        raise ValueError(f"gemm: {what} must hold {size} values, got {v.size}")
    return v


def _padded(x):
    """x flattened with one zero element after it: the kernels read 16-bit
    matrices through buffers one element past the end (see aster.generators.gemm)."""
    out = np.zeros(x.size + 1, x.dtype)
    out[:x.size] = x.reshape(-1)
    return out


_OUT = {"f32": np.dtype(np.float32), "bf16": np.dtype(DTYPES["bf16"]),
        "f16": np.dtype(np.float16)}


def _block_scales(scale_a, scale_b, m, n, k):
    """block_scale's scales as the kernel takes them: sa [K blocks, M]
    (scale_a [M, K blocks] transposed) and sb [N blocks, K blocks], float32."""
    kb, nb = -(-k // BLOCK_SCALE), -(-n // BLOCK_SCALE)
    out = []
    for v, shape, what in ((scale_a, (m, kb), "scale_a"), (scale_b, (nb, kb), "scale_b")):
        if v is None:
            raise ValueError(f"gemm: block_scale needs {what} (float32 {shape})")
        v = np.asarray(v)
        if v.shape != shape or not np.issubdtype(v.dtype, np.floating):
            raise ValueError(f"gemm: with block_scale={BLOCK_SCALE}, {what} must be a float "
                             f"array of shape {shape} (one per {BLOCK_SCALE} of K"
                             f"{'' if what == 'scale_a' else ' and of N'}), got {v.dtype} "
                             f"{v.shape}")
        out.append(v.astype(np.float32))
    return [np.ascontiguousarray(out[0].T), np.ascontiguousarray(out[1])]
