"""Coverage audit of aster.lower, op by op, from upstream MLIR's own op lists.

    python -m aster.lowering.coverage [--markdown] [--ops vector.step,...] [--sample]

The ops come from the MLIR 22 libraries aster links (`_aster.upstream_ops()`:
the operations the dialects' C++ registers), never from a list typed here.
For every op of the dialects of issue 26 item 2 (gpu, arith, math, scf, cf,
memref, vector, amdgpu) this module holds either probes (tiny generated
kernels: the op on one or more element types, scalars and vectors) or the
reason the op is out of scope (host-side ops, other vendors' ops, ...);
`unlisted()` names an upstream op that has neither, so a new upstream op
cannot slip by.

Each probe is lowered by aster.lower and, when it lowers, run on the
emulator (strict mode) next to LLVM's build of the same text
(aster.lowering.llvm: convert-gpu-to-rocdl + llc-22) on the same random
inputs; where the probe has a NumPy reference that is checked too. The
outcome of a probe:

    ok          lowers, runs, and equals LLVM's build (bit for bit; a NaN
                matches any NaN) and NumPy where given
    ok~N        lowers; floats within N ulp of LLVM's build (N <= 4)
    ok-nollvm   lowers and equals NumPy; LLVM cannot build it here (why:
                the `llvm` column / reason)
    lowers      lowers and runs; no oracle (LLVM cannot build it, no NumPy)
    differs     lowers, but disagrees with LLVM's build or NumPy (a bug)
    error       a located AsterError naming the probed op (a gap if the op
                is in scope)
    error-other a located AsterError naming another op of the probe's
                scaffolding (the gap is that op's)
    bad-error   an error without the op's name and location (a bug)
    crash       the process died or hung (a bug)
"""
from .run import audit, main, markdown, probes, run_probe, summary, unlisted, upstream_ops
from .scope import DIALECTS, OUT_OF_SCOPE

__all__ = ["DIALECTS", "OUT_OF_SCOPE", "audit", "main", "markdown", "probes", "run_probe",
           "summary", "unlisted", "upstream_ops"]
