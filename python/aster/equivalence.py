"""`aster.check_equivalent`: do two versions of a kernel compute the same?

Checked by execution on aster's emulator (strict mode: a missing wait, an
out-of-bounds access or an uninitialized register fails the run) with the
inputs `arg_factory` makes, trial after trial; every array argument must
end bit-identical.
"""
import numpy as np

from .runtime import launch

__all__ = ["check_equivalent", "NotEquivalent"]


class NotEquivalent(AssertionError):
    """Two versions of a kernel left different results (trial, argument,
    first differing element and both values in the message)."""


def check_equivalent(m1, m2, kernel, arg_factory, trials=8, *, grid=1, block=64,
                     seed=0, **launch_options):
    """Runs `kernel` of m1 and of m2 (each a Module, Compiled or hsaco bytes)
    `trials` times on the strict emulator. `arg_factory(rng)` returns the
    argument list of one trial (NumPy arrays for pointers, scalars), `rng` a
    numpy Generator seeded from `seed` and the trial number; each version
    gets its own copy. Raises NotEquivalent at the first array that differs
    (compared bit for bit, so NaNs compare by their bits); the emulator's
    errors (EmulatorError) pass through. Returns the number of trials run."""
    if not isinstance(trials, int) or isinstance(trials, bool) or trials < 1:
        raise ValueError(f"trials must be a positive int, got {trials!r}")
    for t in range(trials):
        args = list(arg_factory(np.random.default_rng([seed, t])))
        runs = []
        for m in (m1, m2):
            copy = [np.array(a, copy=True) if isinstance(a, np.ndarray) else a for a in args]
            launch(m, kernel, grid, block, copy, **launch_options)
            runs.append(copy)
        for i, (x, y) in enumerate(zip(*runs)):
            if not isinstance(x, np.ndarray):
                continue
            bx = x.reshape(-1).view(np.uint8).reshape(x.size, -1) if x.size else x
            by = y.reshape(-1).view(np.uint8).reshape(y.size, -1) if y.size else y
            if x.size and not np.array_equal(bx, by):
                diff = np.nonzero(np.any(bx != by, axis=1))[0]
                j = int(diff[0])
                raise NotEquivalent(
                    f"kernel '{kernel}', trial {t}: argument {i} differs in {len(diff)} of "
                    f"{x.size} elements; first at flat index {j}: "
                    f"{x.reshape(-1)[j]!r} vs {y.reshape(-1)[j]!r}")
    return trials
