"""Probes of arith and math ops.

Part of the coverage audit (aster.lowering.coverage: see its __init__)."""

from .kernels import FLOATS, INTS, VFLT, VINT, elementwise, i1_of, isfloat, lanes, unary, with_elem
from .refs import (clampf_ref, cmpf_ref, cmpi_ref, float_minmax_ref, fpclass_ref, int_binary_ref, math_ref,
                   remf_ref)


def _probes_arith():
    P = []
    vi = VINT + ("vector<4xi1>", "vector<4xindex>", "vector<4xi8>")
    for op in ("addi", "subi", "muli", "andi", "ori", "xori", "maxsi", "maxui", "minsi", "minui"):
        for t in INTS + vi:
            P.append(elementwise(f"arith.{op}", t, f"      %r = arith.{op} %a, %b : {t}", [t, t], t))
    for op in ("divsi", "divui", "remsi", "remui", "ceildivsi", "ceildivui", "floordivsi"):
        for t in INTS[1:] + VINT:
            P.append(elementwise(f"arith.{op}", t, f"      %r = arith.{op} %a, %b : {t}", [t, t], t,
                                 nonzero=True, ref=int_binary_ref(op, t)))
    for op in ("shli", "shrsi", "shrui"):
        for t in INTS[1:] + VINT:
            P.append(elementwise(f"arith.{op}", t, f"      %r = arith.{op} %a, %b : {t}", [t, t], t,
                                 shift=True))
    for op in ("addf", "subf", "mulf", "divf", "remf", "maxnumf", "minnumf", "maximumf", "minimumf"):
        for t in FLOATS + VFLT:
            P.append(elementwise(f"arith.{op}", t, f"      %r = arith.{op} %a, %b : {t}", [t, t], t,
                                 ref=remf_ref(t) if op == "remf" and t == "vector<4xf16>" else
                                 float_minmax_ref(op, t) if op in ("minimumf", "maximumf")
                                 and t == "vector<4xf16>" else None))
    for t in FLOATS + VFLT:
        P.append(elementwise("arith.negf", t, f"      %r = arith.negf %a : {t}", [t], t))
    preds = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")
    for t in INTS + ("vector<4xi32>", "vector<4xi64>"):
        for p in preds:
            P.append(elementwise("arith.cmpi", f"{p} {t}", f"      %r = arith.cmpi {p}, %a, %b : {t}",
                                 [t, t], i1_of(t)))
    fpreds = ("false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge",
              "ult", "ule", "une", "uno", "true")
    for t in FLOATS + ("vector<4xf32>", "vector<4xf16>"):
        for p in fpreds:
            P.append(elementwise("arith.cmpf", f"{p} {t}", f"      %r = arith.cmpf {p}, %a, %b : {t}",
                                 [t, t], i1_of(t), ref=cmpf_ref(p, t)))
    for t in INTS + FLOATS + ("vector<4xi32>", "vector<4xf32>", "vector<4xf16>", "vector<4xi64>"):
        cmp = "arith.cmpf olt" if isfloat(t) else "arith.cmpi slt"
        P.append(elementwise("arith.select", t, f"      %m = {cmp}, %a, %b : {t}\n"
                             f"      %r = arith.select %m, %a, %b : {i1_of(t)}, {t}", [t, t], t))
    for t in INTS + FLOATS:
        lit = {"i1": "true", "index": "12345"}.get(t, "1.5" if isfloat(t) else "-77")
        typ = "" if t == "i1" else f" : {t}"
        P.append(elementwise("arith.constant", t, f"      %r = arith.constant {lit}{typ}", [t], t))
    for t in ("vector<4xi32>", "vector<4xf32>", "vector<4xf16>"):
        lit = "[1.5, -2.0, 3.25, 0.0]" if isfloat(t) else "[1, -2, 300, 7]"
        P.append(elementwise("arith.constant", t, f"      %r = arith.constant dense<{lit}> : {t}",
                             [t], t))
    ext = [("i1", "i32"), ("i8", "i32"), ("i16", "i32"), ("i8", "i16"), ("i32", "i64"),
           ("i1", "i64"), ("i16", "i64"), ("vector<4xi16>", "vector<4xi32>"),
           ("vector<4xi32>", "vector<4xi64>")]
    for op in ("extsi", "extui"):
        for s, d in ext:
            P.append(elementwise(f"arith.{op}", f"{s} to {d}", f"      %r = arith.{op} %a : {s} to {d}",
                                 [s], d))
    for d, s in ext:
        P.append(elementwise("arith.trunci", f"{s} to {d}", f"      %r = arith.trunci %a : {s} to {d}",
                             [s], d))
    fext = [("f16", "f32"), ("bf16", "f32"), ("f32", "f64"), ("f16", "f64"), ("bf16", "f64"),
            ("vector<4xf16>", "vector<4xf32>")]
    for s, d in fext:
        P.append(elementwise("arith.extf", f"{s} to {d}", f"      %r = arith.extf %a : {s} to {d}", [s], d))
        P.append(elementwise("arith.truncf", f"{d} to {s}", f"      %r = arith.truncf %a : {d} to {s}",
                             [d], s))
    for op in ("sitofp", "uitofp"):
        for s in ("i8", "i16", "i32", "i64", "vector<4xi32>"):
            for d in (FLOATS if not lanes(s) else ("vector<4xf32>",)):
                P.append(elementwise(f"arith.{op}", f"{s} to {d}",
                                     f"      %r = arith.{op} %a : {s} to {d}", [s], d))
    for op, kind in (("fptosi", "fp_int"), ("fptoui", "fp_uint")):
        for s in FLOATS + ("vector<4xf32>",):
            for d in (("i8", "i16", "i32", "i64") if not lanes(s) else ("vector<4xi32>",)):
                P.append(elementwise(f"arith.{op}", f"{s} to {d}",
                                     f"      %r = arith.{op} %a : {s} to {d}", [s], d, kind=kind))
    for op in ("index_cast", "index_castui"):
        for s, d in (("i32", "index"), ("index", "i32"), ("i64", "index"), ("index", "i64"),
                     ("i8", "index"), ("index", "i16"), ("vector<4xi32>", "vector<4xindex>")):
            P.append(elementwise(f"arith.{op}", f"{s} to {d}", f"      %r = arith.{op} %a : {s} to {d}",
                                 [s], d))
    for s, d in (("f32", "i32"), ("i32", "f32"), ("f16", "i16"), ("i16", "f16"), ("bf16", "i16"),
                 ("f16", "bf16"), ("f64", "i64"), ("i64", "f64"), ("vector<4xf32>", "vector<4xi32>"),
                 ("vector<4xf16>", "vector<4xi16>")):
        P.append(elementwise("arith.bitcast", f"{s} to {d}", f"      %r = arith.bitcast %a : {s} to {d}",
                             [s], d))
    for op in ("addui_extended",):
        for t in ("i32", "i64", "i16", "vector<4xi32>"):
            P.append(elementwise(f"arith.{op}", t, f"      %r, %r2 = arith.{op} %a, %b : {t}, {i1_of(t)}",
                                 [t, t], t, result2=i1_of(t)))
    for op in ("mulsi_extended", "mului_extended"):
        for t in ("i32", "i64", "i16", "vector<4xi32>"):
            P.append(elementwise(f"arith.{op}", t, f"      %r, %r2 = arith.{op} %a, %b : {t}",
                                 [t, t], t, result2=t))
    return P + _probes_i8_vectors()


def _probes_i8_vectors():
    """Elementwise ops and casts of vector<4xi8> beyond the table above
    (issue 26: vectors of i8)."""
    P = []
    t = "vector<4xi8>"
    for op in ("divsi", "divui", "remsi", "remui"):
        P.append(elementwise(f"arith.{op}", t, f"      %r = arith.{op} %a, %b : {t}", [t, t], t,
                             nonzero=True))
    for op in ("shli", "shrsi", "shrui"):
        P.append(elementwise(f"arith.{op}", t, f"      %r = arith.{op} %a, %b : {t}", [t, t], t,
                             shift=True))
    for p in ("eq", "slt", "ult"):
        P.append(elementwise("arith.cmpi", f"{p} {t}", f"      %r = arith.cmpi {p}, %a, %b : {t}",
                             [t, t], i1_of(t), ref=cmpi_ref(p, t)))
    P.append(elementwise("arith.select", t, f"      %m = arith.cmpi slt, %a, %b : {t}\n"
                         f"      %r = arith.select %m, %a, %b : {i1_of(t)}, {t}", [t, t], t))
    for op in ("extsi", "extui"):
        P.append(elementwise(f"arith.{op}", f"{t} to vector<4xi32>",
                             f"      %r = arith.{op} %a : {t} to vector<4xi32>", [t], "vector<4xi32>"))
    P.append(elementwise("arith.trunci", f"vector<4xi32> to {t}",
                         f"      %r = arith.trunci %a : vector<4xi32> to {t}", ["vector<4xi32>"], t))
    P.append(elementwise("arith.sitofp", f"{t} to vector<4xf32>",
                         f"      %r = arith.sitofp %a : {t} to vector<4xf32>", [t], "vector<4xf32>"))
    for op in ("absi", "ctpop"):
        P.append(elementwise(f"math.{op}", t, f"      %r = math.{op} %a : {t}", [t], t))
    return P


_MATH_UNARY = ("absf", "acos", "acosh", "asin", "asinh", "atan", "atanh", "cbrt", "ceil", "cos",
               "cosh", "erf", "erfc", "exp", "exp2", "expm1", "floor", "log", "log10", "log1p",
               "log2", "round", "roundeven", "rsqrt", "sin", "sinh", "sqrt", "tan", "tanh", "trunc")


def _probes_math():
    P = []
    ts = FLOATS + ("vector<4xf32>",)
    for op in _MATH_UNARY:
        P += unary(f"math.{op}", ts, f"      %r = math.{op} %a : TYPE")
    for op in ("atan2", "copysign", "powf"):
        for t in ts:
            P.append(elementwise(f"math.{op}", t, f"      %r = math.{op} %a, %b : {t}", [t, t], t))
    for t in ts:
        P.append(elementwise("math.fma", t, f"      %r = math.fma %a, %b, %c : {t}", [t, t, t], t))
        P.append(elementwise("math.clampf", t, f"      %r = math.clampf %a to [%b, %c] : {t}",
                             [t, t, t], t, ref=clampf_ref(t)))
        for op in ("isfinite", "isinf", "isnan", "isnormal"):
            P.append(elementwise(f"math.{op}", t, f"      %r = math.{op} %a : {t}", [t], i1_of(t),
                                 ref=fpclass_ref(op, t) if op in ("isinf", "isnormal") else None))
        P.append(elementwise("math.sincos", t, f"      %r, %r2 = math.sincos %a : {t}", [t], t,
                             result2=t))
        if t == "f16":
            # aster's f16 sincos is its f16 sin and cos (f32 v_sin / v_cos,
            # as upstream builds math.sin / cos of f16); upstream builds
            # math.sincos of f16 as llvm.sincos.f16 instead, which llc-22
            # -mcpu=gfx942 selects as v_sin_f16 / v_cos_f16 (f16 precision)
            P[-1].no_llvm = ("LLVM's build of f16 sincos is llvm.sincos.f16 (v_sin/cos_f16), of "
                             "f16 sin and cos f32 v_sin/cos_f32: aster gives sin's and cos's")
        P.append(elementwise("math.fpowi", t, f"      %n = arith.constant 3 : i32\n"
                             + (f"      %nv = vector.broadcast %n : i32 to {with_elem(t, 'i32')}\n"
                                if lanes(t) else "")
                             + f"      %r = math.fpowi %a, %{'nv' if lanes(t) else 'n'} : {t}, "
                               f"{with_elem(t, 'i32')}", [t], t))
    for t in ("i8", "i16", "i32", "i64", "vector<4xi32>"):
        for op in ("absi", "ctlz", "ctpop", "cttz"):
            P.append(elementwise(f"math.{op}", t, f"      %r = math.{op} %a : {t}", [t], t))
        P.append(elementwise("math.ipowi", t, f"      %r = math.ipowi %a, %b : {t}", [t, t], t,
                             shift=True, ref=int_binary_ref("ipowi", t)))
    for p in P:
        p.mlir = p.mlir.replace("TYPE", p.variant)
        if p.ref is None:   # the integer / classification refs set above stay
            p.ref, p.ulp = math_ref(p.op.split(".")[1], p.variant)
    return P
