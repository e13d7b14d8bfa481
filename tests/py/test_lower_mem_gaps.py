"""amdgcn-lower's memref / vector / gpu gaps of issue 26 item 2
(lower_suite_mem_gaps.py: bitcasts between vectors and scalars, shuffles of
vector<2xf16>, gpu.rotate, narrow and wide vector loads, memref.copy,
transpose, extract_strided_metadata, memory_space_cast, reshape,
memref.global, expandload / compressstore / scatter), each against NumPy
and against LLVM's build of the same kernel (mlir-opt-22
convert-gpu-to-rocdl + llc-22), both run on the emulator in strict mode;
the instructions checked against what llc-22 -mcpu=gfx942 selects."""
import re

import pytest

import aster
import lower_suite as S
import lower_suite_mem_gaps as G
from lower_testing import asm, numpy_tests

test_aster_lowering_matches_numpy, test_llvm_build_matches_numpy = numpy_tests(G.CASES)


def test_narrow_vector_loads_are_dword_loads_as_llvm_selects():
    """llc-22 -mcpu=gfx942 loads <4 x half> at align 2 with one dwordx2, <4 x
    i8> at align 1 with one dword and <2 x i8> with a ushort (unaligned
    access mode): so does aster, and no per-element loads."""
    a = asm(G.CASES, "vector_load_narrow")
    assert "global_load_dwordx2" in a and "global_load_dwordx4" in a
    assert "global_load_ushort" in a and "global_store_short" in a
    assert "global_load_ubyte" not in a


def test_constant_global_is_code_object_data_read_pc_relative():
    """A constant memref.global is .rodata of the code object; its address is
    s_getpc_b64 + rel32 relocations (clang's __constant__ access)."""
    code = aster.compile(aster.lower(G.CASES[5].mlir)["kernels"], aster.lowering.PIPELINE)
    a = code.asm
    assert "s_getpc_b64" in a and re.search(r"table@rel32@lo\+4", a) and \
        re.search(r"table@rel32@hi\+12", a)
    assert ".rodata" in a


def test_workgroup_cast_to_generic_keeps_lds_accesses():
    """memory_space_cast of an LDS buffer to generic: the loads through it
    stay ds_read (LLVM's InferAddressSpaces does the same), no flat access."""
    a = asm(G.CASES, "memref_views")
    assert "ds_read_b32" in a and not re.search(r"\bflat_(load|store)", a)


@pytest.mark.parametrize("op", ["cluster_id", "cluster_dim", "cluster_block_id",
                                "cluster_dim_blocks"])
def test_cluster_ops_are_a_located_error_saying_why(op):
    text = S.module(f"""
    gpu.func @k(%o: memref<64xi32>) kernel {{
      %i = gpu.thread_id x
      %c = gpu.{op} x
      %ci = arith.index_cast %c : index to i32
      memref.store %ci, %o[%i] : memref<64xi32>
      gpu.return
    }}""")
    with pytest.raises(aster.AsterError, match=rf"<string>:\d+:\d+: error: 'gpu.{op}' op cannot "
                                               r"be lowered to amdgcn: thread-block clusters"):
        aster.lower(text)

