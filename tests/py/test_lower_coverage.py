"""The coverage audit of aster.lower (python/aster/lowering/coverage/):
every op upstream MLIR 22 registers for the dialects of issue 26 item 2
(taken from the linked libraries, _aster.upstream_ops) has probes or a
reason to be out of scope; a fixed sample of probes lowers, runs on the
emulator in strict mode and equals LLVM's build of the same text (or NumPy
where LLVM cannot build it), and an op that does not lower is an error
naming it at its line. The whole audit (about 1400 probes, each built by
aster and LLVM) runs under `make test-long`; docs/lowering.md "Coverage"
is its table."""
import os
import re

import pytest

import aster
from aster.lowering import coverage as C
from sweep import LONG

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_upstream_ops_come_from_the_libraries():
    ops = C.upstream_ops()
    assert len(ops) > 250
    for op in ("vector.contract", "gpu.subgroup_reduce", "amdgpu.mfma", "scf.forall", "cf.switch"):
        assert op in ops
    assert all(o.split(".")[0] in C.DIALECTS for o in ops)


def test_every_upstream_op_is_probed_or_out_of_scope():
    assert C.unlisted() == []
    assert not set(C.OUT_OF_SCOPE) - set(C.upstream_ops()), "a reason for an op upstream lacks"


# (op, variant) -> the outcomes allowed (the audit's status names).
SAMPLE = {
    ("arith.addi", "i16"): {"ok"},
    ("arith.divsi", "vector<4xi32>"): {"ok"},
    ("arith.cmpf", "ult f16"): {"ok"},
    ("math.exp", "f32"): {"ok"},
    ("gpu.shuffle", "down f64 width 16"): {"ok"},
    ("gpu.subgroup_reduce", "maxsi i8 cluster(size = 8, stride = 2)"): {"ok-nollvm"},
    ("gpu.global_id", "y"): {"ok"},
    ("scf.index_switch", "divergent"): {"ok"},
    ("memref.rank", ""): {"ok"},
    ("vector.contract", "matmul 2x2x2 f32 into f32"): {"ok"},
    ("vector.gather", "masked"): {"ok"},
    ("vector.transfer_read", "transposed 2-D (permutation map)"): {"ok"},
    ("amdgpu.mfma", "v_mfma_f32_16x16x16_f16"): {"ok"},
    ("amdgpu.raw_buffer_atomic_smax", "i32"): {"ok"},
    ("amdgpu.mfma", "v_mfma_f32_32x32x1_2b_f32"): {"ok"},
    ("amdgpu.dpp", "row_shl 1 f32"): {"ok"},
    ("gpu.rotate", "i32"): {"ok-nollvm"},
    ("memref.copy", "contiguous subview"): {"ok"},
    # index is 32 bits in both builds (aster.lowering.llvm.index_bits)
    ("arith.divui", "index"): {"ok"},
    ("arith.index_castui", "index to i64"): {"ok"},
    # NumPy only: LLVM's build reports lanes below the offset valid
    ("gpu.shuffle", "up i32 width 16"): {"ok-nollvm"},
    # NumPy and LLVM (ArithOps.td's definition in coverage/refs.py)
    ("arith.floordivsi", "i16"): {"ok"},
}


@pytest.mark.parametrize("key", sorted(SAMPLE), ids=lambda k: f"{k[0]}[{k[1]}]")
def test_sample_probe(key):
    p = next(p for p in C.probes() if (p.op, p.variant) == key)
    status, detail = C.run_probe(p)
    assert status in SAMPLE[key], detail


@pytest.mark.parametrize("op", ["gpu.cluster_id", "amdgpu.raw_buffer_atomic_fmax"])
def test_gaps_are_located_errors(op):
    """Ops that do not lower yet (docs/lowering.md, "Coverage"): an
    AsterError naming the op at its line, nothing else."""
    p = next(p for p in C.probes() if p.op == op)
    status, detail = C.run_probe(p, llvm=False)
    assert status == "error", detail
    with pytest.raises(aster.AsterError, match=r"<string>:\d+:\d+: error: '" + re.escape(op) + "' op"):
        aster.lower(p.mlir)


def test_docs_table_names_every_op():
    with open(os.path.join(ROOT, "docs", "lowering.md")) as f:
        doc = f.read()
    table = doc.split("## Coverage", 1)[1]
    for op in C.upstream_ops():
        assert f"| `{op}` |" in table, op


# Probes that lower and run but have no oracle here (neither LLVM's build,
# which cannot be built or run for them, nor a NumPy reference yet): listed,
# so that a new one fails the audit. (op, variant) -> why.
NO_ORACLE = {}

OPEN_BUGS = {}  # (op, variant): why, for probes that differ and are not fixed yet


@pytest.mark.skipif(not LONG, reason="every probe: make test-long (ASTER_TEST_LONG=1; "
                    "about 1400 probes, each built by aster and LLVM: minutes)")
def test_whole_audit():
    """Every probe, each in a child process (os.cpu_count() at a time; LLVM's
    builds cached under ~/.cache/aster/llvm-oracle): no crash or hang, no
    unlocated error, no probe upstream rejects, none that differs from LLVM's
    build or NumPy (but OPEN_BUGS), none without an oracle (but NO_ORACLE).
    Located errors (gaps of the lowering, docs/lowering.md "Coverage") are
    expected and printed."""
    res = C.audit()
    by = {}
    for p, st, det in res:
        by.setdefault("ok" if st.startswith("ok") else st, []).append((p.op, p.variant, det))
    print("coverage audit:", {k: len(v) for k, v in sorted(by.items())})
    bad = by.get("crash", []) + by.get("bad-error", []) + by.get("bad-probe", [])
    assert not bad, bad[:20]
    differs = [d for d in by.get("differs", []) if d[:2] not in OPEN_BUGS]
    assert not differs, differs[:20]
    unchecked = [d for d in by.get("lowers", []) if d[:2] not in NO_ORACLE]
    assert not unchecked, unchecked[:40]
