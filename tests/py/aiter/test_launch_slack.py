"""aster.launch(slack=N): N readable, zero-filled, unwritable bytes after each
array, as a framework's caching allocator leaves readable memory after a
tensor that AMD's asm kernels read whole tiles into. Checked on clang-22
kernels (their loads and stores are LLVM's global_load/store of the C
expressions below): reads in the slack see zeros, a write there or a read past
it is an out-of-bounds error, and without slack the read is one too."""
import numpy as np
import pytest

import aster
from aster.kernargs import raw

SRC = r"""
extern "C" __attribute__((global)) void peek(const float *a, float *out, int off) {
  unsigned i = __builtin_amdgcn_workitem_id_x();
  out[i] = a[off + i];
}
extern "C" __attribute__((global)) void poke(float *a, int off) {
  unsigned i = __builtin_amdgcn_workitem_id_x();
  a[off + i] = 1.0f;
}
"""


@pytest.fixture(scope="module")
def code(hip_hsaco):
    return hip_hsaco(SRC, "slack")


def test_reads_in_the_slack_are_zero(code):
    a = np.arange(1, 65, dtype=np.float32)
    out = np.full(64, -1, np.float32)
    aster.launch(code, "peek", 1, 64, [a, out, 32], slack=256)
    np.testing.assert_array_equal(out, np.r_[np.arange(33, 65), np.zeros(32)].astype(np.float32))


def test_reads_past_the_end_fail_without_slack(code):
    a, out = np.ones(64, np.float32), np.zeros(64, np.float32)
    with pytest.raises(aster.EmulatorError, match="out-of-bounds load.*after the end of 'a'"):
        aster.launch(code, "peek", 1, 64, [a, out, 32])


def test_reads_past_the_slack_fail(code):
    a, out = np.ones(64, np.float32), np.zeros(64, np.float32)
    with pytest.raises(aster.EmulatorError, match="with 64 bytes of slack"):
        aster.launch(code, "peek", 1, 64, [a, out, 32], slack=64)
    np.testing.assert_array_equal(out, 0)      # unchanged after a failed launch


def test_writes_in_the_slack_fail(code):
    a = np.zeros(64, np.float32)
    with pytest.raises(aster.EmulatorError, match="into its slack"):
        aster.launch(code, "poke", 1, 64, [a, 32], slack=4096)
    aster.launch(code, "poke", 1, 32, [a, 32], slack=4096)     # inside: fine
    np.testing.assert_array_equal(a, np.r_[np.zeros(32), np.ones(32)])


def test_raw_kernargs_blob(code):
    """args=aster.kernargs.raw(bytes, {offset: array}): the bytes as given,
    array addresses at the offsets (how AMD's packed KernelArgs are passed)."""
    a = np.arange(64, dtype=np.float32)
    out = np.zeros(64, np.float32)
    blob = bytearray(20)
    blob[16:20] = np.int32(0).tobytes()
    aster.launch(code, "peek", 1, 64, raw(blob, {0: a, 8: out}, {0: "a", 8: "out"}))
    np.testing.assert_array_equal(out, a)
    with pytest.raises(ValueError, match="not inside"):
        raw(blob, {16: a})
    with pytest.raises(ValueError, match="overlap"):
        raw(blob, {0: a, 4: out})


@pytest.mark.parametrize("bad", [-1, 1.5, True, 2**33])
def test_slack_is_checked(code, bad):
    with pytest.raises(ValueError, match="slack"):
        aster.launch(code, "peek", 1, 64, [np.zeros(64, np.float32), np.zeros(64, np.float32), 0],
                     slack=bad)


def test_raw_blob_longer_than_the_declared_arguments(code):
    """HIP copies the arguments the metadata declares out of a
    HIP_LAUNCH_PARAM_BUFFER_POINTER blob: bytes (and pointers) past them do
    not reach the kernel (AMD's MLA interface passes a 304-byte struct to a
    kernel that declares 208)."""
    a = np.arange(64, dtype=np.float32)
    out, unused = np.zeros(64, np.float32), np.zeros(4, np.float32)
    blob = bytearray(4096)
    aster.launch(code, "peek", 1, 64, raw(blob, {0: a, 8: out, 2048: unused}))
    np.testing.assert_array_equal(out, a)


@pytest.mark.parametrize("bad", [0, -1, 1.5])
def test_interleave_is_checked(code, bad):
    with pytest.raises(ValueError, match="interleave"):
        aster.launch(code, "peek", 1, 64, [np.zeros(64, np.float32), np.zeros(64, np.float32), 0],
                     interleave=bad)


def test_interleave_one_gives_the_same_result(code):
    a = np.arange(128, dtype=np.float32)
    out = np.zeros(256, np.float32)
    aster.launch(code, "peek", 1, 256, [np.r_[a, a], out, 0], interleave=1)
    np.testing.assert_array_equal(out, np.r_[a, a])
