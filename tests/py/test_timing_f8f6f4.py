"""gfx950's f8f6f4 MFMAs take passes by operand format: 16x16x128 8 passes
(32 cycles) when A or B is fp8/bf8 and 4 (16 cycles) when both are fp6/fp4;
32x32x64 16 and 8 passes. The timing model reads this from the instruction
table (cc/dialect/isa/MFMA.td, one form per A/B format width).

Sources, and where they disagree:
* AMD's ROCm blog "Matrix Core Programming on AMD CDNA3 and CDNA4
  architecture" (2025), section 3's MFMA table: 16x16x128 "16 or 32" cycles,
  32x32x64 "32 or 64", "Larger cycle count if either matrix A or B is FP8".
* AMD's MI355X peaks (data sheet, CDNA4 white paper): 5.0 PFLOP/s dense
  FP8, 10 FP6, 10 FP4 on 256 CUs at 2400 MHz, i.e. 65536 flops of a
  16x16x128 in 32 cycles per SIMD with FP8 and in 16 with FP6/FP4.
* LLVM's gfx950 scheduling model (SISchedule.td, PredIsF8_MFMA_SCALE: "If
  either matrix format is f8, the instruction takes 2x as many cycles"),
  which llc-22's hazard recognizer applies: it waits 4 more wait states
  (16x16x128) or 8 more (32x32x64) before reading an FP8 form's result.
* llvm-mca-22 gives every format the fast count (its MC layer cannot read
  the cbsz/blgp operands the predicate needs; SISchedule.td: "TODO: This
  isn't reflected in MCA"). We follow AMD's hardware figures and llc-22."""
import re
import shutil
import subprocess

import numpy as np
import pytest

import aster
from aster import a, v

LLC = shutil.which("llc-22") or "/usr/lib/llvm-22/bin/llc"
MCA = shutil.which("llvm-mca-22") or "/usr/lib/llvm-22/bin/llvm-mca"
# cbsz/blgp format codes (AMD CDNA4 ISA: 0 fp8, 1 bf8, 2 fp6, 3 bf6, 4 fp4)
# and the registers one lane's 32 elements take.
WIDTH = {0: 8, 1: 8, 2: 6, 3: 6, 4: 4}
# (cbsz, blgp) pairs: FP8 and BF8, mixed with FP4, FP6 and BF6, FP4.
PAIRS = [(0, 0), (1, 1), (0, 4), (4, 1), (2, 2), (3, 4), (4, 4)]


def form(shape, cbsz, blgp, scale=False):
    wa, wb = WIDTH[cbsz], WIDTH[blgp]
    sfx = "" if (wa, wb) == (8, 8) else f"_a{wa}_b{wb}"
    return f"v_mfma{'_scale' if scale else ''}_f32_{shape}_f8f6f4{sfx}", wa, wb


def stream(shape, cbsz, blgp, n=3, chain=False, scale=False):
    """n MFMAs of one wave: independent (own accumulator) or a chain on one."""
    mn, wa, wb = form(shape, cbsz, blgp, scale)
    dw = 4 if shape == "16x16x128" else 16
    m = aster.Module("gfx950")
    k = m.kernel("k", block=(64, 1, 1))
    for r in range(18):
        k.v_mov_b32(v[r], 0)
    for r in range(dw * (1 if chain else n)):
        k.v_accvgpr_write_b32(a[r], 0)
    for i in range(n):
        acc = a[0:dw] if chain else a[dw * i:dw * (i + 1)]
        srcs = [acc, v[0:wa], v[8:8 + wb], acc] + ([v[16], v[17]] if scale else [])
        getattr(k, mn)(*srcs, cbsz=cbsz, blgp=blgp)
    k.s_endpgm()
    r = aster.launch(m, "k", 1, 64, [], timing=True)
    return np.diff(r.trace.issues("v_mfma", wave=0)), m


def passes(shape, cbsz, blgp):
    base = 4 if shape == "16x16x128" else 8
    return base * (2 if 0 in (cbsz, blgp) or 1 in (cbsz, blgp) else 1)


@pytest.mark.parametrize("shape", ["16x16x128", "32x32x64"])
@pytest.mark.parametrize("cbsz,blgp", PAIRS)
def test_interval_by_format(shape, cbsz, blgp):
    """Independent MFMAs of one wave, and a chain on one accumulator, issue
    4 x passes cycles apart: FP8/BF8 in A or B doubles them."""
    for chain in (False, True):
        gaps, _ = stream(shape, cbsz, blgp, chain=chain)
        assert set(gaps.tolist()) == {4 * passes(shape, cbsz, blgp)}, (chain, gaps)


def test_scaled_forms_take_the_same_passes():
    for cbsz, blgp in ((0, 0), (4, 4), (2, 4)):
        gaps, _ = stream("16x16x128", cbsz, blgp, scale=True)
        assert set(gaps.tolist()) == {4 * passes("16x16x128", cbsz, blgp)}


def test_fp8_and_fp4_peaks_match_mi355x():
    """One wave per SIMD streaming 16x16x128 on an MI355X (256 CUs, 4 SIMDs,
    2400 MHz): FP8 5.0 PFLOP/s, FP4 (and FP6) 10 PFLOP/s dense (AMD MI355X
    data sheet, to its rounding)."""
    for (cbsz, blgp), peak in (((0, 0), 5.0), ((4, 4), 10.0), ((2, 2), 10.0)):
        gaps, _ = stream("16x16x128", cbsz, blgp)
        pf = 2 * 16 * 16 * 128 / gaps.min() * 4 * 256 * 2400e6 / 1e15
        assert pf == pytest.approx(peak, abs=0.1), (cbsz, blgp)


def llc_wait_states(shape, cbsz, blgp):
    """Wait states llc-22 (gfx950) puts between an f8f6f4 MFMA and the
    v_accvgpr_read of its result (the hazard recognizer's pass count)."""
    na, nb = WIDTH[cbsz], WIDTH[blgp]
    cn = 4 if shape == "16x16x128" else 16
    f = f"llvm.amdgcn.mfma.scale.f32.{shape}.f8f6f4.v{na}i32.v{nb}i32"
    ir = f"""
declare <{cn} x float> @{f}(<{na} x i32>, <{nb} x i32>, <{cn} x float>, i32, i32, i32, i32, i32, i32)
define amdgpu_kernel void @k(ptr addrspace(1) %p, <{na} x i32> %a, <{nb} x i32> %b,
                             <{cn} x float> %c, i32 %sa, i32 %sb) {{
  %r = call <{cn} x float> @{f}(<{na} x i32> %a, <{nb} x i32> %b, <{cn} x float> %c,
                               i32 {cbsz}, i32 {blgp}, i32 0, i32 %sa, i32 0, i32 %sb)
  %e = extractelement <{cn} x float> %r, i32 0
  %f = fadd float %e, 1.0
  store float %f, ptr addrspace(1) %p
  ret void
}}
"""
    asm = subprocess.run([LLC, "-mtriple=amdgcn-amd-amdhsa", "-mcpu=gfx950", "-O2", "-o", "-"],
                         input=ir, capture_output=True, text=True, check=True).stdout
    body = asm[asm.index("v_mfma_scale_f32"):]
    body = body[:body.index("v_accvgpr_read_b32")]
    return sum(int(n) + 1 for n in re.findall(r"s_nop (\d+)", body))


@pytest.mark.parametrize("shape", ["16x16x128", "32x32x64"])
def test_pass_differences_match_llc(shape):
    """llc-22 waits longer after the FP8 forms by exactly the extra passes the
    model gives them (wait states and passes both count 4-cycle turns)."""
    base = llc_wait_states(shape, 4, 4)
    for cbsz, blgp in PAIRS:
        extra_llc = llc_wait_states(shape, cbsz, blgp) - base
        assert extra_llc == passes(shape, cbsz, blgp) - passes(shape, 4, 4), (cbsz, blgp)
        gaps, _ = stream(shape, cbsz, blgp, n=2)
        gaps4, _ = stream(shape, 4, 4, n=2)
        assert (gaps[0] - gaps4[0]) // 4 == extra_llc


def test_llvm_mca_gives_every_format_the_fast_count():
    """Where we do not follow llvm-mca-22: it times the FP8 form as the FP4 one
    (16 cycles per 16x16x128); the model gives FP8 32 (the sources above)."""
    def mca(cbsz, blgp):
        _, m = stream("16x16x128", cbsz, blgp, n=3)
        block = "\n".join(x for x in aster.compile(m).asm.splitlines()
                          if x.strip().startswith("v_mfma"))
        p = subprocess.run([MCA, "-mtriple=amdgcn", "-mcpu=gfx950", "-iterations=100"],
                           input=block + "\n", capture_output=True, text=True, check=True)
        return 4 * float(re.search(r"Block RThroughput:\s+([\d.]+)", p.stdout)[1]) / 3
    assert mca(0, 0) == mca(4, 4) == 16
    assert stream("16x16x128", 0, 0)[0].min() == 32
