"""raise_asm speed: µs per instruction line for assembly text of 1k to 50k
instructions, written out flat (as clang -S writes it) and the same code made
by a macro called in a `.rept` (as hand-written kernels are). raise_asm reads
the macro text with LLVM MC's parser first (cc/target/raise/AsmExpand.cpp),
then the printed text line by line; the flat text takes the fast path
(cc/target/raise/AsmPlainLines.h: MC reads only its directives and labels).
The llvm-mc column is llvm-mc-22's own time for `-filetype=asm` of the flat
text (its process start included), what reading every line through MC costs
at least. Prints min of `--runs` runs, in process CPU time (robust on a
shared machine). Both texts raise to the same code (checked).
"""
import argparse
import shutil
import subprocess
import tempfile
import time

import aster

BODY = ["v_add_f32_e32 v1, v2, v3", "v_mul_f32_e32 v4, 0x40490fdb, v1",
        "s_add_u32 s8, s8, 1", "global_load_dword v5, v[6:7], off offset:16",
        "v_fma_f32 v9, v1, v4, v5", "s_waitcnt vmcnt(0)",
        "ds_write_b32 v14, v9 offset:64", "s_cmp_lg_u32 s8, 0"]
HEAD = '\t.amdgcn_target "amdgcn-amd-amdhsa--gfx942"\n\t.text\n'


def flat(n):
    return HEAD + "k:\n" + "".join(f"\t{BODY[i % len(BODY)]}\n" for i in range(n)) + "\ts_endpgm\n"


def with_macros(n):
    """The same instructions: a macro of the 8-line body called n/8 times."""
    assert n % len(BODY) == 0
    return (HEAD + ".macro step\n" + "".join(f"\t{b}\n" for b in BODY) + ".endm\n" +
            f"k:\n\t.rept {n // len(BODY)}\n\tstep\n\t.endr\n\ts_endpgm\n")


def cpu(fn, runs):
    best = float("inf")
    for _ in range(runs):
        t = time.process_time()
        fn()
        best = min(best, time.process_time() - t)
    return best


def llvm_mc_seconds(text, runs):
    mc = shutil.which("llvm-mc-22")
    if not mc:
        return float("nan")
    with tempfile.NamedTemporaryFile("w", suffix=".s") as f:
        f.write(text)
        f.flush()
        best = float("inf")
        for _ in range(runs):
            r = subprocess.run(["bash", "-c", f"TIMEFORMAT=%U; time {mc} -triple=amdgcn-amd-amdhsa "
                                f"-mcpu=gfx942 -filetype=asm {f.name} > /dev/null"],
                               capture_output=True, text=True, check=True)
            best = min(best, float(r.stderr.strip().splitlines()[-1]))
        return best


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="*", default=[1000, 10000, 50000])
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args()
    print(f"{'lines':>7} {'flat us/line':>13} {'llvm-mc us/line':>16} {'macro+rept us/line':>19}")
    for n in a.sizes:
        n -= n % len(BODY)
        t_flat, t_mac = flat(n), with_macros(n)
        assert aster.compile(aster.raise_asm(t_flat)).asm == aster.compile(aster.raise_asm(t_mac)).asm
        f = cpu(lambda: aster.raise_asm(t_flat), a.runs)
        m = cpu(lambda: aster.raise_asm(t_mac), a.runs)
        mc = llvm_mc_seconds(t_flat, a.runs)
        print(f"{n:>7} {f / n * 1e6:>13.2f} {mc / n * 1e6:>16.2f} {m / n * 1e6:>19.2f}")


if __name__ == "__main__":
    main()
