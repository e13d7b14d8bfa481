"""Shared fixtures' work for the dispatch tests that check the estimate's
order of two split counts of one split-K kernel against the timing model
(the oracle): a one-kernel library and the simulated cycles of each launch."""
import aster.ops as L
from aster.ops import library as Lb


def one_kernel_library(tmp_path_factory, name, config):
    """A calibrated library of `config` alone (no reference shapes)."""
    return L.build_library(str(tmp_path_factory.mktemp(name)), [config], ref_shapes=(),
                           workers=2)


def simulated_cycles(lib, shape, splits):
    """Cycles of the library's kernel launched on `shape` in each of
    `splits` (zero workgroups on), on the timing model."""
    e = lib.entries[0]
    return tuple(Lb.run(lib.code(e), e.config, shape, s, zwg=1).cycles for s in splits)
