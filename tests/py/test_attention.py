"""aster.ops.attention (aster.generators.attention) on the emulator against
the definition O = softmax(scale Q K^T + mask) V, computed in float64 by NumPy
(aster.generators.attention.reference: einsum, exp, the bottom-right causal
mask of FlashAttention-2, query i sees keys j <= i + seq_k - seq_q).

Tolerance. The kernel computes S, the softmax and O in f32 but rounds P (in
[0, 1]) to the input format, round to nearest even, before P V, as
FlashAttention does; l (the row sum) is summed from the f32 P. So
|O - O_ref| <= sum_j |p~_j - p_j| |v_j| / l <= u max_j |v_j| per row, with u
the format's unit roundoff (bf16: 2^-8, 8 significant bits; f16: 2^-11);
f32 rounding and v_exp_f32 / v_rcp_f32 (1 ulp) add ~1e-6 relative. The
tests allow 1.25 u max|v| + 1e-5. LSE does not see the rounding of P:
1e-5 (1 + |LSE|). A row that sees no key (causal with seq_q > seq_k) must
give O = 0 and LSE = -inf exactly.
Every launch runs in strict mode (bad accesses, missing waits and reads of
unwritten registers raise)."""
import numpy as np
import pytest

import aster
from aster.generators import attention as gen

U = {"bf16": 2.0 ** -8, "f16": 2.0 ** -11}


def _inputs(b, h, hk, sq, sk, d, dtype, seed=0):
    g = np.random.default_rng(seed)
    dt = gen.DTYPES[dtype]
    return (g.normal(size=(b, h, sq, d)).astype(dt), g.normal(size=(b, hk, sk, d)).astype(dt),
            g.normal(size=(b, hk, sk, d)).astype(dt))


def _check(q, k, v, dtype, causal, o, lse=None, scale=None):
    ro, rl = gen.reference(q, k, v, causal, scale)
    vmax = np.abs(np.asarray(v, np.float64)).max()
    tol = 1.25 * U[dtype] * vmax + 1e-5
    err = np.abs(o - ro).max()
    assert o.dtype == np.float32 and o.shape == q.shape
    assert err <= tol, f"max |O - O_ref| = {err} > {tol}"
    if lse is not None:
        fin = np.isfinite(rl)
        assert (np.isneginf(lse) == ~fin).all()
        assert (o[~fin] == 0).all()
        assert np.abs(lse[fin] - rl[fin]).max() <= 1e-5 * (1 + np.abs(rl[fin]).max())
    return err


@pytest.mark.parametrize("dtype,d,causal,sq,sk", [
    ("bf16", 128, False, 128, 128),
    ("bf16", 128, True, 128, 128),
    ("bf16", 128, True, 100, 77),        # seq_q > seq_k: rows 0-22 see no key
    ("bf16", 128, False, 37, 300),       # seq_k tail inside a tile
    ("f16", 128, True, 200, 333),        # several query blocks, diagonal tiles
    ("bf16", 64, True, 150, 200),
    ("f16", 64, False, 65, 64),
    ("bf16", 64, True, 31, 7),           # rows without a key at d = 64 (their alpha was inf: NaN)
])
def test_attention_matches_definition(dtype, d, causal, sq, sk):
    q, k, v = _inputs(1, 2, 1, sq, sk, d, dtype)
    q0, k0, v0 = q.copy(), k.copy(), v.copy()
    o, lse = aster.ops.attention(q, k, v, causal=causal, lse=True)
    _check(q, k, v, dtype, causal, o, lse)
    for a, b in ((q, q0), (k, k0), (v, v0)):       # the caller's arrays are untouched
        assert (a.view(np.uint16) == b.view(np.uint16)).all()


def test_attention_gqa_batches_scale():
    """4 query heads on 2 kv heads, batch 2, an explicit scale: head h reads
    kv head h // 2 (a swapped head would be off by O(1))."""
    q, k, v = _inputs(2, 4, 2, 96, 130, 128, "bf16", seed=3)
    o = aster.ops.attention(q, k, v, causal=True, scale=0.05)
    _check(q, k, v, "bf16", True, o, scale=0.05)


@pytest.mark.parametrize("waves", [2, 4])
def test_attention_waves_and_gfx950(waves):
    """Both block heights (64 and 128 query rows), on gfx942 and gfx950 (its
    v_cvt_pk_bf16_f32 rounds P)."""
    q, k, v = _inputs(1, 1, 1, 160, 96, 128, "bf16", seed=waves)
    for target in ("gfx942", "gfx950"):
        cfg = gen.AttnConfig(dtype="bf16", d=128, causal=True, lse=True, waves=waves,
                             arch=target)
        o, lse = aster.ops.attention(q, k, v, causal=True, lse=True, target=target,
                                     config=cfg)
        _check(q, k, v, "bf16", True, o, lse)


@pytest.mark.parametrize("dtype,d,causal,b,h,hk,sq,sk,waves", [
    ("bf16", 128, False, 2, 4, 2, 37, 300, 4),   # GQA 2:1, batch 2, seq_k tail in a tile
    ("f16", 128, True, 1, 1, 1, 200, 333, 4),    # several blocks, diagonal tiles
    ("bf16", 128, True, 2, 4, 2, 300, 290, 4),   # causal, 8 heads: the second half's blocks
    #                                              lightest first (query_block's pairing)
    ("bf16", 128, False, 1, 2, 1, 300, 130, 8),  # 8 waves: one K and one V load per lane
    ("f16", 64, False, 1, 2, 2, 65, 64, 2),      # d = 64: 64-key tiles
    ("bf16", 64, True, 1, 1, 1, 31, 7, 4),       # rows without a key at d = 64
])
def test_attention_gfx950_layouts(dtype, d, causal, b, h, hk, sq, sk, waves):
    """gfx950's own data paths (attention_gen._Gen.vtr): V row-major in LDS
    read by ds_read_b64_tr_b16, K by ds_read_b128 and Q by dwordx4 (8
    consecutive d per 32x32x16 operand), P and the row sum in place of the
    scores. A wrong lane of either layout pairs the wrong d or key: errors
    of O(max|v|), far past the bound."""
    q, k, v = _inputs(b, h, hk, sq, sk, d, dtype, seed=sq)
    cfg = gen.AttnConfig(dtype=dtype, d=d, causal=causal, lse=True, waves=waves,
                         kv=32 if d == 128 else 64, arch="gfx950")
    o, lse = aster.ops.attention(q, k, v, causal=causal, lse=True, target="gfx950",
                                 config=cfg)
    _check(q, k, v, dtype, causal, o, lse)


def test_attention_timing_result():
    q, k, v = _inputs(1, 1, 1, 64, 64, 64, "f16")
    o, r = aster.ops.attention(q, k, v, timing=True)
    _check(q, k, v, "f16", False, o)
    assert r.cycles > 0 and r.microseconds > 0 and r.config.d == 64


@pytest.mark.parametrize("bad,exc,match", [
    (lambda q, k, v: (q.astype(np.float32), k, v), TypeError, "float16 or bfloat16"),
    (lambda q, k, v: (q, k.astype(np.float16), v), TypeError, "one dtype"),
    (lambda q, k, v: (q, k, v[:, :, :-1]), ValueError, "one shape"),
    (lambda q, k, v: (q[:, :3], k[:, :, :, :64], v[:, :, :, :64]), ValueError, "k and v must"),
    (lambda q, k, v: (q[..., :96], k[..., :96], v[..., :96]), ValueError, "64 or 128"),
    (lambda q, k, v: (q[:, :, :0], k, v), ValueError, "empty"),
])
def test_attention_bad_inputs_raise(bad, exc, match):
    q, k, v = _inputs(1, 3, 1, 8, 8, 128, "bf16")
    with pytest.raises(exc, match=match):
        aster.ops.attention(*bad(q, k, v))


def test_attention_bad_heads_and_scale():
    q, k, v = _inputs(1, 3, 2, 8, 8, 64, "bf16")
    with pytest.raises(ValueError, match="multiple of kv_heads"):
        aster.ops.attention(q, k, v)
    q, k, v = _inputs(1, 2, 1, 8, 8, 64, "bf16")
    for s in (0.0, -1.0, float("nan"), "x"):
        with pytest.raises(ValueError, match="scale"):
            aster.ops.attention(q, k, v, scale=s)


def test_attention_library_on_disk(tmp_path):
    """build_attention_library writes code objects, configs.csv and a
    kernel_args.h that clang-22 compiles, with offsets asserted against the
    code object's own kernarg metadata (what aiter's hand-written KernelArgs
    structs state by hand); a launch from the library equals the in-process
    kernel's result bit for bit."""
    import csv
    import subprocess
    from aster.ops.attention import default_attention_configs
    cfgs = [c for c in default_attention_configs(("gfx942",), varlen=(False,))
            if c.d == 64 and c.dtype == "f16" and c.waves == 2 and not c.lse]
    assert len(cfgs) == 2 and len(default_attention_configs()) == 128
    lib = str(tmp_path / "attnlib")
    aster.ops.build_attention_library(lib, cfgs)
    rows = list(csv.DictReader(open(tmp_path / "attnlib" / "configs.csv")))
    assert [r["name"] for r in rows] == [c.name for c in cfgs]
    checks = ['#include "kernel_args.h"']
    for r in rows:
        info = aster.load_code_object(open(tmp_path / "attnlib" / r["file"], "rb").read()
                                      ).kernel(r["name"])
        names = [a.name for a in info.args if not a.hidden]
        assert names == ["q", "k", "v", "o", "lse", "seq_q", "seq_k", "group", "c2"]
        for a in info.args:
            if not a.hidden:
                checks.append(f"_Static_assert(__builtin_offsetof({r['name']}_KernelArgs, "
                              f"{a.name}) == {a.offset}, \"{a.name}\");")
    (tmp_path / "check.c").write_text("\n".join(checks) + "\n")
    for src in (str(tmp_path / "attnlib" / "kernel_args.h"), str(tmp_path / "check.c")):
        r = subprocess.run(["clang-22", "-fsyntax-only", "-x", "c", "-std=c11", "-Wall",
                            "-Werror", "-I", lib, src], capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
    q, k, v = _inputs(1, 2, 2, 40, 50, 64, "f16")
    a = aster.ops.attention(q, k, v, causal=True, config=cfgs[1], library=lib)
    b = aster.ops.attention(q, k, v, causal=True, config=cfgs[1])
    assert (a.view(np.uint32) == b.view(np.uint32)).all()
    _check(q, k, v, "f16", True, a)


def test_attention_config_choice():
    """128-row blocks (4 waves) when they give every CU of the device a
    workgroup, 64-row blocks (2 waves) below that; 32 keys per tile at
    d = 128, 64 at d = 64 (MI300X: 304 CUs, MI308X: 80, aster.ops.devices)."""
    from aster.ops.attention import config_for
    assert config_for("bf16", 128, False, False, 1, 32, 2048).waves == 4      # 512 blocks
    assert config_for("bf16", 128, False, False, 1, 16, 1024).waves == 2      # 128 < 304
    assert config_for("bf16", 128, False, False, 1, 16, 1024, device="mi308x").waves == 4
    c = config_for("f16", 64, True, True, 2, 4, 100, target="gfx950")
    assert (c.kv, c.causal, c.lse, c.arch) == (64, True, True, "gfx950")
    assert config_for("bf16", 128, True, False, 1, 1, 1).kv == 32
