"""On an NVIDIA GPU (skipped without one, the only skip): the corpus kernels as aster
writes them through the `sass` MLIR dialect (raise -> MLIR text -> parse -> cubin),
the edited kernels (three of them grow sections) and the builder's kernel give
NumPy's results, every one of them (as on the H100: tests/py/sass/corpus/h100_run_mlir.json).
Oracle: NumPy references in tools/sass/corpus_kernels.py / device_edits.py.
The H100 results of tools/sass/run_all.sh are quoted in docs/sass.md."""
import importlib.util
import os
import subprocess
import sys
import tarfile

import pytest

TOOLS = os.path.join(os.path.dirname(__file__), '..', '..', '..', 'tools', 'sass')


def _gpu():
    if importlib.util.find_spec('cupy') is None:
        return False
    try:
        return subprocess.run(['nvidia-smi', '-L'], capture_output=True, timeout=20).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


@pytest.mark.skipif(not _gpu(), reason='needs an NVIDIA GPU and CuPy')
def test_kernels_run_numpy_correct(tmp_path):
    with tarfile.open(os.path.join(os.path.dirname(__file__), 'corpus', 'own.tar.xz')) as tf:
        try:
            tf.extractall(tmp_path, filter='data')
        except TypeError:   # Python < 3.11.4: no extraction filters
            tf.extractall(tmp_path)
    src = tmp_path / 'sass_own'
    prep = tmp_path / 'prep'
    subprocess.run([sys.executable, os.path.join(TOOLS, 'prepare_run.py'), str(src), str(prep), '--mlir'],
                   check=True)
    import json
    for d in ('mlir', 'edit'):
        out = tmp_path / f'run_{d}.json'
        args = [sys.executable, os.path.join(TOOLS, 'run_kernels.py'), str(prep / d), str(out)]
        if d == 'edit':
            args.append(str(prep / d / 'edits.json'))
        for _ in range(10):
            if subprocess.run(args).returncode == 0:
                break
        res = json.loads(out.read_text())
        ok = sum(v['ok'] for v in res.values())
        assert ok == len(res) >= (231 if d == 'mlir' else 14), res
