"""What the f64 math test files share (test_lower_math_f64.py,
test_lower_math_f64_trig.py): the error in ulps against an oracle, the worst
error of a suite case's outputs over seeds, the check that llc-22 cannot
build an f64 intrinsic on AMDGPU (why those functions have no LLVM oracle),
and a kernel of math.sin / cos (or sincos) of f64."""
import subprocess

import numpy as np

import lower_suite as S
from lower_testing import ours


def ulps(got, want):
    """|got - want| in ulps of `want` (denormals: 2^-1074); infinities, zeros
    of either sign and NaNs must match (0 ulp when they do)."""
    same = (got == want) | (np.isnan(got) & np.isnan(want))
    finite = np.isfinite(want) & np.isfinite(got)
    err = np.full(got.shape, np.inf)
    err[same] = 0.0
    f = finite & ~same
    err[f] = np.abs(got[f] - want[f]) / np.spacing(np.abs(want[f]))
    return err


def worst_ulps(case, ops, reference, first, seeds):
    """{op: the largest ulps over `seeds`} of aster's build of `case`, whose
    outputs from argument `first` on are `ops` in order, against
    `reference(arguments)[op]`."""
    code = ours(case)
    worst = dict.fromkeys(ops, 0.0)
    for seed in seeds:
        out = S.run(case, code, seed=seed)[0]
        ref = reference(out)
        for j, op in enumerate(ops):
            worst[op] = max(worst[op], float(np.max(ulps(out[first + j], ref[op]))))
    return worst


def llc_f64_intrinsic(op, tmp_path):
    """llc-22 -mcpu=gfx942 on a kernel calling llvm.{op}.f64: the
    CompletedProcess (its returncode and stderr say whether LLVM builds it)."""
    ll = tmp_path / "k.ll"
    ll.write_text(f"""target triple = "amdgcn-amd-amdhsa"
define amdgpu_kernel void @k(ptr addrspace(1) %p) {{
  %x = load double, ptr addrspace(1) %p
  %r = call double @llvm.{op}.f64(double %x)
  store double %r, ptr addrspace(1) %p
  ret void
}}
""")
    return subprocess.run(["llc-22", "-mtriple=amdgcn-amd-amdhsa", "-mcpu=gfx942", str(ll),
                           "-o", "/dev/null"], capture_output=True, text=True)


def sin_cos_kernel(n, sincos=False):
    """A module of @k(x, s, c: memref<n x f64>): s = sin(x), c = cos(x) per
    lane (math.sincos when `sincos`, else math.sin and math.cos)."""
    ops = ("      %sv, %cv = math.sincos %xv : f64" if sincos else
           "      %sv = math.sin %xv : f64\n      %cv = math.cos %xv : f64")
    return S.module(f"""
    gpu.func @k(%x: memref<{n}xf64>, %s: memref<{n}xf64>, %c: memref<{n}xf64>) kernel {{
      %i = gpu.thread_id x
      %xv = memref.load %x[%i] : memref<{n}xf64>
{ops}
      memref.store %sv, %s[%i] : memref<{n}xf64>
      memref.store %cv, %c[%i] : memref<{n}xf64>
      gpu.return
    }}""")
