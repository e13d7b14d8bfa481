"""The committed SASS corpus (tests/py/sass/corpus/*.tar.xz): cubins and `nvdisasm -hex` text.

own.tar.xz: the 232 kernels of tools/sass/corpus_kernels.py built by nvcc 13.0 for sm_90a;
torch.tar.xz: 112 sm_90 cubins from PyTorch 2.11's libtorch_cuda.so (a fixed sample).
Both were disassembled by nvdisasm 13.0 on the H100 machine (tools/sass/make_corpus.py):
the text and its 128-bit words are the outside oracle of every test here.
SAMPLE: the fixed subset the normal tests use (the whole set: `make sass-corpus`).
"""
import functools
import io
import os
import tarfile

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'corpus')
FULL = os.environ.get('ASTER_SASS_FULL') == '1'


@functools.lru_cache(None)
def files(which):
    """{stem: {'cubin': bytes, 'sass': str}} of own or torch."""
    out = {}
    with tarfile.open(os.path.join(HERE, which + '.tar.xz')) as tf:
        for m in tf.getmembers():
            if not m.isfile():
                continue
            name = os.path.basename(m.name)
            ext = 'cubin' if name.endswith('.cubin') else 'sass'
            stem = name[:-len(ext) - 1]
            data = tf.extractfile(m).read()
            out.setdefault(stem, {})[ext] = data if ext == 'cubin' else data.decode()
    return out


def sample(which, n):
    """Every n-th entry (sorted), or all with ASTER_SASS_FULL=1."""
    stems = sorted(files(which))
    return stems if FULL else stems[::n]
