"""amdgcn-lower's memref / vector constructs of issue 26 item 2 closed in
lower_suite_mem_more.py (masked and out-of-bounds transfers of narrow and
wide elements, odd vector sizes, vector.type_cast), each against NumPy and
against LLVM's build of the same kernel (mlir-opt-22 + llc-22), both run on
the emulator in strict mode; the instructions checked against what llc-22
-mcpu=gfx942 selects for the same access."""
import re

import lower_suite_mem_more as M
from lower_testing import asm, numpy_tests

test_aster_lowering_matches_numpy, test_llvm_build_matches_numpy = numpy_tests(M.CASES)


def test_odd_vectors_split_as_llc_splits_them():
    """llc-22 -mcpu=gfx942 loads <3 x i8> at align 1 as global_load_ushort +
    global_load_ubyte offset:2, <3 x half> as dword + ushort, <5 x i8> as
    dword + ubyte; LDS ds_read_u16 + ds_read_u8 (tests/lit/lower/
    vector-masked-narrow.mlir has llc's output). So does aster."""
    a = asm(M.CASES, "vector_odd_sizes")
    for mn in ("global_load_ushort", "global_load_ubyte", "global_store_byte_d16_hi",
               "ds_read_u16", "ds_read_u8", "ds_write_b8_d16_hi", "global_load_dword "):
        assert mn in a, mn
    assert not re.search(r"global_load_dwordx", a)


def test_masked_narrow_transfers_use_the_elements_own_loads():
    """Per element: ushort for f16/bf16, ubyte for i8, dwordx2 for f64 (the
    loads llc-22 selects for the scalarized llvm.masked.load), the stores
    under EXEC."""
    a = asm(M.CASES, "transfer_masked_narrow_wide")
    for mn in ("global_load_ushort", "global_load_ubyte", "global_load_dwordx2",
               "global_store_short", "global_store_dwordx2", "s_and_saveexec_b64"):
        assert mn in a, mn
