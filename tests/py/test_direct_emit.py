"""Direct encoding (cc/target/DirectEmit.h): a code object made by handing
MCInsts to LLVM MC must be byte-identical to the one LLVM MC assembles from
the printed text, for every kernel we can collect: every example variant of
every table instruction on every target it claims, every lit test module
(allocated by amdgcn-regalloc where it has virtual registers), and (through
ASTER_CHECK_DIRECT, see conftest.py) every code object the other tests and
the examples make. Kernels the direct encoder hands to the text path are
counted; none are expected here."""
import glob
import os
import re

import pytest

import aster
from aster import _aster
from test_builder import call_args

LIT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lit")

# Kernels allowed to go through text (none today): (target, kernel) -> why.
ALLOWED_TEXT = {}


def both(raw):
    """(direct bytes, text bytes, direct_stats) of a raw module."""
    return raw.hsaco(True), raw.hsaco(False), _aster.direct_stats(raw)


# Kernels per module: adding a kernel looks its name up among the module's
# symbols (linear), so one module of all ~10k examples costs quadratic time.
CHUNK = 1000


def table_modules(target):
    """Modules of at most CHUNK kernels, one kernel per example variant of
    each instruction, in table order; yields (module, kernels)."""
    m, n = None, 0
    for inst in aster.isa.instructions(target):
        for variant in range(inst.num_variants):
            if m is None or n == CHUNK:
                if m is not None:
                    m._finish()
                    yield m, n
                m, n = aster.Module(target), 0
            pos, kw, label = call_args(inst.name, inst.example_asm(variant))
            k = m.kernel(f"{inst.name}_{variant}", block=(64, 1, 1))
            if label:
                lab = k.label("target")
                getattr(k, inst.name)(*pos, lab, **kw)
                k.bind(lab)
            else:
                getattr(k, inst.name)(*pos, **kw)
            k.s_endpgm()
            n += 1
    m._finish()
    yield m, n


@pytest.mark.parametrize("target", aster.TARGETS)
def test_every_table_example_is_identical(target, summary):
    total = through_text = 0
    for m, n in table_modules(target):
        direct, text, st = both(m._m)
        assert direct == text
        assert "error" not in st, st.get("error")
        assert st["kernels"] == n
        unexpected = [k for k in st["text_kernels"] if (target, k) not in ALLOWED_TEXT]
        assert not unexpected, f"went through text: {unexpected[:20]}"
        total += n
        through_text += len(st["text_kernels"])
    assert total == sum(i.num_variants for i in aster.isa.instructions(target))
    summary.append(f"direct encoding, table examples on {target}: {total} kernels identical, "
                   f"{through_text} through text")


def lit_modules():
    """(name, raw module) for every lit test module that parses."""
    for path in sorted(glob.glob(os.path.join(LIT, "**", "*.mlir"), recursive=True)):
        with open(path) as f:
            chunks = re.split(r"^// -----$", f.read(), flags=re.M)
        for i, chunk in enumerate(chunks):
            try:
                yield f"{os.path.relpath(path, LIT)}#{i}", aster.parse(chunk)._m
            except aster.AsterError:
                continue


def allocated(raw):
    """The module, or a copy allocated by amdgcn-regalloc if it has virtual
    registers; None if that fails (an error test)."""
    if "?" not in _aster.print_module(raw, False):
        return raw
    c = _aster.clone_module(raw)
    try:
        _aster.run_pipeline(c, "amdgcn-regalloc")
    except aster.AsterError:
        return None
    return c


def test_lit_modules_are_identical(summary):
    modules = kernels = through_text = 0
    for name, raw in lit_modules():
        raw = allocated(raw)
        if raw is None:
            continue
        try:
            text = raw.hsaco(False)
        except aster.AsterError as e:
            # An error test: the direct path reports the same error.
            with pytest.raises(aster.AsterError) as d:
                raw.hsaco(True)
            assert str(d.value) == str(e), name
            continue
        direct, _, st = both(raw)
        assert direct == text, name
        assert "error" not in st, f"{name}: {st.get('error')}"
        # Only an instruction kept as its assembly line (amdgcn.data with
        # text, no words) sends a kernel through text.
        if st["text_kernels"]:
            ir = _aster.print_module(raw, False)
            assert re.search(r"amdgcn\.data \{text", ir), f"{name}: {st['text_kernels']}"
            through_text += len(st["text_kernels"])
        modules += 1
        kernels += st["kernels"]
    assert modules >= 30 and kernels >= 40
    summary.append(f"direct encoding, lit tests: {modules} modules ({kernels} kernels) "
                   f"identical, {through_text} through text (kept assembly lines)")


def test_forms_are_learned_once():
    def module(dst, regs):
        m = aster.Module("gfx942")
        k = m.kernel("k", block=(64, 1, 1))
        for i in range(8):
            k.v_fma_f32(aster.v[dst + i], aster.v[regs], aster.s[4], 0.5)
        k.v_mfma_f32_16x16x16_f16(aster.a[4:8], aster.v[regs:regs + 2],
                                  aster.v[regs + 2:regs + 4], aster.a[4:8])
        k.s_endpgm()
        m._finish()
        return m._m

    first = _aster.direct_stats(module(10, 2))
    again = module(40, 6)   # other registers, the same forms
    st = _aster.direct_stats(again)
    assert st["forms_learned"] == 0 and st["instructions"] == 10
    assert first["instructions"] == 10
    assert again.hsaco(True) == again.hsaco(False)


def test_equal_registers_are_part_of_the_form():
    # v_add_u32 v1, v0, v1 and v_add_u32 v1, v0, v2 are different forms:
    # each keeps its own pattern of equal registers.
    m = aster.Module("gfx942")
    k = m.kernel("k", block=(64, 1, 1))
    k.v_add_u32(aster.v[7], aster.v[3], aster.v[7])
    k.v_add_u32(aster.v[7], aster.v[3], aster.v[9])
    k.v_add_u32(aster.v[5], aster.v[5], aster.v[5])
    k.s_endpgm()
    m._finish()
    direct, text, st = both(m._m)
    assert direct == text and st["instructions"] == 4
    dis = aster.disassemble(direct, "gfx942")
    assert [x.split(" ", 1)[1] for x in dis if x.startswith("v_add")] == [
        "v7, v3, v7", "v7, v3, v9", "v5, v5, v5"]


def test_kernels_through_text_share_the_object():
    # Kernels the encoder hands to text (forced here by mnemonic) are written
    # in the same object; the object is byte for byte LLVM MC's of the text.
    m = aster.Module("gfx942")
    for name, fill in (("a", False), ("b", True), ("c", False)):
        k = m.kernel(name, block=(64, 1, 1))
        k.v_mov_b32(aster.v[2], 7)
        if fill:
            k.v_add_u32(aster.v[1], aster.v[0], aster.v[1])
        with k.loop(aster.s[4], 3):
            k.v_add_f32(aster.v[3], aster.v[2], aster.v[3])
        k.s_endpgm()
    m._finish()
    st = _aster.direct_stats(m._m, text_mnemonics=["v_add_u32"])
    assert st["kernels"] == 3 and st["text_kernels"] == ["b"] and st["assembler"]
    assert st["object"] == aster.assemble(m.asm(), "gfx942", link=False)
    all_direct = _aster.direct_stats(m._m)
    assert all_direct["text_kernels"] == [] and all_direct["object"] == st["object"]
    assert not all_direct["assembler"]


@pytest.mark.parametrize("target", aster.TARGETS)
@pytest.mark.parametrize("cov", [4, 5, 6])
def test_no_text_no_assembler(target, cov):
    # With nothing left as text the object is written by MC's object
    # streamer alone; the ELF header (e_flags: machine, xnack, sramecc; ABI
    # version) it sets by itself must be what LLVM's assembler sets from
    # `.amdgcn_target` and `.amdhsa_code_object_version`.
    ir = (f'module {{ amdgcn.module @m target("{target}") attributes '
          f'{{code_object_version = {cov} : i64}} {{\n'
          '  amdgcn.kernel @k() attributes {block = array<i32: 64, 1, 1>} {\n'
          '    amdgcn.s_endpgm\n  }\n} }')
    m = aster.parse(ir)
    st = _aster.direct_stats(m._m)
    assert not st["assembler"] and st["text_kernels"] == []
    assert f".amdhsa_code_object_version {cov}" in m.asm()
    assert st["object"] == aster.assemble(m.asm(), target, link=False)
    assert m._m.hsaco(True) == m._m.hsaco(False)


def test_unknown_code_object_version_goes_to_the_assembler():
    ir = ('module { amdgcn.module @m target("gfx942") attributes '
          '{code_object_version = 3 : i64} {\n'
          '  amdgcn.kernel @k() attributes {block = array<i32: 64, 1, 1>} {\n'
          '    amdgcn.s_endpgm\n  }\n} }')
    with pytest.raises(aster.AsterError, match="Unsupported AMDHSA Code Object Version 3"):
        aster.parse(ir)._m.hsaco(True)


def test_mc_error_is_reported_at_its_op():
    ir = open(os.path.join(LIT, "hsaco", "mc-error.mlir")).read()
    raw = aster.parse(ir, "mc-error.mlir")._m
    with pytest.raises(aster.AsterError, match=r"mc-error.mlir:7:3: error: LLVM MC "
                                               r"rejected this line"):
        raw.hsaco(True)


def test_compile_prints_text_only_when_asked():
    m = aster.Module("gfx942")
    k = m.kernel("k", block=(64, 1, 1))
    k.v_add_u32(aster.v[1], aster.v[0], aster.v[1])
    k.s_endpgm()
    c = aster.compile(m)
    assert c._asm is None and c._mlir is None and c.hsaco
    k2 = m.kernel("later", block=(64, 1, 1))   # the module grows after compile
    k2.s_endpgm()
    assert "later" not in c.asm and "later" not in c.mlir   # as compiled
    assert c.asm.count("v_add_u32") == 1
    assert aster.assemble(c.asm, "gfx942") == c.hsaco


def _raised_ir(hip_hsaco):
    src = ('#include "common.h"\n'
           "KERNEL vadd(const float *a, float *c) { c[tid_x()] = a[tid_x()] * 2.0f; }\n")
    m = aster.raise_code_object(hip_hsaco(src, name="vadd"))
    return _aster.print_module(m._m, False)


def _set_field(ir, name, value):
    ir, n = re.subn(rf"\b{name} = -?\d+ : i64", f"{name} = {value} : i64", ir, count=1)
    if not n:    # a field the decoder left out (zero): add it
        ir = ir.replace("descriptor = {", f"descriptor = {{{name} = {value} : i64, ", 1)
    return ir


def test_unusual_descriptor_fields_are_identical(hip_hsaco):
    # A raised kernel's descriptor with fields aster never writes itself:
    # the direct descriptor (encodeKernelDescriptor) must match what LLVM's
    # assembler makes of the same `.amdhsa_*` directives, byte for byte.
    base = _raised_ir(hip_hsaco)
    seen = {aster.parse(base)._m.hsaco(True)}
    cases = [dict(ieee_mode=0, dx10_clamp=0), dict(float_round_mode_32=2, float_denorm_mode_32=1),
             dict(float_denorm_mode_16_64=0, fp16_overflow=1),
             dict(exception_fp_ieee_div_zero=1, exception_int_div_zero=1),
             dict(uses_dynamic_stack=1, tg_split=1),
             dict(user_sgpr_dispatch_ptr=1, user_sgpr_queue_ptr=1, user_sgpr_count=6),
             dict(user_sgpr_kernarg_preload_length=2, user_sgpr_kernarg_preload_offset=0,
                  user_sgpr_count=4),
             dict(next_free_vgpr=97, accum_offset=64, next_free_sgpr=70),
             dict(system_sgpr_workgroup_id_y=1, system_sgpr_workgroup_id_z=1,
                  system_vgpr_workitem_id=2, group_segment_fixed_size=65536,
                  private_segment_fixed_size=1024, enable_private_segment=1)]
    for fields in cases:
        ir = base
        for k, v in fields.items():
            ir = _set_field(ir, k, v)
        raw = aster.parse(ir)._m
        direct, text, st = both(raw)
        assert "error" not in st, (fields, st.get("error"))
        assert direct == text, fields
        assert direct not in seen, fields    # the fields did change the descriptor
        seen.add(direct)


def test_descriptor_the_assembler_rejects_goes_through_text(hip_hsaco):
    # Values LLVM's assembler refuses: the direct encoder hands the module to
    # the text path, which reports the assembler's error at its line.
    base = _raised_ir(hip_hsaco)
    for fields in (dict(next_free_sgpr=200), dict(accum_offset=6),
                   dict(user_sgpr_dispatch_ptr=1, user_sgpr_count=2)):
        ir = base
        for k, v in fields.items():
            ir = _set_field(ir, k, v)
        raw = aster.parse(ir)._m
        assert "error" in _aster.direct_stats(raw), fields
        with pytest.raises(aster.AsterError, match="LLVM MC rejected"):
            raw.hsaco(True)
