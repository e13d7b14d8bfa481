"""The examples run (as `python examples/NAME.py`) and print what they claim;
generate_add_10's IR, through aster-translate, gives add_10's assembly."""
import os
import re
import shutil
import subprocess
import sys

import pytest

import aster

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLES = os.path.join(ROOT, "examples")
PKG_PARENT = os.path.dirname(os.path.dirname(os.path.abspath(aster.__file__)))


def run(name, *args):
    env = dict(os.environ, PYTHONPATH=PKG_PARENT)
    p = subprocess.run([sys.executable, os.path.join(EXAMPLES, name), *args],
                       capture_output=True, text=True, env=env, timeout=120)
    assert p.returncode == 0, p.stderr
    return p.stdout


def body(asm, name):
    text = asm.split(f"\n{name}:\n", 1)[1].split(".Lfunc_end", 1)[0]
    return [ln.strip() for ln in text.strip().split("\n")]


def translate_tool():
    """aster-translate from PATH, or the build tree the package comes from."""
    found = shutil.which("aster-translate")
    if found:
        return found
    build = os.path.dirname(PKG_PARENT)
    for cand in (os.path.join(build, "cc", "tools", "aster-translate"),
                 os.path.join(ROOT, "build", "cc", "tools", "aster-translate")):
        if os.access(cand, os.X_OK):
            return cand
    return None


def test_add_10():
    out = run("add_10.py")
    assert body(out, "add_10") == ["v_add_u32 v1, v0, v1"] * 10 + ["s_endpgm"]
    assert ".amdhsa_next_free_vgpr 2" in out


def test_mfma_10_keeps_all_ten():
    out = run("mfma_10.py")
    assert body(out, "mfma_10") == [
        f"v_mfma_f32_16x16x16_f16 a[{4 * i}:{4 * i + 3}], v[0:1], v[2:3], a[{4 * i}:{4 * i + 3}]"
        for i in range(10)] + ["s_endpgm"]
    assert ".agpr_count: 40" in out


def test_schedule_demo():
    out = run("schedule_demo.py", "--run")
    m = re.search(r"simulated cycles: (\d+) -> (\d+) \(([\d.]+)x\); equivalent in 3", out)
    assert m and int(m.group(2)) * 1.4 < int(m.group(1)), out
    assert "vmcnt(14)" in out.split("with amdgcn-schedule")[1]


def test_vector_add(tmp_path):
    out = run("vector_add.py", "--save", str(tmp_path))
    lines = body(out, "vector_add")
    assert lines[:4] == [f"s_load_dwordx2 s[{4 + 2 * i}:{5 + 2 * i}], s[0:1], {8 * i:#x}"
                         for i in range(3)] + ["s_load_dword s10, s[0:1], 0x18"]
    for want in ("s_mul_i32 s11, s2, 64", "v_add_u32 v1, s11, v0", "v_cmp_gt_u32 vcc, s10, v1",
                 "s_and_saveexec_b64 s[12:13], vcc", "s_waitcnt vmcnt(0)"):
        assert want in lines
    assert lines[-2:] == ["global_store_dword v1, v2, s[8:9]", "s_endpgm"]
    assert lines.index("s_waitcnt lgkmcnt(0)") < lines.index("v_cmp_gt_u32 vcc, s10, v1")
    hsaco = (tmp_path / "vector_add.hsaco").read_bytes()
    assert hsaco[:4] == b"\x7fELF"
    assert aster.disassemble(hsaco, "gfx942")[-1] == "s_endpgm"
    assert "kernargs: a@0, b@8, c@16, n@24" in out


def test_generate_add_10_translates_to_the_same_asm(tmp_path):
    ir = run("generate_add_10.py")
    assert ir.count("amdgcn.v_add_u32") == 10
    expected = run("add_10.py")
    assert aster.parse(ir).asm() == expected
    tool = translate_tool()
    assert tool, "aster-translate is neither on PATH nor in the build tree of this aster"
    path = tmp_path / "add_10.mlir"
    path.write_text(ir)
    p = subprocess.run([tool, "--mlir-to-asm", str(path)], capture_output=True, text=True,
                       timeout=60)
    assert p.returncode == 0, p.stderr
    assert p.stdout == expected


def test_generate_add_10_with_locations_points_at_add_10():
    ir = run("generate_add_10.py", "--locations")
    assert re.search(r'loc\("[^"]*examples/add_10\.py":\d+:0\)', ir)


def test_examples_run_without_pythonpath():
    """Installed, or from a checkout with a build tree (examples/_path.py)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    p = subprocess.run([sys.executable, os.path.join(EXAMPLES, "mfma_10.py")],
                       capture_output=True, text=True, env=env, timeout=120, cwd="/")
    assert p.returncode == 0, p.stderr
    assert "v_mfma_f32_16x16x16_f16 a[36:39]" in p.stdout


@pytest.mark.parametrize("name,claim", [
    ("add_10.py", "out == 10 * id matches NumPy"),
    ("mfma_10.py", "10 MFMA, "),
    ("vector_add.py", "c == a + b matches NumPy"),
])
def test_examples_run_on_the_emulator(name, claim):
    """`--run` launches a storing variant on the emulator and checks it
    against NumPy (the example exits non-zero on a mismatch); the printed
    assembly is unchanged."""
    out = run(name, "--run")
    asm, ran = out.rsplit("# ran on the emulator: ", 1)
    assert claim in ran
    assert "matches NumPy" in ran
    assert out.startswith(run(name))


def test_regalloc_demo():
    out = run("regalloc_demo.py", "--run")
    before, after = out.split("# assembly after amdgcn-regalloc", 1)
    assert "!amdgcn.vgpr<?>" in before                    # written with virtual registers
    assert "<?" not in after
    m = re.search(r"# VGPRs used: (\d+), MaxLive: (\d+); SGPRs used: (\d+), MaxLive: (\d+)", after)
    used, live = int(m.group(1)), int(m.group(2))
    # x, the offset, the sum and two temporaries: 5 live at once, and exactly 5 used
    assert used == live == 5
    named = set(int(r) for r in re.findall(r"\bv(\d+)\b", after.split("# VGPRs used")[0]))
    assert named == set(range(used))
    assert "# ran on the emulator: out == NumPy reference for 64 lanes" in out


def test_waitcnt_demo():
    """Written without waits; the pass puts each right before the first
    reader, as far as needed, and the strict emulator run matches NumPy."""
    out = run("waitcnt_demo.py", "--run")
    lines = [ln.strip() for ln in out.split("(kernel body):", 1)[1].split("# waits", 1)[0]
             .strip().split("\n")]
    waits = [ln for ln in lines if ln.startswith("s_waitcnt")]
    assert waits == ["s_waitcnt lgkmcnt(0)", "s_waitcnt vmcnt(3)", "s_waitcnt lgkmcnt(0)",
                     "s_waitcnt vmcnt(2)", "s_waitcnt vmcnt(1)", "s_waitcnt vmcnt(0)"]
    # each wait is right before the instruction reading what it waits for
    assert lines[lines.index("s_waitcnt vmcnt(3)") + 1].startswith("ds_write_b32")
    assert "# waits inserted: 6 (vmcnt in 4, lgkmcnt in 2); written by hand: 0" in out
    assert "# ran on the strict emulator: out == NumPy reference for 64 lanes" in out


def test_gemm(tmp_path, monkeypatch):
    """examples/gemm.py: each product equals NumPy, through the default
    library (pre-built small into a private cache, which the example loads)."""
    import aster.ops as L
    from aster.generators.gemm import GemmConfig
    monkeypatch.setenv("ASTER_CACHE_DIR", str(tmp_path))
    L.build_library(L.cache_dir(), [GemmConfig(dtype=d, trans_b=tb, tile_m=64, tile_n=64,
                                               tile_k=64, mfma=16)
                                    for d in ("f16", "bf16") for tb in (False, True)],
                    ref_shapes=(), calib=False)
    out = run("gemm.py")
    assert out.count("equal to NumPy") == 4, out
    assert "97x131x113 bf16 trans_b: gemm_bf16_64x64x64" in out


def test_nanokernels_gemm_tile_runs_and_matches_numpy():
    out = run("nanokernels_gemm_tile.py", "--run")
    lines = body(out, "tile_gemm")
    # The library pieces, inlined: 2 tile copies (4 steps each), 8 k-steps of
    # two fragment loads and one MFMA, the DPP wave sum.
    assert sum(ln.startswith("v_mfma_f32_32x32x8_f16 ") for ln in lines) == 8
    assert sum(ln.startswith("ds_read_b64 ") for ln in lines) == 16
    assert sum(ln.startswith("ds_write_b128 ") for ln in lines) == 8
    assert sum(ln.startswith("v_add_f32_dpp ") for ln in lines) == 4
    assert "D matches NumPy" in out and "wave sum" in out
