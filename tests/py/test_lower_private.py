"""amdgcn-lower's private memory in regions (lower_suite_private.py:
dynamic-size allocas in scf.for and scf.if bodies, memref.alloca_scope,
atomics on allocas), each against NumPy and against LLVM's build of the
same kernel (LLVM's dynamic stack; stacksave / stackrestore for a scope;
its AMDGPU backend's plain load-op-store for an atomicrmw on addrspace 5),
both run on the emulator in strict mode."""
import re

import numpy as np
import pytest

import aster
import lower_suite as S
import lower_suite_private as P
from lower_testing import asm, compiled, numpy_tests

test_aster_lowering_matches_numpy, test_llvm_build_matches_numpy = numpy_tests(P.CASES)

_P = "#gpu.address_space<private>"


def test_loop_allocas_reuse_the_stack():
    """Each iteration's alloca starts at the same stack pointer (restored
    when the body is left): 300 iterations of up to 1200 bytes each fit the
    emulator's 16 KiB dynamic stack per lane, which 300 allocas that all
    stayed (about 180 KiB) would not."""
    text = S.module(f"""
    gpu.func @k(%y: memref<64xi32>, %n: index) kernel
        attributes {{known_block_size = array<i32: 64, 1, 1>}} {{
      %i = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %z = arith.constant 0 : i32
      %s = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %z) -> (i32) {{
        %k1 = arith.addi %k, %c1 : index
        %buf = memref.alloca(%k1) : memref<?xi32, {_P}>
        %kk = arith.index_cast %k : index to i32
        scf.for %j = %c0 to %k1 step %c1 {{
          memref.store %kk, %buf[%j] : memref<?xi32, {_P}>
        }}
        %w = memref.load %buf[%k] : memref<?xi32, {_P}>
        %a = arith.addi %acc, %w : i32
        scf.yield %a : i32
      }}
      memref.store %s, %y[%i] : memref<64xi32>
      gpu.return
    }}""")
    code = compiled(text)
    y = np.zeros(64, np.int32)
    aster.launch(code, "k", grid=1, block=64, args=[y, 300])
    np.testing.assert_array_equal(y, sum(range(300)))


def test_divergent_branch_allocas_use_a_vgpr_stack_pointer():
    """A divergent size (i % 5 + 1) makes the pointer a VGPR in that side:
    the scratch addresses of its stores come from v_add_u32 on the outer
    (SGPR) pointer."""
    a = asm(P.CASES, "alloca_dynamic_in_branch")
    assert "scratch_store_dword" in a and re.search(r"v_add_u32 v\d+, s\d+, v\d+", a)


def test_private_atomics_are_plain_accesses():
    """No atomic instruction for private memory: the histogram (a dynamic
    index) is scratch loads and stores; the cells at constant indices (f16,
    i64, the generic one) are allocas held in registers: no 16- or 64-bit
    scratch access at all."""
    a = asm(P.CASES, "atomic_private")
    assert "atomic" not in a and "cmpswap" not in a
    assert "scratch_load_dword " in a and "scratch_store_dword " in a
    assert "scratch_load_ushort" not in a and "scratch_load_dwordx2" not in a


@pytest.mark.parametrize("body", [
    # returned by its alloca_scope (the scope's end releases its bytes)
    f"""%m = memref.alloca_scope -> (memref<?xf32, {_P}>) {{
        %b = memref.alloca(%n) : memref<?xf32, {_P}>
        memref.alloca_scope.return %b : memref<?xf32, {_P}>
      }}""",
    # a view of it out of a branch
    f"""%m = scf.if %c -> (memref<?xf32, {_P}>) {{
        %b = memref.alloca(%n) : memref<?xf32, {_P}>
        %v = memref.subview %b[0] [%n] [1] : memref<?xf32, {_P}> to memref<?xf32, strided<[1]>, {_P}>
        %cv = memref.cast %v : memref<?xf32, strided<[1]>, {_P}> to memref<?xf32, {_P}>
        scf.yield %cv : memref<?xf32, {_P}>
      }} else {{
        scf.yield %a0 : memref<?xf32, {_P}>
      }}""",
])
def test_dynamic_alloca_leaving_its_region_is_an_error(body):
    text = S.module(f"""
    gpu.func @k(%x: memref<64xf32>, %n: index) kernel {{
      %i = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c = arith.cmpi eq, %i, %c0 : index
      %a0 = memref.alloca(%n) : memref<?xf32, {_P}>
      {body}
      %v = memref.load %m[%c0] : memref<?xf32, {_P}>
      memref.store %v, %x[%i] : memref<64xf32>
      gpu.return
    }}""")
    with pytest.raises(aster.AsterError, match=r"<string>:\d+:\d+: error: 'memref.alloca' op "
                                               r"cannot be lowered to amdgcn: a dynamic-size "
                                               r"alloca in a loop, branch or alloca_scope must "
                                               r"not leave it"):
        aster.lower(text)
