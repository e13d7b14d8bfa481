"""Probes of memref ops.

Part of the coverage audit (aster.lowering.coverage: see its __init__)."""

import numpy as np

from .kernels import N, _gen, _np, elementwise, raw
from .probes_scf_cf import _f32_in


def _first64(arr, vals):
    out = np.zeros_like(np.asarray(arr))
    out[:64] = vals
    return out


# memref.atomic_rmw's kinds (MemRefOps.td / AtomicRMWKind) on the 64 lanes'
# own elements: the new value of x, the old one returned. The probes' inputs
# are small integers (no NaN, no -0.0): the float kinds are plain.
_RMW = {"addf": np.add, "addi": np.add, "assign": lambda a, b: b, "maximumf": np.maximum,
        "maxs": np.maximum, "minimumf": np.minimum, "mins": np.minimum, "mulf": np.multiply,
        "muli": np.multiply, "ori": np.bitwise_or, "andi": np.bitwise_and, "xori": np.bitwise_xor,
        "maxnumf": np.fmax, "minnumf": np.fmin,
        "maxu": lambda a, b: np.maximum(a.view(np.uint32), b.view(np.uint32)).view(np.int32),
        "minu": lambda a, b: np.minimum(a.view(np.uint32), b.view(np.uint32)).view(np.int32)}


def _rmw_ref(kind):
    def ref(a):
        x, y = np.asarray(a[0]), np.asarray(a[1])
        new = x.copy()
        with np.errstate(all="ignore"):
            new[:64] = _RMW[kind](x[:64], y[:64]).astype(x.dtype)
        return {0: new, 2: _first64(a[2], x[:64])}
    return ref


def _generic_rmw_ref(a):
    x = np.asarray(a[0])
    new = x.copy()
    new[:64] = x[:64] * x[:64]
    return {0: new, 1: _first64(a[1], x[:64])}



# A workgroup copy of x and a global x, the one or the other per lane by the
# parity of the thread id (%g, %x, %ev); then a read of %m, lanes reversed.
LDS_OR_GLOBAL = """
      %l = memref.alloca() : memref<1024xf32, #gpu.address_space<workgroup>>
      %v = memref.load %x[%i] : memref<1024xf32>
      %v2 = arith.addf %v, %v : f32
      memref.store %v2, %l[%i] : memref<1024xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %g = memref.memory_space_cast %l : memref<1024xf32, #gpu.address_space<workgroup>> to memref<1024xf32>
      %odd = arith.andi %i, %c1 : index
      %ev = arith.cmpi eq, %odd, %c0 : index"""
READ_REVERSED = """
      %c63 = arith.constant 63 : index
      %j = arith.subi %c63, %i : index
      %r = memref.load %m[%j] : memref<1024xf32>"""

def _probes_memref():
    P = []
    for e in ("i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64"):
        P.append(elementwise("memref.load", e, "      %r = arith.addi %a, %a : i32".replace("i32", e)
                             if not e.startswith(("f", "b")) else f"      %r = arith.negf %a : {e}",
                             [e], e))
        P.append(raw("memref.store", f"workgroup {e}", f"%x: memref<1024x{e}>, %o: memref<1024x{e}>", f"""
      %i = gpu.thread_id x
      %l = memref.alloca() : memref<64x{e}, #gpu.address_space<workgroup>>
      %v = memref.load %x[%i] : memref<1024x{e}>
      memref.store %v, %l[%i] : memref<64x{e}, #gpu.address_space<workgroup>>
      gpu.barrier
      %c63 = arith.constant 63 : index
      %j = arith.subi %c63, %i : index
      %w = memref.load %l[%j] : memref<64x{e}, #gpu.address_space<workgroup>>
      memref.store %w, %o[%i] : memref<1024x{e}>""",
                     lambda r, e=e: [_gen(e, N, r, "any"), np.zeros(N, _np(e))], [1], views={1: e}))
    F = "%x: memref<1024xf32>, %o: memref<1024xf32>"
    head = "      %i = gpu.thread_id x\n      %c0 = arith.constant 0 : index\n      %c1 = arith.constant 1 : index\n      %c4 = arith.constant 4 : index\n"
    st = "      memref.store %r, %o[%i] : memref<1024xf32>"

    def p(op, variant, body, args=F, extra="", inputs=_f32_in, outs=(1,), **kw):
        P.append(raw(op, variant, args, head + body.strip("\n") + "\n" + st if st not in body
                     and "%r" in body else head + body, inputs, outs, extra=extra, **kw))
    p("memref.alloca", "private", """
      %a = memref.alloca() : memref<4xf32, #gpu.address_space<private>>
      %v = memref.load %x[%i] : memref<1024xf32>
      %k = arith.andi %i, %c1 : index
      memref.store %v, %a[%k] : memref<4xf32, #gpu.address_space<private>>
      %r = memref.load %a[%k] : memref<4xf32, #gpu.address_space<private>>""")
    p("memref.alloca_scope", "", """
      %r = memref.alloca_scope -> f32 {
        %a = memref.alloca() : memref<4xf32, #gpu.address_space<private>>
        %v = memref.load %x[%i] : memref<1024xf32>
        memref.store %v, %a[%c1] : memref<4xf32, #gpu.address_space<private>>
        %w = memref.load %a[%c1] : memref<4xf32, #gpu.address_space<private>>
        memref.alloca_scope.return %w : f32
      }""", ref=lambda a: {1: _first64(a[1], np.asarray(a[0])[:64])})
    p("memref.assume_alignment", "", """
      %m = memref.assume_alignment %x, 16 : memref<1024xf32>
      %r = memref.load %m[%i] : memref<1024xf32>""")
    for k, t in (("addf", "f32"), ("addi", "i32"), ("assign", "i32"), ("maximumf", "f32"),
                 ("maxs", "i32"), ("maxu", "i32"), ("minimumf", "f32"), ("mins", "i32"),
                 ("minu", "i32"), ("mulf", "f32"), ("muli", "i32"), ("ori", "i32"),
                 ("andi", "i32"), ("xori", "i32"), ("maxnumf", "f32"), ("minnumf", "f32")):
        P.append(raw("memref.atomic_rmw", f"{k} {t}", f"%x: memref<1024x{t}>, %y: memref<1024x{t}>, "
                     f"%o: memref<1024x{t}>", f"""
      %i = gpu.thread_id x
      %v = memref.load %y[%i] : memref<1024x{t}>
      %r = memref.atomic_rmw {k} %v, %x[%i] : ({t}, memref<1024x{t}>) -> {t}
      memref.store %r, %o[%i] : memref<1024x{t}>""",
                     lambda r, t=t: [_gen(t, N, r, "small"), _gen(t, N, r, "small"), np.zeros(N, _np(t))],
                     [0, 2], views={0: t, 2: t}, ref=_rmw_ref(k)))
    P.append(raw("memref.generic_atomic_rmw", "f32", "%x: memref<1024xf32>, %o: memref<1024xf32>", """
      %i = gpu.thread_id x
      %r = memref.generic_atomic_rmw %x[%i] : memref<1024xf32> {
      ^bb0(%cur: f32):
        %t = arith.mulf %cur, %cur : f32
        memref.atomic_yield %t : f32
      }
      memref.store %r, %o[%i] : memref<1024xf32>""", _f32_in, [0, 1], ref=_generic_rmw_ref,
                 views={0: "f32", 1: "f32"}))
    p("memref.cast", "", """
      %m = memref.cast %x : memref<1024xf32> to memref<?xf32>
      %r = memref.load %m[%i] : memref<?xf32>""")
    p("memref.collapse_shape", "", """
      %e = memref.expand_shape %x [[0, 1]] output_shape [256, 4] : memref<1024xf32> into memref<256x4xf32>
      %m = memref.collapse_shape %e [[0, 1]] : memref<256x4xf32> into memref<1024xf32>
      %r = memref.load %m[%i] : memref<1024xf32>""")
    p("memref.expand_shape", "", """
      %e = memref.expand_shape %x [[0, 1]] output_shape [256, 4] : memref<1024xf32> into memref<256x4xf32>
      %r = memref.load %e[%i, %c1] : memref<256x4xf32>""")
    p("memref.copy", "contiguous subview", """
      %b = arith.muli %i, %c4 : index
      %s = memref.subview %x[%b] [4] [1] : memref<1024xf32> to memref<4xf32, strided<[1], offset: ?>>
      %d = memref.subview %o[%b] [4] [1] : memref<1024xf32> to memref<4xf32, strided<[1], offset: ?>>
      memref.copy %s, %d : memref<4xf32, strided<[1], offset: ?>> to memref<4xf32, strided<[1], offset: ?>>""")
    p("memref.copy", "workgroup to global", """
      %l = memref.alloca() : memref<4xf32, #gpu.address_space<private>>
      %v = memref.load %x[%i] : memref<1024xf32>
      memref.store %v, %l[%c0] : memref<4xf32, #gpu.address_space<private>>
      memref.store %v, %l[%c1] : memref<4xf32, #gpu.address_space<private>>
      memref.store %v, %l[%c4] : memref<4xf32, #gpu.address_space<private>>
      %b = arith.muli %i, %c4 : index
      %d = memref.subview %o[%b] [4] [1] : memref<1024xf32> to memref<4xf32, strided<[1], offset: ?>>
      memref.copy %l, %d : memref<4xf32, #gpu.address_space<private>> to memref<4xf32, strided<[1], offset: ?>>""".replace("%l[%c4]", "%l[%c1]"))
    p("memref.dim", "", """
      %n = memref.dim %m, %c0 : memref<?xf32>
      %nf = arith.index_cast %n : index to i32
      %r = arith.sitofp %nf : i32 to f32""".replace("%m,", "%x2,").replace(
        "      %n =", "      %x2 = memref.cast %x : memref<1024xf32> to memref<?xf32>\n      %n ="))
    p("memref.rank", "", """
      %n = memref.rank %x : memref<1024xf32>
      %nf = arith.index_cast %n : index to i32
      %r = arith.sitofp %nf : i32 to f32""")
    p("memref.extract_aligned_pointer_as_index", "", """
      %pa = memref.extract_aligned_pointer_as_index %x : memref<1024xf32> -> index
      %pi = arith.index_cast %pa : index to i32
      %c3 = arith.constant 3 : i32
      %pm = arith.andi %pi, %c3 : i32
      %r = arith.sitofp %pm : i32 to f32""")
    p("memref.extract_strided_metadata", "of a subview", """
      %s = memref.subview %x[%i] [8] [2] : memref<1024xf32> to memref<8xf32, strided<[2], offset: ?>>
      %base, %off, %sz, %str = memref.extract_strided_metadata %s : memref<8xf32, strided<[2], offset: ?>> -> memref<f32>, index, index, index
      %t = arith.addi %off, %sz : index
      %t2 = arith.muli %t, %str : index
      %ti = arith.index_cast %t2 : index to i32
      %r = arith.sitofp %ti : i32 to f32""")
    p("memref.get_global", "constant, global memory", """
      %g = memref.get_global @table : memref<4xf32>
      %k = arith.andi %i, %c1 : index
      %r = memref.load %g[%k] : memref<4xf32>""",
      extra='    memref.global "private" constant @table : memref<4xf32> = dense<[1.5, -2.0, 3.0, 4.0]>\n')
    p("memref.global", "workgroup memory", """
      %g = memref.get_global @buf : memref<64xf32, #gpu.address_space<workgroup>>
      %v = memref.load %x[%i] : memref<1024xf32>
      memref.store %v, %g[%i] : memref<64xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %c63 = arith.constant 63 : index
      %j = arith.subi %c63, %i : index
      %r = memref.load %g[%j] : memref<64xf32, #gpu.address_space<workgroup>>""",
      extra='    memref.global "private" @buf : memref<64xf32, #gpu.address_space<workgroup>>\n')
    p("memref.memory_space_cast", "workgroup to generic", """
      %l = memref.alloca() : memref<64xf32, #gpu.address_space<workgroup>>
      %v = memref.load %x[%i] : memref<1024xf32>
      memref.store %v, %l[%i] : memref<64xf32, #gpu.address_space<workgroup>>
      %g = memref.memory_space_cast %l : memref<64xf32, #gpu.address_space<workgroup>> to memref<64xf32>
      %r = memref.load %g[%i] : memref<64xf32>""")
    p("memref.prefetch", "", """
      memref.prefetch %x[%i], read, locality<3>, data : memref<1024xf32>
      %r = memref.load %x[%i] : memref<1024xf32>""")
    p("memref.reinterpret_cast", "", """
      %m = memref.reinterpret_cast %x to offset: [4], sizes: [16, 4], strides: [4, 1] : memref<1024xf32> to memref<16x4xf32, strided<[4, 1], offset: 4>>
      %k = arith.andi %i, %c4 : index
      %r = memref.load %m[%k, %c1] : memref<16x4xf32, strided<[4, 1], offset: 4>>""")
    p("memref.reshape", "static shape operand", """
      %sh = memref.alloca() : memref<2xindex, #gpu.address_space<private>>
      %c256 = arith.constant 256 : index
      memref.store %c256, %sh[%c0] : memref<2xindex, #gpu.address_space<private>>
      memref.store %c4, %sh[%c1] : memref<2xindex, #gpu.address_space<private>>
      %m = memref.reshape %x(%sh) : (memref<1024xf32>, memref<2xindex, #gpu.address_space<private>>) -> memref<256x4xf32>
      %r = memref.load %m[%i, %c1] : memref<256x4xf32>""")
    p("memref.subview", "static", """
      %s = memref.subview %x[8] [64] [2] : memref<1024xf32> to memref<64xf32, strided<[2], offset: 8>>
      %r = memref.load %s[%i] : memref<64xf32, strided<[2], offset: 8>>""")
    p("memref.transpose", "", """
      %e = memref.expand_shape %x [[0, 1]] output_shape [256, 4] : memref<1024xf32> into memref<256x4xf32>
      %t = memref.transpose %e (d0, d1) -> (d1, d0) : memref<256x4xf32> to memref<4x256xf32, strided<[1, 4]>>
      %r = memref.load %t[%c1, %i] : memref<4x256xf32, strided<[1, 4]>>""")
    p("memref.view", "workgroup bytes", """
      %l = memref.alloca() : memref<512xi8, #gpu.address_space<workgroup>>
      %v = memref.view %l[%c0][] : memref<512xi8, #gpu.address_space<workgroup>> to memref<64xf32, #gpu.address_space<workgroup>>
      %w = memref.load %x[%i] : memref<1024xf32>
      memref.store %w, %v[%i] : memref<64xf32, #gpu.address_space<workgroup>>
      %r = memref.load %v[%i] : memref<64xf32, #gpu.address_space<workgroup>>""")
    P.append(raw("memref.distinct_objects", "", "%x: memref<1024xf32>, %y: memref<1024xf32>, %o: memref<1024xf32>", """
      %i = gpu.thread_id x
      %a, %b = memref.distinct_objects %x, %y : memref<1024xf32>, memref<1024xf32>
      %u = memref.load %a[%i] : memref<1024xf32>
      %v = memref.load %b[%i] : memref<1024xf32>
      %r = arith.addf %u, %v : f32
      memref.store %r, %o[%i] : memref<1024xf32>""",
                 lambda r: [r.standard_normal(N).astype(np.float32), r.standard_normal(N).astype(np.float32),
                            np.zeros(N, np.float32)], [2]))
    # memory unknown where used (a flat pointer: cc/lower/LowerMemrefFlat.cpp)
    p("memref.memory_space_cast", "workgroup or global by a divergent arith.select (flat)", LDS_OR_GLOBAL + """
      %m = arith.select %ev, %g, %x : memref<1024xf32>""" + READ_REVERSED)
    p("memref.memory_space_cast", "private or global by arith.select, store through (flat)", """
      %pa = memref.alloca() : memref<1024xf32, #gpu.address_space<private>>
      %g = memref.memory_space_cast %pa : memref<1024xf32, #gpu.address_space<private>> to memref<1024xf32>
      %odd = arith.andi %i, %c1 : index
      %ev = arith.cmpi eq, %odd, %c0 : index
      %m = arith.select %ev, %g, %o : memref<1024xf32>
      %v = memref.load %x[%i] : memref<1024xf32>
      memref.store %v, %m[%i] : memref<1024xf32>
      %w = memref.load %m[%i] : memref<1024xf32>
      %r = arith.addf %w, %w : f32""")
    # memrefs through scf results (cc/lower/LowerMemrefCarries.cpp)
    p("scf.if", "yielding a workgroup or a global memref per lane (flat)", LDS_OR_GLOBAL + """
      %m = scf.if %ev -> memref<1024xf32> {
        scf.yield %g : memref<1024xf32>
      } else {
        scf.yield %x : memref<1024xf32>
      }""" + READ_REVERSED)
    p("scf.for", "carrying two workgroup buffers, swapped (LDS addresses)", """
      %la = memref.alloca() : memref<64xf32, #gpu.address_space<workgroup>>
      %lb = memref.alloca() : memref<64xf32, #gpu.address_space<workgroup>>
      %v = memref.load %x[%i] : memref<1024xf32>
      memref.store %v, %la[%i] : memref<64xf32, #gpu.address_space<workgroup>>
      %c3 = arith.constant 3 : index
      %s:2 = scf.for %k = %c0 to %c3 step %c1 iter_args(%a = %la, %b = %lb)
          -> (memref<64xf32, #gpu.address_space<workgroup>>, memref<64xf32, #gpu.address_space<workgroup>>) {
        %w = memref.load %a[%i] : memref<64xf32, #gpu.address_space<workgroup>>
        %w2 = arith.addf %w, %w : f32
        memref.store %w2, %b[%i] : memref<64xf32, #gpu.address_space<workgroup>>
        scf.yield %b, %a : memref<64xf32, #gpu.address_space<workgroup>>, memref<64xf32, #gpu.address_space<workgroup>>
      }
      %r = memref.load %s#0[%i] : memref<64xf32, #gpu.address_space<workgroup>>""")
    p("vector.load", "vector<4xf32> through a flat memref (select of workgroup and global)", """
      %l = memref.alloca() : memref<1024xf32, #gpu.address_space<workgroup>>
      %b4 = arith.muli %i, %c4 : index
      %xv = vector.load %x[%b4] : memref<1024xf32>, vector<4xf32>
      vector.store %xv, %l[%b4] : memref<1024xf32, #gpu.address_space<workgroup>>, vector<4xf32>
      gpu.barrier
      %g = memref.memory_space_cast %l : memref<1024xf32, #gpu.address_space<workgroup>> to memref<1024xf32>
      %odd = arith.andi %i, %c1 : index
      %ev = arith.cmpi eq, %odd, %c0 : index
      %m = arith.select %ev, %g, %x : memref<1024xf32>
      %vv = vector.load %m[%b4] : memref<1024xf32>, vector<4xf32>
      %r0 = vector.extract %vv[0] : f32 from vector<4xf32>
      %r3 = vector.extract %vv[3] : f32 from vector<4xf32>
      %r = arith.addf %r0, %r3 : f32""")
    # a constant tensor: a memref.global in the top-level module after
    # bufferization, moved into the gpu.module (LowerConstantTensor.cpp)
    p("memref.get_global", "of a constant tensor (bufferized)", """
      %t = arith.constant dense<[1.5, -2.0, 3.0, 4.0]> : tensor<4xf32>
      %c3 = arith.constant 3 : index
      %k = arith.andi %i, %c3 : index
      %r = tensor.extract %t[%k] : tensor<4xf32>""")
    # a workgroup global a device function uses (cc/lower/LowerModuleLds.cpp);
    # alwaysinline: llc-22 keeps calls otherwise (lower_suite_functions.py)
    p("memref.global", "workgroup memory, used by a device function", """
      %v = memref.load %x[%i] : memref<1024xf32>
      func.call @put(%v, %i) : (f32, index) -> ()
      gpu.barrier
      %g = memref.get_global @fbuf : memref<64xf32, #gpu.address_space<workgroup>>
      %c63 = arith.constant 63 : index
      %j = arith.subi %c63, %i : index
      %r = memref.load %g[%j] : memref<64xf32, #gpu.address_space<workgroup>>""",
      extra='    memref.global "private" @fbuf : memref<64xf32, #gpu.address_space<workgroup>>\n'
            '    func.func @put(%v: f32, %i: index) attributes {passthrough = ["alwaysinline"]} {\n'
            '      %g = memref.get_global @fbuf : memref<64xf32, #gpu.address_space<workgroup>>\n'
            '      memref.store %v, %g[%i] : memref<64xf32, #gpu.address_space<workgroup>>\n'
            '      return\n    }\n')
    p("memref.copy", "contiguous 16 elements (dwordx4 pieces)", """
      %c16 = arith.constant 16 : index
      %b = arith.muli %i, %c16 : index
      %s = memref.subview %x[%b] [16] [1] : memref<1024xf32> to memref<16xf32, strided<[1], offset: ?>>
      %d = memref.subview %o[%b] [16] [1] : memref<1024xf32> to memref<16xf32, strided<[1], offset: ?>>
      memref.copy %s, %d : memref<16xf32, strided<[1], offset: ?>> to memref<16xf32, strided<[1], offset: ?>>""",
      outs=(1,))
    return P
