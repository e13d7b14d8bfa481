"""Direct-to-LDS loads of clang-22 kernels (tests/py/raise_corpus/lds_direct.hip)
on the emulator: global_load_lds_dword and the buffer form
(`buffer_load_dword ... lds`) run and match NumPy (more sizes:
test_emu_table_forms.py)."""
from pathlib import Path

import numpy as np
import pytest

import aster

HIP = Path(__file__).with_name("raise_corpus") / "lds_direct.hip"


@pytest.mark.parametrize("arch", ["gfx942", "gfx950"])
def test_global_load_lds(hip_hsaco, arch):
    h = hip_hsaco(HIP, arch=arch)
    assert aster.load_code_object(h).unsupported("global_to_lds") == []
    x = np.arange(1024, dtype=np.int32) * 7
    out = np.zeros_like(x)
    aster.launch(h, "global_to_lds", grid=4, block=256, args=[x, out])
    np.testing.assert_array_equal(out, x.reshape(-1, 256)[:, (np.arange(256) * 17) & 255].ravel())


@pytest.mark.parametrize("arch", ["gfx942", "gfx950"])
def test_buffer_load_lds(hip_hsaco, arch):
    h = hip_hsaco(HIP, arch=arch)
    assert aster.load_code_object(h).unsupported("buffer_to_lds") == []
    x = np.arange(512, dtype=np.int32) * 3 + 1
    out = np.zeros_like(x)
    aster.launch(h, "buffer_to_lds", grid=2, block=256, args=[x, out])
    np.testing.assert_array_equal(out, x.reshape(-1, 256)[:, ::-1].ravel())
