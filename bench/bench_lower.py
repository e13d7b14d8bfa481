"""amdgcn-lower against LLVM: instructions and simulated cycles per kernel.

    python bench/bench_lower.py [--cases add_static,saxpy_dynamic] [--device mi300x]

For every kernel of the lowering suite (tests/py/lower_suite.py,
lower_suite_vector.py, lower_suite_memref.py, lower_suite_linalg.py,
lower_suite_breadth.py, lower_suite_arith.py, lower_suite_cf.py,
lower_suite_gpu.py, lower_suite_arith64b.py and lower_suite_math.py: upstream
MLIR gpu.modules in the style of MLIR's GPU integration tests), builds
aster's code object (aster.lower + amdgcn-regalloc,amdgcn-waitcnt,
amdgcn-hazards) and LLVM's (aster.lowering.llvm: mlir-opt-22
convert-gpu-to-rocdl, llc-22 -O3, ld.lld-22), runs both on the emulator
with the timing model (`aster.launch(..., timing=True)`: whole-device
simulated cycles of the launch) and checks both against NumPy. Prints per
kernel: static instructions in the kernel's code, wave-instructions
executed, cycles, and the cycle ratio aster / LLVM; then the geometric mean
of the ratios (issue 26's target: within 1.25x). Exits 1 if a result is
wrong.
"""
import argparse
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "py"))

import aster  # noqa: E402
import aster.lowering.llvm  # noqa: E402
import lower_suite as S  # noqa: E402
import lower_suite_vector as V  # noqa: E402
import lower_suite_memref as M  # noqa: E402
import lower_suite_linalg as G  # noqa: E402
import lower_suite_breadth as B  # noqa: E402
import lower_suite_arith as A  # noqa: E402
import lower_suite_cf as CF  # noqa: E402
import lower_suite_gpu as GP  # noqa: E402
import lower_suite_arith64b as A64  # noqa: E402
import lower_suite_math as MA  # noqa: E402


def static_instructions(hsaco, kernel):
    """Instructions of `kernel` in the code object (lines of its disassembly)."""
    text = aster.load_code_object(hsaco).disassemble(kernel)
    return sum(1 for line in text.splitlines() if line.strip())


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cases", default="", help="comma-separated case names (default: all)")
    ap.add_argument("--device", default="mi300x")
    args = ap.parse_args()
    want = set(filter(None, args.cases.split(",")))
    cases = [c for c in S.CASES + V.CASES + M.CASES + G.CASES + B.CASES + A.CASES + CF.CASES + GP.CASES
             + A64.CASES + MA.CASES
             if not want or c.name in want]
    print(f"{'kernel':24} {'insts aster':>11} {'insts LLVM':>10} {'wave-insts aster':>16} "
          f"{'wave-insts LLVM':>15} {'cycles aster':>12} {'cycles LLVM':>11} {'ratio':>6}")
    ratios, bad = [], 0
    for c in cases:
        ours = aster.compile(aster.lower(c.mlir)["kernels"], aster.lowering.PIPELINE).hsaco
        theirs = aster.lowering.llvm.build(c.llvm_mlir or c.mlir)["kernels"]
        row = []
        for code in (ours, theirs):
            out, r = S.run(c, code, timing=True, device=args.device)
            try:
                S.check(c, out)
            except AssertionError as e:
                print(f"{c.name}: WRONG RESULT\n{e}")
                bad += 1
            row.append((static_instructions(code, c.kernel), r.wave_instructions, r.cycles))
        ratio = row[0][2] / row[1][2]
        ratios.append(ratio)
        print(f"{c.name:24} {row[0][0]:11} {row[1][0]:10} {row[0][1]:16} {row[1][1]:15} "
              f"{row[0][2]:12} {row[1][2]:11} {ratio:6.3f}")
    gmean = math.exp(sum(map(math.log, ratios)) / len(ratios))
    print(f"geometric mean of cycle ratios (aster / LLVM) over {len(ratios)} kernels: "
          f"{gmean:.3f} (max {max(ratios):.3f}); target <= 1.25")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
