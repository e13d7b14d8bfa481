"""Register-level functions from Python: m.function / f.ret / k.call, the
@aster.function decorator, m.include and aster.load_library; inlined by
amdgcn-inline (which aster.compile runs), then allocated with the rest of
the kernel and run on the emulator against NumPy; errors at the call."""
import inspect
import os
import textwrap

import numpy as np
import pytest

import aster
from aster import VGPR, SGPR, AGPR, v, s, vcc

HERE = os.path.abspath(__file__)
U32 = aster.ptr(np.uint32)
PIPE = "amdgcn-regalloc,amdgcn-waitcnt,amdgcn-hazards"


def line_of(marker):
    """The line of this file holding `marker` (a comment at the call)."""
    src = inspect.getsource(inspect.getmodule(line_of)).splitlines()
    return next(i + 1 for i, t in enumerate(src) if marker in t and "line_of" not in t)


def raises_here(exc, fn, marker, *parts):
    with pytest.raises(exc) as info:
        fn()
    msg = str(info.value)
    assert msg.startswith(f"{HERE}:{line_of(marker)}: error:"), msg
    for p in parts:
        assert p in msg, f"{p!r} not in {msg!r}"
    return msg


def store_kernel(m, name="k", outs=1):
    """A kernel with `outs` u32 output pointers; returns (k, ptrs, byte offset)."""
    k = m.kernel(name, args=[(f"o{i}", U32) for i in range(outs)], block=64)
    ptrs = [k.load_arg(f"o{i}") for i in range(outs)]
    off = k.v_lshlrev_b32(VGPR(), 2, v[0])
    return k, ptrs, off


def run(m, name="k", outs=1, pipeline=PIPE):
    o = [np.zeros(64, np.uint32) for _ in range(outs)]
    aster.launch(aster.compile(m, pipeline), name, grid=1, block=64, args=o)
    return o


def lanes():
    return np.arange(64, dtype=np.uint32)


@aster.function(params=[VGPR(), VGPR()], results=[VGPR()])
def mul_add(f, a, b):
    """a * b + a"""
    p = f.v_mul_lo_u32(VGPR(), a, b)
    return f.v_add_u32(VGPR(), p, a)


def test_function_called_several_times_with_different_registers():
    m = aster.Module()
    f = m.function("poly", params=[VGPR(), VGPR()], results=[VGPR(), VGPR()])
    a, b = f.params
    t = f.v_add_u32(VGPR(), a, b)
    f.ret(t, f.v_lshlrev_b32(VGPR(), 1, t))
    k, (p0, p1, p2), off = store_kernel(m, outs=3)
    x = k.v_mov_b32(VGPR(), v[0])
    y = k.v_add_u32(VGPR(), 7, v[0])
    t1, u1 = k.call(f, x, y)                 # t1 = 2l + 7, u1 = 2 t1
    t2, u2 = k.call(f, u1, t1)               # t2 = 3 t1, u2 = 6 t1
    (w,) = k.call(mul_add, t2, x)            # t2 * l + t2
    k.global_store_dword(off, t2, p0)
    k.global_store_dword(off, u2, p1)
    k.global_store_dword(off, w, p2)
    k.s_endpgm()
    out = aster.compile(m, PIPE)
    assert out.pipeline.startswith("amdgcn-inline,")
    assert "amdgcn.call" not in out.mlir.split("amdgcn.kernel")[1]
    o0, o1, o2 = run(m, outs=3)
    l = lanes()
    t1 = 2 * l + 7
    assert (o0 == 3 * t1).all() and (o1 == 6 * t1).all()
    assert (o2 == 3 * t1 * l + 3 * t1).all()
    # Both calls of @poly and the one of @mul_add were allocated with the
    # rest: far fewer registers than one per inlined value.
    assert out.metadata["k"].regalloc["vgpr"] <= 6


def test_pinned_parameter_and_result():
    m = aster.Module()
    f = m.function("pin", params=[v[5], VGPR()], results=[v[6]])
    p, x = f.params
    f.v_add_u32(v[6], p, x)                        # writes the pinned result
    f.ret(v[6])
    k, (p0,), off = store_kernel(m)
    k.v_mov_b32(v[5], 1000)
    x = k.v_mov_b32(VGPR(), v[0])
    (r,) = k.call(f, v[5], x)
    assert r.type == "!amdgcn.vgpr<6>"
    k.global_store_dword(off, r, p0)
    k.s_endpgm()
    (o,) = run(m)
    assert (o == lanes() + 1000).all()
    # The allocator keeps every virtual value out of v5 and v6 while pinned.
    asm = aster.compile(m, "amdgcn-regalloc").asm
    assert "v_add_u32 v6, v5," in asm
    raises_here(aster.AsterError, lambda: k.call(f, v[4], x), "# pinned-call",
                "call @pin: operand #0 the pinned register v5 must be passed, got v4")  # pinned-call


def test_nested_functions_and_decorator_once_per_module():
    m = aster.Module()
    g = m.function("twice", params=[VGPR(), VGPR()], results=[VGPR()])
    a, b = g.params
    (r1,) = g.call(mul_add, a, b)
    (r2,) = g.call(mul_add, r1, b)
    g.ret(r2)
    k, (p0,), off = store_kernel(m)
    x = k.v_add_u32(VGPR(), 1, v[0])
    (y,) = k.call(g, x, x)
    (z,) = k.call(mul_add, y, x)
    k.global_store_dword(off, z, p0)
    k.s_endpgm()
    assert sorted(m.functions) == ["mul_add", "twice"]        # added once
    (o,) = run(m)
    x = lanes() + 1
    ref = x * x + x
    ref = ref * x + ref
    ref = ref * x + ref
    assert (o == ref).all()


def test_loop_in_a_function():
    m = aster.Module()
    f = m.function("sum_to", params=[VGPR(), s[20]], results=[VGPR()])
    x, n = f.params
    with f.loop(s[21], 5, carry=[x]) as L:
        L.next(f.v_add_u32(VGPR(), 3, L.carry[0]))
    f.ret(L.results[0])
    k, (p0,), off = store_kernel(m)
    k.s_mov_b32(s[20], 0)
    x = k.v_mov_b32(VGPR(), v[0])
    (y,) = k.call(f, x, s[20])
    (z,) = k.call(f, y, s[20])
    k.global_store_dword(off, z, p0)
    k.s_endpgm()
    (o,) = run(m)
    assert (o == lanes() + 30).all()


def test_mfma_function_with_agpr_accumulator():
    """A function on an AGPR range (class, width and alignment carried)."""
    m = aster.Module()
    f = m.function("mfma", params=[VGPR(2), VGPR(2), AGPR(4)], results=[AGPR(4)])
    A, B, C = f.params
    f.ret(f.v_mfma_f32_16x16x16_f16(AGPR(4), A, B, C))
    k = m.kernel("k", args=[("a", aster.ptr(np.float16)), ("d", aster.ptr(np.float32))],
                 block=64)
    pa, pd = k.load_arg("a"), k.load_arg("d")
    off8 = k.v_lshlrev_b32(VGPR(), 3, v[0])
    A = k.global_load_dwordx2(VGPR(2), off8, pa)
    acc = k.concat(*[k.v_accvgpr_write_b32(AGPR(), 0) for _ in range(4)])
    for _ in range(3):                                     # acc += A @ A, three times
        (acc,) = k.call(f, A, A, acc)
    off16 = k.v_lshlrev_b32(VGPR(), 4, v[0])
    d = k.concat(*[k.v_accvgpr_read_b32(VGPR(), acc[i]) for i in range(4)])
    k.global_store_dwordx4(off16, d, pd)
    k.s_endpgm()
    rng = np.random.default_rng(1)
    a = rng.integers(-3, 4, (64, 4)).astype(np.float16)
    out = np.zeros((64, 4), np.float32)
    aster.launch(aster.compile(m, PIPE), "k", grid=1, block=64, args=[a, out])
    # Lane layout of v_mfma_f32_16x16x16_f16 (tests/py/mfma_layouts.py).
    from mfma_layouts import SHAPES, input_place, output_place
    sh = SHAPES["v_mfma_f32_16x16x16_f16"]
    A_ = np.zeros((16, 16), np.float32)
    B_ = np.zeros((16, 16), np.float32)
    for i in range(16):
        for kk in range(16):
            lane, slot = input_place(sh, 0, i, kk)
            A_[i, kk] = a[lane, slot]
            B_[kk, i] = a[lane, slot]
    D = 3 * (A_ @ B_)
    for i in range(16):
        for j in range(16):
            lane, slot = output_place(sh, 0, i, j)
            assert out[lane, slot] == D[i, j]


def test_include_a_library_module_and_load_library(tmp_path):
    lib = aster.Module(name="lib")
    f = lib.function("inc3", params=[VGPR()], results=[VGPR()])
    f.ret(f.v_add_u32(VGPR(), 3, f.params[0]))
    path = tmp_path / "lib.mlir"
    path.write_text(lib.mlir(locations=True))
    for source in (lib, aster.load_library(str(path))):
        m = aster.Module()
        m.include(source)
        assert isinstance(m.functions["inc3"], aster.FunctionRef)
        k, (p0,), off = store_kernel(m)
        (y,) = k.call(m.functions["inc3"], v[0])          # an allocated register passed
        (z,) = k.call("inc3", y)                          # or by name
        k.global_store_dword(off, z, p0)
        k.s_endpgm()
        (o,) = run(m)
        assert (o == lanes() + 6).all()
        # The inlined ops keep the library's body line, called at this file's line.
        text = aster.compile(m, "amdgcn-regalloc").mlir
        assert "v_add_u32" in text
        raises_here(aster.AsterError, lambda: m.include(source), "# clash",
                    "include: function 'inc3'", "clashes")  # clash


def test_call_with_the_included_modules_own_functions():
    """After m.include(lib), lib's own Function objects (and @aster.function
    templates lib built) name their copies in m; expected values are NumPy's."""
    lib = aster.Module(name="lib")
    inc3 = lib.function("inc3", params=[VGPR()], results=[VGPR()])
    inc3.ret(inc3.v_add_u32(VGPR(), 3, inc3.params[0]))
    mul_add.add_to(lib)
    lib2 = aster.Module(name="lib2")              # includes lib: m gets lib's through it
    lib2.include(lib)
    for source in (lib, lib2):
        m = aster.Module()
        m.include(source)
        k, (p0,), off = store_kernel(m)
        (y,) = k.call(inc3, v[0])                 # lib's own Function object
        (z,) = k.call(mul_add, y, y)              # the template lib built
        k.global_store_dword(off, z, p0)
        k.s_endpgm()
        (o,) = run(m)
        x = lanes() + 3
        assert (o == x * x + x).all()
    # A function of the same name that m did not copy from lib is still an error.
    other = aster.Module(name="other")
    g = other.function("inc3", params=[VGPR()], results=[VGPR()])
    g.ret(g.params[0])
    h = other.function("h")
    h.ret()
    raises_here(aster.AsterError, lambda: k.call(g, v[0]), "# other-inc3",
                "function 'inc3' belongs to module 'other'",
                "has another function of that name")  # other-inc3
    raises_here(aster.AsterError, lambda: k.call(h), "# not-included",
                "function 'h' belongs to module 'other'", "m.include(other) first")  # not-included
    late = lib.function("late")                   # added to lib after the include
    late.ret()
    raises_here(aster.AsterError, lambda: k.call(late), "# late",
                "function 'late' belongs to module 'lib'", "m.include")  # late


def test_include_checks_the_target():
    lib = aster.Module("gfx942", name="lib")
    f = lib.function("mf", params=[VGPR(2), AGPR(4)], results=[AGPR(4)])
    A, C = f.params
    f.ret(f.v_mfma_f32_16x16x16_f16(AGPR(4), A, A, C))
    m = aster.Module("gfx1201")
    with pytest.raises(aster.AsterError, match="not valid on target 'gfx1201'"):
        m.include(lib)


def test_inlined_op_error_names_body_and_call_lines():
    m = aster.Module()
    f = m.function("virtual", params=[], results=[])
    f.v_mov_b32(VGPR(), 1)  # body-line
    f.ret()
    k = m.kernel("k", block=64)
    k.call(f)  # call-line
    k.s_endpgm()
    with pytest.raises(aster.AsterError) as info:
        aster.compile(m)
    msg = str(info.value)
    assert msg.startswith(f"{HERE}:{line_of('# body-line')}:0 (called at "
                          f"{HERE}:{line_of('# call-line')}:0): error: virtual registers"), msg


def test_call_errors_at_the_users_line():
    m = aster.Module()
    f = m.function("f", params=[VGPR(), AGPR(4), SGPR(2, align=4)], results=[VGPR()])
    f.ret(f.params[0])
    k = m.kernel("k", block=64)
    x = k.v_mov_b32(VGPR(), 1)
    acc = k.concat(*[k.v_accvgpr_write_b32(AGPR(), 0) for _ in range(4)])
    sp = k.s_mov_b64(SGPR(2, align=4), 0)
    raises_here(aster.AsterError, lambda: k.call(f, x, acc), "# count",
                "call @f: takes 3 operand(s), got 2")  # count
    raises_here(aster.AsterError, lambda: k.call(f, acc[0], acc, sp), "# class",
                "operand #0 expects a virtual VGPR, got a virtual AGPR")  # class
    raises_here(aster.AsterError, lambda: k.call(f, x, acc[0:2], sp), "# width",
                "operand #1 expects a virtual AGPR x4, got a virtual AGPR x2")  # width
    raises_here(aster.AsterError, lambda: k.call(f, x, acc, s[2:4]), "# align",
                "operand #2", "alignment 4")  # align
    raises_here(aster.AsterTypeError, lambda: k.call(f, x, acc, 5), "# imm",
                "operand #2 must be a Value or a register")  # imm
    raises_here(aster.AsterError, lambda: k.call("nope"), "# missing",
                "no function 'nope'")  # missing
    other = aster.Module(name="other")
    g = other.function("g")
    g.ret()
    with pytest.raises(aster.AsterError, match="belongs to module 'other'.*m.include"):
        k.call(g)
    raises_here(aster.AsterError, lambda: f.ret(x), "# ret-other",
                "Value of kernel 'k'")  # ret-other
    raises_here(aster.AsterError, lambda: k.call(f, f.params[0], acc, sp), "# foreign",
                "operand #0 is a Value of function 'f', not of this kernel")  # foreign


def test_ret_and_signature_errors():
    m = aster.Module()
    f = m.function("f", params=[VGPR()], results=[VGPR(2)])
    raises_here(aster.AsterError, lambda: f.ret(), "# ret-count",
                "ret() of function 'f' takes 1 value(s)")  # ret-count
    raises_here(aster.AsterError, lambda: f.ret(f.params[0]), "# ret-width",
                "result #0 expects a virtual VGPR x2, got a virtual VGPR")  # ret-width
    with pytest.raises(aster.AsterTypeError, match="params #1 must be a register spec"):
        m.function("g", params=[VGPR(), 3])
    with pytest.raises(ValueError, match="already has a function named 'f'"):
        m.function("f")
    k = m.kernel("k")
    assert not hasattr(k, "ret")                  # kernels end with s_endpgm
    f.ret(f.concat(f.params[0], f.v_mov_b32(VGPR(), 0)))
    k.s_endpgm()
    g = m.function("g")
    g.s_nop(0)
    with pytest.raises(aster.AsterError, match="function 'g' does not end with ret"):
        m.asm()


def test_recursion_is_refused_at_the_call():
    m = aster.Module()
    f = m.function("f")
    raises_here(aster.AsterError, lambda: f.call(f), "# self",
                "is recursive (@f -> @f)")  # self
    g = m.function("g")
    g.call(f)
    g.ret()
    raises_here(aster.AsterError, lambda: f.call(g), "# cycle",
                "is recursive (@f -> @g -> @f)")  # cycle


def test_calls_just_work_without_a_pipeline():
    """Module.asm()/hsaco() and compile() without a pipeline inline calls."""
    m = aster.Module()
    f = m.function("bump", params=[v[1]], results=[v[1]])
    f.ret(f.v_add_u32(v[1], 1, f.params[0]))
    k = m.kernel("k", block=64)
    k.call(f, v[1])
    k.call(f, v[1])
    k.s_endpgm()
    asm = m.asm()
    assert asm.count("v_add_u32 v1, 1, v1") == 2
    assert aster.compile(m).asm == asm and m.hsaco() == aster.compile(m).hsaco


def test_template_name_clash():
    m = aster.Module()
    m.function("mul_add").ret()
    k = m.kernel("k")
    with pytest.raises(aster.AsterError, match="not made from this @aster.function"):
        k.call(mul_add, v[0], v[0])


def test_template_body_error_leaves_nothing_behind():
    @aster.function(params=[VGPR()], results=[VGPR()])
    def bad(f, x):
        return f.v_mfma_f32_16x16x16_f16(AGPR(4), x, x, x)  # bad-body

    m = aster.Module()
    k = m.kernel("k")
    raises_here(aster.AsterError, lambda: k.call(bad, v[0]), "# bad-body", "v_mfma")
    assert "bad" not in m.functions and "amdgcn.func" not in m.mlir()


def test_function_with_two_returns_runs():
    """A branch inside the body, a ret on each path: the results join in a
    block argument after inlining, allocated like any other."""
    m = aster.Module()
    f = m.function("pick", params=[SGPR(), VGPR(), VGPR()], results=[VGPR()])
    flag, a, b = f.params
    f.s_cmp_eq_u32(flag, 0)
    other = f.label("other")
    f.s_cbranch_scc1(other)
    f.ret(f.v_add_u32(VGPR(), 1, a))               # flag != 0: a + 1
    f.bind(other)
    f.ret(b)                                       # flag == 0: b
    k, (p0, p1), off = store_kernel(m, outs=2)
    x = k.v_mov_b32(VGPR(), v[0])
    y = k.v_add_u32(VGPR(), 100, v[0])
    one = k.s_mov_b32(SGPR(), 1)
    zero = k.s_mov_b32(SGPR(), 0)
    (r1,) = k.call(f, one, x, y)
    (r2,) = k.call(f, zero, x, r1)
    k.global_store_dword(off, r1, p0)
    k.global_store_dword(off, r2, p1)
    k.s_endpgm()
    assert aster.compile(m, "amdgcn-inline,amdgcn-regalloc").mlir.count("cf.br") >= 4
    o1, o2 = run(m, outs=2)
    assert (o1 == lanes() + 1).all() and (o2 == lanes() + 1).all()
