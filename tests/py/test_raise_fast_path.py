"""raise_asm's fast path (cc/target/raise/AsmPlainLines.h) gives what the
full path gives: LLVM MC reads every line of a text that holds a `.set`
(one of the constructs that turn the fast path off), so the same text with
`.set aster_full_path, 0` appended is raised through MC whole. The IR with
its locations, and every error message, must be the same both ways, on
text as clang-22 writes it (-S), LLVM's listings of AMD's aiter kernels
(llvm-objdump-22, aiter_roundtrip.objdump_asm), and hand-written lines MC
reads otherwise than written (octal `010` is 8 to llvm-mc-22, `v_add_f32`
is `v_add_f32_e32`, `0x3f800000` prints as `1.0`, comments).
"""
import shutil
import subprocess

import pytest

import aster
import aiter_roundtrip as rt

HEAD = '\t.amdgcn_target "amdgcn-amd-amdhsa--gfx942"\n\t.text\n'
FULL = "\t.set aster_full_path, 0\n"


def both(text, **kw):
    """(fast, full): each the module's IR with locations, or the error."""
    out = []
    for t in (text, text + FULL):
        try:
            out.append(aster.raise_asm(t, **kw).mlir(locations=True))
        except aster.AsterError as e:
            out.append(f"error: {e}")
    return out


HAND = [
    "k:\n\tv_add_f32_e32 v1, v2, v3\n\ts_endpgm\n",
    "k:\n\ts_mov_b32 s0, 010\n\ts_endpgm\n",                      # octal: 8
    "k:\n\tv_add_f32 v1, v2, v3\n\ts_endpgm\n",                    # MC adds _e32
    "k:\n\tv_mov_b32_e32 v0, 0x3f800000\n\ts_endpgm\n",            # prints as 1.0
    "k:\n\tv_mov_b32_e32 v0, 0x40 ; hex\n\ts_nop 0 // c\n\ts_endpgm\n",
    "k:\n\tglobal_load_dword v5, v[6:7], off offset:0x10\n\ts_waitcnt vmcnt(0)\n\ts_endpgm\n",
    "k:\n\ts_getreg_b32 s0, hwreg(4, 0, 32)\n\ts_endpgm\n",         # numeric hwreg
    "k: s_nop 0\n\ts_endpgm\n",                                     # label and instruction
    "\tv_add_f32_e32 v1, v2, v3\nk:\n\ts_endpgm\n",                # outside a kernel
    "k:\n\tv_bogus_f32 v1, v2\n\ts_endpgm\n",                      # MC's error
    "k:\n\ts_cbranch_scc0 .LBB0_2\n.LBB0_2:\n\ts_mov_b32 s0, 1+2\n\ts_endpgm\n",
    "k:\n\tv_add_f32_e32 v1, -v2, v3\n\tv_max_f32_e64 v1, |v2|, v3 clamp\n\ts_endpgm\n",
]


@pytest.mark.parametrize("body", HAND)
def test_hand_written_lines(body):
    fast, full = both(HEAD + body)
    assert fast == full


def test_clang_output():
    clang = shutil.which("clang-22")
    src = ("__kernel void k(__global float *a, __global const float *b, float s) {\n"
           "  int i = __builtin_amdgcn_workitem_id_x();\n"
           "  for (int j = 0; j < 4; ++j) a[i * 4 + j] = a[i * 4 + j] * s + b[i];\n}\n")
    asm = subprocess.run([clang, "-x", "cl", "-cl-std=CL2.0", "-target", "amdgcn-amd-amdhsa",
                          "-mcpu=gfx942", "-nogpulib", "-O2", "-S", "-o", "-", "-"], input=src,
                         capture_output=True, text=True, check=True).stdout
    fast, full = both(asm)
    assert not fast.startswith("error"), fast
    assert fast == full


@pytest.mark.parametrize("arch", rt.ARCHS)
def test_aiter_listings(arch):
    """Three of AMD's code objects per architecture (the first of three
    folders), as LLVM lists them."""
    objs = rt.sample(arch, 1)[:3]
    datas = [open(p, "rb").read() for _, p in objs]
    lists = rt.listings(datas)
    for (rel, _), d in zip(objs, datas):
        fast, full = both(rt.objdump_asm(d, lists[d]), name=rel)
        assert not fast.startswith("error"), (rel, fast[:300])
        assert fast == full, rel
