"""amdgcn-lower of the vector and amdgpu dialects against two oracles we did
not write: NumPy's result and LLVM's build of the same upstream MLIR
(aster.lowering.llvm: mlir-opt-22 convert-vector-to-llvm +
convert-gpu-to-rocdl, llc-22). Both code objects run on aster's emulator in
strict mode with the same arguments (one array per memref: aster.launch
expands them); each must equal NumPy, and aster's must equal LLVM's bit for
bit (the MFMA matmul sums small integers: exact in f32 in any order). The
kernels: lower_suite_vector.py."""
import numpy as np
import pytest

import aster
import lower_suite as S
import lower_suite_vector as V
from lower_testing import check_aster_and_llvm, asm


@pytest.mark.parametrize("case", V.CASES, ids=lambda c: c.name)
def test_aster_and_llvm_match_numpy(case):
    check_aster_and_llvm(case, np.testing.assert_array_equal)


def _asm(name):
    return asm(V.CASES, name)


def test_wide_global_and_lds_accesses():
    """4 floats per lane are one dwordx4 access; in LDS a 16-byte-aligned
    offset (lane * 4 elements) allows ds_read_b128 / ds_write_b128."""
    asm = _asm("vector_axpy_x4")
    assert asm.count("global_load_dwordx4") == 2 and asm.count("global_store_dwordx4") == 1
    asm = _asm("vector_lds_mirror")
    assert "ds_write_b128" in asm and "ds_read_b128" in asm


def test_mfma_and_buffer_instructions():
    """amdgpu.mfma 16x16x16 f16 is the table's v_mfma_f32_16x16x16_f16 (two,
    in the K loop); raw buffer ops use a V# with word 3 = 0x27000 and offen."""
    asm = _asm("amdgpu_mfma_matmul")
    assert "v_mfma_f32_16x16x16_f16" in asm and "s_cbranch_scc1" in asm
    asm = _asm("amdgpu_buffer_oob")
    assert "buffer_load_dword" in asm and "offen" in asm and "0x27000" in asm
    assert "s_barrier" in asm


def test_unsupported_vector_forms_are_located_errors():
    text = S.module("""
    gpu.func @k(%x: memref<64xf32>, %p: index) kernel {
      %i = gpu.thread_id x
      %v = vector.load %x[%i] : memref<64xf32>, vector<4xf32>
      %q = vector.shape_cast %v : vector<4xf32> to vector<2x2xf32>
      %e = vector.extract %q[%p, 1] : f32 from vector<2x2xf32>
      memref.store %e, %x[%i] : memref<64xf32>
      gpu.return
    }""")
    with pytest.raises(aster.AsterError, match=r"<string>:\d+:\d+: error: 'vector.extract' op "
                                               r"cannot be lowered to amdgcn: dynamic positions"):
        aster.lower(text)
    text = S.module("""
    gpu.func @k(%a: vector<4xf16>, %c: memref<64xf32>) kernel {
      gpu.return
    }""")
    with pytest.raises(aster.AsterError, match="cannot be lowered"):
        aster.lower(text)
    text = S.module("""
    gpu.func @k(%x: memref<64xf32>) kernel {
      %i = gpu.thread_id x
      %v = vector.load %x[%i] : memref<64xf32>, vector<4xf32>
      %a = vector.bitcast %v : vector<4xf32> to vector<16xi8>
      %b = arith.addi %a, %a : vector<16xi8>
      %c = vector.bitcast %b : vector<16xi8> to vector<4xf32>
      vector.store %c, %x[%i] : memref<64xf32>, vector<4xf32>
      gpu.return
    }""")
    # vectors of i8 lower element by element now (lower_suite_arith_gaps.py's
    # vector_i8 case checks the values against NumPy and LLVM's build): 16
    # byte additions, packed back by v_perm_b32 for the store
    out = str(aster.lower(text)["kernels"])
    assert out.count("v_add_u32") >= 16 and "v_perm_b32" in out


def test_mfma_modifiers_reach_the_instruction():
    text = S.module("""
    gpu.func @k(%x: memref<64xf32>) kernel {
      %a = arith.constant 1.0 : f32
      %c = arith.constant dense<0.0> : vector<4xf32>
      %d = amdgpu.mfma 16x16x4 %a * %a + %c blgp = bcast_first_32 : f32, f32, vector<4xf32>
      gpu.return
    }""")
    # blgp (and cbsz / abid) lower to the instruction's fields (results vs
    # LLVM's build and NumPy: tests/py/test_lower_amdgpu_gaps.py).
    m = next(iter(aster.lower(text).values()))
    assert "amdgcn.v_mfma_f32_16x16x4_f32" in str(m) and "blgp = 1" in str(m)
