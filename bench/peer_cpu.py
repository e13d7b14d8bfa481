"""The peer's (iree-org/aster, aster-mlir wheel) compile path in process CPU
time and wall-clock time, for bench_compile.py: the same stages as its own
harness (../shared/peers/aster/bench.py, `regalloc` variant: build with
virtual registers, amdgcn-backend + hazards, translate to assembly,
in-process MC + lld to hsaco), each repetition timed with
time.process_time() (other load on the machine counts less) and
time.perf_counter(). Runs under the peer's Python (its venv); the peer's
kernels come from its folder.

    PEER_PY bench/peer_cpu.py PEER_DIR --ns 10,100,1000 --reps 30

Prints one JSON object: {"kernel n": {"cpu": [seconds of each repetition],
"wall": [...]}} after one warm-up repetition per (kernel, n) (LLVM's
start-up, as bench_compile.py warms aster up).
"""
import argparse
import json
import sys
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("peer_dir")
    ap.add_argument("--ns", default="10,100,1000")
    ap.add_argument("--reps", type=int, default=30)
    args = ap.parse_args()
    sys.path.insert(0, args.peer_dir)
    from aster import ir
    from aster._mlir_libs._mlir import passmanager
    from aster._mlir_libs._amdgcn import compile_asm
    from aster.compiler.core import translate_module
    import aster_kernels as K

    ctx = ir.Context()
    ctx.allow_unregistered_dialects = True
    out = {}
    with ctx:
        for kernel, build in (("add", K.build_add), ("mfma", K.build_mfma)):
            for n in (int(x) for x in args.ns.split(",")):
                cpu, wall = [], []
                for rep in range(args.reps + 1):
                    c0, w0 = time.process_time(), time.perf_counter()
                    m = build(n, allocated=False)
                    passmanager.PassManager.parse(K.PIPE_REGALLOC, ctx).run(m.operation)
                    asm = translate_module(K.find_amdgcn_module(m))
                    hsaco = compile_asm(ir.Location.unknown(), asm, "gfx942", "+wavefrontsize64")
                    if rep:
                        cpu.append(time.process_time() - c0)
                        wall.append(time.perf_counter() - w0)
                    assert hsaco, f"the peer produced no code object for {kernel} {n}"
                    del m
                out[f"{kernel} {n}"] = {"cpu": cpu, "wall": wall}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
