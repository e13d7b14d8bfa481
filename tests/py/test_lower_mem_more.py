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


def test_get_global_takes_its_address_once_and_copy_moves_dwordx4():
    """Two memref.get_global of one global: one s_getpc_b64 (as LLVM's build
    of the same kernel); the contiguous 64-element memref.copy: 16
    global_load_dwordx4 + 16 global_store_dwordx4 (LLVM's inline memcpy
    expansion moves 16-byte pieces too), no per-element dword."""
    a = asm(M.CASES, "getglobal_once_copy_dwordx4")
    assert a.count("s_getpc_b64") == 1
    assert len(re.findall(r"global_load_dwordx4\b", a)) == 16
    assert len(re.findall(r"global_store_dwordx4\b", a)) == 16
    assert len(re.findall(r"global_load_dword\s", a)) == 2  # the two table reads


def test_flat_memref_is_flat_loads_from_the_apertures():
    """A select of an LDS, a private and a global memref: flat_load /
    flat_store of a pointer made from src_shared_base / src_private_base (as
    llc-22 builds addrspacecast 3 -> 0 and 5 -> 0)."""
    a = asm(M.CASES, "flat_memrefs")
    for mn in ("src_shared_base", "src_private_base", "flat_load_dword ", "flat_store_dword ",
               "flat_load_dwordx2", "v_lshl_add_u64"):
        assert mn in a, mn


def test_module_lds_offset_is_shared_by_kernel_and_functions():
    """The workgroup global used by @put / @get sits at LDS 0; the kernel's
    own attribution after its 256 bytes (group segment 512)."""
    import aster
    mods = aster.lower(next(c for c in M.CASES if c.name == "workgroup_global_in_functions").mlir)
    text = str(mods["kernels"])
    assert re.search(r"lds = 512", text)


def test_dynamic_copy_moves_dwordx4_pieces_in_a_loop():
    """A row-major dynamic-shape memref.copy: a loop of 16-byte pieces
    (global_load_dwordx4 / global_store_dwordx4, as LLVM's expansion of the
    dynamic-size llvm.memcpy) and a per-element loop for the residual."""
    a = asm(M.CASES, "copy_dynamic_dwordx4")
    assert len(re.findall(r"global_load_dwordx4\b", a)) == 2
    assert len(re.findall(r"global_store_dwordx4\b", a)) == 2
    assert re.search(r"global_load_dword\s", a) and re.search(r"global_load_ushort\b", a)
