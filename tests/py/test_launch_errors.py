"""Bad input to aster.launch: a clear Python exception, never a crash or a
hang, and the caller's arrays bit-identical after any failure. Strict-mode
catches (out-of-bounds, missing s_waitcnt, uninitialized registers, budget)
come back as aster.EmulatorError with the emulator's location."""
import numpy as np
import pytest

import aster
from aster import s, v, vcc

from aster.kernargs import pack
from test_launch import SCALARS, VADD, iota_kernel


@pytest.fixture(scope="module")
def vadd(hip_hsaco):
    return hip_hsaco(VADD, "vadd")


@pytest.fixture(scope="module")
def scalars(hip_hsaco):
    return hip_hsaco(SCALARS, "scalars")


def random_bits(n, seed):
    """float32 arrays with arbitrary bit patterns (NaNs included), so an
    unchanged array compares bit for bit."""
    return np.random.default_rng(seed).integers(0, 2**32, n, dtype=np.uint32).view(np.float32)


def assert_untouched(arrays, copies):
    for arr, old in zip(arrays, copies):
        assert arr.tobytes() == old.tobytes()


def test_emulator_error_is_a_runtime_error():
    assert issubclass(aster.EmulatorError, RuntimeError)


@pytest.mark.parametrize("mangle", [
    lambda h: h[:100],                     # truncated mid-headers
    lambda h: h[:len(h) // 2],             # truncated mid-sections
    lambda h: b"",
    lambda h: b"not an ELF file at all" * 10,
    lambda h: h[:0x20] + b"\xff" * 16 + h[0x30:],   # corrupt section/program header offsets
])
def test_truncated_or_corrupt_code_object(vadd, mangle):
    a = random_bits(256, 0)
    old = a.copy()
    with pytest.raises(aster.EmulatorError) as e:
        aster.launch(mangle(vadd), "vadd", 1, 256, [a, a, a, 256])
    assert str(e.value)
    assert_untouched([a], [old])


def test_wrong_kernel_name_lists_the_kernels(vadd):
    with pytest.raises(aster.EmulatorError, match=r"vdd.*vadd|vadd.*vdd"):
        aster.launch(vadd, "vdd", 1, 256, [])


def test_wrong_argument_count(vadd):
    a = np.zeros(256, np.float32)
    with pytest.raises(TypeError, match=r"'vadd' takes 4 arguments \(a .*n \(by_value\)\); got 3"):
        aster.launch(vadd, "vadd", 1, 256, [a, a, a])
    with pytest.raises(TypeError, match="got 5"):
        aster.launch(vadd, "vadd", 1, 256, [a, a, a, 1, 2])
    with pytest.raises(TypeError, match="list or tuple"):
        aster.launch(vadd, "vadd", 1, 256, a)


def test_float_for_an_int_argument():
    """aster's metadata types its arguments (n: i32)."""
    m = iota_kernel()
    out = np.zeros(64, np.int32)
    with pytest.raises(TypeError, match=r"'iota' argument 1 'n' is an integer \(i32\); got the "
                                        r"float 2\.5"):
        aster.launch(m, "iota", 1, 64, [out, 2.5])
    with pytest.raises(TypeError, match=r"argument 1 'n'.*float"):
        aster.launch(m, "iota", 1, 64, [out, np.float32(3)])
    with pytest.raises(ValueError, match=r"argument 1 'n': 4294967296 is out of range for i32"):
        aster.launch(m, "iota", 1, 64, [out, 2**32])
    assert not out.any()


def test_array_for_a_by_value_argument_and_scalar_for_a_pointer(vadd):
    a = np.zeros(256, np.float32)
    with pytest.raises(TypeError, match=r"argument 3 'n' is a by-value .*ndarray"):
        aster.launch(vadd, "vadd", 1, 256, [a, a, a, np.array([4], np.int32)])
    with pytest.raises(TypeError, match=r"argument 1 'b' is a pointer.*got int"):
        aster.launch(vadd, "vadd", 1, 256, [a, 5, a, 256])
    with pytest.raises(TypeError, match=r"argument 3 'n'.*str"):
        aster.launch(vadd, "vadd", 1, 256, [a, a, a, "256"])


@pytest.mark.parametrize("index,value,match", [
    (0, 256, r"argument 0 'i8': 256 is out of range for 8-bit \[-128, 255\]"),
    (0, -129, r"argument 0 'i8': -129 is out of range"),
    (2, 65536, r"argument 2 'i16'.*out of range"),
    (4, 2**32, r"argument 4 'i32'.*out of range"),
    (6, 2**64, r"argument 6 'i64'.*out of range"),
    (7, -2**63 - 1, r"argument 7 'u64'.*out of range"),
])
def test_out_of_range_ints(scalars, index, value, match):
    """clang's HIP metadata has no type names: an integer must fit the
    argument's size in either signedness."""
    vals = [0] * 8 + [0.0, 0.0, 0.0, False, np.zeros(12, np.uint64)]
    vals[index] = value
    with pytest.raises(ValueError, match=match):
        aster.launch(scalars, "scalars", 1, 64, vals)


class Arg:
    """Metadata of one by-value argument, as another producer may write it."""
    def __init__(self, type_name, size, name="x", kind="by_value"):
        self.name, self.type_name, self.size, self.value_kind = name, type_name, size, kind
        self.offset = 0


@pytest.mark.parametrize("type_name,size,value,exc,match", [
    ("unsigned int", 4, -1, ValueError, r"\[0, 4294967295\]"),
    ("int", 4, 2**31, ValueError, r"\[-2147483648, 2147483647\]"),
    ("char", 1, 200, ValueError, r"\[-128, 127\]"),
    ("uchar", 1, 256, ValueError, r"\[0, 255\]"),
    ("bool", 1, 2, ValueError, r"\[0, 1\]"),
    ("int", 4, 1.0, TypeError, "is an integer"),
    ("float", 4, True, TypeError, "bool"),
    ("float", 4, 1e39, ValueError, "overflows"),
    ("double", 8, "1", TypeError, "str"),
    ("", 3, 1, ValueError, "3 bytes"),
])
def test_pack_checks_typed_metadata(type_name, size, value, exc, match):
    with pytest.raises(exc, match=match):
        pack("k", [Arg(type_name, size)], [value])


def test_pack_typed_values():
    assert pack("k", [Arg("unsigned int", 4)], [2**32 - 1]).data == b"\xff" * 4
    assert pack("k", [Arg("int", 4)], [-2]).data == (-2).to_bytes(4, "little", signed=True)
    assert pack("k", [Arg("bool", 1)], [True]).data == b"\x01"
    assert pack("k", [Arg("half", 2)], [1.5]).data == np.float16(1.5).tobytes()
    assert pack("k", [Arg("float", 4)], [2]).data == np.float32(2).tobytes()
    assert pack("k", [Arg("", 8)], [0.25]).data == np.float64(0.25).tobytes()
    import ml_dtypes
    assert pack("k", [Arg("bf16", 2)], [1.0]).data == np.array(1.0, ml_dtypes.bfloat16).tobytes()


def test_float_overflow(scalars):
    vals = [0] * 8 + [0.0, 0.0, 0.0, False, np.zeros(12, np.uint64)]
    vals[8] = 1e6                        # beyond float16's 65504
    with pytest.raises(ValueError, match=r"argument 8 'h'.*overflows"):
        aster.launch(scalars, "scalars", 1, 64, vals)


def test_non_contiguous_and_read_only_arrays(vadd):
    a = np.zeros(512, np.float32)
    with pytest.raises(ValueError, match=r"argument 0 'a'.*not C-contiguous"):
        aster.launch(vadd, "vadd", 1, 256, [a[::2], a, a, 256])
    ro = np.zeros(256, np.float32)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match=r"argument 2 'c'.*read-only"):
        aster.launch(vadd, "vadd", 1, 256, [a, a, ro, 256])
    with pytest.raises(ValueError, match=r"overlaps"):
        aster.launch(vadd, "vadd", 1, 256, [a[:256], a[128:384], a[256:], 256])


def test_bad_grid_block_backend_and_options(vadd):
    a = np.zeros(256, np.float32)
    for grid, exc in ((0, ValueError), ((1, 1, 1, 1), TypeError), (1.5, TypeError),
                      ((2, "x"), TypeError)):
        with pytest.raises(exc, match="grid"):
            aster.launch(vadd, "vadd", grid, 256, [a, a, a, 256])
    with pytest.raises(ValueError, match="block"):
        aster.launch(vadd, "vadd", 1, (256, 0), [a, a, a, 256])
    with pytest.raises(ValueError, match="backend"):
        aster.launch(vadd, "vadd", 1, 256, [a, a, a, 256], backend="cuda")
    with pytest.raises(ValueError, match="uninitialized"):
        aster.launch(vadd, "vadd", 1, 256, [a, a, a, 256], uninitialized="maybe")
    with pytest.raises(TypeError, match="code must be"):
        aster.launch("vadd.hsaco", "vadd", 1, 256, [a, a, a, 256])


def test_array_too_small_is_an_out_of_bounds_error(vadd):
    """n = 1000 but the arrays hold 900 floats: strict mode stops the first
    access past the buffer; no array changes."""
    a, b, c = random_bits(900, 1), random_bits(900, 2), random_bits(900, 3)
    old = [x.copy() for x in (a, b, c)]
    with pytest.raises(aster.EmulatorError) as e:
        aster.launch(vadd, "vadd", 4, 256, [a, b, c, 1000])
    msg = str(e.value)
    for want in ("kernel vadd", "out-of-bounds", "global_load_dword", "wave", "lane", "0x"):
        assert want in msg, msg
    assert_untouched([a, b, c], old)


def missing_waitcnt_kernel(wait):
    """out[i] = in[i] + 1, with or without the s_waitcnt before the add."""
    m = aster.Module("gfx942", name="nowait")
    k = m.kernel("nowait", args=[("inp", aster.ptr(np.int32)), ("out", aster.ptr(np.int32))],
                 block=(64, 1, 1))
    k.load_arg("inp", s[4:6])
    k.load_arg("out", s[6:8])
    k.v_lshlrev_b32(v[1], 2, v[0])
    k.s_waitcnt(lgkmcnt=0)
    k.global_load_dword(v[2], v[1], s[4:6])
    if wait:
        k.s_waitcnt(vmcnt=0)
    k.v_add_u32(v[2], 1, v[2])
    k.global_store_dword(v[1], v[2], s[6:8])
    k.s_endpgm()
    return m


def test_missing_waitcnt_is_caught():
    inp = np.arange(64, dtype=np.int32)
    out = np.full(64, -9, np.int32)
    aster.launch(missing_waitcnt_kernel(True), "nowait", 1, 64, [inp, out])
    np.testing.assert_array_equal(out, inp + 1)
    out[:] = -9
    with pytest.raises(aster.EmulatorError) as e:
        aster.launch(missing_waitcnt_kernel(False), "nowait", 1, 64, [inp, out])
    msg = str(e.value)
    for want in ("kernel nowait", "strict mode", "v_add_u32", "global_load_dword",
                 "s_waitcnt vmcnt(", "wave"):
        assert want in msg, msg
    assert (out == -9).all()
    # Without strict checks the load completes at once and the result is right.
    aster.launch(missing_waitcnt_kernel(False), "nowait", 1, 64, [inp, out], strict=False)
    np.testing.assert_array_equal(out, inp + 1)


def test_uninitialized_register_error_warn_ignore():
    """add_10 reads v1 before anything wrote it."""
    m = aster.Module("gfx942", name="u")
    k = m.kernel("u", block=(64, 1, 1))
    k.v_add_u32(v[1], v[0], v[1])
    k.s_endpgm()
    with pytest.raises(aster.EmulatorError, match=r"v_add_u32.*|never written|uninitial"):
        aster.launch(m, "u", 1, 64)
    r = aster.launch(m, "u", 1, 64, uninitialized="warn")
    assert r.warnings and "v1" in "".join(r.warnings)
    assert aster.launch(m, "u", 1, 64, uninitialized="ignore").warnings == []


def test_infinite_loop_exhausts_the_budget():
    m = aster.Module("gfx942", name="spin")
    k = m.kernel("spin", block=(64, 1, 1))
    top = k.here("top")
    k.s_nop()
    k.s_branch(top)
    with pytest.raises(aster.EmulatorError, match=r"budget of 100000 wave-instructions is "
                                                  r"exhausted.*aster\.launch\(budget=\.\.\.\)"):
        aster.launch(m, "spin", 2, 64, budget=100_000)


def test_failure_on_one_buffer_leaves_every_array_intact(hip_hsaco):
    """A kernel that writes its whole output, then faults: the output array
    must still hold the caller's bits."""
    src = """
    #include "common.h"
    KERNEL partial(float *out, const float *in, int n) {
      int i = tid_x();
      out[i] = 1.0f;
      out[i + n] = in[i + n];      // past the end of `in` when n is large
    }
    """
    hsaco = hip_hsaco(src, "partial")
    out, inp = random_bits(128, 4), random_bits(64, 5)
    old = [out.copy(), inp.copy()]
    with pytest.raises(aster.EmulatorError, match="out-of-bounds"):
        aster.launch(hsaco, "partial", 1, 64, [out, inp, 64])
    assert_untouched([out, inp], old)


def test_kernel_with_unsupported_value_kind_is_a_type_error():
    with pytest.raises(TypeError, match=r"argument 0 'q'.*'queue'"):
        pack("k", [Arg("", 8, name="q", kind="queue")], [1])


def test_a_pointer_slot_outside_the_declared_kernarg_segment_is_a_value_error():
    # Fuzz finding (tests/fuzz/regressions/launch): metadata whose pointer
    # argument does not fit the kernarg segment it declares made struct.error
    # escape from the argument packing.
    import numpy as np
    import pytest
    from aster.kernargs import BufferArg, Packed
    p = Packed(bytes(6), [BufferArg(0, "p", 0, np.zeros(4, np.float32))])
    with pytest.raises(ValueError, match="pointer argument 'p'.*does not fit the 6-byte"):
        p.bytes_with([0x1000])
