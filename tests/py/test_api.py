"""The public Python API: compile, metadata, save, parse, pipelines, registers,
virtual values, kernel arguments, hardware ids, labels and loops, locations."""
import inspect
import os
import re

import numpy as np
import pytest

import aster
from aster import a, s, v, vcc, exec, m0, VGPR, SGPR

HERE = os.path.abspath(__file__)


def body(asm, name):
    """The instruction lines of kernel `name` in an assembly text."""
    text = asm.split(f"\n{name}:\n", 1)[1].split(".Lfunc_end", 1)[0]
    return [ln.strip() for ln in text.strip().split("\n")]


def add_kernel(n=3, name="k"):
    m = aster.Module("gfx942", name="mod")
    k = m.kernel(name, block=(64, 1, 1))
    for _ in range(n):
        k.v_add_u32(v[1], v[0], v[1])
    k.s_endpgm()
    return m


def yaml_field(asm, key):
    return [int(x) for x in re.findall(rf"\.{key}:\s+(\d+)", asm)]


def test_compile_gives_asm_hsaco_mlir_metadata():
    out = aster.compile(add_kernel())
    assert body(out.asm, "k") == ["v_add_u32 v1, v0, v1"] * 3 + ["s_endpgm"]
    assert out.hsaco[:4] == b"\x7fELF"
    assert aster.disassemble(out.hsaco, "gfx942") == ["v_add_u32_e32 v1, v0, v1"] * 3 + ["s_endpgm"]
    assert "amdgcn.v_add_u32" in out.mlir
    md = out.metadata["k"]
    assert (md.vgpr_count, md.agpr_count, md.kernarg_size, md.lds) == (2, 0, 0, 0)
    assert md.block == (64, 1, 1) and md.wavefront_size == 64 and out.target == "gfx942"
    assert "mod" in repr(out)


def test_compile_is_wysiwyg_and_module_matches():
    m = add_kernel()
    assert aster.compile(m).asm == m.asm()
    assert m.compile().hsaco == m.hsaco()


def test_metadata_agrees_with_the_code_object_metadata():
    m = aster.Module("gfx942")
    k = m.kernel("k", args=[("x", np.int8), ("p", aster.ptr(np.float16)), ("n", np.int32),
                            ("h", np.float16), ("d", np.float64)], block=(128, 2, 1), lds=4096)
    k.v_mfma_f32_16x16x16_f16(a[0:4], v[0:2], v[4:6], a[0:4])
    k.s_mov_b32(s[20], 1)
    k.s_endpgm()
    out = aster.compile(m)
    md = out.metadata["k"]
    assert [(x.name, x.offset, x.size, x.pointer) for x in md.args] == [
        ("x", 0, 1, False), ("p", 8, 8, True), ("n", 16, 4, False), ("h", 20, 2, False),
        ("d", 24, 8, False)]
    assert [(x.name, x.offset, x.size) for x in k.args] == [
        (x.name, x.offset, x.size) for x in md.args]    # Python layout == C++ layout
    assert k.kernarg_size == md.kernarg_size == 32
    assert yaml_field(out.asm, "kernarg_segment_size") == [md.kernarg_size]
    # v0..v5 used: accum_offset 8, then 4 AGPRs in the unified file.
    assert md.accum_offset == 8
    assert yaml_field(out.asm, "vgpr_count") == [md.vgpr_count] == [12]
    assert yaml_field(out.asm, "sgpr_count") == [md.sgpr_count]
    assert yaml_field(out.asm, "agpr_count") == [md.agpr_count] == [4]
    assert yaml_field(out.asm, "group_segment_fixed_size") == [md.lds] == [4096]
    assert f".amdhsa_accum_offset {md.accum_offset}" in out.asm
    assert md.user_sgprs == 2 and md.sgpr_setup == ("kernarg_ptr", "workgroup_id_x")


def test_save_writes_mlir_asm_hsaco(tmp_path):
    out = aster.compile(add_kernel())
    paths = out.save(tmp_path / "sub")
    assert sorted(os.path.basename(p) for p in paths.values()) == ["mod.hsaco", "mod.mlir", "mod.s"]
    assert open(paths["asm"]).read() == out.asm
    assert open(paths["hsaco"], "rb").read() == out.hsaco
    assert aster.parse(open(paths["mlir"]).read()).asm() == out.asm


def test_parse_then_compile():
    text = str(add_kernel())
    m = aster.parse(text)
    assert (m.target, m.name) == ("gfx942", "mod")
    assert aster.compile(m).asm == add_kernel().asm()
    assert aster.compile(text).asm == add_kernel().asm()          # text is accepted too
    with pytest.raises(TypeError):
        aster.parse(b"bytes")
    with pytest.raises(TypeError):
        aster.compile(42)


def test_pipeline_runs_on_a_copy():
    m = add_kernel()
    before = str(m)
    out = aster.compile(m, "cse")
    assert out.pipeline == "cse" and str(m) == before
    with pytest.raises(aster.AsterError, match="invalid pass pipeline"):
        aster.compile(m, "no-such-pass")
    with pytest.raises(TypeError):
        aster.compile(m, 3)
    assert isinstance(aster.passes(), list)


def test_run_pipeline_in_place_seals_the_kernels():
    m = aster.Module()
    k = m.kernel("k")
    k.s_endpgm()
    aster.run_pipeline(m, "cse")
    with pytest.raises(aster.AsterError, match="transformed by a pass pipeline"):
        k.s_endpgm()


def test_run_pipeline_without_verifier_gives_the_same_result():
    def build():
        m = aster.Module()
        k = m.kernel("k")
        x = k.v_mov_b32(VGPR(), 1)
        for _ in range(3):
            x = k.v_add_u32(VGPR(), x, x)
        k.s_endpgm()
        return m
    checked, unchecked = build(), build()
    aster.run_pipeline(checked, "amdgcn-regalloc")
    aster.run_pipeline(unchecked, "amdgcn-regalloc", verify=False)
    unchecked.verify()
    assert unchecked.asm() == checked.asm() and "v_add_u32 v0, v0, v0" in checked.asm()
    with pytest.raises(TypeError, match="verify must be a bool"):
        aster.run_pipeline(build(), "cse", verify="no")


def test_register_slicing():
    assert v[4:8][1] == v[5] and v[4:8][0:2] == v[4:6] and v[4:8][-1] == v[7]
    assert s[0:4][2:] == s[2:4] and len(a[0:4]) == 4 and len(vcc) == 2 and len(m0) == 1
    assert repr(v[4:8]) == "v[4:8]" and str(v[4:8]) == "v[4:7]" and str(v[3]) == "v3"
    assert repr(VGPR(4)) == "VGPR(4)" and VGPR(4).is_virtual and not v[0].is_virtual
    m = aster.Module()
    k = m.kernel("k")
    k.v_mfma_f32_16x16x16_f16(a[0:8][4:8], v[0:4][0:2], v[0:4][2:4], a[4:8])
    k.s_endpgm()
    assert body(m.asm(), "k")[0] == "v_mfma_f32_16x16x16_f16 a[4:7], v[0:1], v[2:3], a[4:7]"


def test_special_registers_and_immediates():
    m = aster.Module()
    k = m.kernel("k")
    k.v_cmp_eq_u32(vcc, v[0], 3)
    k.s_mov_b64(exec, vcc)
    k.s_mov_b32(m0, -1)
    k.v_mov_b32(v[1], 0.5)
    k.v_add_f32(v[2], 1.0, v[1])
    k.s_mov_b32(s[4], 0x12345678)
    k.s_endpgm()
    assert body(m.asm(), "k") == [
        "v_cmp_eq_u32 vcc, v0, 3", "s_mov_b64 exec, vcc", "s_mov_b32 m0, -1",
        "v_mov_b32 v1, 0.5", "v_add_f32 v2, 1.0, v1", "s_mov_b32 s4, 0x12345678", "s_endpgm"]


def test_allocated_destination_returns_the_register_and_virtual_a_value():
    m = aster.Module()
    k = m.kernel("k")
    assert k.v_add_u32(v[1], v[0], v[1]) is v[1]
    x = k.v_mov_b32(VGPR(), 7)
    assert isinstance(x, aster.Value) and x.width == 1 and "vgpr" in x.type
    y = k.v_add_u32(VGPR(), x, x)
    k.v_add_u32(v[2], y, v[0])
    wide = k.s_load_dwordx2(SGPR(2, align=2), s[0:2], 0)
    assert wide.width == 2
    assert k.s_endpgm() is None
    ir = str(m)
    assert "!amdgcn.vgpr<?>" in ir and "!amdgcn.sgpr<?x2, align 2>" in ir
    with pytest.raises(aster.AsterError, match="virtual register"):
        m.asm()                       # needs register allocation first


def test_locations_are_the_python_lines():
    m = aster.Module()
    k = m.kernel("k")
    line = inspect.currentframe().f_lineno + 1
    k.v_add_u32(v[1], v[0], v[1])
    k.s_endpgm()
    text = m.mlir(locations=True)
    assert f'"{HERE}":{line}:0' in text and f'"{HERE}":{line + 1}:0' in text
    for _ in range(3):            # one call site, one location
        k2 = k
    assert k2 is k


def test_locations_through_helpers_are_the_user_lines():
    m = aster.Module()
    k = m.kernel("k", args=[("p", aster.ptr(np.float32))])
    line = inspect.currentframe().f_lineno + 1
    k.load_arg("p", s[4:6])
    k.s_endpgm()
    assert f'"{HERE}":{line}:0' in m.mlir(locations=True)


def test_kernel_arguments_and_load_arg():
    m = aster.Module()
    k = m.kernel("k", args={"a": aster.ptr(np.float32), "n": np.int32, "x": np.float64,
                            "b": np.uint8})
    assert k.kernarg_ptr == s[0:2] and k.workgroup_id("x") == s[2] and k.num_setup_sgprs == 3
    assert k.arg("n").offset == 8 and k.arg("x").offset == 16 and k.arg("b").offset == 24
    k.load_arg("a", s[4:6])
    k.load_arg("n", s[6])
    k.load_arg("x", s[8:10])
    k.load_arg("b", s[10])
    va = k.load_arg("a")                          # a new virtual SGPR pair
    assert isinstance(va, aster.Value) and va.width == 2
    k.s_endpgm()
    lines = [ln for ln in body_ir(m) if "s_load" in ln]
    assert len(lines) == 5
    with pytest.raises(ValueError, match="no argument 'zz'.*arguments: a, n, x, b"):
        k.load_arg("zz")


def body_ir(m):
    return [ln.strip() for ln in str(m).split("\n")]


def test_load_arg_offsets_in_assembly():
    m = aster.Module()
    k = m.kernel("k", args=[("a", aster.ptr(np.float32)), ("n", np.int32), ("x", np.int64)])
    k.load_arg("a", s[4:6])
    k.load_arg("n", s[6])
    k.load_arg("x", s[8:10])
    k.s_endpgm()
    got = aster.disassemble(m.hsaco(), "gfx942")
    assert got[:3] == ["s_load_dwordx2 s[4:5], s[0:1], 0x0", "s_load_dword s6, s[0:1], 0x8",
                       "s_load_dwordx2 s[8:9], s[0:1], 0x10"]


def test_hardware_ids():
    m = aster.Module()
    k = m.kernel("k", block=(64, 1, 1))
    assert k.workitem_id("x") == v[0] and k.workitem_id("y") == 0
    assert k.workgroup_id() == s[0]                 # no arguments: no kernarg_ptr
    with pytest.raises(ValueError, match="workgroup_id_y"):
        k.workgroup_id("y")
    with pytest.raises(ValueError, match="dimension"):
        k.workitem_id("w")
    k2 = m.kernel("k2", args=[("p", aster.ptr(np.int32))], block=(8, 8, 1), workitem_ids=2,
                  sgpr_setup=["dispatch_ptr", "kernarg_ptr", "workgroup_id_x", "workgroup_id_y"])
    assert k2.setup_sgpr("dispatch_ptr") == s[0:2] and k2.kernarg_ptr == s[2:4]
    assert (k2.workgroup_id("x"), k2.workgroup_id("y")) == (s[4], s[5])
    assert k2.workitem_ids_vgpr == v[0]
    assert isinstance(k2.workitem_id("y"), aster.Value)     # v_bfe_u32 of v0 bits 10-19
    assert str(m).count("amdgcn.v_bfe_u32") == 1
    with pytest.raises(ValueError, match="workitem_ids=3"):
        m.kernel("k3", block=(4, 4, 4)).workitem_id("z")


def test_labels_and_branches():
    m = aster.Module()
    k = m.kernel("k")
    top = k.here("top")
    k.s_add_u32(s[0], s[0], 1)
    k.s_cmp_eq_u32(s[0], 8)
    done = k.label("done")
    k.s_cbranch_scc1(done)
    k.s_branch(top)
    k.bind(done)
    k.s_endpgm()
    assert body(m.asm(), "k") == [
        ".LBB0_1:", "s_add_u32 s0, s0, 1", "s_cmp_eq_u32 s0, 8", "s_cbranch_scc1 .LBB0_3",
        ".LBB0_2:", "s_branch .LBB0_1", ".LBB0_3:", "s_endpgm"]
    assert aster.compile(m).hsaco


def test_real_loop_helper():
    m = aster.Module()
    k = m.kernel("k")
    with k.loop(s[8], 10) as loop:
        k.v_add_u32(v[1], v[0], v[1])
    k.s_endpgm()
    lines = body(m.asm(), "k")
    assert lines[0] == "s_mov_b32 s8, 10"
    assert "v_add_u32 v1, v0, v1" in lines
    assert "s_sub_u32 s8, s8, 1" in lines or "s_add_u32 s8, s8, -1" in lines
    assert any(ln.startswith("s_cbranch_scc") for ln in lines) and lines[-1] == "s_endpgm"
    assert isinstance(loop.top, aster._aster.Label)
    assert aster.compile(m).hsaco
    with pytest.raises(TypeError, match="one allocated SGPR"):
        k.loop(v[0], 3)
    with pytest.raises(ValueError, match="count"):
        k.loop(s[8], 0)


def test_loop_count_from_an_sgpr_and_unrolled_python_loop():
    m = aster.Module()
    k = m.kernel("k")
    with k.loop(s[9], s[4]):
        for i in range(4):                     # unrolled by Python
            k.v_add_u32(v[1], i, v[1])
    k.s_endpgm()
    lines = body(m.asm(), "k")
    assert lines[0] == "s_mov_b32 s9, s4"
    assert [ln for ln in lines if ln.startswith("v_add")] == [
        f"v_add_u32 v1, {i}, v1" for i in range(4)]


def test_modifiers():
    m = aster.Module()
    k = m.kernel("k")
    k.global_load_dword(v[2], v[4:6], offset=-16, sc0=True)
    k.s_waitcnt(vmcnt=0)
    k.s_nop(imm=3)
    k.v_pk_add_f16(v[1], v[2], v[3], op_sel=[1, 0])
    k.v_mfma_f32_16x16x16_f16(a[0:4], v[0:2], v[2:4], a[0:4], cbsz=1, abid=1, blgp=2)
    k.s_endpgm()
    assert body(m.asm(), "k")[:5] == [
        "global_load_dword v2, v[4:5], off offset:-16 sc0", "s_waitcnt vmcnt(0)", "s_nop 3",
        "v_pk_add_f16 v1, v2, v3 op_sel:[1,0]",
        "v_mfma_f32_16x16x16_f16 a[0:3], v[0:1], v[2:3], a[0:3] cbsz:1 abid:1 blgp:2"]


def test_many_kernels_and_modules_are_independent():
    mods = [add_kernel(n, name=f"k{n}") for n in range(1, 4)]
    for n, m in enumerate(mods, 1):
        assert body(m.asm(), f"k{n}") == ["v_add_u32 v1, v0, v1"] * n + ["s_endpgm"]
    m = aster.Module()
    ks = [m.kernel(f"k{i}") for i in range(3)]
    for i, k in enumerate(ks):
        k.v_add_u32(v[i], v[0], v[1])
        k.s_endpgm()
    assert set(aster.compile(m).metadata) == {"k0", "k1", "k2"}


def test_public_api_names():
    for name in aster.__all__:
        assert hasattr(aster, name), name
    assert aster.TARGETS == ("gfx942", "gfx950", "gfx1201")


def test_loop_on_gfx1201_uses_its_subtract():
    m = aster.Module("gfx1201")
    k = m.kernel("k")
    with k.loop(aster.s[8], 10):
        k.s_nop()
    k.s_endpgm()
    body = [l.strip() for l in m.asm().split("k:\n", 1)[1].split(".Lfunc_end0")[0].splitlines()]
    assert "s_sub_co_u32 s8, s8, 1" in body and "s_cbranch_scc1 .LBB0_1" in body
    # LLVM MC (the oracle) accepts the loop for gfx1201.
    assert aster.disassemble(m.hsaco(), "gfx1201")[2] == "s_sub_co_u32 s8, s8, 1"
