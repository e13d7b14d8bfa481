"""Translate + assemble + link a pinned-register kernel of N instructions.

Prints µs per instruction for translation to asm alone, for the code object
as aster makes it (instructions as MCInsts, cc/target/DirectEmit.h, + lld)
and through text (IR -> asm -> LLVM MC parse -> lld), for N = 10, 1k, 10k,
100k. Both include the verifier. bench_compile.py times the whole compile.
Reference: ASTER's wheel takes ~13 µs/instr for its pinned-register path at
10k, of which assemble+link ~2 µs (../shared/peers/aster/README.md, 2026-11-21).
"""
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "build", "python_packages"))
import aster  # noqa: E402

ASTER_PEER_US_PER_INSTR_10K = 13.0


def kernel_ir(n, kind):
    lines = ['amdgcn.module @m target("gfx942") {',
             '  amdgcn.kernel @k() attributes {block = array<i32: 64, 1, 1>} {',
             '    %v0 = amdgcn.reg : !amdgcn.vgpr<0>',
             '    %v1 = amdgcn.reg : !amdgcn.vgpr<1>',
             '    %v23 = amdgcn.reg : !amdgcn.vgpr<[2:3]>']
    for i in range(10):
        lines.append(f'    %a{i} = amdgcn.reg : !amdgcn.agpr<[{4 * i}:{4 * i + 3}]>')
    for i in range(n):
        if kind == "add":
            lines.append('    %x' + str(i) + ' = amdgcn.v_add_u32 %v0, %v1 : '
                         '(!amdgcn.vgpr<0>, !amdgcn.vgpr<1>) -> !amdgcn.vgpr<1>')
        else:
            a = f"!amdgcn.agpr<[{4 * (i % 10)}:{4 * (i % 10) + 3}]>"
            lines.append(f'    %x{i} = amdgcn.v_mfma_f32_16x16x16_f16 %v23, %v23, %a{i % 10} : '
                         f'(!amdgcn.vgpr<[2:3]>, !amdgcn.vgpr<[2:3]>, {a}) -> {a}')
    lines += ['    amdgcn.s_endpgm', '  }', '}']
    return "\n".join(lines)


def best(fn, reps):
    t = float("inf")
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        t = min(t, time.perf_counter() - t0)
    return t


def main():
    ns = [10, 1000, 10000, 100000]
    print(f"{'kernel':6} {'N':>7} {'asm µs/instr':>13} {'hsaco µs/instr':>15} "
          f"{'via text':>9} {'hsaco total s':>14} {'vs ASTER@10k':>12}")
    for kind in ("add", "mfma"):
        for n in ns:
            m = aster.parse(kernel_ir(n, kind))
            m.hsaco()  # warm up LLVM target initialisation
            reps = 5 if n <= 10000 else 2
            t_asm = best(m.asm, reps)
            t_hsaco = best(m.hsaco, reps)
            t_text = best(lambda: m._m.hsaco(False), reps)
            ratio = (f"{ASTER_PEER_US_PER_INSTR_10K / (t_hsaco / n * 1e6):.1f}x"
                     if n == 10000 else "")
            print(f"{kind:6} {n:>7} {t_asm / n * 1e6:>13.3f} {t_hsaco / n * 1e6:>15.3f} "
                  f"{t_text / n * 1e6:>9.3f} {t_hsaco:>14.4f} {ratio:>12}")


if __name__ == "__main__":
    main()
