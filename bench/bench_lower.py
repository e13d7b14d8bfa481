"""amdgcn-lower against LLVM: instructions and simulated cycles per kernel.

    python bench/bench_lower.py [--cases add_static,saxpy_dynamic]
        [--suites lower_suite_cf,lower_suite_gpu] [--device mi300x] [--markdown]

For every kernel of the lowering suites (every tests/py/lower_suite*.py:
lower_suite.py, lower_suite_vector.py, lower_suite_memref.py, ... each a
list CASES of upstream MLIR gpu.modules in the style of MLIR's GPU
integration tests), builds
aster's code object (aster.lower + amdgcn-regalloc,amdgcn-waitcnt,
amdgcn-hazards) and LLVM's (aster.lowering.llvm: mlir-opt-22
convert-gpu-to-rocdl, llc-22 -O3, ld.lld-22), runs both on the emulator
with the timing model (`aster.launch(..., timing=True)`: whole-device
simulated cycles of the launch) and checks both against NumPy. Prints per
kernel: static instructions in the kernel's code, wave-instructions
executed, cycles, and the cycle ratio aster / LLVM; then the geometric mean
of the ratios (issue 26's target: within 1.25x), without the cases whose
LLVM source is another algorithm (Case.compare). Exits 1 if a result is
wrong.
"""
import argparse
import glob
import importlib
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "py"))

import aster  # noqa: E402
import aster.lowering.llvm  # noqa: E402
import lower_suite as S  # noqa: E402
from aster.ops.devices import DEVICE  # noqa: E402

# Every suite module (lower_suite.py first), so a new suite file is benched
# without an edit here.
SUITES = sorted(os.path.basename(p)[:-3]
                for p in glob.glob(os.path.join(HERE, "..", "tests", "py", "lower_suite*.py")))


def all_cases():
    """(suite name, case) of every suite, in suite order (a suite's (case,
    target) pairs: the case with its `target` set, gfx942 otherwise)."""
    out = []
    for name in SUITES:
        for c in importlib.import_module(name).CASES:
            c, target = c if isinstance(c, tuple) else (c, "gfx942")
            c.target = target
            out.append((name, c))
    return out


def static_instructions(hsaco, kernel):
    """Instructions of `kernel` in the code object (lines of its disassembly)."""
    text = aster.load_code_object(hsaco).disassemble(kernel)
    return sum(1 for line in text.splitlines() if line.strip())


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cases", default="", help="comma-separated case names (default: all)")
    ap.add_argument("--suites", default="",
                    help="comma-separated suite modules (default: all): " + ",".join(SUITES))
    ap.add_argument("--device", default="mi300x")
    ap.add_argument("--markdown", action="store_true",
                    help="also print a markdown table (kernel, suite, insts, cycles, ratio)")
    args = ap.parse_args()
    want = set(filter(None, args.cases.split(",")))
    suites = set(filter(None, args.suites.split(",")))
    cases = [(sn, c) for sn, c in all_cases()
             if (not want or c.name in want) and (not suites or sn in suites)]
    print(f"{'kernel':24} {'insts aster':>11} {'insts LLVM':>10} {'wave-insts aster':>16} "
          f"{'wave-insts LLVM':>15} {'cycles aster':>12} {'cycles LLVM':>11} {'ratio':>6}")
    ratios, bad, rows = [], 0, []
    for sn, c in cases:
        try:
            ours = aster.compile(aster.lower(c.mlir, target=c.target)["kernels"],
                                 aster.lowering.PIPELINE).hsaco
            theirs = aster.lowering.llvm.build(c.llvm_mlir or c.mlir, target=c.target)["kernels"]
        except (aster.AsterError, RuntimeError) as e:
            print(f"{c.name}: NOT BUILT\n{str(e)[:400]}")
            bad += 1
            continue
        row = []
        for code in (ours, theirs):
            # a gfx950 case runs on gfx950's device (aster.ops.devices.DEVICE)
            dev = args.device if c.target == "gfx942" else DEVICE[c.target]
            out, r = S.run(c, code, timing=True, device=dev)
            try:
                S.check(c, out)
            except AssertionError as e:
                print(f"{c.name}: WRONG RESULT\n{e}")
                bad += 1
            row.append((static_instructions(code, c.kernel), r.wave_instructions, r.cycles))
        ratio = row[0][2] / row[1][2]
        if c.compare:
            ratios.append(ratio)
        rows.append((c.name + ("" if c.compare else " *"), sn, row, ratio))
        print(f"{c.name + ('' if c.compare else ' *'):24} {row[0][0]:11} {row[1][0]:10} {row[0][1]:16} {row[1][1]:15} "
              f"{row[0][2]:12} {row[1][2]:11} {ratio:6.3f}")
    gmean = math.exp(sum(map(math.log, ratios)) / len(ratios))
    if args.markdown:
        print("\n| kernel | suite | insts aster | insts LLVM | cycles aster | cycles LLVM | ratio |")
        print("|---|---|---:|---:|---:|---:|---:|")
        for name, sn, row, ratio in rows:
            print(f"| {name} | {sn[len('lower_suite_'):] or 'scalar'} | {row[0][0]} | {row[1][0]} "
                  f"| {row[0][2]} | {row[1][2]} | {ratio:.3f} |")
    if len(ratios) < len(rows):
        print("* LLVM builds another algorithm (the case's llvm_mlir): not in the mean")
    print(f"geometric mean of cycle ratios (aster / LLVM) over {len(ratios)} kernels: "
          f"{gmean:.3f} (max {max(ratios):.3f}); target <= 1.25")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
