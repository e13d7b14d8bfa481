"""aster.compile copies the module before its passes (dialect/Copy.h): the
copy must be the same IR (MLIR's printer, with locations, is the oracle),
independent of the original, and give the same code object."""
import aster
from aster import _aster
from test_direct_emit import lit_modules

FORWARD = '''module { amdgcn.module @m target("gfx942") {
  amdgcn.kernel @k() attributes {block = array<i32: 64, 1, 1>} {
    %c1 = arith.constant 1 : i32
    cf.br ^bb2
  ^bb1:
    %y = amdgcn.v_add_u32 %x, %x : (!amdgcn.vgpr<0>, !amdgcn.vgpr<0>) -> !amdgcn.vgpr<1>
    amdgcn.s_endpgm
  ^bb2:
    %x = amdgcn.v_mov_b32 %c1 : (i32) -> !amdgcn.vgpr<0>
    cf.br ^bb1
  }
} }'''


def same(raw):
    c = _aster.clone_module(raw)
    assert _aster.print_module(c, True) == _aster.print_module(raw, True)
    return c


def test_every_lit_module_copies_exactly():
    n = 0
    for name, raw in lit_modules():
        same(raw)
        n += 1
    assert n >= 40


def test_use_laid_out_before_its_definition():
    # ^bb1 reads %x, defined in ^bb2 (which dominates ^bb1 but comes after it).
    m = aster.parse(FORWARD)
    c = same(m._m)
    c.verify()
    assert c.hsaco() == m._m.hsaco()


def test_copy_is_independent():
    m = aster.Module("gfx942")
    k = m.kernel("k", block=(64, 1, 1))
    x = k.v_mov_b32(aster.VGPR(), 1)
    with k.loop(aster.s[4], 3, carry=[x]) as L:
        L.next(k.v_add_u32(aster.VGPR(), L.carry[0], L.carry[0]))
    k.s_endpgm()
    m._finish()
    before = _aster.print_module(m._m, True)
    c = same(m._m)
    _aster.run_pipeline(c, "amdgcn-regalloc,amdgcn-hazards")
    assert _aster.print_module(m._m, True) == before
    assert "?" in before and "?" not in _aster.print_module(c, False)
