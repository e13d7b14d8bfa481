"""The Python entry points of the foundation: parse, print, asm, hsaco, pipelines."""
import threading

import pytest

import aster

IR = """
amdgcn.module @m target("gfx942") {
  amdgcn.kernel @k(out: !amdgcn.ptr<f32>) attributes {block = array<i32: 64, 1, 1>} {
    %v0 = amdgcn.reg : !amdgcn.vgpr<0>
    %v1 = amdgcn.reg : !amdgcn.vgpr<1>
    %0 = amdgcn.v_add_u32 %v0, %v1 : (!amdgcn.vgpr<0>, !amdgcn.vgpr<1>) -> !amdgcn.vgpr<1>
    amdgcn.s_endpgm
  }
}
"""


def test_parse_print_reparse_identical():
    m = aster.parse(IR)
    text = str(m)
    assert "amdgcn.v_add_u32" in text
    assert str(aster.parse(text)) == text


def test_asm_is_exactly_the_ir():
    asm = aster.parse(IR).asm()
    body = asm.split("k:\n", 1)[1].split(".Lfunc_end0", 1)[0]
    assert body.split("\n")[:2] == ["\tv_add_u32 v1, v0, v1", "\ts_endpgm"]


def test_hsaco_disassembles_to_the_same_instructions():
    hsaco = aster.parse(IR).hsaco()
    assert hsaco[:4] == b"\x7fELF"
    lines = aster.disassemble(hsaco, "gfx942")
    assert lines == ["v_add_u32_e32 v1, v0, v1", "s_endpgm"]


def test_parse_error_has_location():
    with pytest.raises(aster.AsterError, match=r"<string>:1:\d+: error: .*amdgcn.bogus"):
        aster.parse('amdgcn.module @m target("gfx942") { amdgcn.bogus }')


def test_verifier_error_has_location():
    bad = IR.replace("%v0, %v1 :", "%v0, %v1 {glc} :")
    with pytest.raises(aster.AsterError, match=r"<string>:6:\d+: error: .*no modifier 'glc'"):
        aster.parse(bad)


def test_unknown_target():
    with pytest.raises(aster.AsterError, match="unknown target 'gfx1'"):
        aster.parse('amdgcn.module @m target("gfx1") {}')
    with pytest.raises(aster.AsterError, match="unknown target"):
        aster.isa.instructions("gfx1")


def test_wrong_argument_types():
    with pytest.raises(TypeError):
        aster.parse(42)
    with pytest.raises(TypeError):
        aster.assemble(b"s_endpgm", "gfx942")


def test_run_pipeline_and_bad_pipeline():
    m = aster.parse(IR)
    aster.run_pipeline(m._m, "builtin.module(canonicalize)")
    # Instructions are never removed as dead code.
    assert str(m).count("amdgcn.v_add_u32") == 1
    with pytest.raises(aster.AsterError, match="invalid pass pipeline"):
        aster.run_pipeline(m._m, "builtin.module(no-such-pass)")


def test_assemble_errors_are_exceptions():
    with pytest.raises(aster.AsterError, match="line 2: .*invalid"):
        aster.assemble("s_endpgm\nv_bogus v0\n", "gfx942", link=False)
    with pytest.raises(aster.AsterError, match="unknown target"):
        aster.assemble("s_endpgm\n", "gfx1")


def test_corrupt_object_is_an_exception():
    with pytest.raises(aster.AsterError):
        aster.disassemble(b"\x7fELF garbage", "gfx942")


def test_isa_listing_and_examples_assemble():
    insts = aster.isa.instructions("gfx942")
    assert len({i.name for i in insts}) == len(insts)
    names = {i.name for i in insts}
    assert {"v_add_u32", "s_endpgm", "v_mfma_f32_16x16x16_f16"} <= names
    text = "\n".join(i.example_asm() for i in insts if "BRANCH" not in i.properties)
    obj = aster.assemble(text + "\n", "gfx942", link=False)
    assert obj[:4] == b"\x7fELF"


def test_hsaco_from_several_threads():
    results, errors = [], []

    def work():
        try:
            results.append(aster.parse(IR).hsaco())
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    texts = {tuple(aster.disassemble(h, "gfx942")) for h in results}
    assert len(results) == 4 and len(texts) == 1
