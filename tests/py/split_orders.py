"""Shared fixtures' work for the dispatch tests that check the estimate's
order of two split counts of one split-K kernel against the timing model
(the oracle): a one-kernel library and the simulated cycles of each launch;
for the tests that compare two kernels' launches (of one library), each
launch's simulated cycles and the estimate's microseconds."""
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


def entry(lib, config):
    """The library's entry of `config`."""
    return next(e for e in lib.entries if e.config == config)


def launch_cycles(lib, shape, launches):
    """Cycles of each (config, splits, zwg) launch on `shape`, on the
    timing model (the oracle)."""
    return tuple(Lb.run(lib.code(entry(lib, c)), c, shape, s, zwg=z).cycles
                 for c, s, z in launches)


def estimates_us(lib, shape, launches, calibration=lambda cal: cal):
    """The estimate's microseconds of each (config, splits, zwg) launch,
    with each entry's calibration passed through `calibration` (to drop a
    column: the estimate of a library built before it)."""
    M, N, K = shape
    return [L.dispatch.estimate_us(c, M, N, K, s, calibration(entry(lib, c).calibration),
                                   zwg=z)[0]
            for c, s, z in launches]
