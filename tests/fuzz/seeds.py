"""Seed corpora for the fuzz targets, made from the test corpus: the lit
tests' MLIR (split at `// -----`), their assembly and code objects, the HIP
kernels of tests/emulator/hip compiled by clang-22 (assembly and hsaco)."""
import glob
import os
import sys
import shutil
import subprocess

import aster

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HIP = os.path.join(ROOT, "tests", "emulator", "hip")
CLANG = ("-x", "hip", "--cuda-device-only", "--no-gpu-bundle-output", "-nogpulib",
         "-nogpuinc", "-O3", "--offload-arch=gfx942")


def _mlir_inputs():
    for path in sorted(glob.glob(os.path.join(ROOT, "tests", "lit", "**", "*.mlir"),
                                 recursive=True)):
        with open(path) as f:
            for part in f.read().split("// -----"):
                if "amdgcn.module" in part:
                    yield part


def _clang():
    return shutil.which("clang-22") or "/usr/lib/llvm-22/bin/clang"


def _hip_outputs(tmp, limit):
    """(asm text, hsaco bytes) of up to `limit` HIP kernels files."""
    out = []
    for src in sorted(glob.glob(os.path.join(HIP, "*.hip")))[:limit]:
        base = os.path.join(tmp, os.path.basename(src))
        try:
            subprocess.run([_clang(), *CLANG, "-I", HIP, "-S", src, "-o", base + ".s"],
                           check=True, capture_output=True)
            subprocess.run([_clang(), *CLANG, "-I", HIP, src, "-o", base + ".hsaco"],
                           check=True, capture_output=True)
        except (OSError, subprocess.CalledProcessError):
            continue
        with open(base + ".s") as f, open(base + ".hsaco", "rb") as g:
            out.append((f.read(), g.read()))
    return out


def write_seeds(corpus_root, hip_limit=6):
    """Writes <corpus_root>/<target>/seed-N for every target; returns the dirs."""
    dirs = {t: os.path.join(corpus_root, t) for t in
            ("asm", "disasm", "mlir", "launch", "builder", "raise", "sass")}
    for d in dirs.values():
        os.makedirs(d, exist_ok=True)
    asm, hsaco, mlir = [], [], []
    for text in _mlir_inputs():
        mlir.append(text)
        try:
            c = aster.compile(aster.parse(text), pipeline="amdgcn-regalloc")
            asm.append(c.asm)
            hsaco.append(c.hsaco)
        except aster.AsterError:
            pass
    tmp = os.path.join(corpus_root, "_clang")
    os.makedirs(tmp, exist_ok=True)
    for text, code in _hip_outputs(tmp, hip_limit):
        asm.append(text)
        hsaco.append(code)

    def put(target, items, choices=b"", tag="seed"):
        for i, item in enumerate(items):
            data = item.encode("latin-1", "replace") if isinstance(item, str) else item
            with open(os.path.join(dirs[target], f"{tag}-{i}"), "wb") as f:
                f.write(choices + data)

    # A seed is the target's choice bytes (targets._Input), then the file.
    # asm: gfx942, link; mlir: amdgcn-regalloc; launch:
    # grid 1, block 64, strict, no timing, no argument bytes (so the rest is the code).
    put("asm", asm, b"\0\1")
    put("mlir", mlir, b"\1")
    put("disasm", hsaco, b"\0")
    put("launch", hsaco, b"\0\1\0\100\1\0\0")
    put("raise", asm, b"\0\1", "asm")
    put("raise", hsaco, b"\2\1", "hsaco")
    # Assembly as authors write it (macros, repeats, symbols, conditionals):
    # the inputs of the raise-*.mlir lit tests.
    authored = os.path.join(os.path.dirname(__file__), "..", "lit", "raise", "Inputs")
    put("raise", [open(os.path.join(authored, f + ".s")).read() for f in
                  ("macro", "rept", "irp", "set", "if", "comments", "hwreg")], b"\0\1", "authored")
    put("builder", [bytes(range(i, i + 64)) for i in range(0, 192, 16)])
    # sass: no edit (a round trip), then edits at the first instructions.
    cubins = _sass_cubins()
    put("sass", cubins, b"\0\0\0", "roundtrip")
    put("sass", cubins, b"\1\0\3", "edit")
    return dirs


def _sass_cubins(n=8):
    """A few cubins of the committed SASS corpus (tests/py/sass/corpus)."""
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "py", "sass"))
    import sass_corpus
    own = sass_corpus.files("own")
    return [own[stem]["cubin"] for stem in sorted(own)[::max(1, len(own) // n)]]
