"""Memrefs of unknown memory (lower_suite_mem_carries.py): scf.if / scf.for /
scf.while yielding or carrying memrefs, vector accesses through flat
memrefs (atomics and type_cast elements: test_lower_mem_flat.py), device functions taking global, LDS and flat memrefs; each kernel
against NumPy and against LLVM's build of the same kernel (mlir-opt-22 +
llc-22), both run on the emulator in strict mode; the instructions checked
against what llc-22 -mcpu=gfx942 selects (flat_load_dwordx4 at any
alignment, flat_load_ushort for the tail of a vector<3xf16>)."""
import re

import pytest

import aster
import lower_suite_mem_carries as C
from lower_suite import module
from lower_testing import asm, numpy_tests

test_aster_lowering_matches_numpy, test_llvm_build_matches_numpy = numpy_tests(C.CASES)


def test_if_results_keep_the_memory_they_can_be():
    """Mixed memories: a flat pointer (src_shared_base, flat_load); two
    global arguments chosen uniformly: global_load from the chosen pointer
    (no flat access for it); two LDS halves: ds_read at the carried address;
    two global views chosen per lane: a divergent pointer, flat_load (a
    global address is its own flat address; LLVM's build uses flat_load for
    all four: MLIR's generic memrefs are flat pointers to it)."""
    a = asm(C.CASES, "memref_if_yield")
    assert "src_shared_base" in a
    assert len(re.findall(r"flat_load_dword\b", a)) == 2
    assert len(re.findall(r"global_load_dword\b", a)) == 2   # x[i], the uniform choice
    assert len(re.findall(r"ds_read_b32\b", a)) == 1


def test_loop_carried_buffers():
    """LDS ping-pong: ds_read / ds_write through the carried LDS address;
    global ping-pong: global_load / store; the loop whose carry is an LDS
    buffer then a global one: flat_load."""
    a = asm(C.CASES, "memref_for_carry")
    assert len(re.findall(r"ds_read_b32\b", a)) == 2   # the loop's and the final read
    assert len(re.findall(r"flat_load_dword\b", a)) == 1
    assert not re.search(r"flat_store", a)


def test_vectors_through_flat_memrefs_are_flat_accesses():
    """llc-22 -mcpu=gfx942 loads a <4 x float> through a flat pointer at
    align 4 with one flat_load_dwordx4, the tail of <3 x half> with
    flat_load_ushort, stores <2 x double> with flat_store_dwordx4."""
    a = asm(C.CASES, "vector_through_flat")
    for mn in ("flat_load_dwordx4", "flat_load_ushort", "flat_store_dwordx4",
               "flat_store_dword ", "flat_load_dword "):
        assert mn in a, mn


def test_function_memref_parameters_by_what_callers_pass():
    """@sum2 (passed global, LDS and selected memrefs): flat_load of its
    flat parameter (twice per call, three calls inlined); @get (only LDS):
    ds_read; @put (workgroup-typed): ds_write."""
    a = asm(C.CASES, "func_memref_params")
    assert len(re.findall(r"flat_load_dword\b", a)) == 6
    assert len(re.findall(r"ds_read_b32\b", a)) == 1
    assert len(re.findall(r"ds_write_b32\b", a)) == 1


def test_function_signature_follows_its_callers():
    """The amdgcn.func's parameter: a VGPR pair (flat) for @sum2, a VGPR (an
    LDS address) for @get and @put; a function no call in the module
    reaches keeps the SGPR pair of a global pointer (Python kernels call it
    with a kernel argument's pointer)."""
    text = str(aster.lower(next(c for c in C.CASES if c.name == "func_memref_params").mlir)
               ["kernels"])
    assert re.search(r"amdgcn\.func @sum2\(%\w+: !amdgcn\.vgpr<\?x2\b", text)
    assert re.search(r"amdgcn\.func @get\(%\w+: !amdgcn\.vgpr<\?>", text)
    assert re.search(r"amdgcn\.func @put\(%\w+: !amdgcn\.vgpr<\?>", text)
    lone = module("""
    gpu.func @f(%p: memref<64xi32>, %i: index) -> i32 {
      %x = memref.load %p[%i] : memref<64xi32>
      gpu.return %x : i32
    }""")
    assert re.search(r"amdgcn\.func @f\(%\w+: !amdgcn\.sgpr<\?x2\b", str(aster.lower(lone)["kernels"]))


def test_dynamic_alloca_yielded_out_of_a_branch_is_a_located_error():
    """The stack bytes of a dynamic-size alloca in a branch are reused after
    it (LowerMemory.cpp): yielding it out stays an error at the alloca."""
    text = module("""
    gpu.func @k(%x: memref<64xf32>, %n: index) kernel {
      %i = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c = arith.cmpi eq, %i, %c0 : index
      %m = scf.if %c -> memref<?xf32> {
        %a = memref.alloca(%n) : memref<?xf32>
        scf.yield %a : memref<?xf32>
      } else {
        %a = memref.alloca(%n) : memref<?xf32>
        scf.yield %a : memref<?xf32>
      }
      %v = memref.load %m[%c0] : memref<?xf32>
      memref.store %v, %x[%i] : memref<64xf32>
      gpu.return
    }""")
    with pytest.raises(aster.AsterError, match=r"<string>:\d+:\d+: error: 'memref.alloca' op cannot "
                                               r"be lowered to amdgcn: a dynamic-size alloca"):
        aster.lower(text)


def test_private_memref_parameter_is_a_located_error():
    """A function's scratch memory is its caller's: a private-typed memref
    parameter is an error at the function saying to pass it cast to generic
    (then a flat pointer)."""
    text = module("""
    gpu.func @f(%p: memref<4xf32, #gpu.address_space<private>>, %i: index) -> f32 {
      %x = memref.load %p[%i] : memref<4xf32, #gpu.address_space<private>>
      gpu.return %x : f32
    }""")
    with pytest.raises(aster.AsterError, match=r"<string>:\d+:\d+: error: 'gpu.func' op argument 0 .*"
                                               r"cannot be lowered to amdgcn: a function takes "
                                               r"global, workgroup or generic memrefs"):
        aster.lower(text)


def test_if_over_private_allocas_carries_the_scratch_offset():
    """Two allocas chosen per lane: scratch_load at the carried scratch
    offset (no flat pointer: both are scratch)."""
    a = asm(C.CASES, "memref_if_private")
    assert "scratch_load_dword" in a and not re.search(r"flat_(load|store)", a)

