"""Wrong operands raise at the offending call: AsterError naming the
instruction, the operand and what it expects, at the user's file:line, with a
traceback that ends in user code (the instruction methods are C-level
method descriptors: no Python frame between the user's call and C++)."""
import inspect
import os
import traceback

import numpy as np
import pytest

import aster
from aster import a, s, v, vcc, VGPR

HERE = os.path.abspath(__file__)


def line_after(frame):
    """The line number of the statement following the caller's current one."""
    return frame.f_back.f_lineno + 1


def kernel(target="gfx942"):
    return aster.Module(target).kernel("k", block=(64, 1, 1))


def raises_at(exc_type, fn, *parts):
    """Calls fn; checks the error type, that the message starts with this
    file and the caller's line, and names every part."""
    with pytest.raises(exc_type) as info:
        fn()
    msg = str(info.value)
    assert msg.startswith(f"{HERE}:"), msg
    for p in parts:
        assert p in msg, f"{p!r} not in {msg!r}"
    return info


@pytest.mark.parametrize("call,parts", [
    (lambda k: k.v_add_u32(s[1], v[0], v[1]), ["v_add_u32", "'vdst'", "VGPR", "s1"]),
    (lambda k: k.v_add_u32(v[1:3], v[0], v[1]), ["v_add_u32", "'vdst'", "1 register", "v[1:2]"]),
    (lambda k: k.v_mfma_f32_16x16x16_f16(a[1:5], v[0:2], v[2:4], a[1:5]),
     ["v_mfma_f32_16x16x16_f16", "'vdst'", "a[1:4]", "multiple of 2"]),
    (lambda k: k.v_mfma_f32_16x16x16_f16(a[0:4], v[0:3], v[2:4], a[0:4]),
     ["'src0'", "2 registers", "got 3"]),
    (lambda k: k.v_add_u32(v[1], v[0], 1000), ["v_add_u32", "'src1'", "inline constant"]),
    (lambda k: k.v_add_u32(v[1], 2**40, v[1]), ["v_add_u32", "'src0'", "does not fit"]),
    (lambda k: k.s_nop(imm=100), ["s_nop", "'imm'", "out of range [0, 15]"]),
    (lambda k: k.s_waitcnt(vmcnt=64), ["s_waitcnt", "'vmcnt'", "[0, 63]"]),
    (lambda k: k.v_add_u32(v[1], v[0], v[1], bogus=1), ["v_add_u32", "'bogus'", "valid: clamp"]),
    (lambda k: k.v_add_u32(v[1], s[0], s[1]), ["v_add_u32", "constant bus"]),
    (lambda k: k.v_add_u32(v[1], VGPR(), v[1]), ["'src0'", "virtual spec VGPR(1)"]),
    (lambda k: k.s_add_u32(s[0], vcc, s[1]), ["s_add_u32", "'ssrc0'", "1 register", "vcc"]),
])
def test_wrong_operand_raises_at_user_line(call, parts):
    k = kernel()
    info = raises_at(aster.AsterError, lambda: call(k), *parts)
    assert not isinstance(info.value, TypeError)


def test_message_points_at_the_calling_line():
    k = kernel()
    with pytest.raises(aster.AsterError) as info:
        line = inspect.currentframe().f_lineno + 1
        k.v_add_u32(s[1], v[0], v[1])
    assert str(info.value).startswith(f"{HERE}:{line}: error: v_add_u32: destination 'vdst'")


def test_traceback_ends_in_user_code():
    k = kernel()
    try:
        k.v_add_u32(s[1], v[0], v[1])
    except aster.AsterError as e:
        frames = traceback.extract_tb(e.__traceback__)
    files = [os.path.basename(f.filename) for f in frames]
    assert files == [os.path.basename(HERE)], files


@pytest.mark.parametrize("call,msg", [
    (lambda k: k.v_add_u32(v[1], v[0]), "missing required argument: 'src1'"),
    (lambda k: k.v_add_u32(v[1], v[0], v[1], v[2]),
     "takes 4 positional arguments but 5 were given"),
    (lambda k: k.v_add_u32(v[1], v[0], v[1], src0=v[2]),
     "got multiple values for argument 'src0'"),
])
def test_argument_binding_errors_are_python_type_errors(call, msg):
    with pytest.raises(TypeError, match=msg):
        call(kernel())


def test_instruction_methods_bind_like_python_functions():
    k = kernel()
    assert k.v_add_u32(vdst=v[1], src1=v[2], src0=v[0], clamp=True) == v[1]
    assert k.s_nop() is None and k.s_nop(3) is None
    sig = inspect.signature(aster.Kernel.v_fmac_f32)
    assert list(sig.parameters)[:4] == ["self", "vdst", "src0", "src1"]
    assert sig.parameters["vdst_in"].default is None
    assert sig.parameters["vdst_in"].kind is inspect.Parameter.KEYWORD_ONLY
    assert aster.Kernel.v_add_u32.__name__ == "v_add_u32"
    bound = k.v_add_u32                        # a bound method, callable later
    assert bound(v[3], v[0], v[3]) == v[3]
    k.s_endpgm()
    lines = [ln.strip() for ln in k.module.asm().splitlines() if ln.startswith(("\tv_", "\ts_"))]
    assert lines == ["v_add_u32 v1, v0, v2 clamp", "s_nop 0", "s_nop 3",
                     "v_add_u32 v3, v0, v3", "s_endpgm"]


def test_verifier_memo_keeps_every_error():
    # Shapes that verified are remembered; what makes a shape differ (an
    # immediate's value, one SGPR read twice vs two SGPRs) must be in it.
    k = kernel()
    k.v_fma_f32(v[1], 1, v[0], v[2])                       # inline constant
    raises_at(aster.AsterError, lambda: k.v_fma_f32(v[1], 1000, v[0], v[2]),
              "v_fma_f32", "inline constant")
    x, y = k.s_mov_b32(aster.SGPR(), 1), k.s_mov_b32(aster.SGPR(), 2)
    k.v_fma_f32(VGPR(), x, x, v[0])                        # one SGPR: one bus read
    raises_at(aster.AsterError, lambda: k.v_fma_f32(VGPR(), x, y, v[0]), "constant bus")


def test_wrong_target():
    k = kernel("gfx1201")
    raises_at(aster.AsterError, lambda: k.v_add_u32(v[1], v[0], v[1]),
              "v_add_u32 is not valid on target 'gfx1201'", "gfx942")


@pytest.mark.parametrize("call,parts", [
    (lambda k: k.v_add_u32(v[1], v[0], "v2"), ["v_add_u32", "'src1'", "str"]),
    (lambda k: k.v_add_u32(v[1], v[0], None), ["'src1'", "required"]),
    (lambda k: k.v_add_u32(3, v[0], v[1]), ["'vdst'", "must be a register", "int"]),
    (lambda k: k.v_add_u32(v[1], v[0], v[1], clamp=1), ["'clamp'", "flag"]),
    (lambda k: k.s_nop(imm="3"), ["'imm'", "must be an int"]),
    (lambda k: k.s_nop(imm=True), ["'imm'", "must be an int"]),
    (lambda k: k.v_add_u32(v[1], v[0], True), ["'src1'", "bool"]),
    (lambda k: k.v_add_u32(v[1], 1.5, v[1]), ["'src0'", "integer (u32)", "float"]),
    (lambda k: k.s_branch("L"), ["s_branch", "label", "str"]),
])
def test_wrong_python_type_raises_type_error(call, parts):
    k = kernel()
    info = raises_at(TypeError, lambda: call(k), *parts)
    assert isinstance(info.value, aster.AsterError)    # also an AsterError


def test_value_as_destination_is_a_type_error():
    k = kernel()
    x = k.v_mov_b32(VGPR(), 1)
    raises_at(TypeError, lambda: k.v_mov_b32(x, 2), "Value, which cannot be redefined")


def test_tied_source_of_a_virtual_destination():
    k = kernel()
    k.v_fmac_f32(v[1], v[2], v[3])                    # old value: v1 itself
    old = k.v_mov_b32(VGPR(), 1.0)
    assert isinstance(k.v_fmac_f32(VGPR(), v[2], v[3], vdst_in=old), aster.Value)
    raises_at(aster.AsterError, lambda: k.v_fmac_f32(VGPR(), v[2], v[3]),
              "v_fmac_f32", "'vdst' is virtual", "vdst_in=")


def test_value_from_another_kernel():
    m = aster.Module()
    k1, k2 = m.kernel("k1"), m.kernel("k2")
    x = k1.v_mov_b32(VGPR(), 1)
    raises_at(aster.AsterError, lambda: k2.v_mov_b32(v[0], x), "Value of kernel 'k1'")


def test_label_errors():
    m = aster.Module()
    k1, k2 = m.kernel("k1"), m.kernel("k2")
    lab = k1.label("here")
    raises_at(aster.AsterError, lambda: k2.s_branch(lab), "label 'here' belongs to another")
    k1.s_branch(lab)
    with pytest.raises(aster.AsterError, match="label 'here' is used by a branch but never bound"):
        m.asm()
    k1.bind(lab)
    with pytest.raises(aster.AsterError, match="bound twice"):
        k1.bind(lab)
    with pytest.raises(TypeError):
        k1.bind("here")


def test_kernel_must_end():
    m = aster.Module()
    k = m.kernel("k")
    k.v_add_u32(v[1], v[0], v[1])
    with pytest.raises(aster.AsterError, match=r"test_builder_errors.py:\d+: error: kernel 'k' "
                                               "does not end with s_endpgm"):
        m.asm()


def test_errors_from_helpers_point_at_the_user_line():
    m = aster.Module()
    k = m.kernel("k", args=[("p", aster.ptr(np.float32))])
    with pytest.raises(aster.AsterError) as info:
        line = inspect.currentframe().f_lineno + 1
        k.load_arg("p", v[0:2])           # s_load_dwordx2 needs SGPRs
    assert str(info.value).startswith(f"{HERE}:{line}: error: s_load_dwordx2: destination")


def test_failed_instruction_leaves_the_kernel_unchanged():
    m = aster.Module()
    k = m.kernel("k")
    with pytest.raises(aster.AsterError):
        k.v_add_u32(s[1], v[0], v[1])
    k.s_endpgm()
    assert "v_add_u32" not in m.asm()


@pytest.mark.parametrize("make,exc,match", [
    (lambda: aster.Module("gfx1"), ValueError, "unknown target 'gfx1'"),
    (lambda: aster.Module(942), TypeError, "target must be a str"),
    (lambda: aster.Module().kernel("1k"), ValueError, "not a valid symbol"),
    (lambda: aster.Module().kernel(3), TypeError, "kernel name must be a str"),
    (lambda: aster.Module().kernel("k", block=(0, 1, 1)), ValueError, "positive"),
    (lambda: aster.Module().kernel("k", block=(64, 32, 1)), ValueError, "at most 1024"),
    (lambda: aster.Module().kernel("k", block="64"), TypeError, "block must be"),
    (lambda: aster.Module().kernel("k", block=(64.0,)), TypeError, "block dimensions must be ints"),
    (lambda: aster.Module().kernel("k", lds=-1), ValueError, "'lds' must be in"),
    (lambda: aster.Module().kernel("k", lds=1 << 20), ValueError, "'lds' must be in"),
    (lambda: aster.Module().kernel("k", lds="4k"), TypeError, "'lds' must be an int"),
    (lambda: aster.Module().kernel("k", args=[("a", "float128")]), TypeError, "dtype"),
    (lambda: aster.Module().kernel("k", args=[("a", object)]), TypeError, "not supported"),
    (lambda: aster.Module().kernel("k", args=[("a", np.int32), ("a", np.int32)]),
     ValueError, "given twice"),
    (lambda: aster.Module().kernel("k", args=["a"]), TypeError, "(name, type) pair"),
    (lambda: aster.Module().kernel("k", args=5), TypeError, "list of (name, type)"),
    (lambda: aster.ptr(aster.ptr(np.float32)), TypeError, "cannot point to a pointer"),
    (lambda: aster.Module().kernel("k", sgpr_setup=["workgroup_id_x", "kernarg_ptr"]),
     ValueError, "hardware order"),
    (lambda: aster.Module().kernel("k", sgpr_setup=["bogus"]), ValueError, "unknown sgpr_setup"),
    (lambda: aster.Module().kernel("k", workitem_ids=4), ValueError, "workitem_ids"),
    (lambda: aster.Module().kernel("k", color="red"), TypeError, "unexpected keyword"),
    (lambda: aster.VGPR(0), ValueError, "width"),
    (lambda: aster.VGPR(2, align=3), ValueError, "power of two"),
    (lambda: aster.v[300], ValueError, "[0, 256)"),
    (lambda: aster.s[4:2], ValueError, "start < stop"),
    (lambda: aster.v["x"], TypeError, "int or a slice"),
    (lambda: aster.v[0:4:2], ValueError, "step"),
    (lambda: aster.v[4:8][4], IndexError, "out of range"),
    (lambda: aster.v[4:8]["a"], TypeError, "int or a slice"),
    (lambda: aster.VGPR(2)[0], TypeError, "only allocated"),
    (lambda: aster.Reg(7, 0), ValueError, "kind 0-3"),
    (lambda: aster.Reg(0, 0, -1), ValueError, "width 1-32"),
    (lambda: aster.Reg(3, 99), ValueError, "kind 0-3"),
])
def test_bad_module_and_kernel_arguments(make, exc, match):
    with pytest.raises(exc, match=match.replace("(", r"\(").replace(")", r"\)")
                       .replace("[", r"\[").replace("]", r"\]")):
        make()


def test_duplicate_kernel():
    m = aster.Module()
    m.kernel("k")
    with pytest.raises(ValueError, match="already has a kernel named 'k'"):
        m.kernel("k")


def test_raw_emit_rejects_bad_calls_without_crashing():
    k = kernel()
    with pytest.raises(TypeError, match="bad instruction index"):
        k._e(10**6, None)
    with pytest.raises(TypeError, match="operands"):
        k._e(0, None)                      # too few operands for row 0
    with pytest.raises(TypeError):
        k._e("v_add_u32", None, v[1])
