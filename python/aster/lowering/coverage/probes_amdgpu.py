"""Probes of amdgpu ops.

Part of the coverage audit (aster.lowering.coverage: see its __init__)."""

import re

import numpy as np

from .kernels import N, Probe, _gen, elementwise, raw
from .probes_scf_cf import _f32_in


def _mfma_probes():
    """amdgpu.mfma for every v_mfma form of gfx942 the instruction table has."""
    import aster.isa
    P = []
    ty = {"f32": "f32", "f16": "f16", "bf16": "bf16", "i8": "i8", "f64": "f64", "xf32": "f32",
          "fp8": "f8E4M3FNUZ", "bf8": "f8E5M2FNUZ"}
    for name in sorted({i.name for i in aster.isa.instructions("gfx942") if i.name.startswith("v_mfma")}):
        m = re.fullmatch(r"v_mfma_(\w+?)_(\d+)x(\d+)x(\d+)(?:_(\d+)b)?_(\w+?)(?:_(\w+))?", name)
        c, M, Nn, K, blocks, a, b2 = m.groups()
        M, Nn, K, blocks = int(M), int(Nn), int(K), int(blocks or 1)
        at, bt = ty[a], ty[b2 or a]
        # per-lane operand counts: A has M*K*blocks / 64 elements, C M*N*blocks / 64.
        na = M * K * blocks // 64
        nc = M * Nn * blocks // 64
        av = at if na == 1 else f"vector<{na}x{at}>"
        bv = bt if na == 1 else f"vector<{na}x{bt}>"
        ct = {"f32": "f32", "i32": "i32", "f64": "f64"}[c]
        cv = ct if nc == 1 else f"vector<{nc}x{ct}>"
        red = ", reducePrecision" if a == "xf32" else ""
        P.append(_mfma_probe(name, f"{M}x{Nn}x{K}", f"{{blocks = {blocks} : i32, abid = 0 : i32, "
                             f"cbsz = 0 : i32{red}}} blgp = none", av, bv, cv))
    P.append(_mfma_probe("cbsz=1 abid=1 blgp (4x4x4 16b f16)", "4x4x4",
                         "{blocks = 16 : i32, abid = 1 : i32, cbsz = 1 : i32} blgp = bcast_second_32",
                         "vector<4xf16>", "vector<4xf16>", "vector<4xf32>"))
    return P


def _mfma_probe(variant, shape, attrs, av, bv, cv):
    """An amdgpu.mfma probe; f8 operands travel as i8 vectors (no f8
    kernel argument type) and are bitcast."""
    def fix(t):
        return t.replace("f8E4M3FNUZ", "i8").replace("f8E5M2FNUZ", "i8")
    pre, names = "", []
    for n, t in (("a", av), ("b", bv)):
        if "f8" in t:
            pre += f"      %{n}f = vector.bitcast %{n} : {fix(t)} to {t}\n"
            names.append(f"%{n}f")
        else:
            names.append(f"%{n}")
    body = pre + f"      %r = amdgpu.mfma {shape} {names[0]} * {names[1]} + %c {attrs} : {av}, {bv}, {cv}"
    return elementwise("amdgpu.mfma", variant, body, [fix(av), fix(bv), cv], cv, kind="small")


def _probes_amdgpu():
    P = _mfma_probes()
    F = "%x: memref<1024xf32>, %o: memref<1024xf32>"
    head = "      %i = gpu.thread_id x\n      %c4 = arith.constant 4 : index\n      %ii = arith.index_cast %i : index to i32\n"
    for n in (1, 2, 4):
        t = "f32" if n == 1 else f"vector<{n}xf32>"
        P.append(raw("amdgpu.raw_buffer_load", t, F, head + f"""
      %c4i = arith.constant {n} : i32
      %k = arith.muli %ii, %c4i : i32
      %v = amdgpu.raw_buffer_load {{boundsCheck = true}} %x[%k] : memref<1024xf32>, i32 -> {t}
      amdgpu.raw_buffer_store {{boundsCheck = true}} %v -> %o[%k] : {t} -> memref<1024xf32>, i32""",
                     _f32_in, [1]))
    P.append(raw("amdgpu.raw_buffer_store", "f16", "%x: memref<1024xf16>, %o: memref<1024xf16>", head + """
      %v = amdgpu.raw_buffer_load %x[%ii] : memref<1024xf16>, i32 -> f16
      amdgpu.raw_buffer_store %v -> %o[%ii] : f16 -> memref<1024xf16>, i32""",
                 lambda r: [r.standard_normal(N).astype(np.float16), np.zeros(N, np.float16)], [1],
                 views={1: "f16"}))
    for op, t in (("fadd", "f32"), ("fmax", "f32"), ("smax", "i32"), ("umin", "i32")):
        P.append(raw(f"amdgpu.raw_buffer_atomic_{op}", t, f"%x: memref<1024x{t}>, %y: memref<1024x{t}>", head + f"""
      %v = memref.load %y[%i] : memref<1024x{t}>
      amdgpu.raw_buffer_atomic_{op} %v -> %x[%ii] : {t} -> memref<1024x{t}>, i32""",
                     lambda r, t=t: [_gen(t, N, r, "small"), _gen(t, N, r, "small")], [0], views={0: t}))
    P.append(raw("amdgpu.raw_buffer_atomic_cmpswap", "i32", "%x: memref<1024xi32>, %y: memref<1024xi32>, %o: memref<1024xi32>", head + """
      %v = memref.load %y[%i] : memref<1024xi32>
      %cmp = memref.load %x[%i] : memref<1024xi32>
      %r = amdgpu.raw_buffer_atomic_cmpswap %v, %cmp -> %x[%ii] : i32 -> memref<1024xi32>, i32
      memref.store %r, %o[%i] : memref<1024xi32>""",
                 lambda r: [_gen("i32", N, r, "small"), _gen("i32", N, r, "small"), np.zeros(N, np.int32)],
                 [0, 2]))
    P.append(raw("amdgpu.fat_raw_buffer_cast", "", F, head + """
      %b = amdgpu.fat_raw_buffer_cast %x : memref<1024xf32> to memref<1024xf32, #amdgpu.address_space<fat_raw_buffer>>
      %v = memref.load %b[%i] : memref<1024xf32, #amdgpu.address_space<fat_raw_buffer>>
      memref.store %v, %o[%i] : memref<1024xf32>""", _f32_in, [1]))
    P.append(elementwise("amdgpu.lds_barrier", "", "      amdgpu.lds_barrier\n      %r = arith.addi %a, %a : i32",
                         ["i32"], "i32"))
    P.append(elementwise("amdgpu.sched_barrier", "none", "      amdgpu.sched_barrier allow = <none>\n"
                         "      %r = arith.addi %a, %a : i32", ["i32"], "i32"))
    P.append(elementwise("amdgpu.memory_counter_wait", "load(0) ds(0)",
                         "      amdgpu.memory_counter_wait load(0) ds(0)\n      %r = arith.addi %a, %a : i32",
                         ["i32"], "i32"))
    P.append(elementwise("amdgpu.dpp", "row_shl 1 f32", "      %r = amdgpu.dpp %a %a row_shl ( 1 : i32 ) { bound_ctrl = true } : f32",
                         ["f32"], "f32"))
    P.append(elementwise("amdgpu.dpp", "quad_perm i32", "      %r = amdgpu.dpp %a %a quad_perm ( [1 : i32, 0 : i32, 3 : i32, 2 : i32] ) : i32",
                         ["i32"], "i32"))
    P.append(elementwise("amdgpu.swizzle_bitmode", "i32", "      %r = amdgpu.swizzle_bitmode %a 1 2 4 : i32",
                         ["i32"], "i32"))
    P.append(elementwise("amdgpu.permlane_swap", "gfx950 only (probe on gfx942)",
                         "      %r = amdgpu.permlane_swap %a 16 : i32", ["i32"], "i32"))
    P.append(elementwise("amdgpu.ext_packed_fp8", "fp8 word to f32",
                         "      %q = vector.bitcast %a : vector<1xi32> to vector<4xf8E4M3FNUZ>\n"
                         "      %r = amdgpu.ext_packed_fp8 %q[1] : vector<4xf8E4M3FNUZ> to f32",
                         ["vector<1xi32>"], "f32"))
    P.append(elementwise("amdgpu.ext_packed_fp8", "bf8 word to vector<2xf32>",
                         "      %q = vector.bitcast %a : vector<1xi32> to vector<4xf8E5M2FNUZ>\n"
                         "      %r = amdgpu.ext_packed_fp8 %q[0] : vector<4xf8E5M2FNUZ> to vector<2xf32>",
                         ["vector<1xi32>"], "vector<2xf32>"))
    P.append(elementwise("amdgpu.packed_trunc_2xfp8", "f32 x2 to fp8 word",
                         "      %u = arith.constant dense<0> : vector<1xi32>\n"
                         "      %u8 = vector.bitcast %u : vector<1xi32> to vector<4xf8E4M3FNUZ>\n"
                         "      %q = amdgpu.packed_trunc_2xfp8 %a, %b into %u8[word 1] : f32 to vector<4xf8E4M3FNUZ> into vector<4xf8E4M3FNUZ>\n"
                         "      %r = vector.bitcast %q : vector<4xf8E4M3FNUZ> to vector<1xi32>",
                         ["f32", "f32"], "vector<1xi32>"))
    P.append(elementwise("amdgpu.packed_stoch_round_fp8", "f32 to fp8",
                         "      %s = arith.constant 12345 : i32\n"
                         "      %u = arith.constant dense<0> : vector<1xi32>\n"
                         "      %u8 = vector.bitcast %u : vector<1xi32> to vector<4xf8E4M3FNUZ>\n"
                         "      %q = amdgpu.packed_stoch_round_fp8 %a + %s into %u8[2] : f32 to vector<4xf8E4M3FNUZ> into vector<4xf8E4M3FNUZ>\n"
                         "      %r = vector.bitcast %q : vector<4xf8E4M3FNUZ> to vector<1xi32>",
                         ["f32"], "vector<1xi32>"))
    P.append(raw("amdgpu.gather_to_lds", "f32", F, head + """
      %l = memref.alloca() : memref<64xf32, #gpu.address_space<workgroup>>
      %c0 = arith.constant 0 : index
      amdgpu.gather_to_lds %x[%i], %l[%c0] : f32, memref<1024xf32>, memref<64xf32, #gpu.address_space<workgroup>>
      amdgpu.lds_barrier
      %v = memref.load %l[%i] : memref<64xf32, #gpu.address_space<workgroup>>
      memref.store %v, %o[%i] : memref<1024xf32>""", _f32_in, [1]))
    P.append(raw("amdgpu.transpose_load", "gfx950 only (probe on gfx942)", F, head + """
      %l = memref.alloca() : memref<256xf16, #gpu.address_space<workgroup>>
      %c0 = arith.constant 0 : index
      %v = amdgpu.transpose_load %l[%c0] : memref<256xf16, #gpu.address_space<workgroup>> -> vector<4xf16>
      %e = vector.extract %v[0] : f16 from vector<4xf16>
      %f = arith.extf %e : f16 to f32
      memref.store %f, %o[%i] : memref<1024xf32>""", _f32_in, [1]))
    for op, note in (("scaled_ext_packed", "gfx950 MX"), ("scaled_ext_packed_matrix", "gfx1250"),
                     ("packed_scaled_trunc", "gfx950 MX"), ("scaled_mfma", "gfx950 MX"),
                     ("sparse_mfma", "v_smfmac")):
        P.append(Probe(f"amdgpu.{op}", f"not probed ({note})"))
    return P
