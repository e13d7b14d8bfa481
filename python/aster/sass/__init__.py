"""aster.sass: NVIDIA Hopper (sm_90a) machine code raised, edited and re-encoded.

    from aster import sass
    m = sass.raise_cubin(open('k.cubin', 'rb').read())   # kernels, params, labels
    assert m.cubin() == original bytes                      # byte-exact round trip
    k = m.kernels['k']; k.insts[5].text = 'IADD3 R9, R4, R3, 0x1'   # edit, re-encoded
    data = m.cubin()                                        # ELF attributes fixed
    m2 = sass.from_mlir(sass.to_mlir(m))                    # the `sass` MLIR dialect

The instruction table (table.json) is learned from nvdisasm's output on a corpus
of nvcc- and PyTorch-built cubins by tools/sass/gen_table.py.
"""
from .errors import SassError  # noqa: F401
from .cubin import Instruction, Kernel, Module, raise_cubin  # noqa: F401,E402
from .control import Control  # noqa: F401,E402
from .builder import KernelBuilder  # noqa: F401,E402
from . import barriers  # noqa: F401,E402
from .mlir import to_mlir, from_mlir  # noqa: F401,E402
