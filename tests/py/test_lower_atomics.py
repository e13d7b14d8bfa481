"""amdgcn-lower's atomics of 64 and 16 bits (lower_suite_atomics.py: i64 /
f64 in global and workgroup memory, f16 / bf16 / i16 on shared dwords, a
generic_atomic_rmw; many lanes on one address) against two oracles we did
not write: NumPy, and LLVM's build of the same kernel (MemRefToLLVM's
atomicrmw / cmpxchg, LLVM's AtomicExpand), both on the emulator in strict
mode; the final memory must also be the same bytes in both builds (the
values are chosen so that it does not depend on the order of the lanes)."""
import numpy as np
import pytest

import aster
import lower_suite as S
import lower_suite_atomics as A
from lower_testing import asm, check_aster_and_llvm, same_bytes


@pytest.mark.parametrize("case", A.CASES, ids=lambda c: c.name)
def test_aster_and_llvm_match_numpy(case):
    check_aster_and_llvm(case, same_bytes)


def test_wide_atomics_use_the_64_bit_instructions():
    """i64 kinds with a gfx942 instruction are one _x2 atomic (returning
    only where the old value is used), f64 add is global_atomic_add_f64 /
    ds_add_f64 (CDNA3 ISA sections 9 and 12 list them), f64 maxnumf and the
    generic_atomic_rmw are compare-and-swap loops on the pair."""
    g = asm(A.CASES, "atomic_i64_f64_global")
    for mn in ("global_atomic_add_x2", "global_atomic_smax_x2", "global_atomic_umin_x2",
               "global_atomic_xor_x2", "global_atomic_add_f64", "global_atomic_cmpswap_x2"):
        assert mn in g, mn
    assert g.count(" sc0") == 2  # the CAS loop's swap and the used add
    lds = asm(A.CASES, "atomic_i64_f64_lds")
    for mn in ("ds_add_u64", "ds_max_i64", "ds_add_f64", "ds_cmpst_rtn_b64"):
        assert mn in lds, mn


def test_half_atomics_swap_the_containing_dword():
    """16-bit elements: a 32-bit compare-and-swap on the dword at addr & ~3,
    the element put back with v_bfi_b32 (AtomicExpand's partword form)."""
    text = asm(A.CASES, "atomic_f16_bf16_i16")
    assert text.count("global_atomic_cmpswap ") == 4 and "ds_cmpst_rtn_b32" in text
    assert "v_bfi_b32" in text and "global_atomic_pk_add" not in text


def test_returned_old_value_and_neighbours_untouched():
    """A 16-bit atomic changes only its half: the other half of the dword
    (written by no lane) keeps its bits, NaN payload included."""
    text = S.module("""
    gpu.func @k(%h: memref<4xf16>, %old: memref<64xf16>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %i = gpu.thread_id x
      %c1 = arith.constant 1 : index
      %one = arith.constant 1.0 : f16
      %o = memref.atomic_rmw addf %one, %h[%c1] : (f16, memref<4xf16>) -> f16
      memref.store %o, %old[%i] : memref<64xf16>
      gpu.return
    }""")
    code = aster.compile(aster.lower(text)["kernels"], aster.lowering.PIPELINE)
    h = np.array([0x7e01, 0, 0xfc00, 0x1234], np.uint16).view(np.float16)
    old = np.zeros(64, np.float16)
    aster.launch(code, "k", grid=1, block=64, args=[h, old])
    assert h.view(np.uint16).tolist() == [0x7e01, 0x5400, 0xfc00, 0x1234]  # 64.0 at [1]
    assert sorted(old.astype(np.float64).tolist()) == list(range(64))
