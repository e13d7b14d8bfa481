"""aster.ops.tune on a tiny space: the local-process and the Ray executor
(a local Ray with 2 CPUs, driven from a child process) give the same simulated cycles per (config,
shape), the winner is the fastest, and it is written into configs.csv
(tuned_for), where dispatch then picks it."""
import csv
import importlib.util
import os
import sys

import numpy as np
import pytest

import aster.ops as L
from aster.generators.gemm import GemmConfig, reference

SPACE = {"tile_m": [64, 128], "tile_n": [64], "tile_k": [64], "mfma": [16]}
SHAPES = [(128, 64, 128), (64, 64, 64)]


def check(res):
    assert len(res.results) == 4       # 2 configs x 2 shapes
    for s in SHAPES:
        rows = [r for r in res.results if r["shape"] == s]
        best = min(rows, key=lambda r: r["cycles"])
        assert res.winners[s] == best["config"]
        assert all(r["cycles"] > 0 and 0 < r["utilisation"] < 1 for r in rows)
    return {(r["config"], r["shape"]): r["cycles"] for r in res.results}


@pytest.fixture(scope="module")
def local(tmp_path_factory):
    d = str(tmp_path_factory.mktemp("tunelib"))
    return d, L.tune(SHAPES, SPACE, executor="local", workers=2, library=d, progress=True)


def test_tune_local_writes_winners(local):
    d, res = local
    check(res)
    rows = list(csv.DictReader(open(os.path.join(d, "configs.csv"))))
    tuned = {s: r["name"] for r in rows for s in filter(None, r["tuned_for"].split(";"))}
    assert tuned == {"x".join(map(str, s)): n for s, n in res.winners.items()}
    lib = L.Library(d)
    m, n, k = SHAPES[0]
    assert L.choose(lib, m, n, k).name == res.winners[SHAPES[0]]
    rng = np.random.default_rng(1)
    a = (rng.integers(-4, 5, (m, k)) / 4).astype(np.float16)
    b = (rng.integers(-4, 5, (k, n)) / 4).astype(np.float16)
    np.testing.assert_array_equal(L.gemm(a, b, library=lib), reference(a, b))


def test_tune_ray_matches_local(local):
    # Ray is optional for users, but `make deps` installs it (requirements-dev.txt):
    # missing here is a failure, not a skip.
    assert importlib.util.find_spec("ray") is not None, "pip install ray (requirements-dev.txt)"
    _, res_local = local
    res = L.tune(SHAPES, SPACE, executor="ray", workers=2, progress=False)
    assert res.executor == "ray"
    assert "ray" not in sys.modules      # Ray ran in a child process
    assert check(res) == check(res_local)        # the timing model is deterministic


def test_tune_bad_input():
    with pytest.raises(ValueError, match="executor"):
        L.tune(SHAPES, SPACE, executor="threads")
    with pytest.raises(ValueError, match="no valid config"):
        L.tune(SHAPES, {"tile_m": [96]})
    with pytest.raises(ValueError, match="shapes"):
        L.tune([(0, 1, 1)], SPACE)
    with pytest.raises(TypeError, match="GemmConfig"):
        L.tune(SHAPES, [dict(tile_m=64)])
    assert L.tune.__module__ == "aster.ops.tune"
    assert GemmConfig(**{k: v[0] for k, v in SPACE.items()}).check()


def test_tune_split_k_records_splits(tmp_path):
    """A split-K config is simulated at each split asked for; the fastest
    split is recorded ("MxNxK@splits") and dispatch launches it."""
    shape = (64, 64, 1024)
    space = [GemmConfig(tile_m=64, tile_n=64, tile_k=64, mfma=16, split_k=True)]
    res = L.tune([shape], space, workers=1, library=str(tmp_path), progress=False,
                 splits=(1, 4))
    assert sorted(r["splits"] for r in res.results) == [1, 4]
    best = min(res.results, key=lambda r: r["cycles"])
    assert res.splits[shape] == best["splits"]
    p = L.plan(L.Library(str(tmp_path)), *shape)
    assert (p.entry.name, p.splits) == (best["config"], best["splits"])
    rng = np.random.default_rng(2)
    a = (rng.integers(-4, 5, shape[::2]) / 4).astype(np.float16)
    b = (rng.integers(-4, 5, shape[:0:-1]) / 4).astype(np.float16)
    c, r = L.gemm(a, b, library=L.Library(str(tmp_path)), timing=True)
    np.testing.assert_array_equal(c, reference(a, b))
    assert r.grid[2] == best["splits"]
