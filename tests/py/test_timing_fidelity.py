"""The timing model against a kernel time measured on a real GPU: AMD's asm
stage-1 fused-MoE kernel fmoe_stage1_bf16_pertokenFp8_g1u1_32x64_4tg_pf3,
timed by aiter's tuner on an 80-CU gfx942 (aiter/configs/tuned_fmoe.csv,
row cu_num=80, token=4, model_dim=2304, inter_dim=1536, expert=8, topk=2:
us1 = 17.6606 us), launched as aiter's interface launches it
(aster.aiter.fmoe) on the MI308X profile. The full table of such rows is
bench/bench_fidelity.py (make bench-fidelity); this is its fixed sample."""
import pytest

from aster.aiter import fmoe

MEASURED_US = 17.6606      # tuned_fmoe.csv us1 (AMD's measurement)


def test_fmoe_stage1_time_near_amds_measurement():
    st = fmoe.launch_stage1("_ZN5aiter47fmoe_stage1_bf16_pertokenFp8_g1u1_32x64_4tg_pf3E",
                            4, 2304, 1536, 8, 2, device="mi308x")
    t = st.timing
    assert t.device == "mi308x"
    # The grid follows asm_moe_2stage.cu: inter_dim / 64 x max_num_m_blocks
    # ((4*2 + 8*32 - 2) / 32 = 9) workgroups of 256 work-items.
    assert st.workgroups == 1536 // 64 * 9
    assert t.microseconds == pytest.approx(MEASURED_US, rel=0.35)


def test_moe_sorting_layout():
    """aiter's moe_sorting sizes and CK's id format: token | slot << 24,
    padding M | topk << 24, one expert per block of block_m ids."""
    import numpy as np
    ids = np.array([[0, 1], [1, 2], [0, 2]], np.int32)     # 3 tokens, topk 2, 3 experts
    sorted_ids, _, experts, valid = fmoe.moe_sorting(ids, 3, 4)
    assert len(sorted_ids) == 6 + 3 * 4 - 2 and len(experts) == -(-16 // 4)
    assert valid.tolist() == [12, 3]
    pad = 3 | 2 << 24
    assert sorted_ids[:4].tolist() == [0, 2, pad, pad]           # expert 0: t0 s0, t2 s0
    assert sorted_ids[4:8].tolist() == [1 << 24, 1, pad, pad]     # expert 1: t0 s1, t1 s0
    assert experts[:3].tolist() == [0, 1, 2]


def test_bench_only_selects_named_rows():
    """bench_fidelity.py --only picks rows by 'family device kernel shape':
    the nine rows session 17 re-ran on the grouped default model (the doc's
    error table), each launch once, and nothing else; a bad pattern is an
    argparse error, not a traceback."""
    import re
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    import bench_fidelity as b
    argv = ["--family", "fmoe_stage1", "--family", "gemm_a8w8_m128", "--max-cost", "2.2e6",
            "--rows", "20",
            "--only", "mi355x .*32x256_2tg_pf3 (16|64) 7168",
            "--only", "mi308x .* (16 7168 512|32 7168 256) 256 8",
            "--only", "2048x8192x1024"]
    args = b.parser().parse_args(argv)
    rows = b.select(args, [re.compile(p) for p in args.only])
    got = sorted(b.line(r) for r in rows)
    pre = "fmoe_stage1_bf16_pertokenFp8_"
    assert got == sorted([
        f"fmoe_stage1 mi355x {pre}g1u1_32x256_2tg_pf3 16 7168 512 256 8",
        f"fmoe_stage1 mi355x {pre}doweight_g1u1_32x256_2tg_pf3 16 7168 512 256 8",
        f"fmoe_stage1 mi355x {pre}g1u1_32x256_2tg_pf3 64 7168 256 256 8",
        f"fmoe_stage1 mi355x {pre}doweight_g1u1_32x256_2tg_pf3 64 7168 256 256 8",
        f"fmoe_stage1 mi308x {pre}g1u1_32x128_3tg_pf3 16 7168 512 256 8",
        f"fmoe_stage1 mi308x {pre}doweight_g1u1_32x64_4tg_pf3 16 7168 512 256 8",
        f"fmoe_stage1 mi308x {pre}g1u1_32x64_4tg_pf3 32 7168 256 256 8",
        f"fmoe_stage1 mi308x {pre}doweight_g1u1_32x64_4tg_pf3 32 7168 256 256 8",
        "gemm_a8w8_m128 mi308x gemm_kernel_func (a8w8 m128 noSplitK) "
        "2048x8192x1024 splitK 0"])
    with pytest.raises(SystemExit):
        b.main(["--only", "("])
