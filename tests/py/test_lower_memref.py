"""amdgcn-lower of memref breadth against two oracles we did not write:
NumPy's result and LLVM's build of the same upstream MLIR
(aster.lowering.llvm: mlir-opt-22 expand-strided-metadata, memref-expand,
convert-gpu-to-rocdl, llc-22). Both code objects run on aster's emulator in
strict mode with the same arguments; each must equal NumPy and aster's must
equal LLVM's bit for bit (the kernels only move data, or compute exactly:
the compare-and-swap products are of powers of two and of wrapping
integers, min/max are exact). The kernels: lower_suite_memref.py."""
import re

import pytest

import aster
import lower_suite as S
import lower_suite_memref as M
from lower_testing import compiled as _compiled, check_aster_and_llvm, same_bytes
from lower_testing import asm


@pytest.mark.parametrize("case", M.CASES, ids=lambda c: c.name)
def test_aster_and_llvm_match_numpy(case):
    check_aster_and_llvm(case, same_bytes)


def _asm(name):
    return asm(M.CASES, name)


def test_narrow_elements_use_narrow_instructions():
    """16-bit elements: global_load_ushort / global_store_short and
    ds_write_b16 / ds_read_u16; 8-bit: ubyte / byte, ds_write_b8 / ds_read_u8;
    64-bit: dwordx2, ds_read_b64 / ds_write_b64 (the forms LLVM selects for
    i16 / i8 / i64 loads and stores)."""
    asm = _asm("lds_transpose_f16")
    for mn in ("global_load_ushort", "global_store_short", "ds_write_b16", "ds_read_u16"):
        assert mn in asm
    asm = _asm("lds_transpose_i8")
    for mn in ("global_load_ubyte", "global_store_byte", "ds_write_b8", "ds_read_u8"):
        assert mn in asm
    asm = _asm("lds_transpose_f64")
    for mn in ("global_load_dwordx2", "global_store_dwordx2", "ds_write_b64", "ds_read_b64"):
        assert mn in asm


def test_static_views_fold_to_immediates():
    """A static subview's offset and strides are immediates: the window's
    8x8 access is the same address arithmetic as a plain 2-d load (no
    s_load of a descriptor: bare pointers)."""
    asm = _asm("memref_subview_static")
    assert asm.count("s_load_dwordx2") == 3 and "s_load_dword " not in asm


def test_alloca_in_registers_and_in_scratch():
    """The 4-element alloca at constant indices needs no memory; the
    16-element one indexed by a loop is in scratch (scratch_store_dword in
    the loop, one scratch_load_dword, a private segment of 16 + 64 bytes)."""
    out = _compiled(next(c for c in M.CASES if c.name == "alloca_regs_scratch").mlir)
    assert out.asm.count("scratch_load_dword") == 1
    assert out.asm.count("scratch_store_dword") == 1
    assert ".amdhsa_private_segment_fixed_size 64" in out.asm
    assert ".amdhsa_enable_private_segment 1" in out.asm


def test_cas_loop_instructions():
    """mulf / muli / minimumf / maximumf on global memory: one
    global_atomic_cmpswap (returning, sc0) per loop; LDS: ds_cmpst_rtn_b32."""
    asm = _asm("atomic_cas_loop")
    assert asm.count("global_atomic_cmpswap") == 4 and asm.count("ds_cmpst_rtn_b32") == 1
    assert asm.count("s_cbranch_execz") >= 5


def test_unsupported_memref_forms_are_located_errors():
    text = S.module("""
    gpu.func @k(%x: memref<64xcomplex<f32>>) kernel {
      gpu.return
    }""")
    with pytest.raises(aster.AsterError, match=r"memref elements must be f16, bf16, f32, f64, "
                                               r"i8, i16, i32 or i64"):
        aster.lower(text)
    text = S.module("""
    gpu.func @k(%x: memref<64xf32>, %n: index) kernel {
      %a = memref.alloca(%n) : memref<?xf32, #gpu.address_space<workgroup>>
      gpu.return
    }""")
    with pytest.raises(aster.AsterError, match=r"<string>:\d+:\d+: error: 'memref.alloca' op "
                                               r"cannot be lowered to amdgcn: allocas are lowered "
                                               r"in private memory only"):
        aster.lower(text)
    text = S.module("""
    gpu.func @k(%x: memref<64xf32>) kernel {
      %i = gpu.thread_id x
      %a = memref.alloca() : memref<64xf32>
      %v = vector.load %a[%i] : memref<64xf32>, vector<4xf32>
      vector.store %v, %x[%i] : memref<64xf32>, vector<4xf32>
      gpu.return
    }""")
    with pytest.raises(aster.AsterError, match=r"'vector.load' op cannot be lowered to amdgcn: "
                                               r"only memref.load / store reach an alloca"):
        aster.lower(text)


def test_dynamic_allocas_stack_after_spills():
    """Dynamic-size allocas live on a stack in scratch past the static
    allocas (16 bytes here) and, once registers are allocated, past the
    spill slots: with 4 VGPRs regalloc spills 4 bytes to scratch (private
    segment 20) and the stack's base moves to 32; the kernel declares
    .uses_dynamic_stack (the runtime's dynamic stack, as LLVM's build
    does) and still matches NumPy."""
    case = next(c for c in M.CASES if c.name == "alloca_dynamic")
    code = aster.compile(aster.lower(case.mlir)["kernels"],
                         "amdgcn-regalloc{max-vgprs=4 max-agprs=0},amdgcn-waitcnt,amdgcn-hazards")
    assert ".uses_dynamic_stack: true" in code.asm
    assert ".private_segment_fixed_size: 20" in code.asm
    assert re.search(r"s_mov_b32 s\d+, 32\n", code.asm)
    args, _ = S.run(case, code)
    S.check(case, args)
