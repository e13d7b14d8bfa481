"""aster.aiter.kernargs reads aiter's packed KernelArgs structs from the wheel's
C source. Checked against a source we did not parse: each code object's own
metadata (amdhsa.kernels[].args), whose global_buffer arguments must sit at
the offsets of the struct's pointer fields, and whose explicit size is the
struct's (where AMD's metadata agrees with its interface; the differences
are facts the launches handle, asserted here too)."""
import pytest

import aster
from aster.aiter import fmha_bwd, fmha_fwd, layernorm, mla, pa, topk_softmax, wheel
from aster.aiter.kernargs import struct_layout

GEMM = "aiter_meta/csrc/py_itfs_cu/asm_gemm_a16w16.cu"
CASES = {
    "layernorm": (layernorm.SOURCE, "KernelArgs", layernorm.CODE_OBJECT, layernorm.KERNEL, 176),
    "topk_softmax": (topk_softmax.SOURCE, "KernelArgs", *topk_softmax.config(8, 128, 8)[:2], 128),
    "pa": (pa.SOURCE, "KernelArgs", *reversed(pa.select("gfx942", "bf16", "bf16", 8, 16)), 256),
    "fmha_fwd": (fmha_fwd.SOURCE, fmha_fwd.STRUCT, *fmha_fwd.kernel("gfx942", True), 512),
    # the backward kernel declares 16 bytes more than the 336-byte struct
    "fmha_bwd": (fmha_bwd.SOURCE, fmha_bwd.STRUCT, *fmha_bwd.kernel(), 352),
    # the GEMM declares 288 bytes for the 284-byte struct
    "bf16_gemm": (GEMM, "KernelArgs", "bf16gemm/bf16gemm_outf32_tn_32x64_pf3.co",
                  "_ZN5aiter28bf16gemm_outf32_tn_32x64_pf3E", 288),
}


@pytest.mark.parametrize("family", sorted(CASES))
def test_pointer_fields_where_the_metadata_declares_buffers(family):
    source, struct, co, kernel, declared = CASES[family]
    layout = struct_layout(source, struct)
    info = aster.load_code_object(wheel.code_object("gfx942", co)).kernel(kernel)
    pointers = [f.offset for f in layout.fields if f.ctype == "ptr"]
    buffers = [a.offset for a in info.args if a.value_kind == "global_buffer"]
    assert pointers == buffers
    assert info.explicit_args_size == declared
    assert layout.size <= declared


def test_mla_struct_is_longer_than_its_metadata():
    """AMD's MLA code object declares 208 bytes (its metadata names PA's
    arguments); the interface's struct is 304: HIP passes the declared 208."""
    layout = struct_layout(mla.SOURCE)
    info = aster.load_code_object(wheel.code_object("gfx942", mla.CODE_OBJECT)).kernel(mla.KERNEL)
    assert (layout.size, info.explicit_args_size) == (304, 208)


def test_bad_structs_are_errors():
    with pytest.raises(aster.AsterError, match="no packed struct 'Nope'"):
        struct_layout(pa.SOURCE, "Nope")
    layout = struct_layout(pa.SOURCE)
    with pytest.raises(KeyError, match="no field 'ptr_X'"):
        layout.pack(ptr_X=None)
    with pytest.raises(TypeError, match="pointer"):
        layout.pack(ptr_O=3)
    with pytest.raises(ValueError, match="out of range"):
        layout.pack(GQA=-1)
    with pytest.raises(TypeError, match="float"):
        layout.pack(sclg2e="1")
