"""Probes of vector ops.

Part of the coverage audit (aster.lowering.coverage: see its __init__)."""

import numpy as np

from .kernels import N, _gen, _np, elementwise, raw
from .probes_scf_cf import _f32_in


def _contract_f16_ref(a):
    """2x2x2 matmul per lane of f16 operands into f32: products exact in f32,
    the accumulator first, then the k = 0 and k = 1 products (the order of
    upstream's Dot lowering: an ordered vector.reduction with the acc)."""
    A = a[0][:128].view(np.float16).astype(np.float32).reshape(64, 2, 2)   # words: 2 halves each
    B = a[1][:128].view(np.float16).astype(np.float32).reshape(64, 2, 2)
    C = a[2][:256].view(np.float32).reshape(64, 2, 2)
    r = (C + A[:, :, 0:1] * B[:, 0:1, :]).astype(np.float32)
    r = (r + A[:, :, 1:2] * B[:, 1:2, :]).astype(np.float32)
    out = np.zeros_like(a[3])
    out[:256] = r.reshape(-1).view(np.int32)
    return {3: out}


def _lanes_ref(out_arg, words, fn):
    """A reference storing fn(lane's operand words...) -> `words` words of
    each of the 64 lanes in argument out_arg (the rest left zero)."""
    def ref(a):
        out = np.zeros_like(np.asarray(a[out_arg]))
        for i in range(64):
            out[i * words:(i + 1) * words] = fn(i, a)
        return {out_arg: out}
    return ref


def _f32x(a, k, i, n=4):
    return np.asarray(a[k]).view(np.float32)[n * i:n * i + n]


def _probes_vector():
    P = []
    V = "vector<4xf32>"

    def e(op, variant, body, ops, res, **kw):
        P.append(elementwise(op, variant, body, ops, res, **kw))
    for t in ("vector<4xf32>", "vector<8xf16>", "vector<4xi32>", "vector<2xi64>"):
        e("vector.bitcast", f"vector<4xi32> to {t}", f"      %r = vector.bitcast %a : vector<4xi32> to {t}",
          ["vector<4xi32>"], t)
    e("vector.bitcast", "vector<4xf16> to vector<8xi8>",
      "      %r = vector.bitcast %a : vector<4xf16> to vector<8xi8>", ["vector<4xf16>"], "vector<8xi8>")
    for t in ("f32", "i32", "f16", "i64"):
        e("vector.broadcast", f"{t} to vector<4x{t}>",
          f"      %r = vector.broadcast %a : {t} to vector<4x{t}>", [t], f"vector<4x{t}>")
    e("vector.broadcast", "vector<2xf32> to vector<2x2xf32> to vector<4xf32>",
      "      %s = vector.extract_strided_slice %a {offsets = [0], sizes = [2], strides = [1]} : vector<4xf32> to vector<2xf32>\n"
      "      %q = vector.broadcast %s : vector<2xf32> to vector<2x2xf32>\n"
      "      %r = vector.shape_cast %q : vector<2x2xf32> to vector<4xf32>", [V], V)
    e("vector.broadcast", "vector<2x1xf32> to vector<2x2xf32> (stretch)",
      "      %s = vector.extract_strided_slice %a {offsets = [0], sizes = [2], strides = [1]} : vector<4xf32> to vector<2xf32>\n"
      "      %s2 = vector.shape_cast %s : vector<2xf32> to vector<2x1xf32>\n"
      "      %q = vector.broadcast %s2 : vector<2x1xf32> to vector<2x2xf32>\n"
      "      %r = vector.shape_cast %q : vector<2x2xf32> to vector<4xf32>", [V], V)
    mask = ("      %c2m = arith.constant 2 : index\n"
            "      %mk = vector.create_mask %c2m : vector<4xi1>\n")
    e("vector.constant_mask", "", "      %mk = vector.constant_mask [3] : vector<4xi1>\n"
      "      %r = arith.select %mk, %a, %b : vector<4xi1>, vector<4xf32>", [V, V], V)
    e("vector.create_mask", "", mask + "      %r = arith.select %mk, %a, %b : vector<4xi1>, vector<4xf32>",
      [V, V], V)
    acc = "      %z = arith.constant 0.0 : f32\n"
    e("vector.contract", "dot f32",
      acc + "      %r = vector.contract {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, "
      "affine_map<(d0) -> ()>], iterator_types = [\"reduction\"], kind = #vector.kind<add>} %a, %b, %z "
      ": vector<4xf32>, vector<4xf32> into f32", [V, V], "f32", kind="small")
    for et, at in (("f32", "f32"), ("f16", "f32"), ("i32", "i32")):
        e("vector.contract", f"matmul 2x2x2 {et} into {at}",
          f"      %l = vector.shape_cast %a : vector<4x{et}> to vector<2x2x{et}>\n"
          f"      %m = vector.shape_cast %b : vector<4x{et}> to vector<2x2x{et}>\n"
          f"      %n = vector.shape_cast %c : vector<4x{at}> to vector<2x2x{at}>\n"
          "      %q = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, "
          "affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], "
          "iterator_types = [\"parallel\", \"parallel\", \"reduction\"], kind = #vector.kind<add>} "
          f"%l, %m, %n : vector<2x2x{et}>, vector<2x2x{et}> into vector<2x2x{at}>\n"
          f"      %r = vector.shape_cast %q : vector<2x2x{at}> to vector<4x{at}>",
          [f"vector<4x{et}>", f"vector<4x{et}>", f"vector<4x{at}>"], f"vector<4x{at}>", kind="small",
          **({"ref": _contract_f16_ref} if et != at else {}))
        if et != at:
            P[-1].no_llvm = ("convert-vector-to-llvm leaves a vector.contract of mixed types "
                             "unlowered; NumPy: the operands promoted to f32 (the op's "
                             "definition, VectorOps.td), each sum in order acc + p0 + p1")
    e("vector.deinterleave", "vector<4xf32>", "      %r, %r2 = vector.deinterleave %a : vector<4xf32> -> vector<2xf32>",
      [V], "vector<2xf32>", result2="vector<2xf32>")
    e("vector.interleave", "vector<4xf32>", "      %r = vector.interleave %a, %b : vector<4xf32> -> vector<8xf32>",
      [V, V], "vector<8xf32>")
    e("vector.extract", "static f32", "      %r = vector.extract %a[2] : f32 from vector<4xf32>", [V], "f32")
    e("vector.extract", "static f16", "      %r = vector.extract %a[3] : f16 from vector<4xf16>",
      ["vector<4xf16>"], "f16")
    e("vector.extract", "dynamic", "      %k = arith.andi %i, %c4 : index\n"
      "      %c3x = arith.constant 3 : index\n      %kk = arith.andi %i, %c3x : index\n"
      "      %r = vector.extract %a[%kk] : f32 from vector<4xf32>", [V], "f32")
    e("vector.insert", "static f32", "      %s = vector.extract %b[0] : f32 from vector<4xf32>\n"
      "      %r = vector.insert %s, %a[1] : f32 into vector<4xf32>", [V, V], V)
    e("vector.insert", "static f16", "      %s = vector.extract %b[0] : f16 from vector<4xf16>\n"
      "      %r = vector.insert %s, %a[1] : f16 into vector<4xf16>", ["vector<4xf16>"] * 2, "vector<4xf16>")
    e("vector.insert", "dynamic", "      %s = vector.extract %b[0] : f32 from vector<4xf32>\n"
      "      %c3x = arith.constant 3 : index\n      %kk = arith.andi %i, %c3x : index\n"
      "      %r = vector.insert %s, %a[%kk] : f32 into vector<4xf32>", [V, V], V)
    e("vector.extract_strided_slice", "2-D",
      "      %q = vector.shape_cast %a : vector<4xf32> to vector<2x2xf32>\n"
      "      %s = vector.extract_strided_slice %q {offsets = [1, 0], sizes = [1, 2], strides = [1, 1]} : vector<2x2xf32> to vector<1x2xf32>\n"
      "      %r = vector.shape_cast %s : vector<1x2xf32> to vector<2xf32>", [V], "vector<2xf32>")
    e("vector.insert_strided_slice", "1-D",
      "      %s = vector.extract_strided_slice %b {offsets = [0], sizes = [2], strides = [1]} : vector<4xf32> to vector<2xf32>\n"
      "      %r = vector.insert_strided_slice %s, %a {offsets = [1], strides = [1]} : vector<2xf32> into vector<4xf32>",
      [V, V], V)
    for t in ("vector<4xf32>", "vector<4xf16>", "vector<2xf64>"):
        e("vector.fma", t, f"      %r = vector.fma %a, %b, %c : {t}", [t, t, t], t)
    e("vector.from_elements", "f32", "      %s = vector.extract %a[1] : f32 from vector<4xf32>\n"
      "      %r = vector.from_elements %s, %s, %s, %s : vector<4xf32>", [V], V)
    e("vector.from_elements", "f16", "      %s = vector.extract %a[1] : f16 from vector<4xf16>\n"
      "      %r = vector.from_elements %s, %s, %s, %s : vector<4xf16>", ["vector<4xf16>"], "vector<4xf16>")
    e("vector.to_elements", "f32", "      %s:4 = vector.to_elements %a : vector<4xf32>\n"
      "      %r = arith.addf %s#0, %s#3 : f32", [V], "f32")
    e("vector.multi_reduction", "2x2 over dim 0",
      "      %q = vector.shape_cast %a : vector<4xf32> to vector<2x2xf32>\n"
      "      %s = vector.extract_strided_slice %b {offsets = [0], sizes = [2], strides = [1]} : vector<4xf32> to vector<2xf32>\n"
      "      %r = vector.multi_reduction <add>, %q, %s [0] : vector<2x2xf32> to vector<2xf32>", [V, V],
      "vector<2xf32>", kind="small",
      ref=_lanes_ref(2, 2, lambda i, a: (_f32x(a, 0, i).reshape(2, 2).sum(0)
                                         + _f32x(a, 1, i)[:2]).view(np.int32)))
    e("vector.multi_reduction", "2x2 over dim 1 (maxsi)",
      "      %q = vector.shape_cast %a : vector<4xi32> to vector<2x2xi32>\n"
      "      %s = vector.extract_strided_slice %b {offsets = [0], sizes = [2], strides = [1]} : vector<4xi32> to vector<2xi32>\n"
      "      %r = vector.multi_reduction <maxsi>, %q, %s [1] : vector<2x2xi32> to vector<2xi32>",
      ["vector<4xi32>"] * 2, "vector<2xi32>",
      ref=_lanes_ref(2, 2, lambda i, a: np.maximum(np.asarray(a[0])[4 * i:4 * i + 4].reshape(2, 2)
                                                   .max(1), np.asarray(a[1])[4 * i:4 * i + 2])))
    e("vector.outerproduct", "2x2 with acc",
      "      %s = vector.extract_strided_slice %a {offsets = [0], sizes = [2], strides = [1]} : vector<4xf32> to vector<2xf32>\n"
      "      %t = vector.extract_strided_slice %b {offsets = [0], sizes = [2], strides = [1]} : vector<4xf32> to vector<2xf32>\n"
      "      %q = vector.shape_cast %c : vector<4xf32> to vector<2x2xf32>\n"
      "      %o2 = vector.outerproduct %s, %t, %q {kind = #vector.kind<add>} : vector<2xf32>, vector<2xf32>\n"
      "      %r = vector.shape_cast %o2 : vector<2x2xf32> to vector<4xf32>", [V, V, V], V, kind="small")
    for k, t in (("add", "f32"), ("mul", "f32"), ("maxnumf", "f32"), ("minimumf", "f32"), ("add", "i32"),
                 ("xor", "i32"), ("maxui", "i32"), ("add", "f16"), ("add", "i64"), ("add", "f64")):
        e("vector.reduction", f"{k} {t}", f"      %r = vector.reduction <{k}>, %a : vector<4x{t}> into {t}",
          [f"vector<4x{t}>"], t, kind="small")
    e("vector.scan", "add inclusive",
      "      %z0 = arith.constant dense<0.0> : vector<f32>\n"
      "      %r, %s0 = vector.scan <add>, %a, %z0 {inclusive = true, reduction_dim = 0} : vector<4xf32>, vector<f32>\n"
      "      %r2 = vector.extract %s0[] : f32 from vector<f32>",
      [V], V, result2="f32", kind="small",
      ref=lambda a: {**_lanes_ref(1, 4, lambda i, a: np.cumsum(_f32x(a, 0, i)).view(np.int32))(a),
                     **_lanes_ref(2, 1, lambda i, a: _f32x(a, 0, i).sum(dtype=np.float32))(a)})
    e("vector.shape_cast", "4 -> 2x2 -> 4", "      %q = vector.shape_cast %a : vector<4xf32> to vector<2x2xf32>\n"
      "      %r = vector.shape_cast %q : vector<2x2xf32> to vector<4xf32>", [V], V)
    e("vector.shuffle", "f32", "      %r = vector.shuffle %a, %b [0, 5, 2, 7] : vector<4xf32>, vector<4xf32>",
      [V, V], V)
    e("vector.shuffle", "f16", "      %r = vector.shuffle %a, %b [3, 4, 1, 6] : vector<4xf16>, vector<4xf16>",
      ["vector<4xf16>"] * 2, "vector<4xf16>")
    e("vector.step", "", "      %s = vector.step : vector<4xindex>\n"
      "      %r = arith.index_cast %s : vector<4xindex> to vector<4xi32>", [V], "vector<4xi32>")
    e("vector.transpose", "2x2", "      %q = vector.shape_cast %a : vector<4xf32> to vector<2x2xf32>\n"
      "      %t = vector.transpose %q, [1, 0] : vector<2x2xf32> to vector<2x2xf32>\n"
      "      %r = vector.shape_cast %t : vector<2x2xf32> to vector<4xf32>", [V], V)
    # memory ops
    F = "%x: memref<1024xf32>, %o: memref<1024xf32>"
    head = ("      %i = gpu.thread_id x\n      %c0 = arith.constant 0 : index\n"
            "      %c1 = arith.constant 1 : index\n      %c2 = arith.constant 2 : index\n"
            "      %c4 = arith.constant 4 : index\n      %b = arith.muli %i, %c4 : index\n"
            "      %pad = arith.constant -1.0 : f32\n      %pv = arith.constant dense<-1.0> : vector<4xf32>\n"
            "      %mk = vector.create_mask %c2 : vector<4xi1>\n")
    out = "      vector.store %r, %o[%b] : memref<1024xf32>, vector<4xf32>\n"

    def m(op, variant, body, args=F, outs=(1,), inputs=_f32_in, **kw):
        P.append(raw(op, variant, args, head + body.strip("\n") + "\n" + (out if "%r =" in body else ""),
                     inputs, outs, **kw))
    for t, st in (("f32", "f32"), ("i32", "i32"), ("f16", "f16"), ("i8", "i8"), ("f64", "f64"),
                  ("bf16", "bf16")):
        P.append(raw("vector.load", t, f"%x: memref<1024x{st}>, %o: memref<1024x{st}>", f"""
      %i = gpu.thread_id x
      %c4 = arith.constant 4 : index
      %b = arith.muli %i, %c4 : index
      %r = vector.load %x[%b] : memref<1024x{st}>, vector<4x{t}>
      vector.store %r, %o[%b] : memref<1024x{st}>, vector<4x{t}>""",
                     lambda r, t=t: [_gen(t, N, r, "any"), np.zeros(N, _np(t))], [1], views={1: t}))
    m("vector.store", "2-D memref", """
      %e = memref.expand_shape %x [[0, 1]] output_shape [256, 4] : memref<1024xf32> into memref<256x4xf32>
      %v = vector.load %e[%i, %c0] : memref<256x4xf32>, vector<4xf32>
      %eo = memref.expand_shape %o [[0, 1]] output_shape [256, 4] : memref<1024xf32> into memref<256x4xf32>
      vector.store %v, %eo[%i, %c0] : memref<256x4xf32>, vector<4xf32>""")
    m("vector.maskedload", "", "      %r = vector.maskedload %x[%b], %mk, %pv : memref<1024xf32>, vector<4xi1>, vector<4xf32> into vector<4xf32>")
    m("vector.maskedstore", "", "      %v = vector.load %x[%b] : memref<1024xf32>, vector<4xf32>\n"
      "      vector.maskedstore %o[%b], %mk, %v : memref<1024xf32>, vector<4xi1>, vector<4xf32>")
    m("vector.expandload", "", "      %r = vector.expandload %x[%b], %mk, %pv : memref<1024xf32>, vector<4xi1>, vector<4xf32> into vector<4xf32>")
    m("vector.compressstore", "", "      %v = vector.load %x[%b] : memref<1024xf32>, vector<4xf32>\n"
      "      vector.compressstore %o[%b], %mk, %v : memref<1024xf32>, vector<4xi1>, vector<4xf32>")
    m("vector.gather", "", "      %iv = arith.constant dense<[3, 0, 2, 1]> : vector<4xindex>\n"
      "      %all = vector.constant_mask [4] : vector<4xi1>\n"
      "      %r = vector.gather %x[%b][%iv], %all, %pv : memref<1024xf32>, vector<4xindex>, vector<4xi1>, vector<4xf32> into vector<4xf32>")
    m("vector.gather", "masked", "      %iv = arith.constant dense<[3, 0, 2, 1]> : vector<4xindex>\n"
      "      %r = vector.gather %x[%b][%iv], %mk, %pv : memref<1024xf32>, vector<4xindex>, vector<4xi1>, vector<4xf32> into vector<4xf32>")
    m("vector.scatter", "", "      %iv = arith.constant dense<[3, 0, 2, 1]> : vector<4xindex>\n"
      "      %all = vector.constant_mask [4] : vector<4xi1>\n"
      "      %v = vector.load %x[%b] : memref<1024xf32>, vector<4xf32>\n"
      "      vector.scatter %o[%b][%iv], %all, %v : memref<1024xf32>, vector<4xindex>, vector<4xi1>, vector<4xf32>")
    m("vector.transfer_read", "in bounds", "      %r = vector.transfer_read %x[%b], %pad {in_bounds = [true]} : memref<1024xf32>, vector<4xf32>")
    m("vector.transfer_read", "masked", "      %r = vector.transfer_read %x[%b], %pad, %mk : memref<1024xf32>, vector<4xf32>")
    m("vector.transfer_read", "transposed 2-D (permutation map)", """
      %e = memref.expand_shape %x [[0, 1]] output_shape [256, 4] : memref<1024xf32> into memref<256x4xf32>
      %c63 = arith.constant 63 : index
      %w = arith.andi %i, %c63 : index
      %row = arith.muli %w, %c2 : index
      %t = vector.transfer_read %e[%row, %c0], %pad {in_bounds = [true, true], permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : memref<256x4xf32>, vector<2x2xf32>
      %r2 = vector.shape_cast %t : vector<2x2xf32> to vector<4xf32>
      %r = arith.addf %r2, %r2 : vector<4xf32>""")
    m("vector.transfer_read", "broadcast (0 result)", """
      %t = vector.transfer_read %x[%b], %pad {in_bounds = [true], permutation_map = affine_map<(d0) -> (0)>} : memref<1024xf32>, vector<4xf32>
      %r = arith.addf %t, %t : vector<4xf32>""")
    m("vector.transfer_read", "2-D minor identity", """
      %e = memref.expand_shape %x [[0, 1]] output_shape [256, 4] : memref<1024xf32> into memref<256x4xf32>
      %c63 = arith.constant 63 : index
      %w = arith.andi %i, %c63 : index
      %row = arith.muli %w, %c2 : index
      %t = vector.transfer_read %e[%row, %c0], %pad {in_bounds = [true, true]} : memref<256x4xf32>, vector<2x2xf32>
      %r2 = vector.shape_cast %t : vector<2x2xf32> to vector<4xf32>
      %r = arith.addf %r2, %r2 : vector<4xf32>""")
    m("vector.transfer_write", "masked", "      %v = vector.load %x[%b] : memref<1024xf32>, vector<4xf32>\n"
      "      vector.transfer_write %v, %o[%b], %mk : vector<4xf32>, memref<1024xf32>")
    m("vector.transfer_write", "transposed 2-D (permutation map)", """
      %v = vector.load %x[%b] : memref<1024xf32>, vector<4xf32>
      %q = vector.shape_cast %v : vector<4xf32> to vector<2x2xf32>
      %e = memref.expand_shape %o [[0, 1]] output_shape [256, 4] : memref<1024xf32> into memref<256x4xf32>
      vector.transfer_write %q, %e[%i, %c0] {in_bounds = [true, true], permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : vector<2x2xf32>, memref<256x4xf32>""")
    m("vector.mask", "around transfer_read", """
      %r = vector.mask %mk { vector.transfer_read %x[%b], %pad : memref<1024xf32>, vector<4xf32> } : vector<4xi1> -> vector<4xf32>""",
      ref=_lanes_ref(1, 4, lambda i, a: np.concatenate([_f32x(a, 0, i)[:2], [-1.0, -1.0]])),
      views={1: "f32"})
    m("vector.type_cast", "", """
      %e = memref.expand_shape %x [[0, 1]] output_shape [256, 4] : memref<1024xf32> into memref<256x4xf32>
      %s = memref.subview %e[0, 0] [1, 4] [1, 1] : memref<256x4xf32> to memref<1x4xf32, strided<[4, 1]>>
      %r = vector.load %x[%b] : memref<1024xf32>, vector<4xf32>""".replace(
        "%s = memref.subview %e[0, 0] [1, 4] [1, 1] : memref<256x4xf32> to memref<1x4xf32, strided<[4, 1]>>",
        "%tc = vector.type_cast %e : memref<256x4xf32> to memref<vector<256x4xf32>>"))
    P.extend(_probes_vector_narrow_memory())
    return P


def _probes_vector_narrow_memory():
    """Masked and out-of-bounds transfers of 1, 2 and 8-byte elements, odd
    vector sizes and memref.load of vector elements through type_cast
    (cc/lower/LowerVectorMasked.cpp, LowerVectorTypeCast.cpp)."""
    P = []
    head = ("      %i = gpu.thread_id x\n      %c2 = arith.constant 2 : index\n"
            "      %c4 = arith.constant 4 : index\n      %b = arith.muli %i, %c4 : index\n"
            "      %mk = vector.create_mask %c2 : vector<4xi1>\n")
    for t in ("f16", "bf16", "i8", "i16", "f64", "i64"):
        pad = "-1.5" if t[0] in "fb" else "7"
        vt = f"vector<4x{t}>"
        store = f"      vector.store %r, %o[%b] : memref<{N}x{t}>, {vt}\n"
        # the first 250 elements: lanes 62 and 63 leave the memref
        P.append(raw("vector.transfer_read", f"out of bounds {t}",
                     f"%x: memref<?x{t}>, %o: memref<{N}x{t}>", head +
                     f"      %pad = arith.constant {pad} : {t}\n"
                     f"      %r = vector.transfer_read %x[%b], %pad : memref<?x{t}>, {vt}\n" + store,
                     lambda r, t=t: [_gen(t, 250, r, "any"), np.zeros(N, _np(t))], [1],
                     views={1: t}))
        P.append(raw("vector.transfer_read", f"masked {t}",
                     f"%x: memref<{N}x{t}>, %o: memref<{N}x{t}>", head +
                     f"      %pad = arith.constant {pad} : {t}\n"
                     f"      %r = vector.transfer_read %x[%b], %pad, %mk {{in_bounds = [true]}} : "
                     f"memref<{N}x{t}>, {vt}\n" + store,
                     lambda r, t=t: [_gen(t, N, r, "any"), np.zeros(N, _np(t))], [1],
                     views={1: t}))
        P.append(raw("vector.transfer_write", f"masked, out of bounds {t}",
                     f"%x: memref<{N}x{t}>, %o: memref<?x{t}>", head +
                     f"      %v = vector.load %x[%b] : memref<{N}x{t}>, {vt}\n"
                     f"      vector.transfer_write %v, %o[%b], %mk : {vt}, memref<?x{t}>\n",
                     lambda r, t=t: [_gen(t, N, r, "any"), np.zeros(250, _np(t))], [1],
                     views={1: t}))
        P.append(raw("vector.maskedload", t, f"%x: memref<{N}x{t}>, %o: memref<{N}x{t}>", head +
                     f"      %pv = arith.constant dense<{pad}> : {vt}\n"
                     f"      %r = vector.maskedload %x[%b], %mk, %pv : memref<{N}x{t}>, "
                     f"vector<4xi1>, {vt} into {vt}\n" + store,
                     lambda r, t=t: [_gen(t, N, r, "any"), np.zeros(N, _np(t))], [1],
                     views={1: t}))
        P.append(raw("vector.maskedstore", t, f"%x: memref<{N}x{t}>, %o: memref<{N}x{t}>", head +
                     f"      %v = vector.load %x[%b] : memref<{N}x{t}>, {vt}\n"
                     f"      vector.maskedstore %o[%b], %mk, %v : memref<{N}x{t}>, vector<4xi1>, {vt}\n",
                     lambda r, t=t: [_gen(t, N, r, "any"), np.zeros(N, _np(t))], [1],
                     views={1: t}))
    for n, t in ((3, "i8"), (3, "f16"), (5, "i8"), (1, "i8"), (3, "bf16"), (3, "i16")):
        vt = f"vector<{n}x{t}>"
        P.append(raw("vector.load", vt, f"%x: memref<{N}x{t}>, %o: memref<{N}x{t}>",
                     f"      %i = gpu.thread_id x\n      %cn = arith.constant {n} : index\n"
                     f"      %b = arith.muli %i, %cn : index\n"
                     f"      %r = vector.load %x[%b] : memref<{N}x{t}>, {vt}\n"
                     f"      vector.store %r, %o[%b] : memref<{N}x{t}>, {vt}\n",
                     lambda r, t=t: [_gen(t, N, r, "any"), np.zeros(N, _np(t))], [1],
                     views={1: t}))
    P.append(raw("vector.type_cast", "memref.load / store of vector<4xf32> elements",
                 f"%x: memref<{N}xf32>, %o: memref<{N}xf32>", """
      %i = gpu.thread_id x
      %e = memref.expand_shape %x [[0, 1]] output_shape [256, 4] : memref<1024xf32> into memref<256x4xf32>
      %t = vector.type_cast %e : memref<256x4xf32> to memref<256xvector<4xf32>>
      %v = memref.load %t[%i] : memref<256xvector<4xf32>>
      %eo = memref.expand_shape %o [[0, 1]] output_shape [256, 4] : memref<1024xf32> into memref<256x4xf32>
      %to = vector.type_cast %eo : memref<256x4xf32> to memref<256xvector<4xf32>>
      memref.store %v, %to[%i] : memref<256xvector<4xf32>>""",
                 lambda r: [_gen("f32", N, r, "any"), np.zeros(N, np.float32)], [1],
                 views={1: "f32"}))
    return P
