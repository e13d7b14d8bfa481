"""Probes of amdgpu ops.

Part of the coverage audit (aster.lowering.coverage: see its __init__)."""

import re

import numpy as np

from .kernels import N, _gen, _np, elementwise, raw
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
    # cbsz / abid on the multi-block shapes, blgp on single-block ones, neg on f64.
    for shape, blocks, cbsz, abid, blgp, av, cv in (
            ("4x4x1", 16, 4, 9, "none", "f32", "vector<4xf32>"),
            ("16x16x1", 4, 2, 3, "rotate_16_right", "f32", "vector<16xf32>"),
            ("32x32x1", 2, 1, 1, "bcast_first_32", "f32", "vector<32xf32>"),
            ("16x16x4", 4, 1, 0, "bcast_second_32", "vector<4xbf16>", "vector<16xf32>"),
            ("4x4x4", 16, 3, 5, "bcast_first_32", "vector<4xi8>", "vector<4xi32>"),
            ("32x32x8", 1, 0, 0, "rotate_16_right", "vector<4xf16>", "vector<16xf32>"),
            ("16x16x16", 1, 0, 0, "bcast_first_32", "vector<4xbf16>", "vector<4xf32>"),
            ("16x16x32", 1, 0, 0, "bcast_second_32", "vector<8xf8E4M3FNUZ>", "vector<4xf32>"),
            ("16x16x32", 1, 0, 0, "rotate_16_right", "vector<8xi8>", "vector<4xi32>")):
        P.append(_mfma_probe(f"cbsz={cbsz} abid={abid} blgp={blgp} ({shape} {blocks}b {av})", shape,
                             f"{{blocks = {blocks} : i32, abid = {abid} : i32, cbsz = {cbsz} : i32}} "
                             f"blgp = {blgp}", av, av, cv))
    for neg in ("negateA", "negateB, negateC", "negateA, negateB, negateC"):
        P.append(_mfma_probe(f"{neg} (16x16x4 f64)", "16x16x4",
                             f"{{blocks = 1 : i32, abid = 0 : i32, cbsz = 0 : i32, {neg}}} blgp = none",
                             "f64", "f64", "vector<4xf64>"))
    P.append(_mfma_probe("negateC (4x4x4 4b f64)", "4x4x4",
                         "{blocks = 4 : i32, abid = 0 : i32, cbsz = 0 : i32, negateC} blgp = none",
                         "f64", "f64", "f64"))
    # gfx950: OCP fp8/bf8, the doubled-K f16 / bf16 / i8 shapes.
    for a, b in (("f8E4M3FN", "f8E4M3FN"), ("f8E5M2", "f8E4M3FN")):
        for shape, cv in (("16x16x32", "vector<4xf32>"), ("32x32x16", "vector<16xf32>")):
            P.append(_mfma_probe(f"gfx950 {shape} {a} x {b}", shape,
                                 "{blocks = 1 : i32, abid = 0 : i32, cbsz = 0 : i32} blgp = none",
                                 f"vector<8x{a}>", f"vector<8x{b}>", cv, target="gfx950"))
    for shape, av, cv in (("16x16x32", "vector<8xf16>", "vector<4xf32>"),
                          ("32x32x16", "vector<8xbf16>", "vector<16xf32>"),
                          ("16x16x64", "vector<16xi8>", "vector<4xi32>")):
        P.append(_mfma_probe(f"gfx950 {shape} {av}", shape,
                             "{blocks = 1 : i32, abid = 0 : i32, cbsz = 0 : i32} blgp = none",
                             av, av, cv, target="gfx950"))
    return P


def _words(t):
    """(32-bit words per lane, element count, element type) of operand type t."""
    m = re.fullmatch(r"vector<(\d+)x(\w+)>", t)
    n, e = (int(m.group(1)), m.group(2)) if m else (1, t)
    b = 64 if e == "f64" else 32 if e in ("f32", "i32") else 16 if e in ("f16", "bf16") else 8
    return max(1, n * b // 32), n, e


def _mfma_probe(variant, shape, attrs, av, bv, cv, target=""):
    """An amdgpu.mfma probe: each lane loads its A, B, C words from arrays
    of 64 lanes x its words (a 32-register accumulator needs 2048 words: the
    audit's 1024-element arrays were too small for the 2-block 32x32
    shapes), bitcasts them to the operand types (f8 travels as i8 words:
    no f8 kernel argument type), runs the MFMA and stores D's words."""
    lines = ["      %i = gpu.thread_id x\n"]
    args, names = [], []
    for n, t, arr in (("a", av, "x"), ("b", bv, "y"), ("c", cv, "z")):
        w, cnt, e = _words(t)
        args.append(f"%{arr}: memref<{64 * w}xi32>")
        lines.append(f"      %{n}_c = arith.constant {w} : index\n"
                     f"      %{n}_at = arith.muli %i, %{n}_c : index\n"
                     f"      %{n}_w = vector.load %{arr}[%{n}_at] : memref<{64 * w}xi32>, vector<{w}xi32>\n"
                     f"      %{n}_v = vector.bitcast %{n}_w : vector<{w}xi32> to vector<{cnt}x{e}>\n")
        if t.startswith("vector"):
            names.append(f"%{n}_v")
        else:
            lines.append(f"      %{n}_s = vector.extract %{n}_v[0] : {e} from vector<1x{e}>\n")
            names.append(f"%{n}_s")
    lines.append(f"      %r = amdgpu.mfma {shape} {names[0]} * {names[1]} + {names[2]} {attrs} : {av}, {bv}, {cv}\n")
    w, cnt, e = _words(cv)
    if cv.startswith("vector"):
        lines.append(f"      %r_w = vector.bitcast %r : {cv} to vector<{w}xi32>\n")
    else:
        lines.append(f"      %r_v = vector.broadcast %r : {e} to vector<1x{e}>\n"
                     f"      %r_w = vector.bitcast %r_v : vector<1x{e}> to vector<{w}xi32>\n")
    lines.append(f"      vector.store %r_w, %o[%c_at] : memref<{64 * w}xi32>, vector<{w}xi32>")
    args.append(f"%o: memref<{64 * w}xi32>")
    sizes = [64 * _words(t)[0] for t in (av, bv, cv, cv)]
    kinds = [_words(t)[2] for t in (av, bv, cv)]

    def inputs(rng):
        out = []
        for k, e in enumerate(kinds):
            st = "i8" if "f8" in e else e
            x = _gen(st, sizes[k] * 4 // np.dtype(_np(st)).itemsize, rng, "small")
            out.append(x.view(np.uint8).view(np.int32).copy())
        out.append(np.zeros(sizes[3], np.int32))
        return out
    p = raw("amdgpu.mfma", variant, ", ".join(args), "".join(lines), inputs, [3],
            views={3: "f64" if e == "f64" else "f32" if e == "f32" else "i32"})
    p.target = target
    return p


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
    for t, n, view in (("i8", 1, "i8"), ("i16", 1, "i16"), ("bf16", 1, "bf16"), ("f16", 2, "f16"),
                       ("f16", 4, "f16"), ("i8", 4, "i8"), ("i8", 2, "i8"), ("f64", 1, "f64"),
                       ("i32", 3, "i32")):
        vt = t if n == 1 else f"vector<{n}x{t}>"
        P.append(raw("amdgpu.raw_buffer_load", f"{vt} (and store)", f"%x: memref<1024x{t}>, %o: memref<1024x{t}>",
                     head + f"""
      %cn = arith.constant {n} : i32
      %k = arith.muli %ii, %cn : i32
      %v = amdgpu.raw_buffer_load %x[%k] : memref<1024x{t}>, i32 -> {vt}
      amdgpu.raw_buffer_store %v -> %o[%k] : {vt} -> memref<1024x{t}>, i32""",
                     lambda r, t=t: [_gen(t, N, r, "any"), np.zeros(N, _np(t))], [1], views={1: view}))
    P.append(raw("amdgpu.raw_buffer_load", "f32 out of bounds reads 0, store dropped",
                 "%x: memref<1024xf32>, %o: memref<1024xf32>", head + """
      %big = arith.constant 1000 : i32
      %k = arith.addi %ii, %big : i32
      %v = amdgpu.raw_buffer_load %x[%k] : memref<1024xf32>, i32 -> f32
      amdgpu.raw_buffer_store %v -> %o[%ii] : f32 -> memref<1024xf32>, i32
      amdgpu.raw_buffer_store %v -> %o[%k] : f32 -> memref<1024xf32>, i32""",
                 _f32_in, [1]))
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
    for kind, arg, attrs, t in (
            ("row_shr", "( 3 : i32 )", "", "f32"), ("row_ror", "( 5 : i32 )", "{ bound_ctrl = true }", "i32"),
            ("row_shl", "( 15 : i32 )", "{ row_mask = 0x5 : i32, bank_mask = 0xa : i32 }", "i32"),
            ("wave_shl", "", "", "f32"), ("wave_shr", "", "{ bound_ctrl = true }", "i32"),
            ("wave_rol", "", "", "i32"), ("wave_ror", "", "", "f32"), ("row_mirror", "", "", "i32"),
            ("row_half_mirror", "", "", "f32"), ("row_bcast_15", "", "{ row_mask = 0xa : i32 }", "i32"),
            ("row_bcast_31", "", "{ row_mask = 0xc : i32 }", "f32"),
            ("quad_perm", "( [3 : i32, 3 : i32, 0 : i32, 1 : i32] )", "", "f16"),
            ("row_shr", "( 1 : i32 )", "", "i64")):
        # (not vector<2xf16>: MLIR 22's DPPOp::verify() crashes on vector
        # operands, in aster.lower's parse and in mlir-opt-22 alike)
        P.append(elementwise("amdgpu.dpp", f"{kind} {arg} {attrs} {t}".replace("  ", " "),
                             f"      %r = amdgpu.dpp %b %a {kind} {arg} {attrs} : {t}", [t, t], t))
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
    for fmt, t in (("fp8", "f8E4M3FN"), ("bf8", "f8E5M2")):
        q = elementwise("amdgpu.ext_packed_fp8", f"gfx950 OCP {fmt} word[3] to f32",
                        f"      %q = vector.bitcast %a : vector<1xi32> to vector<4x{t}>\n"
                        f"      %r = amdgpu.ext_packed_fp8 %q[3] : vector<4x{t}> to f32",
                        ["vector<1xi32>"], "f32")
        q.target = "gfx950"
        P.append(q)
        q = elementwise("amdgpu.ext_packed_fp8", f"gfx950 OCP {fmt} word[1] to vector<2xf32>",
                        f"      %q = vector.bitcast %a : vector<1xi32> to vector<4x{t}>\n"
                        f"      %r = amdgpu.ext_packed_fp8 %q[1] : vector<4x{t}> to vector<2xf32>",
                        ["vector<1xi32>"], "vector<2xf32>")
        q.target = "gfx950"
        P.append(q)
        q = elementwise("amdgpu.packed_trunc_2xfp8", f"gfx950 OCP {fmt} f32 x2 to word 0",
                        "      %u = arith.constant dense<0> : vector<1xi32>\n"
                        f"      %u8 = vector.bitcast %u : vector<1xi32> to vector<4x{t}>\n"
                        f"      %q = amdgpu.packed_trunc_2xfp8 %a, %b into %u8[word 0] : f32 to vector<4x{t}> into vector<4x{t}>\n"
                        f"      %r = vector.bitcast %q : vector<4x{t}> to vector<1xi32>",
                        ["f32", "f32"], "vector<1xi32>")
        q.target = "gfx950"
        P.append(q)
    for fmt, t in (("bf8", "f8E5M2FNUZ"),):
        P.append(elementwise("amdgpu.packed_trunc_2xfp8", f"{fmt} a only into word 1 of an existing word",
                             f"      %u8 = vector.bitcast %b : vector<1xi32> to vector<4x{t}>\n"
                             f"      %q = amdgpu.packed_trunc_2xfp8 %a, undef into %u8[word 1] : f32 to vector<4x{t}> into vector<4x{t}>\n"
                             f"      %r0 = vector.bitcast %q : vector<4x{t}> to vector<1xi32>\n"
                             f"      %m = arith.constant dense<0xffff00ff> : vector<1xi32>\n"
                             f"      %r = arith.andi %r0, %m : vector<1xi32>",
                             ["f32", "vector<1xi32>"], "vector<1xi32>"))
        P.append(elementwise("amdgpu.packed_stoch_round_fp8", f"{fmt} divergent seed into byte 1 of an existing word",
                             f"      %u8 = vector.bitcast %c : vector<1xi32> to vector<4x{t}>\n"
                             f"      %q = amdgpu.packed_stoch_round_fp8 %a + %b into %u8[1] : f32 to vector<4x{t}> into vector<4x{t}>\n"
                             f"      %r = vector.bitcast %q : vector<4x{t}> to vector<1xi32>",
                             ["f32", "i32", "vector<1xi32>"], "vector<1xi32>"))
    for rl in (16, 32):
        for t in ("i32", "f16", "f64"):
            q = elementwise("amdgpu.permlane_swap", f"gfx950 {rl} {t}",
                            f"      %r = amdgpu.permlane_swap %a {rl} : {t}", [t], t)
            q.target = "gfx950"
            P.append(q)
    P.append(raw("amdgpu.fat_raw_buffer_cast", "validBytes(256) resetOffset on a subview-free offset memref",
                 "%x: memref<1024xf32>, %o: memref<1024xf32>", head + """
      %vb = arith.constant 256 : i64
      %b = amdgpu.fat_raw_buffer_cast %x validBytes(%vb) resetOffset : memref<1024xf32> to memref<1024xf32, #amdgpu.address_space<fat_raw_buffer>>
      %c64 = arith.constant 64 : index
      %j = arith.addi %i, %c64 : index
      %v = memref.load %b[%i] : memref<1024xf32, #amdgpu.address_space<fat_raw_buffer>>
      %w = memref.load %b[%j] : memref<1024xf32, #amdgpu.address_space<fat_raw_buffer>>
      %s = arith.addf %v, %w : f32
      memref.store %s, %b[%j] : memref<1024xf32, #amdgpu.address_space<fat_raw_buffer>>
      memref.store %s, %o[%i] : memref<1024xf32>""", _f32_in, [0, 1]))
    P.append(raw("amdgpu.fat_raw_buffer_cast", "f16 load, i8 store", "%x: memref<1024xf16>, %o: memref<1024xi8>", head + """
      %b = amdgpu.fat_raw_buffer_cast %x : memref<1024xf16> to memref<1024xf16, #amdgpu.address_space<fat_raw_buffer>>
      %q = amdgpu.fat_raw_buffer_cast %o : memref<1024xi8> to memref<1024xi8, #amdgpu.address_space<fat_raw_buffer>>
      %v = memref.load %b[%i] : memref<1024xf16, #amdgpu.address_space<fat_raw_buffer>>
      %w = arith.fptosi %v : f16 to i8
      memref.store %w, %q[%i] : memref<1024xi8, #amdgpu.address_space<fat_raw_buffer>>""",
                 lambda r: [_gen("f16", N, r, "small"), np.zeros(N, np.int8)], [1], views={1: "i8"}))
    for t in ("i8", "f16", "i32"):
        P.append(raw("amdgpu.gather_to_lds", f"{t} (zero-extended to dwords)", f"%x: memref<1024x{t}>, %o: memref<1024x{t}>", head + f"""
      %l = memref.alloca() : memref<512x{t}, #gpu.address_space<workgroup>>
      %c0 = arith.constant 0 : index
      %c3 = arith.constant 3 : index
      %j = arith.addi %i, %c3 : index
      amdgpu.gather_to_lds %x[%j], %l[%c0] : {t}, memref<1024x{t}>, memref<512x{t}, #gpu.address_space<workgroup>>
      amdgpu.lds_barrier
      %v = memref.load %l[%i] : memref<512x{t}, #gpu.address_space<workgroup>>
      memref.store %v, %o[%i] : memref<1024x{t}>""",
                     lambda r, t=t: [_gen(t, N, r, "any"), np.zeros(N, _np(t))], [1], views={1: t}))
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
    for t, n in (("f16", 4), ("i8", 8)):
        fill = "".join(f"""
      %k{k} = arith.constant {k} : index
      %a{k} = arith.addi %at, %k{k} : index
      %e{k} = memref.load %x[%a{k}] : memref<1024x{t}>
      memref.store %e{k}, %l[%a{k}] : memref<1024x{t}, #gpu.address_space<workgroup>>""" for k in range(n))
        q = raw("amdgpu.transpose_load", f"gfx950 vector<{n}x{t}>", f"%x: memref<1024x{t}>, %o: memref<1024xi32>", head + f"""
      %l = memref.alloca() : memref<1024x{t}, #gpu.address_space<workgroup>>
      %cn = arith.constant {n} : index
      %at = arith.muli %i, %cn : index{fill}
      amdgpu.lds_barrier
      %v = amdgpu.transpose_load %l[%at] : memref<1024x{t}, #gpu.address_space<workgroup>> -> vector<{n}x{t}>
      %rw = vector.bitcast %v : vector<{n}x{t}> to vector<2xi32>
      %r0 = vector.extract %rw[0] : i32 from vector<2xi32>
      %r1 = vector.extract %rw[1] : i32 from vector<2xi32>
      %c64 = arith.constant 64 : index
      %j = arith.addi %i, %c64 : index
      memref.store %r0, %o[%i] : memref<1024xi32>
      memref.store %r1, %o[%j] : memref<1024xi32>""",
                lambda r, t=t: [_gen(t, N, r, "any"), np.zeros(N, np.int32)], [1])
        q.target = "gfx950"
        P.append(q)
    # gfx950 MX ops (block-scaled conversions and MFMAs): probed on gfx950.
    for q in (
            elementwise("amdgpu.scaled_ext_packed", "gfx950 fp8 word[1] scale to vector<2xf32>",
                        "      %q = vector.bitcast %a : vector<1xi32> to vector<4xf8E4M3FN>\n"
                        "      %r = amdgpu.scaled_ext_packed %q[1], %b : vector<4xf8E4M3FN> to vector<2xf32>",
                        ["vector<1xi32>", "f32"], "vector<2xf32>", kind="small"),
            elementwise("amdgpu.packed_scaled_trunc", "gfx950 vector<2xf32> scale into fp8 word",
                        "      %v = vector.from_elements %a, %a : vector<2xf32>\n"
                        "      %q = amdgpu.packed_scaled_trunc %v into undef[0], %b : vector<2xf32> to vector<4xf8E4M3FN>\n"
                        "      %r = vector.bitcast %q : vector<4xf8E4M3FN> to vector<1xi32>",
                        ["f32", "f32"], "vector<1xi32>", kind="small"),
            elementwise("amdgpu.scaled_mfma", "gfx950 16x16x128 fp8 x fp8, scale 1",
                        "      %a8 = vector.bitcast %a : vector<8xi32> to vector<32xf8E4M3FN>\n"
                        "      %b8 = vector.bitcast %b : vector<8xi32> to vector<32xf8E4M3FN>\n"
                        "      %one = arith.constant 1.0 : f8E8M0FNU\n"
                        "      %z = arith.constant dense<0.0> : vector<4xf32>\n"
                        "      %r = amdgpu.scaled_mfma 16x16x128 (%one[0] * %a8) * (%one[0] * %b8) + %z : "
                        "f8E8M0FNU, vector<32xf8E4M3FN>, f8E8M0FNU, vector<32xf8E4M3FN>, vector<4xf32>",
                        ["vector<8xi32>", "vector<8xi32>"], "vector<4xf32>", kind="small")):
        q.target = "gfx950"
        P.append(q)
    P += _mx_probes() + _sparse_probes() + _narrow_cast_probes()
    for rl, opts in ((16, "fetch_inactive = true, bound_ctrl = true"),
                     (32, "fetch_inactive = true")):
        q = elementwise("amdgpu.permlane_swap",
                        f"gfx950 {rl} i32 " + " ".join(o.split(" = ")[0] for o in opts.split(", ")),
                        f"      %r = amdgpu.permlane_swap %a {rl} {{ {opts} }} : i32",
                        ["i32"], "i32")
        q.target = "gfx950"
        P.append(q)
    for t in ("i32", "f16"):
        P.append(raw("amdgpu.gather_to_lds", f"{t} from a fat buffer (validBytes)",
                     f"%x: memref<1024x{t}>, %o: memref<1024x{t}>", head + f"""
      %l = memref.alloca() : memref<512x{t}, #gpu.address_space<workgroup>>
      %c0 = arith.constant 0 : index
      %c3 = arith.constant 3 : index
      %j = arith.muli %i, %c3 : index
      %vb = arith.constant 256 : i64
      %b = amdgpu.fat_raw_buffer_cast %x validBytes(%vb) : memref<1024x{t}> to memref<1024x{t}, #amdgpu.address_space<fat_raw_buffer>>
      amdgpu.gather_to_lds %b[%j], %l[%c0] : {t}, memref<1024x{t}, #amdgpu.address_space<fat_raw_buffer>>, memref<512x{t}, #gpu.address_space<workgroup>>
      amdgpu.lds_barrier
      %v = memref.load %l[%i] : memref<512x{t}, #gpu.address_space<workgroup>>
      memref.store %v, %o[%i] : memref<1024x{t}>""",
                     lambda r, t=t: [_gen(t, N, r, "any"), np.zeros(N, _np(t))], [1], views={1: t}))
    return P


_MX = {"fp8": ("f8E4M3FN", 8), "bf8": ("f8E5M2", 8), "fp6": ("f6E2M3FN", 6),
       "bf6": ("f6E3M2FN", 6), "fp4": ("f4E2M1FN", 4)}


def _mx_probes():
    """gfx950's MX ops: scaled_ext_packed / packed_scaled_trunc for each
    narrow format, wide type and a non-zero index; scaled_mfma for every A/B
    format pair upstream accepts on 16x16x128 (and a sample of 32x32x64),
    scales from registers and from f8E8M0FNU constants."""
    P = []
    for fmt, wide, idx in (("bf8", "f16", 0), ("fp8", "bf16", 1), ("fp4", "f32", 2), ("fp4", "bf16", 3)):
        t, w = _MX[fmt]
        n = 32 // w
        P.append(elementwise("amdgpu.scaled_ext_packed", f"gfx950 {fmt} [{idx}] scale to vector<2x{wide}>",
                             f"      %q = vector.bitcast %a : vector<1xi32> to vector<{n}x{t}>\n"
                             f"      %r = amdgpu.scaled_ext_packed %q[{idx}], %b : vector<{n}x{t}> to vector<2x{wide}>",
                             ["vector<1xi32>", "f32"], f"vector<2x{wide}>", kind="small"))
    for fmt, wide, idx in (("bf8", "f16", 1), ("fp8", "bf16", 0), ("fp4", "f32", 1), ("fp4", "f16", 3)):
        t, w = _MX[fmt]
        n = 32 // w
        src = ("      %v = vector.from_elements %a, %a : vector<2xf32>\n" if wide == "f32" else
               f"      %h = arith.truncf %a : f32 to {wide}\n"
               f"      %v = vector.from_elements %h, %h : vector<2x{wide}>\n")
        P.append(elementwise("amdgpu.packed_scaled_trunc", f"gfx950 vector<2x{wide}> into existing {fmt} [{idx}]",
                             src + f"      %e = vector.bitcast %c : vector<1xi32> to vector<{n}x{t}>\n"
                             f"      %q = amdgpu.packed_scaled_trunc %v into %e[{idx}], %b : vector<2x{wide}> to vector<{n}x{t}> into vector<{n}x{t}>\n"
                             f"      %r = vector.bitcast %q : vector<{n}x{t}> to vector<1xi32>",
                             ["f32", "f32", "vector<1xi32>"],
                             "vector<1xi32>", kind="small"))
    pairs = [(a, b, 16) for a in _MX for b in _MX if (a, b) != ("fp8", "fp8")]
    pairs += [("fp8", "fp8", 32), ("bf6", "fp4", 32), ("fp4", "bf8", 32)]
    for k, (a, b, m) in enumerate(pairs):
        (ta, wa), (tb, wb) = _MX[a], _MX[b]
        regs = 4 if m == 16 else 16
        ia, ib = k % 4, (k // 4) % 4
        const = k % 3 == 0   # A's scale an f8E8M0FNU constant
        sa = ("      %sa = arith.constant 0.5 : f8E8M0FNU\n" if const else
              "      %sa = vector.bitcast %c : vector<1xi32> to vector<4xf8E8M0FNU>\n")
        sat = "f8E8M0FNU" if const else "vector<4xf8E8M0FNU>"
        ia = 0 if const else ia
        q = elementwise("amdgpu.scaled_mfma", f"gfx950 {m}x{m}x{2048 // m} {a} x {b}, scales [{ia}] [{ib}]"
                        + (" (A's a constant)" if const else ""),
                        f"      %a8 = vector.bitcast %a : vector<{wa}xi32> to vector<32x{ta}>\n"
                        f"      %b8 = vector.bitcast %b : vector<{wb}xi32> to vector<32x{tb}>\n" + sa +
                        "      %sb = vector.bitcast %c : vector<1xi32> to vector<4xf8E8M0FNU>\n"
                        f"      %acc = arith.constant dense<0.0> : vector<{regs}xf32>\n"
                        f"      %r = amdgpu.scaled_mfma {m}x{m}x{2048 // m} (%sa[{ia}] * %a8) * (%sb[{ib}] * %b8) + %acc : "
                        f"{sat}, vector<32x{ta}>, vector<4xf8E8M0FNU>, vector<32x{tb}>, vector<{regs}xf32>",
                        [f"vector<{wa}xi32>", f"vector<{wb}xi32>", "vector<1xi32>"], f"vector<{regs}xf32>",
                        kind="small")
        P.append(q)
    for q in P:
        q.target = "gfx950"
    return P


def _sparse_probes():
    """amdgpu.sparse_mfma for every type and shape upstream accepts on gfx942
    and gfx950 (A, B and the index loaded words)."""
    P = []
    for arch, f8 in (("gfx942", ("f8E4M3FNUZ", "f8E5M2FNUZ")), ("gfx950", ("f8E4M3FN", "f8E5M2"))):
        x2 = 2 if arch == "gfx950" else 1
        combos = [("f16", "f16", 16, 32, 16), ("bf16", "bf16", 16, 32, 16), ("i8", "i8", 8, 64, 32)]
        combos += [(a, b, 8, 64, 32) for a in f8 for b in f8]
        for a, b, bits, k16, k32 in combos:
            for m, k in ((16, k16 * x2), (32, k32 * x2)):
                cv = m * (k // 2) // 64
                wa, wb = cv * bits // 32, 2 * cv * bits // 32
                ct = "i32" if a == "i8" else "f32"
                zero = "0" if ct == "i32" else "0.0"
                regs = m * m // 64
                it = "vector<2xi16>" if bits == 8 else "vector<4xi8>"
                q = elementwise(
                    "amdgpu.sparse_mfma", f"{arch} {m}x{m}x{k} {a} x {b}",
                    f"      %a8 = vector.bitcast %a : vector<{wa}xi32> to vector<{cv}x{a}>\n"
                    f"      %b8 = vector.bitcast %b : vector<{wb}xi32> to vector<{2 * cv}x{b}>\n"
                    f"      %ix = vector.bitcast %c : vector<1xi32> to {it}\n"
                    f"      %acc = arith.constant dense<{zero}> : vector<{regs}x{ct}>\n"
                    f"      %r = amdgpu.sparse_mfma {m}x{m}x{k} %a8 * %b8 + %acc sparse(%ix : {it}) "
                    f": vector<{cv}x{a}>, vector<{2 * cv}x{b}>, vector<{regs}x{ct}>",
                    [f"vector<{wa}xi32>", f"vector<{wb}xi32>", "vector<1xi32>"],
                    f"vector<{regs}x{ct}>", kind="small")
                q.target = arch
                P.append(q)
    return P


def _narrow_cast_probes():
    """arith casts of 8-bit floats (upstream's ArithToAMDGPU / arith
    expansions inside aster.lower): scaling_extf / scaling_truncf with an E8M0
    scale on gfx950 (amdgpu.scaled_ext_packed / packed_scaled_trunc) and on
    gfx942 (upstream's arith expansion), extf of fp8, truncf to E8M0. LLVM's
    convert-gpu-to-rocdl does not lower these casts (mlir-translate-22 fails
    on them): NumPy / ml_dtypes is the oracle (an E8M0 truncf is upstream's
    definition, the f32 exponent field)."""
    import ml_dtypes
    P = []
    scale = ("      %c7 = arith.constant 7 : i32\n      %c127 = arith.constant 127 : i32\n"
             "      %bm = arith.andi %b, %c7 : i32\n      %be = arith.addi %bm, %c127 : i32\n"
             "      %s8 = arith.trunci %be : i32 to i8\n"
             "      %s = arith.bitcast %s8 : i8 to f8E8M0FNU\n")
    word = ("      %cm = arith.constant 0x3f3f3f3f : i32\n      %am = arith.andi %a, %cm : i32\n"
            "      %av = vector.from_elements %am : vector<1xi32>\n")

    def f8of(w, byte, dt):
        return ((np.asarray(w).view(np.uint32) & 0x3f3f3f3f) >> (8 * byte) & 0xff).astype(
            np.uint8).view(dt).astype(np.float64)

    def out(vals, dt):
        o = np.zeros(N, dt)
        o[:64] = vals
        return o
    for arch, f8, dt in (("gfx950", "f8E4M3FN", ml_dtypes.float8_e4m3fn),
                         ("gfx942", "f8E4M3FNUZ", ml_dtypes.float8_e4m3fnuz)):
        sc = lambda a: 2.0 ** (a[1][:64].astype(np.int64) & 7)
        probes = [
            ("arith.scaling_extf", word + scale +
             f"      %q = vector.bitcast %av : vector<1xi32> to vector<4x{f8}>\n"
             f"      %e = vector.extract %q[1] : {f8} from vector<4x{f8}>\n"
             f"      %r = arith.scaling_extf %e, %s : {f8}, f8E8M0FNU to f32",
             ["i32", "i32"], "f32",
             lambda a, dt=dt, sc=sc: {2: out((f8of(a[0][:64], 1, dt) * sc(a)).astype(np.float32),
                                            np.float32)}),
            ("arith.scaling_truncf", scale +
             f"      %t = arith.scaling_truncf %a, %s : f32, f8E8M0FNU to {f8}\n"
             f"      %t8 = arith.bitcast %t : {f8} to i8\n"
             "      %r = arith.extui %t8 : i8 to i32",
             ["f32", "i32"], "i32",
             lambda a, dt=dt, sc=sc: {2: out((a[0][:64] / sc(a)).astype(np.float32).astype(dt)
                                            .view(np.uint8).astype(np.int32), np.int32)}),
            ("arith.extf", word + f"      %q = vector.bitcast %av : vector<1xi32> to vector<4x{f8}>\n"
             f"      %e = vector.extract %q[3] : {f8} from vector<4x{f8}>\n"
             f"      %r = arith.extf %e : {f8} to f32", ["i32"], "f32",
             lambda a, dt=dt: {1: out(f8of(a[0][:64], 3, dt).astype(np.float32), np.float32)}),
            ("arith.truncf", "      %m = arith.truncf %a : f32 to f8E8M0FNU\n"
             "      %m8 = arith.bitcast %m : f8E8M0FNU to i8\n"
             "      %r = arith.extui %m8 : i8 to i32", ["f32"], "i32",
             lambda a: {1: out(((a[0][:64].view(np.uint32) >> 23) & 0xff).astype(np.int32),
                               np.int32)})]
        for op, body, ins, res, ref in probes:
            v = f"{arch} {'f8E8M0FNU' if op == 'arith.truncf' else f8}"
            q = elementwise(op, v, body, ins, res, kind="small", ref=ref)
            q.target = arch
            q.no_llvm = "convert-gpu-to-rocdl does not lower casts of 8-bit floats"
            P.append(q)
    return P
