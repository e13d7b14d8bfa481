"""Atomics and vector.type_cast elements through memrefs of unknown memory
(lower_suite_mem_flat.py): each kernel against NumPy and against LLVM's
build of the same kernel (mlir-opt-22 + llc-22), both on the emulator in
strict mode; the instructions checked against what llc-22 -mcpu=gfx942
selects (flat_atomic_add sc0, flat_atomic_cmpswap loops, the private
aperture test of 64-bit flat atomics, flat_load_dwordx4)."""
import re

import pytest

import aster
import lower_suite_mem_flat as C
from lower_suite import module
from lower_testing import asm, numpy_tests

test_aster_lowering_matches_numpy, test_llvm_build_matches_numpy = numpy_tests(C.CASES)


def test_atomics_through_flat_memrefs_are_flat_atomics():
    """i32 addi returning: flat_atomic_add sc0; maxs unused: flat_atomic_smax
    (no sc0); f32 addf: flat_atomic_add_f32; as llc-22 -mcpu=gfx942 selects
    for an addrspace(0) atomicrmw at agent scope (LLVM's build of this
    kernel, system scope, loops on flat_atomic_cmpswap for smax and addf:
    LowerMemrefAtomics.cpp says why aster follows the agent-scope choice);
    no global_atomic / ds_ atomic for the flat pointer."""
    a = asm(C.CASES, "atomic_through_flat")
    assert re.search(r"flat_atomic_add v\d+, v\[\d+:\d+\], v\d+ sc0", a)
    assert re.search(r"flat_atomic_add v\[\d+:\d+\], v\d+\s*$", a, re.M)
    assert re.search(r"flat_atomic_smax v\[\d+:\d+\], v\d+\s*$", a, re.M)
    assert re.search(r"flat_atomic_add_f32 v\d+, v\[\d+:\d+\], v\d+ sc0", a)
    assert "src_shared_base" in a
    assert not re.search(r"global_atomic|ds_(add|max|cmpst)", a)


def test_subdword_and_generic_atomics_through_flat_memrefs_loop_on_flat_cmpswap():
    """i16 addi and a generic_atomic_rmw: loops of flat_load_dword and
    flat_atomic_cmpswap sc0 (llc-22 builds both so: its partword expansion
    swaps the dword at address & ~3), one loop each."""
    a = asm(C.CASES, "atomic16_generic_through_flat")
    assert len(re.findall(r"flat_atomic_cmpswap v\d+, v\[\d+:\d+\], v\[\d+:\d+\] sc0", a)) == 2
    assert len(re.findall(r"flat_load_dword\b", a)) == 2
    assert not re.search(r"global_atomic|ds_cmpst", a)


def test_type_cast_elements_through_flat_memrefs_are_flat_dwordx4():
    """A vector<4xf32> element of a select of two vector.type_cast views
    and of the two yielded by a divergent scf.if: flat_load_dwordx4 /
    flat_store_dwordx4 (llc-22's choice for the same
    flat <4 x float> load and store in LLVM's build of this kernel)."""
    a = asm(C.CASES, "type_cast_through_flat")
    assert len(re.findall(r"flat_load_dwordx4\b", a)) == 2   # the select's, the scf.if's
    assert len(re.findall(r"flat_store_dwordx4\b", a)) == 1


def test_wide_atomics_through_flat_memrefs_split_off_private_lanes():
    """64-bit atomics through a flat memref: as llc-22 expands them
    ("atomicrmw.check.private": 64-bit flat atomics do not reach scratch),
    the lanes whose address is in the private aperture (high dword ==
    src_private_base[63:32]) load, operate and store in scratch, the others
    flat_atomic_add_x2 sc0 / a loop of flat_atomic_cmpswap_x2 (the i64
    generic_atomic_rmw and the f64 addf: no flat f64 add reaches LDS)."""
    a = asm(C.CASES, "atomic64_through_flat")
    assert "src_private_base" in a
    assert re.search(r"flat_atomic_add_x2 v\[\d+:\d+\], v\[\d+:\d+\], v\[\d+:\d+\] sc0", a)
    assert re.search(r"flat_atomic_cmpswap_x2 v\[\d+:\d+\], v\[\d+:\d+\], v\[\d+:\d+\] sc0", a)
    assert len(re.findall(r"scratch_store_dwordx2\b", a)) == 4   # the init, one per atomic
    assert not re.search(r"global_atomic|ds_(add|cmpst)", a)


def test_type_cast_view_as_a_function_parameter_is_a_located_error():
    """A memref of vectors (a vector.type_cast view) as a device function's
    parameter is not lowered (a function takes memrefs of scalars): an error
    at the parameter and at the call."""
    text = module("""
    func.func @get(%m: memref<32xvector<4xf32>>, %k: index) -> vector<4xf32> {
      %v = memref.load %m[%k] : memref<32xvector<4xf32>>
      return %v : vector<4xf32>
    }
    gpu.func @k(%x: memref<32x4xf32>, %o: memref<32x4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %tx = vector.type_cast %x : memref<32x4xf32> to memref<32xvector<4xf32>>
      %v = func.call @get(%tx, %c0) : (memref<32xvector<4xf32>>, index) -> vector<4xf32>
      %to = vector.type_cast %o : memref<32x4xf32> to memref<32xvector<4xf32>>
      memref.store %v, %to[%c0] : memref<32xvector<4xf32>>
      gpu.return
    }""")
    with pytest.raises(aster.AsterError, match=r"<string>:\d+:\d+: error: 'gpu.func' op argument 0 "
                                               r"of type 'memref<32xvector<4xf32>>' cannot be "
                                               r"lowered to amdgcn: a function takes memrefs of "
                                               r"static shapes and identity layouts"):
        aster.lower(text)
