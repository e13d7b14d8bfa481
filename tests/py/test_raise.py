"""Raising existing code: aster.raise_code_object / aster.raise_asm.

The oracle is clang-22 and LLVM's own tools: every HIP kernel of the test
corpus (tests/emulator/hip and tests/py/raise_corpus: DPP reductions,
direct-to-LDS loads, fp8 conversions, wave reductions) is compiled for gfx942
and gfx950; its code object, raised and compiled again by aster, must have
the same code bytes, the same kernel descriptors (the entry offset, a layout
fact, must point at the kernel) and the same metadata, all read with
llvm-readelf-22 (elf_facts.py). The same for clang's -S assembly raised with
raise_asm, against clang's code object of the same source.
"""
import re
import subprocess
from pathlib import Path

import pytest

import aster
import elf_facts
from conftest import HIP_INCLUDE

ARCHS = ("gfx942", "gfx950")
SOURCES = [*sorted(Path(HIP_INCLUDE).glob("*.hip")),
           *sorted(Path(__file__).with_name("raise_corpus").glob("*.hip"))]
# Not raised yet, with the reason (asserted to fail, so the list stays honest).
NOT_RAISED = {}
NOT_RAISED_ASM = {}


@pytest.fixture(scope="module")
def corpus(hip_hsaco):
    """[(name, arch, hsaco bytes, clang -S text)]"""
    out = []
    for src in SOURCES:
        for arch in ARCHS:
            if src.stem.startswith("gfx950") and arch != "gfx950":
                continue
            h = hip_hsaco(src, arch=arch)
            s = hip_hsaco(src, arch=arch, flags=("-S",)).decode()
            out.append((src.stem, arch, h, s))
    return out


def _roundtrip(corpus, summary, raise_fn, not_raised, what):
    exact, kept, known = [], [], []
    for name, arch, h, s in corpus:
        where = f"{name} ({arch})"
        if name in not_raised:
            with pytest.raises(aster.AsterError):
                aster.compile(raise_fn(h, s, "keep"))
            known.append(where)
            continue
        try:
            m = raise_fn(h, s, "error")
            exact.append(where)
        except aster.AsterError as e:
            # each problem names its pc (or line) and the instruction
            assert re.match(r"\S+ pc 0x[0-9a-f]+: \w|\S+:\d+: \w", str(e)), f"{where}: {e}"
            m = raise_fn(h, s, "keep")
            kept.append(where)
        diff = elf_facts.differences(h, aster.compile(m).hsaco)
        assert not diff, f"{where}: {what} round trip changed the {', '.join(diff)}"
    summary.append(f"{what}: {len(exact) + len(kept)}/{len(corpus)} clang-22 code objects "
                   f"round-trip exactly ({len(exact)} entirely in the table, {len(kept)} with "
                   f"unknown='keep'); not raised: {', '.join(known) or 'none'}")
    return exact, kept


def test_roundtrip_code_objects(corpus, summary):
    """Every instruction of the corpus is a table op (none kept opaque): f64
    literals (the double's high half), packed 16-bit literals of both
    halves, the aperture constants (src_shared_base, ...) included."""
    _, kept = _roundtrip(corpus, summary, lambda h, s, u: aster.raise_code_object(h, unknown=u),
                         NOT_RAISED, "raise_code_object")
    assert not kept


def test_roundtrip_asm(corpus, summary):
    _, kept = _roundtrip(corpus, summary, lambda h, s, u: aster.raise_asm(s, unknown=u),
                         NOT_RAISED_ASM, "raise_asm")
    assert not kept


VADD = """
#include "common.h"
KERNEL vadd(const float *a, const float *b, float *c, int n) {
  int i = bid_x() * 64 + tid_x();
  if (i < n) c[i] = a[i] + b[i];
}
"""


def test_raised_ir_holds_the_kernel(hip_hsaco):
    h = hip_hsaco(VADD, name="vadd")
    text = aster.raise_code_object(h).mlir()
    assert "amdgcn.kernel @vadd" in text
    assert "amdgcn.global_load_dword" in text and "amdgcn.v_add_f32" in text
    assert "amdgcn.s_cbranch_execz ^bb" in text   # branch with successors
    assert "next_free_vgpr" in text and '".args"' in text and '"global_buffer"' in text
    assert '".name" = "n"' in text                 # argument names from the metadata


def test_unknown_instruction_names_line_and_text():
    text = ("\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx942\"\n\t.text\nk:\n"
            "\tv_mov_b32 v0, 1\n\ts_sethalt 0\n"
            "\ts_endpgm\n")
    with pytest.raises(aster.AsterError, match=r"k\.s:5: s_sethalt 0: 's_sethalt' is not in"):
        aster.raise_asm(text, name="k.s")
    m = aster.raise_asm(text, name="k.s", unknown="keep")
    assert "amdgcn.data" in m.mlir()
    assert "s_sethalt 0" in aster.compile(m).asm


def test_unknown_in_code_object_names_pc(hip_hsaco):
    src = ('extern "C" __attribute__((global)) void trace(int *p) {\n'
           '  asm volatile("s_sethalt 0");\n}\n')
    with pytest.raises(aster.AsterError, match=r"trace pc 0x[0-9a-f]+: s_sethalt"):
        aster.raise_code_object(hip_hsaco(src, "trace"))


def test_exact_encodings_are_kept():
    """_e64 where LLVM would pick _e32, and literals, come back as written."""
    lines = ["v_add_u32_e64 v0, v1, v2", "v_add_f32_e32 v0, 0x40490fdb, v1",
             "v_mov_b32_e32 v3, 1.0", "s_mov_b32 s0, 0x12345678", "v_cmp_gt_i32_e64 s[0:1], v0, v1"]
    text = ("\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx942\"\n\t.text\nk:\n" +
            "".join(f"\t{x}\n" for x in lines) + "\ts_endpgm\n")
    out = aster.compile(aster.raise_asm(text))
    want = aster.disassemble(aster.assemble(text, "gfx942", link=False), "gfx942")
    assert aster.disassemble(out.hsaco, "gfx942")[:len(want)] == want


def test_device_functions_raised_and_run(hip_hsaco):
    """calls.hip: the device functions clang did not inline are raised as
    amdgcn.device_function (their code, called by the kernel through
    s_getpc_b64/s_add_u32/s_addc_u32/s_swappc_b64, returning with
    s_setpc_b64); compiled again, they sit at the same addresses with the
    same sizes (llvm-readelf), and the code object runs on the emulator as
    clang's does."""
    import numpy as np
    n = 200
    for arch in ARCHS:
        h = hip_hsaco(Path(HIP_INCLUDE) / "calls.hip", arch=arch)
        m = aster.raise_code_object(h)
        text = m.mlir()
        assert text.count("amdgcn.device_function @") == 2, arch
        assert "amdgcn.device_function @_Z13collatz_stepsi" in text
        assert "amdgcn.s_swappc_b64" in text and "amdgcn.s_setpc_b64" in text
        assert [k.name for k in m.kernels] == ["calls", "softmax64"]
        out = aster.compile(m)
        assert "\t.type\t_Z4polyfPKfi,@function\n_Z4polyfPKfi:\n" in out.asm
        # The direct encoder writes device functions too (ASTER_CHECK_DIRECT
        # checks it gives the text path's bytes); the calls are symbolic.
        st = aster._aster.direct_stats(m._m, [])
        assert "error" not in st and st["text_kernels"] == [], st
        assert 'amdgcn.reloc @_Z13collatz_stepsi "rel32@lo" 4' in text
        want, got = elf_facts.symbols(h), elf_facts.symbols(out.hsaco)
        for name in ("_Z13collatz_stepsi", "_Z4polyfPKfi", "calls", "softmax64"):
            assert got[name] == want[name], (arch, name)
        results = []
        for code in (h, out.hsaco):
            x = np.random.default_rng(17).integers(-20000, 80000, n).astype(np.int32)
            coef = np.array([0.5, -1.25, 2.0, 0.75, -0.125], np.float32)
            out_i, out_f = np.zeros(2 * n, np.int32), np.zeros(n, np.float32)
            aster.launch(code, "calls", ((n + 63) // 64, 1, 1), (64, 1, 1),
                         [x, coef, out_i, out_f, np.int32(n)])
            results.append((out_i, out_f))
        np.testing.assert_array_equal(results[0][0], results[1][0])
        np.testing.assert_array_equal(results[0][1], results[1][1])
        assert results[0][0].any()


def test_device_function_must_return():
    """A device function's code must end with its return (s_setpc_b64)."""
    text = ("\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx942\"\n\t.text\n\t.p2align 2\n"
            "\t.type f,@function\nf:\n\tv_mov_b32 v0, 1\n.Lf_end:\n\t.size f, .Lf_end-f\n"
            "\t.globl k\n\t.p2align 8\n\t.type k,@function\nk:\n\ts_endpgm\n.Lend:\n"
            "\t.size k, .Lend-k\n\t.rodata\n\t.p2align 6\n\t.amdhsa_kernel k\n"
            "\t\t.amdhsa_next_free_vgpr 1\n\t\t.amdhsa_next_free_sgpr 1\n"
            "\t\t.amdhsa_accum_offset 4\n\t.end_amdhsa_kernel\n")
    h = aster.assemble(text, "gfx942")
    with pytest.raises(aster.AsterError, match="f: the device function does not end with s_setpc_b64"):
        aster.raise_code_object(h)


def _lit_modules():
    root = Path(__file__).resolve().parents[1] / "lit"
    for path in sorted(root.rglob("*.mlir")):
        for i, chunk in enumerate(path.read_text().split("// -----")):
            if "amdgcn.kernel" in chunk:
                yield f"{path.relative_to(root)}#{i}", chunk


def test_roundtrip_lit_modules(summary):
    """Every lit test module aster can compile: its assembly, raised and
    compiled again, gives the same code object."""
    done = 0
    for where, chunk in _lit_modules():
        out = None
        for pipeline in (None, "amdgcn-regalloc"):
            try:
                out = aster.compile(aster.parse(chunk, where), pipeline)
                break
            except aster.AsterError:
                pass  # an error test, or needs allocation
        if out is None:
            continue
        # A module holding instructions as text (amdgcn.data, as raising
        # keeps what the table lacks) raises back only keeping them.
        keep = "keep" if "amdgcn.data {text" in chunk else "error"
        m = aster.raise_asm(out.asm, name=where, unknown=keep)
        diff = elf_facts.differences(out.hsaco, aster.compile(m).hsaco)
        assert not diff, f"{where}: raise_asm round trip changed the {', '.join(diff)}"
        done += 1
    assert done >= 10
    summary.append(f"raise_asm: {done} lit test modules round-trip exactly")


# ---- editing raised kernels ----------------------------------------------

def test_edit_raised_kernel_runs_on_the_emulator(hip_hsaco):
    """Raise clang's vadd, replace its add by a subtract and scale the result
    before the store: c = 2 * (a - b), run on the emulator."""
    import numpy as np
    from aster import v
    m = aster.raise_code_object(hip_hsaco(VADD, name="vadd"))
    k = m.kernels[0]
    assert [a.name for a in k.args] == ["a", "b", "c", "n"]
    add = next(op for op in k.ops if op.name == "v_add_f32")
    dst, (x, y) = add.results[0], add.operands
    assert (dst, x, y) == ("v2", "v6", "v7") and "pc 0x" in add.location
    with k.insert_before(add):
        k.v_sub_f32(v[2], v[6], v[7])
    add.erase()
    assert add.erased and all(op.name != "v_add_f32" for op in k.ops)
    store = next(op for op in k.ops if op.name == "global_store_dword")
    with k.insert_before(store):
        k.v_mul_f32(v[2], 2.0, v[2])
    with k.insert_after(store):
        k.s_nop(0)
    n = 256
    rng = np.random.default_rng(1)
    a, b = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
    c = np.zeros(n, np.float32)
    out = aster.compile(m)
    assert "v_sub_f32 v2, v6, v7\n\tv_mul_f32 v2, 2.0, v2\n\tglobal_store_dword" in out.asm
    aster.launch(out.hsaco, "vadd", grid=n // 64, block=64, args=[a, b, c, n])
    np.testing.assert_array_equal(c, 2 * (a - b))


def test_edit_errors(hip_hsaco):
    m = aster.raise_code_object(hip_hsaco(VADD, name="vadd"))
    k = m.kernels[0]
    end = k.ops[-1]
    assert end.name == "s_endpgm"
    with pytest.raises(aster.AsterError, match="without an end"):
        end.erase()
    with pytest.raises(aster.AsterError, match="nothing can be inserted after"):
        with k.insert_after(end):
            pass
    first = k.ops[0]
    with pytest.raises(aster.AsterError, match="cannot be inserted"):
        with k.insert_before(first):
            k.s_endpgm()
    first.erase()
    with pytest.raises(aster.AsterError, match="was erased"):
        first.erase()
    with pytest.raises(aster.AsterError, match="was erased"):
        first.operands


def _waits(lines):
    """For each non-s_nop instruction in order: (its text, wait states of the
    s_nops right before it)."""
    out, pending = [], 0
    for line in lines:
        if line.startswith(("s_branch", "s_cbranch")):
            line = line.split()[0]     # labels are named differently
        if line.startswith("s_nop"):
            pending += int(line.split()[1], 0) + 1
        else:
            out.append((line, pending))
            pending = 0
    return out


def _repadded(before, after, where):
    """Asserts the same instructions in order and at least LLVM's wait states
    before each one LLVM padded; returns how many such places there were."""
    assert [t for t, _ in before] == [t for t, _ in after], where
    checked = 0
    for (text, want), (_, got) in zip(before, after):
        if want:
            checked += 1
            assert got >= want, f"{where}: {text}: {got} < LLVM's {want}"
    return checked


HAZARD_SOURCES = [Path(HIP_INCLUDE) / "mfma.hip", Path(HIP_INCLUDE) / "waveops.hip",
                  Path(HIP_INCLUDE) / "misc.hip",
                  Path(__file__).with_name("raise_corpus") / "dpp_reduce.hip"]


def test_hazards_pass_on_raised_code(hip_hsaco, summary):
    """LLVM's s_nops of clang's MFMA and DPP kernels are erased from the
    raised IR; amdgcn-hazards must put back at least as many wait states
    before each instruction LLVM padded (LLVM is the oracle)."""
    checked = 0
    for arch, src in [(a, s) for a in ARCHS for s in HAZARD_SOURCES]:
        m = aster.raise_code_object(hip_hsaco(src, arch=arch), unknown="keep")
        for k in m.kernels:
            if any(op.name == "data" for op in k.ops):
                continue   # opaque instructions: the pass cannot see them
            before = _waits([op.asm.strip() for op in k.ops])
            for op in k.ops:
                if op.name == "s_nop":
                    op.erase()
            after_asm = aster.compile(m, pipeline="amdgcn-hazards").asm
            body = after_asm.split(f"\n{k.name}:\n", 1)[1].split(".Lfunc_end", 1)[0]
            lines = [x.strip() for x in body.splitlines()
                     if x.startswith("\t") and not x.strip().startswith(".")]
            checked += _repadded(before, _waits(lines), f"{k.name} ({arch})")
    assert checked >= 20
    summary.append(f"amdgcn-hazards on raised clang MFMA/DPP kernels: {checked} LLVM s_nop "
                   "runs re-padded at least as much")


def test_hazards_pass_on_raised_device_functions(hip_hsaco, summary):
    """Device functions too: clang's assembly of raise_corpus/device_hazards.hip
    (MFMA results and v_readfirstlane SGPRs read right after, in functions
    called with s_swappc_b64) without its s_nops, raised and padded by
    amdgcn-hazards, has at least LLVM's wait states before every instruction
    of every function; before each call and return every pending hazard is
    resolved (the pass does not look across them)."""
    src = Path(__file__).with_name("raise_corpus") / "device_hazards.hip"
    checked = 0
    for arch in ARCHS:
        text = hip_hsaco(src, arch=arch, flags=("-S",)).decode()
        m = aster.raise_asm("".join(x for x in text.splitlines(keepends=True)
                                    if not x.strip().startswith("s_nop")))
        out = aster.compile(m, pipeline="amdgcn-hazards").asm
        for name in ("_Z9tile_mfmaDv4_DF16_S_Dv4_f", "_Z8lane_sumf", "device_hazards"):
            def body(asm):
                b = re.split(r"\n\.L\w*end\d*:", asm.split(f"\n{name}:", 1)[1], maxsplit=1)[0]
                return [x.split(";")[0].strip() for x in b.splitlines()[1:]
                        if x.startswith("\t") and not x.strip().startswith(".")]
            checked += _repadded(_waits(body(text)), _waits(body(out)), f"{name} ({arch})")
    assert checked >= 4
    summary.append(f"amdgcn-hazards on raised device functions: {checked} LLVM s_nop runs "
                   "re-padded at least as much")


@pytest.mark.parametrize("consumer", [
    "v_add_f32_e32 v8, v0, v1", "v_accvgpr_read_b32 v8, a0",
    "v_mfma_f32_16x16x16_f16 v[8:11], v[0:1], v[2:3], v[8:11]",
    "v_mfma_f32_16x16x16_f16 v[0:3], v[4:5], v[6:7], v[0:3]",
    "global_store_dword v9, v0, s[0:1]", "v_mov_b32_e32 v0, 0"])
def test_hazards_resolved_before_a_return(consumer):
    """A device function returning right after an MFMA: the caller may read
    the result first thing, so amdgcn-hazards pads the s_setpc_b64 with at
    least what the same consumer right after the MFMA in one kernel needs."""
    mfma = "v_mfma_f32_16x16x16_f16 v[0:3], v[4:5], v[6:7], v[0:3]"
    mfma_a = "v_mfma_f32_16x16x16_f16 a[0:3], v[4:5], v[6:7], a[0:3]"
    first = mfma_a if "a0" in consumer else mfma
    func = ("\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx942\"\n\t.text\n\t.p2align 2\n"
            "\t.type f,@function\nf:\n" f"\t{first}\n\ts_setpc_b64 s[30:31]\n"
            ".Lfend:\n\t.size f, .Lfend-f\n")
    kernel = _kernel_asm(f"\t{first}\n\t{consumer}\n", "gfx942", vgprs=16, sgprs=8, agprs=4)
    text = func + kernel.split("\t.text\n", 1)[1]
    out = aster.compile(aster.raise_asm(text), pipeline="amdgcn-hazards").asm

    def nops_before(asm, label, end):
        """Wait states of the s_nops right before the instruction that
        precedes `end` in function `label` (or before `end` itself if
        `end` is 's_setpc_b64')."""
        lines = [x.strip() for x in asm.split(f"\n{label}:", 1)[1].splitlines()]
        lines = [x for x in lines if x and not x.startswith((".", ";"))]
        i = next(i for i, x in enumerate(lines) if x.startswith(end))
        i = i if end == "s_setpc_b64" else i - 1      # the consumer: right before s_endpgm
        n = 0
        for x in reversed(lines[:i]):
            if not x.startswith("s_nop"):
                break
            n += int(x.split()[1], 0) + 1
        return n
    need = nops_before(out, "k", "s_endpgm")
    assert need > 0 or consumer.startswith(("v_mov", "v_mfma_f32_16x16x16_f16 v[0:3]"))
    assert nops_before(out, "f", "s_setpc_b64") >= need


# Kernels that use what the emulator reports as not runnable on purpose (the
# tests that check the refusal): a geometry-shader message and s_sendmsghalt.
NOT_RUNNABLE = {("emu_rows", "sendmsg_gs"): "s_sendmsg sendmsg(MSG_GS",
                ("hazards_oracle", "sendmsg_m0"): "s_sendmsghalt"}


def test_every_corpus_kernel_is_fully_runnable(hip_hsaco, summary):
    """The emulator's fully-runnable share of the clang-22 corpus (every .hip
    file the tests build, gfx942 and gfx950): decoding reports nothing
    unsupported for any kernel except the listed refusals, which it must
    report (unsupported() never under-reports them)."""
    py = Path(__file__).parent
    sources = [*sorted(Path(HIP_INCLUDE).glob("*.hip")), *sorted((py / "raise_corpus").glob("*.hip")),
               *sorted((py / "hip950").glob("*.hip")), *sorted(py.glob("*.hip"))]
    objects = kernels = runnable = 0
    for src in sources:
        for arch in ("gfx942", "gfx950"):
            if arch == "gfx942" and ("950" in src.stem or src.parent.name == "hip950"):
                continue
            co = aster.runtime.load_code_object(hip_hsaco(src, arch=arch))
            objects += 1
            for k in co.kernels:
                name = k.name if hasattr(k, "name") else k
                u = co.unsupported(name)
                kernels += 1
                want = NOT_RUNNABLE.get((src.stem, name))
                if want:
                    assert u and want in u[0], (src.stem, arch, name, u)
                else:
                    assert u == [], (src.stem, arch, name, u)
                    runnable += 1
    assert objects >= 60 and kernels >= 170
    summary.append(f"emulator, clang-22 corpus: {objects} code objects, {kernels} kernels, "
                   f"{runnable} fully runnable, {kernels - runnable} refused as listed")


# ---- bad input ---------------------------------------------------------------

def test_truncated_code_objects_raise_errors(hip_hsaco):
    h = hip_hsaco(VADD, name="vadd")
    for n in list(range(0, 200, 7)) + list(range(200, len(h), max(1, len(h) // 150))):
        with pytest.raises(aster.AsterError):
            aster.raise_code_object(h[:n])


def test_corrupt_metadata_note(hip_hsaco):
    """A damaged msgpack note (LLVM's own llvm-readelf crashes on this one)
    is an error, not a crash."""
    h = bytearray(hip_hsaco(VADD, name="vadd"))
    secs = elf_facts.sections(bytes(h))
    _, off, size = secs[".note"]
    hits = 0
    for i in range(off + 24, off + size, 5):
        b = bytearray(h)
        b[i] = 0x82 if b[i] != 0x82 else 0x08   # a map header where a value was
        try:
            aster.compile(aster.raise_code_object(bytes(b)))
        except aster.AsterError:
            hits += 1
    assert hits > 0


@pytest.mark.parametrize("text,match", [
    ("\t.text\nk:\n\ts_endpgm\n", "no target"),
    ("\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx900\"\n\t.text\nk:\n\ts_endpgm\n",
     "unknown target"),
    ("\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx942\"\n\t.text\n\ts_endpgm\n",
     r"<asm>:3: instruction outside a kernel"),
    ("\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx942\"\n\t.text\nk:\n\tv_add_u32 v0, v1\n"
     "\ts_endpgm\n", r"<asm>:4: too few operands for instruction"),  # llvm-mc-22's words
    ("\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx942\"\n\t.text\nk:\n\ts_branch .Lnowhere\n",
     "label '.Lnowhere' which is not in this kernel"),
    ("\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx942\"\n\t.text\nk:\n\tv_mov_b32 v0, 1\n",
     "does not end with s_endpgm"),
    ("\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx942\"\n\t.text\nk:\n\ts_endpgm\n"
     "\t.rodata\n\t.amdhsa_kernel k\n\t\t.amdhsa_next_free_vgpr x\n", "<asm>:8: expected .amdhsa_ directive"),
    ("\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx942\"\n\t.text\nk:\n\ts_endpgm\n"
     "\t.amdgpu_metadata\n---\namdhsa.kernels:\n  - .name: k\n", "no .end_amdgpu_metadata"),
    ("\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx942\"\n\t.text\nk:\n\ts_endpgm\n"
     "\t.amdgpu_metadata\n---\namdhsa.kernels:\n  - .name: k\n    .args:\n      - .size: 4\n"
     "...\n\t.end_amdgpu_metadata\n", "argument 0 has no valid .offset"),
])
def test_malformed_asm(text, match):
    with pytest.raises(aster.AsterError, match=match):
        aster.raise_asm(text)


def test_code_object_without_metadata(hip_hsaco):
    """Assembled without .amdgpu_metadata: kernel arguments are unknown."""
    text = ("\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx942\"\n\t.text\n\t.globl k\n\t.p2align 8\n"
            "\t.type k,@function\nk:\n\ts_endpgm\n.Lend:\n\t.size k, .Lend-k\n\t.rodata\n"
            "\t.p2align 6\n\t.amdhsa_kernel k\n\t\t.amdhsa_next_free_vgpr 1\n"
            "\t\t.amdhsa_next_free_sgpr 1\n\t\t.amdhsa_accum_offset 4\n\t.end_amdhsa_kernel\n")
    h = aster.assemble(text, "gfx942")
    with pytest.raises(aster.AsterError, match="no AMDGPU metadata note"):
        aster.raise_code_object(h)
    with pytest.raises(aster.AsterError, match="not an ELF"):
        aster.raise_code_object(b"hello world" * 20)
    with pytest.raises(TypeError):
        aster.raise_code_object("not bytes")


def test_damaged_symbol_table_is_an_error_at_once(hip_hsaco):
    """A .symtab claiming billions of entries: an error, not a long walk."""
    import struct
    h = bytearray(hip_hsaco(VADD, name="vadd"))
    shoff, = struct.unpack_from("<Q", h, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", h, 0x3a)
    for i in range(shnum):
        base = shoff + i * shentsize
        if struct.unpack_from("<I", h, base + 4)[0] == 2:      # SHT_SYMTAB
            struct.pack_into("<Q", h, base + 0x20, 24 * 2**31)  # sh_size
    with pytest.raises(aster.AsterError, match="damaged|symbol"):
        aster.raise_code_object(bytes(h))


def _kernel_asm(lines, target, vgprs, sgprs, agprs):
    """An assembler file with one kernel `k` whose code is `lines` then
    s_endpgm (no arguments)."""
    return (f"\t.amdgcn_target \"amdgcn-amd-amdhsa--{target}\"\n\t.text\n\t.globl k\n"
            "\t.p2align 8\n\t.type k,@function\nk:\n" + lines + "\ts_endpgm\n.Lend:\n"
            "\t.size k, .Lend-k\n"
            f"\t.rodata\n\t.p2align 6\n\t.amdhsa_kernel k\n\t\t.amdhsa_next_free_vgpr {vgprs}\n"
            f"\t\t.amdhsa_next_free_sgpr {sgprs}\n\t\t.amdhsa_accum_offset {max(4, vgprs - agprs)}\n"
            "\t.end_amdhsa_kernel\n"
            "\t.amdgpu_metadata\n---\namdhsa.kernels:\n  - .name: k\n    .symbol: k.kd\n"
            "    .kernarg_segment_size: 0\n    .kernarg_segment_align: 8\n"
            "    .group_segment_fixed_size: 0\n    .private_segment_fixed_size: 0\n"
            f"    .wavefront_size: 64\n    .sgpr_count: {sgprs}\n    .vgpr_count: {vgprs}\n"
            f"    .max_flat_workgroup_size: 64\namdhsa.target: amdgcn-amd-amdhsa--{target}\n"
            "amdhsa.version:\n  - 1\n  - 2\n...\n\t.end_amdgpu_metadata\n")


def _moved(line, dv, ds, literal):
    """An example line with its VGPR/AGPR numbers moved by dv, SGPR numbers by
    ds (multiples of the alignments) and 32-bit hex literals replaced."""
    line = re.sub(r"\b([va])(\d+)\b", lambda m: f"{m[1]}{int(m[2]) + dv}", line)
    line = re.sub(r"\b([va])\[(\d+):(\d+)\]",
                  lambda m: f"{m[1]}[{int(m[2]) + dv}:{int(m[3]) + dv}]", line)
    line = re.sub(r"\bs(\d+)\b", lambda m: f"s{int(m[1]) + ds}", line)
    line = re.sub(r"\bs\[(\d+):(\d+)\]", lambda m: f"s[{int(m[1]) + ds}:{int(m[2]) + ds}]",
                  line)
    return re.sub(r"\b0x[0-9a-fA-F]{5,8}\b", literal, line)


@pytest.mark.parametrize("target", ["gfx942", "gfx950"])
def test_every_table_example_in_one_kernel_round_trips(target, summary):
    """Every example line of every table instruction (no branches), three
    times with other registers and literals, in one kernel assembled by LLVM:
    raised from the code object and compiled back, the code bytes are LLVM's.
    Raising compares an op's print with the source text once per shape (the
    row and the text with register numbers, hex literals and integers
    masked); this kernel has each shape with many values."""
    base = [inst.example_asm(v) for inst in aster.isa.instructions(target)
            for v in range(inst.num_variants)]
    base = [ln for ln in base if not re.search(r"\b(label|target)\b", ln)]
    body = base + [_moved(ln, 8, 16, "0x12345678") for ln in base] + \
        [_moved(ln, 32, 32, "0xabcdef01") for ln in base]
    h = aster.assemble(_kernel_asm("".join(f"\t{ln}\n" for ln in body), target,
                                   vgprs=256, sgprs=96, agprs=0), target)
    m = aster.raise_code_object(h)
    assert elf_facts.text_bytes(aster.compile(m).hsaco) == elf_facts.text_bytes(h)
    summary.append(f"raising, every table example x3 in one {target} kernel: "
                   f"{len(body)} instructions, same code bytes")


def test_every_swizzle_offset_round_trips():
    """ds_swizzle_b32 with each of the 65536 offsets, assembled by LLVM: the
    raiser reads LLVM's printed pattern (QUAD_PERM, BITMASK_PERM, SWAP,
    REVERSE, BROADCAST, ROTATE, FFT) and prints it back as LLVM does (the
    raiser checks that), and the code bytes come back the same. LLVM's own
    text loses some BITMASK_PERM encodings (two masks computing the same
    lanes print alike, and LLVM assembles its print to another offset): the
    raiser takes those offsets from the code bytes and writes them as
    numbers."""
    lines = "".join(f"\tds_swizzle_b32 v1, v0 offset:{n}\n" for n in range(65536))
    text = _kernel_asm(lines, "gfx942", vgprs=2, sgprs=8, agprs=0)
    h = aster.assemble(text, "gfx942")
    m = aster.raise_code_object(h)
    out = aster.compile(m).hsaco
    assert elf_facts.text_bytes(out) == elf_facts.text_bytes(h)
    # LLVM's text round trip: print each offset, assemble the print again.
    mc = ["llvm-mc-22", "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx942", "-show-encoding"]
    first = subprocess.run(mc, input=lines, capture_output=True, text=True, check=True).stdout
    printed = [ln.split(";")[0].strip() for ln in first.splitlines() if "ds_swizzle" in ln]
    again = subprocess.run(mc, input="".join(f"\t{p}\n" for p in printed),
                           capture_output=True, text=True, check=True).stdout
    enc = lambda out: [ln.split("encoding:")[1] for ln in out.splitlines() if "encoding:" in ln]
    lossy = sum(a != b for a, b in zip(enc(first), enc(again)))
    assert len(printed) == 65536 and lossy > 0


def test_raised_metadata_is_aster_analysis(corpus):
    """compile(raised).metadata: the interface (arguments, kernarg size, LDS,
    scratch, user SGPRs) as the code object states it (checked against the
    emulator's loader, which reads LLVM's ELF and msgpack), the register
    counts from aster's own analysis of the raised code: never more than
    clang allocated."""
    from aster.runtime import load_code_object
    checked = 0
    for name, arch, h, _ in corpus:
        if name in NOT_RAISED:
            continue
        md = aster.compile(aster.raise_code_object(h, unknown="keep")).metadata
        for k in load_code_object(h).kernels:
            x = md[k.name]
            assert [(a.name, a.offset, a.size) for a in x.args] == \
                [(a.name, a.offset, a.size) for a in k.args if not a.hidden], (name, k.name)
            assert (x.kernarg_size, x.lds, x.private_segment, x.user_sgprs, x.wavefront_size) \
                == (k.kernarg_size, k.group_segment_size, k.private_segment_size,
                    k.user_sgpr_count, k.wavefront_size), (name, k.name)
            assert 0 < x.vgpr_count <= k.vgpr_count and x.agpr_count <= k.agpr_count
            assert x.accum_offset <= k.accum_offset and x.sgpr_count <= k.sgpr_count
            checked += 1
    assert checked > 40


def test_raised_metadata_counts_registers_the_code_uses():
    """A hand-written descriptor that under-declares: the code uses a[0:3]
    and v17, the descriptor claims 16 VGPRs and no AGPRs; aster's counts are
    what the code uses."""
    text = ("\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx942\"\n\t.text\n\t.globl k\n"
            "\t.p2align 8\n\t.type k,@function\nk:\n\tv_add_f32_e32 v17, v2, v3\n"
            "\tv_accvgpr_write_b32 a3, v1\n\ts_endpgm\n.Lend:\n\t.size k, .Lend-k\n"
            "\t.rodata\n\t.p2align 6\n\t.amdhsa_kernel k\n\t\t.amdhsa_next_free_vgpr 16\n"
            "\t\t.amdhsa_next_free_sgpr 8\n\t\t.amdhsa_accum_offset 16\n\t.end_amdhsa_kernel\n"
            "\t.amdgpu_metadata\n---\namdhsa.kernels:\n  - .name: k\n    .symbol: k.kd\n"
            "    .kernarg_segment_size: 0\n    .kernarg_segment_align: 8\n"
            "    .group_segment_fixed_size: 0\n    .private_segment_fixed_size: 0\n"
            "    .wavefront_size: 64\n    .sgpr_count: 8\n    .vgpr_count: 16\n"
            "    .max_flat_workgroup_size: 64\namdhsa.target: amdgcn-amd-amdhsa--gfx942\n"
            "amdhsa.version:\n  - 1\n  - 2\n...\n\t.end_amdgpu_metadata\n")
    md = aster.compile(aster.raise_asm(text)).metadata["k"]
    assert (md.next_free_vgpr, md.agpr_count, md.accum_offset) == (24, 4, 20)
