"""Prepare the H100 run: cubins written by aster from the corpus, edited and built kernels,
and the corpus kernels with every control bit set by aster's barrier pass.

usage: prepare_run.py CORPUS_DIR OUT_DIR [--mlir]
With --mlir (needs the built aster package: the `sass` MLIR dialect), every cubin
written goes raise -> MLIR text (sass.to_mlir) -> parse and verify
(sass.from_mlir) -> cubin: OUT_DIR/mlir/<name>.cubin for the corpus kernels, and the
edited / built kernels of OUT_DIR/edit; the ctrl folder is skipped.
Writes OUT_DIR/aster/<name>.cubin (module.cubin() of each corpus cubin; byte-exact,
so identical to ptxas's), OUT_DIR/edit/<stem>.cubin + OUT_DIR/edit/edits.json
(tools/sass/device_edits.py), OUT_DIR/ctrl/<name>.cubin (barriers.set_control on
all code).  tools/sass/run_kernels.py runs each folder on the GPU.
Needs: aster.sass (standalone), the corpus cubins.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import device_edits  # noqa: E402

MLIR = '--mlir' in sys.argv
if MLIR:
    from aster import sass  # noqa: E402
else:
    from standalone import sass  # noqa: E402


def _write(m):
    """The module's cubin, through the MLIR dialect with --mlir."""
    if MLIR:
        m = sass.from_mlir(sass.to_mlir(m))
    return m.cubin()


def main():
    src, out = sys.argv[1], sys.argv[2]
    for d in ('mlir', 'edit') if MLIR else ('aster', 'edit', 'ctrl'):
        os.makedirs(os.path.join(out, d), exist_ok=True)
    exact = 0
    names = sorted(f[:-6] for f in os.listdir(src) if f.endswith('.cubin'))
    for n in names:
        data = open(os.path.join(src, n + '.cubin'), 'rb').read()
        m = sass.raise_cubin(data)
        b = _write(m)
        exact += b == data
        open(os.path.join(out, 'mlir' if MLIR else 'aster', n + '.cubin'), 'wb').write(b)
        if n.startswith('wgmma') or MLIR:
            continue
        m = sass.raise_cubin(data)
        for k in m.kernels.values():
            sass.barriers.set_control(k.insts, k.labels.values())
            k.edited = True
        open(os.path.join(out, 'ctrl', n + '.cubin'), 'wb').write(m.cubin())
    refs = {}
    for stem, (fn, base, ref) in {**device_edits.EDITS, **device_edits.BUILT}.items():
        m = sass.raise_cubin(open(os.path.join(src, base + '.cubin'), 'rb').read())
        fn(m, sass)
        open(os.path.join(out, 'edit', stem + '.cubin'), 'wb').write(_write(m))
        refs[stem] = ref
    json.dump(refs, open(os.path.join(out, 'edit', 'edits.json'), 'w'), indent=1)
    print(f'{exact}/{len(names)} byte-exact; {len(refs)} edited/built kernels')


if __name__ == '__main__':
    main()
