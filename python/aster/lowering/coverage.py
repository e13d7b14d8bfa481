"""Coverage audit of aster.lower, op by op, from upstream MLIR's own op lists.

    python -m aster.lowering.coverage [--markdown] [--ops vector.step,...] [--sample]

The ops come from the MLIR 22 libraries aster links (`_aster.upstream_ops()`:
the operations the dialects' C++ registers), never from a list typed here.
For every op of the dialects of issue 26 item 2 (gpu, arith, math, scf, cf,
memref, vector, amdgpu) this module holds either probes (tiny generated
kernels: the op on one or more element types, scalars and vectors) or the
reason the op is out of scope (host-side ops, other vendors' ops, ...);
`unlisted()` names an upstream op that has neither, so a new upstream op
cannot slip by.

Each probe is lowered by aster.lower and, when it lowers, run on the
emulator (strict mode) next to LLVM's build of the same text
(aster.lowering.llvm: convert-gpu-to-rocdl + llc-22) on the same random
inputs; where the probe has a NumPy reference that is checked too. The
outcome of a probe:

    ok          lowers, runs, and equals LLVM's build (bit for bit; a NaN
                matches any NaN) and NumPy where given
    ok~N        lowers; floats within N ulp of LLVM's build (N <= 4)
    ok-nollvm   lowers and equals NumPy; LLVM cannot build it here (why:
                the `llvm` column / reason)
    lowers      lowers and runs; no oracle (LLVM cannot build it, no NumPy)
    differs     lowers, but disagrees with LLVM's build or NumPy (a bug)
    error       a located AsterError naming the probed op (a gap if the op
                is in scope)
    error-other a located AsterError naming another op of the probe's
                scaffolding (the gap is that op's)
    bad-error   an error without the op's name and location (a bug)
    crash       the process died or hung (a bug)
"""
import concurrent.futures as cf_
import re
import sys
from dataclasses import dataclass, field

import numpy as np

DIALECTS = ("gpu", "arith", "math", "scf", "cf", "memref", "vector", "amdgpu")

# ---------------------------------------------------------------------------
# Ops out of scope of item 2, with the reason (the audit expects an error).
# ---------------------------------------------------------------------------
_HOST = "host side of a GPU program (runs on the CPU, not in a kernel)"
_SPARSE = "sparse-library calls of the host (cuSPARSE-style), not kernel code"
_STRUCT = "structural (a terminator or region holder; probed through its parent op)"
_NV = "NVIDIA's WMMA fragment ops (lowered to NVVM / SPIR-V only); AMD's path is amdgpu.mfma"
_SCALABLE = "scalable vectors (Arm SVE / RISC-V V); AMD GPUs have none"
_GFX12 = "gfx11 / gfx12 / gfx1250 instructions (WMMA, tensor DMA); not gfx942 / gfx950"
OUT_OF_SCOPE = {
    **{f"gpu.{n}": _HOST for n in (
        "alloc", "dealloc", "memcpy", "memset", "wait", "host_register", "host_unregister",
        "launch", "launch_func", "set_default_device", "binary")},
    **{f"gpu.{n}": _SPARSE for n in (
        "create_2to4_spmat", "create_bsr", "create_coo", "create_coo_aos", "create_csc",
        "create_csr", "create_dn_tensor", "destroy_dn_tensor", "destroy_sp_mat", "sddmm",
        "sddmm_buffer_size", "set_csr_pointers", "spgemm_copy", "spgemm_create_descr",
        "spgemm_destroy_descr", "spgemm_work_estimation_or_compute", "spmat_get_size", "spmm",
        "spmm_buffer_size", "spmv", "spmv_buffer_size")},
    **{f"gpu.{n}": _NV for n in (
        "subgroup_mma_compute", "subgroup_mma_constant_matrix", "subgroup_mma_elementwise",
        "subgroup_mma_extract_thread_local", "subgroup_mma_insert_thread_local",
        "subgroup_mma_load_matrix", "subgroup_mma_store_matrix")},
    **{f"gpu.{n}": _STRUCT for n in ("module", "func", "return", "terminator", "yield")},
    "gpu.printf": "device printf needs the host's printf buffer (hostcall); no such runtime here",
    "gpu.warp_execute_on_lane_0": "vector distribution's staging op: upstream's "
                                  "vector-warp-distribute rewrites it before any backend",
    "scf.condition": _STRUCT, "scf.yield": _STRUCT, "scf.reduce.return": _STRUCT,
    "scf.forall.in_parallel": "tensor-only terminator of scf.forall (bufferize first)",
    "cf.assert": "aborts the program with a message: needs the host's hostcall runtime",
    "memref.alloc": "heap allocation in a kernel (malloc): GPU kernels allocate in LDS / scratch",
    "memref.dealloc": "heap deallocation (see memref.alloc)",
    "memref.realloc": "heap reallocation (see memref.alloc)",
    "memref.dma_start": "a DMA engine's ops (no upstream GPU lowering)",
    "memref.dma_wait": "a DMA engine's ops (no upstream GPU lowering)",
    "memref.alloca_scope.return": _STRUCT, "memref.atomic_yield": _STRUCT,
    "vector.print": "printing from a kernel needs the host's printf runtime",
    "vector.yield": _STRUCT,
    "vector.scalable.extract": _SCALABLE, "vector.scalable.insert": _SCALABLE,
    "vector.vscale": _SCALABLE,
    "arith.scaling_extf": "OCP MX block-scaled f8/f6/f4 conversions: f8 values are no kernel "
                          "argument type; gfx950's cvt_scale ops are reached by amdgpu.scaled_*",
    "arith.scaling_truncf": "OCP MX block-scaled conversions (see arith.scaling_extf)",
    **{f"amdgpu.{n}": _GFX12 for n in (
        "wmma", "tensor_load_to_lds", "tensor_store_from_lds", "make_dma_base",
        "make_dma_descriptor", "make_gather_dma_base", "make_gather_dma_descriptor",
        "scaled_wmma")},
}

# ---------------------------------------------------------------------------
# Types
# ---------------------------------------------------------------------------
INTS = ("i1", "i8", "i16", "i32", "i64", "index")
FLOATS = ("f16", "bf16", "f32", "f64")
VINT = ("vector<4xi32>", "vector<4xi16>", "vector<4xi64>")
VFLT = ("vector<4xf32>", "vector<4xf16>", "vector<4xf64>")


def _np(e):
    if e == "bf16":
        import ml_dtypes
        return np.dtype(ml_dtypes.bfloat16)
    return np.dtype({"i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64,
                     "f16": np.float16, "f32": np.float32, "f64": np.float64,
                     "i1": np.int32, "index": np.int32}[e])


def elem(t):
    m = re.fullmatch(r"vector<(?:\d+x)*(\w+)>", t)
    return m.group(1) if m else t


def lanes(t):
    m = re.fullmatch(r"vector<((?:\d+x)*)\w+>", t)
    return int(np.prod([int(d) for d in m.group(1).split("x")[:-1]])) if m else 0


def bits(e):
    return {"i1": 1, "index": 32}.get(e) or int(e.lstrip("ibf").lstrip("f") or 16)


def _bits(e):
    return 16 if e == "bf16" else 1 if e == "i1" else 32 if e == "index" else int(e[1:])


def isfloat(t):
    return elem(t).startswith(("f", "bf"))


def i1_of(t):
    n = lanes(t)
    return f"vector<{n}xi1>" if n else "i1"


def with_elem(t, e):
    n = lanes(t)
    return f"vector<{n}x{e}>" if n else e


# ---------------------------------------------------------------------------
# Probes
# ---------------------------------------------------------------------------
@dataclass
class Probe:
    op: str                    # the upstream op probed
    variant: str               # its types / mode, for the table
    mlir: str = ""             # the whole module (filled by the builders)
    kernel: str = "probe"
    grid: tuple = (1, 1, 1)
    block: tuple = (64, 1, 1)
    inputs: object = None      # rng -> list of arrays (kernel arguments)
    ref: object = None         # inputs -> {argument index: expected array} (NumPy)
    outs: tuple = ()           # argument indices the kernel writes
    views: dict = field(default_factory=dict)   # {arg index: element dtype name} to compare in
    launch: dict = field(default_factory=dict)


def _module(body, extra=""):
    return ("module attributes {gpu.container_module} {\n  gpu.module @kernels {\n"
            + extra + body + "\n  }\n}\n")


N = 1024   # elements of every probe array


def _load(t, name, arr):
    """Lines loading operand `name` of type t from memref `arr` at lane %i."""
    e, n = elem(t), lanes(t)
    if not n:
        st = "i32" if e in ("i1", "index") else e
        s = f"      %{name}_w = memref.load %{arr}[%i] : memref<{N}x{st}>\n"
        if e == "i1":
            return s + f"      %{name} = arith.trunci %{name}_w : i32 to i1\n"
        if e == "index":
            return s + f"      %{name} = arith.index_cast %{name}_w : i32 to index\n"
        return s.replace(f"%{name}_w =", f"%{name} =")
    if e in ("i1", "index"):
        s = (f"      %{name}_at = arith.muli %i, %c{n} : index\n"
             f"      %{name}_w = vector.load %{arr}[%{name}_at] : memref<{N}xi32>, vector<{n}xi32>\n")
        op = "arith.trunci" if e == "i1" else "arith.index_cast"
        return s + f"      %{name} = {op} %{name}_w : vector<{n}xi32> to {t}\n"
    w = n * _bits(e) // 32
    return (f"      %{name}_at = arith.muli %i, %c{w} : index\n"
            f"      %{name}_w = vector.load %{arr}[%{name}_at] : memref<{N}xi32>, vector<{w}xi32>\n"
            + (f"      %{name} = vector.bitcast %{name}_w : vector<{w}xi32> to {t}\n"
               if t != f"vector<{w}xi32>" else
               f"      %{name} = arith.addi %{name}_w, %{name}_w0 : vector<{w}xi32>\n"
               .replace(f"arith.addi %{name}_w, %{name}_w0", f"arith.ori %{name}_w, %{name}_w")))


def _store(t, name, arr):
    e, n = elem(t), lanes(t)
    if not n:
        if e == "i1":
            return (f"      %{name}_s = arith.extui %{name} : i1 to i32\n"
                    f"      memref.store %{name}_s, %{arr}[%i] : memref<{N}xi32>\n")
        if e == "index":
            return (f"      %{name}_s = arith.index_cast %{name} : index to i32\n"
                    f"      memref.store %{name}_s, %{arr}[%i] : memref<{N}xi32>\n")
        return f"      memref.store %{name}, %{arr}[%i] : memref<{N}x{e}>\n"
    if e in ("i1", "index"):
        op = "arith.extui" if e == "i1" else "arith.index_cast"
        return (f"      %{name}_s = {op} %{name} : {t} to vector<{n}xi32>\n"
                f"      %{name}_at = arith.muli %i, %c{n} : index\n"
                f"      vector.store %{name}_s, %{arr}[%{name}_at] : memref<{N}xi32>, vector<{n}xi32>\n")
    w = n * _bits(e) // 32
    cast = (f"      %{name}_s = vector.bitcast %{name} : {t} to vector<{w}xi32>\n"
            if t != f"vector<{w}xi32>" else f"      %{name}_s = arith.ori %{name}, %{name} : {t}\n")
    return (cast + f"      %{name}_at = arith.muli %i, %c{w} : index\n"
            f"      vector.store %{name}_s, %{arr}[%{name}_at] : memref<{N}xi32>, vector<{w}xi32>\n")


def _storage(t):
    e, n = elem(t), lanes(t)
    if n or e in ("i1", "index"):
        return "i32"
    return e


def _view(t):
    """The dtype name the stored words of t are compared in."""
    e = elem(t)
    return "i32" if e in ("i1", "index") else e


def _gen(e, count, rng, kind):
    """`count` random values of element type e (the NumPy dtype of its storage)."""
    if e in ("f16", "bf16", "f32", "f64"):
        x = rng.standard_normal(count) * 4
        if kind == "fp_int":
            x = rng.integers(-100, 100, count).astype(np.float64) + rng.random(count) * 0.9
        elif kind == "fp_uint":
            x = rng.integers(0, 100, count) + rng.random(count) * 0.9
        elif kind == "small":
            x = rng.integers(-4, 5, count).astype(np.float64)
        else:
            x[:8] = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5]
        return x.astype(_np(e))
    w = _bits(e)
    if kind == "small":
        return rng.integers(-4, 5, count).astype(_np(e))
    if e == "i1":
        return rng.integers(0, 2, count).astype(np.int32)
    if e == "index":
        return rng.integers(-2**20, 2**20, count).astype(np.int32)
    return rng.integers(-2**(w - 1), 2**(w - 1), count, dtype=np.int64).astype(_np(e))


def _operand(t, rng, kind="any", nonzero=False, shift=False):
    """The storage array for an operand of type t."""
    e, n = elem(t), lanes(t)
    if n and e not in ("i1", "index"):
        cnt = N * 32 // _bits(e)
    else:
        cnt = N
    x = _gen(e, cnt, rng, kind)
    if nonzero:
        x = np.where((x == 0) | (x == -1), 3, x).astype(x.dtype)
    if shift:
        x = (np.abs(x.astype(np.int64)) % _bits(e)).astype(x.dtype)
    if n and e not in ("i1", "index"):
        return x.view(np.uint8).view(np.int32).copy()
    return x


def unary(op, ts, body, res=None, kind="any", ref=None):
    """Probes of `body` (text using %a, defining %r) for each type in ts."""
    return [elementwise(op, t, body, [t], res(t) if res else t, kind=kind, ref=ref) for t in ts]


def elementwise(op, variant, body, operand_types, result, kind="any", nonzero=False,
                shift=False, ref=None, result2=None):
    """A kernel loading operands %a, %b, %c (types), running `body`, storing
    %r (and %r2) of type result (result2)."""
    names = "abc"
    lines = ["      %i = gpu.thread_id x\n"]
    cs = sorted({lanes(t) * _bits(elem(t)) // 32 if lanes(t) and elem(t) not in ("i1", "index")
                 else lanes(t) for t in list(operand_types) + [result] + ([result2] if result2 else [])
                 if lanes(t)} | {4})
    for c in cs:
        lines.append(f"      %c{c} = arith.constant {c} : index\n")
    for k, t in enumerate(operand_types):
        lines.append(_load(t, names[k], "xyz"[k]))
    lines.append(body.strip("\n") + "\n")
    lines.append(_store(result, "r", "o"))
    if result2:
        lines.append(_store(result2, "r2", "p"))
    args = [f"%{'xyz'[k]}: memref<{N}x{_storage(t)}>" for k, t in enumerate(operand_types)]
    args.append(f"%o: memref<{N}x{_storage(result)}>")
    if result2:
        args.append(f"%p: memref<{N}x{_storage(result2)}>")
    text = _module(f"""    gpu.func @probe({", ".join(args)}) kernel
        attributes {{known_block_size = array<i32: 64, 1, 1>}} {{
{"".join(lines)}      gpu.return
    }}""")
    nin = len(operand_types)

    def inputs(rng):
        a = [_operand(t, rng, kind, nonzero and k == 1, shift and k == 1)
             for k, t in enumerate(operand_types)]
        a.append(np.zeros(N, _np(_storage(result))))
        if result2:
            a.append(np.zeros(N, _np(_storage(result2))))
        return a
    outs = (nin,) + ((nin + 1,) if result2 else ())
    views = {nin: _view(result)}
    if result2:
        views[nin + 1] = _view(result2)
    return Probe(op, variant, text, inputs=inputs, outs=outs, views=views, ref=ref)


def raw(op, variant, args, body, inputs, outs, views=None, extra="", grid=(1, 1, 1),
        block=(64, 1, 1), ref=None, launch=None, attrs=None):
    """A probe written out: `args` the gpu.func's parameters, `body` its body."""
    kb = attrs or f"known_block_size = array<i32: {block[0]}, {block[1]}, {block[2]}>"
    # workgroup memory as upstream kernels hold it: workgroup attributions
    wg = re.findall(r"^\s*(%\w+) = memref\.alloca\(\) : (memref<[^\n]*workgroup>>)\n", body, re.M)
    body = re.sub(r"^\s*%\w+ = memref\.alloca\(\) : memref<[^\n]*workgroup>>\n", "", body, flags=re.M)
    wgs = (" workgroup(" + ", ".join(f"{n}: {t}" for n, t in wg) + ")") if wg else ""
    text = _module(f"""    gpu.func @probe({args}){wgs} kernel
        attributes {{{kb}}} {{
{body.strip(chr(10))}
      gpu.return
    }}""", extra)
    return Probe(op, variant, text, grid=grid, block=block, inputs=inputs, ref=ref,
                 outs=tuple(outs), views=views or {}, launch=launch or {})


def _probes_arith():
    P = []
    vi = VINT + ("vector<4xi1>", "vector<4xindex>", "vector<4xi8>")
    for op in ("addi", "subi", "muli", "andi", "ori", "xori", "maxsi", "maxui", "minsi", "minui"):
        for t in INTS + vi:
            P.append(elementwise(f"arith.{op}", t, f"      %r = arith.{op} %a, %b : {t}", [t, t], t))
    for op in ("divsi", "divui", "remsi", "remui", "ceildivsi", "ceildivui", "floordivsi"):
        for t in INTS[1:] + VINT:
            P.append(elementwise(f"arith.{op}", t, f"      %r = arith.{op} %a, %b : {t}", [t, t], t,
                                 nonzero=True))
    for op in ("shli", "shrsi", "shrui"):
        for t in INTS[1:] + VINT:
            P.append(elementwise(f"arith.{op}", t, f"      %r = arith.{op} %a, %b : {t}", [t, t], t,
                                 shift=True))
    for op in ("addf", "subf", "mulf", "divf", "remf", "maxnumf", "minnumf", "maximumf", "minimumf"):
        for t in FLOATS + VFLT:
            P.append(elementwise(f"arith.{op}", t, f"      %r = arith.{op} %a, %b : {t}", [t, t], t))
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
                                 [t, t], i1_of(t)))
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
                             [t, t, t], t))
        for op in ("isfinite", "isinf", "isnan", "isnormal"):
            P.append(elementwise(f"math.{op}", t, f"      %r = math.{op} %a : {t}", [t], i1_of(t)))
        P.append(elementwise("math.sincos", t, f"      %r, %r2 = math.sincos %a : {t}", [t], t,
                             result2=t))
        P.append(elementwise("math.fpowi", t, f"      %n = arith.constant 3 : i32\n"
                             + (f"      %nv = vector.broadcast %n : i32 to {with_elem(t, 'i32')}\n"
                                if lanes(t) else "")
                             + f"      %r = math.fpowi %a, %{'nv' if lanes(t) else 'n'} : {t}, "
                               f"{with_elem(t, 'i32')}", [t], t))
    for t in ("i8", "i16", "i32", "i64", "vector<4xi32>"):
        for op in ("absi", "ctlz", "ctpop", "cttz"):
            P.append(elementwise(f"math.{op}", t, f"      %r = math.{op} %a : {t}", [t], t))
        P.append(elementwise("math.ipowi", t, f"      %r = math.ipowi %a, %b : {t}", [t, t], t,
                             shift=True))
    for p in P:
        p.mlir = p.mlir.replace("TYPE", p.variant)
    return P


def _lane_store():
    return "      %v = arith.index_cast %r : index to i32\n      memref.store %v, %o[%lin] : memref<1024xi32>\n"


def _linear():
    return """      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %tz = gpu.thread_id z
      %bx = gpu.block_id x
      %c16 = arith.constant 16 : index
      %c32 = arith.constant 32 : index
      %c64 = arith.constant 64 : index
      %l1 = arith.muli %ty, %c16 : index
      %l2 = arith.muli %tz, %c32 : index
      %l3 = arith.muli %bx, %c64 : index
      %l4 = arith.addi %l1, %l2 : index
      %l5 = arith.addi %l4, %l3 : index
      %lin = arith.addi %l5, %tx : index
"""


def _zeros_i32(rng):
    return [np.zeros(N, np.int32)]


def _probes_gpu():
    P = []
    for op in ("thread_id", "block_id", "block_dim", "grid_dim", "global_id", "cluster_id",
               "cluster_dim", "cluster_block_id", "cluster_dim_blocks"):
        for d in "xyz":
            P.append(raw(f"gpu.{op}", d, "%o: memref<1024xi32>",
                         _linear() + f"      %r = gpu.{op} {d}\n" + _lane_store(), _zeros_i32, [0],
                         grid=(2, 1, 1), block=(16, 2, 2),
                         attrs="known_block_size = array<i32: 16, 2, 2>"))
    for op in ("lane_id", "subgroup_size", "num_subgroups", "subgroup_id"):
        P.append(raw(f"gpu.{op}", "", "%o: memref<1024xi32>",
                     _linear() + f"      %r = gpu.{op}{'' if op == 'lane_id' else ' : index'}\n" + _lane_store(), _zeros_i32, [0],
                     grid=(2, 1, 1), block=(16, 2, 2),
                     attrs="known_block_size = array<i32: 16, 2, 2>"))
    P.append(elementwise("gpu.barrier", "", "      gpu.barrier\n      %r = arith.addi %a, %a : i32",
                         ["i32"], "i32"))
    for mode, off in (("xor", 5), ("up", 3), ("down", 3), ("idx", 7)):
        for t in ("i32", "f32", "i64", "f64", "f16", "i16", "i8", "vector<2xf16>"):
            for w in (64, 16):
                P.append(elementwise("gpu.shuffle", f"{mode} {t} width {w}",
                                     f"      %off = arith.constant {off} : i32\n"
                                     f"      %w = arith.constant {w} : i32\n"
                                     f"      %r, %ok = gpu.shuffle {mode} %a, %off, %w : {t}",
                                     [t], t))
    for t in ("i32", "f32", "f16", "i64"):
        P.append(elementwise("gpu.rotate", f"{t}", f"      %r, %ok = gpu.rotate %a, 5, 32 : {t}",
                             [t], t))
        P.append(elementwise("gpu.subgroup_broadcast", f"specific_lane {t}",
                             f"      %l = arith.constant 9 : i32\n"
                             f"      %r = gpu.subgroup_broadcast %a, specific_lane %l : {t}", [t], t))
        P.append(elementwise("gpu.subgroup_broadcast", f"first_active_lane {t}",
                             f"      %r = gpu.subgroup_broadcast %a, first_active_lane : {t}", [t], t))
    ikinds = ("add", "mul", "minui", "minsi", "maxui", "maxsi", "and", "or", "xor")
    fkinds = ("add", "mul", "minnumf", "maxnumf", "minimumf", "maximumf")
    for t in ("i32", "i64", "i16", "i8", "f32", "f64", "f16"):
        for k in (fkinds if isfloat(t) else ikinds):
            for cl in ("", " cluster(size = 4)", " cluster(size = 8, stride = 2)"):
                P.append(elementwise("gpu.subgroup_reduce", f"{k} {t}{cl}",
                                     f"      %r = gpu.subgroup_reduce {k} %a{cl} : ({t}) -> {t}",
                                     [t], t, kind="small"))
            P.append(elementwise("gpu.all_reduce", f"{k} {t}",
                                 f"      %r = gpu.all_reduce {k} %a uniform {{}} : ({t}) -> {t}",
                                 [t], t, kind="small"))
    P.append(raw("gpu.dynamic_shared_memory", "", "%x: memref<1024xf32>, %o: memref<1024xf32>", """
      %i = gpu.thread_id x
      %d = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %c0 = arith.constant 0 : index
      %l = memref.view %d[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64xf32, #gpu.address_space<workgroup>>
      %v = memref.load %x[%i] : memref<1024xf32>
      memref.store %v, %l[%i] : memref<64xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %c63 = arith.constant 63 : index
      %j = arith.subi %c63, %i : index
      %w = memref.load %l[%j] : memref<64xf32, #gpu.address_space<workgroup>>
      memref.store %w, %o[%i] : memref<1024xf32>""",
                 lambda r: [r.standard_normal(N).astype(np.float32), np.zeros(N, np.float32)], [1],
                 launch={"dynamic_lds": 256}))
    return P


def _f32_in(r):
    return [r.standard_normal(N).astype(np.float32), np.zeros(N, np.float32)]


def _i32_in(r):
    return [r.integers(-1000, 1000, N).astype(np.int32), np.zeros(N, np.int32)]


def _probes_scf_cf():
    P = []
    A = "%x: memref<1024xi32>, %o: memref<1024xi32>"
    head = """      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<1024xi32>
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c3 = arith.constant 3 : index
      %z = arith.constant 0 : i32
      %one = arith.constant 1 : i32
      %m = arith.andi %i, %c3 : index
"""
    st = "      memref.store %r, %o[%i] : memref<1024xi32>"
    P.append(raw("scf.for", "divergent", A, head + """
      %r = scf.for %k = %c0 to %m step %c1 iter_args(%s = %v) -> (i32) {
        %t = arith.addi %s, %s : i32
        scf.yield %t : i32
      }
""" + st, _i32_in, [1]))
    P.append(raw("scf.if", "divergent", A, head + """
      %p = arith.cmpi eq, %m, %c1 : index
      %r = scf.if %p -> (i32) {
        %t = arith.muli %v, %v : i32
        scf.yield %t : i32
      } else {
        scf.yield %one : i32
      }
""" + st, _i32_in, [1]))
    P.append(raw("scf.while", "divergent", A, head + """
      %r = scf.while (%s = %v) : (i32) -> i32 {
        %p = arith.cmpi slt, %s, %z : i32
        scf.condition(%p) %s : i32
      } do {
      ^bb0(%t: i32):
        %u = arith.addi %t, %one : i32
        scf.yield %u : i32
      }
""" + st, _i32_in, [1]))
    P.append(raw("scf.index_switch", "divergent", A, head + """
      %r = scf.index_switch %m -> i32
      case 0 {
        scf.yield %one : i32
      }
      case 2 {
        %t = arith.addi %v, %v : i32
        scf.yield %t : i32
      }
      default {
        scf.yield %v : i32
      }
""" + st, _i32_in, [1]))
    P.append(raw("scf.execute_region", "", A, head + """
      %r = scf.execute_region -> i32 {
        %t = arith.addi %v, %one : i32
        scf.yield %t : i32
      }
""" + st, _i32_in, [1]))
    P.append(raw("scf.parallel", "with scf.reduce", A, head + """
      %r = scf.parallel (%k) = (%c0) to (%c4) step (%c1) init (%z) -> i32 {
        %kk = arith.index_cast %k : index to i32
        %t = arith.muli %kk, %v : i32
        scf.reduce(%t : i32) {
        ^bb0(%l: i32, %rr: i32):
          %s = arith.addi %l, %rr : i32
          scf.reduce.return %s : i32
        }
      }
""" + st, _i32_in, [1]))
    P.append(raw("scf.reduce", "in scf.parallel", A, head + """
      %r = scf.parallel (%k) = (%c0) to (%c4) step (%c1) init (%one) -> i32 {
        %kk = arith.index_cast %k : index to i32
        %t = arith.addi %kk, %v : i32
        scf.reduce(%t : i32) {
        ^bb0(%l: i32, %rr: i32):
          %s = arith.muli %l, %rr : i32
          scf.reduce.return %s : i32
        }
      }
""" + st, _i32_in, [1]))
    P.append(raw("scf.forall", "on memrefs", "%x: memref<1024xi32>, %o: memref<1024xi32>", head + """
      %b = arith.muli %i, %c4 : index
      scf.forall (%k) in (4) {
        %j = arith.addi %b, %k : index
        %w = memref.load %x[%j] : memref<1024xi32>
        %t = arith.addi %w, %one : i32
        memref.store %t, %o[%j] : memref<1024xi32>
      }""", _i32_in, [1]))
    P.append(raw("cf.br", "", A, head + """
      cf.br ^bb1(%v : i32)
    ^bb1(%r: i32):
""" + st, _i32_in, [1]))
    P.append(raw("cf.cond_br", "divergent", A, head + """
      %p = arith.cmpi eq, %m, %c1 : index
      cf.cond_br %p, ^bb1(%v : i32), ^bb1(%one : i32)
    ^bb1(%r: i32):
""" + st, _i32_in, [1]))
    P.append(raw("cf.switch", "divergent", A, head + """
      %mi = arith.index_cast %m : index to i32
      cf.switch %mi : i32, [
        default: ^bb1(%v : i32),
        0: ^bb1(%one : i32),
        2: ^bb1(%z : i32)
      ]
    ^bb1(%r: i32):
""" + st, _i32_in, [1]))
    return P


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
      }""")
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
                     [0, 2], views={0: t, 2: t}))
    P.append(raw("memref.generic_atomic_rmw", "f32", "%x: memref<1024xf32>, %o: memref<1024xf32>", """
      %i = gpu.thread_id x
      %r = memref.generic_atomic_rmw %x[%i] : memref<1024xf32> {
      ^bb0(%cur: f32):
        %t = arith.mulf %cur, %cur : f32
        memref.atomic_yield %t : f32
      }
      memref.store %r, %o[%i] : memref<1024xf32>""", _f32_in, [0, 1]))
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
    return P


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
          [f"vector<4x{et}>", f"vector<4x{et}>", f"vector<4x{at}>"], f"vector<4x{at}>", kind="small")
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
      "vector<2xf32>", kind="small")
    e("vector.multi_reduction", "2x2 over dim 1 (maxsi)",
      "      %q = vector.shape_cast %a : vector<4xi32> to vector<2x2xi32>\n"
      "      %s = vector.extract_strided_slice %b {offsets = [0], sizes = [2], strides = [1]} : vector<4xi32> to vector<2xi32>\n"
      "      %r = vector.multi_reduction <maxsi>, %q, %s [1] : vector<2x2xi32> to vector<2xi32>",
      ["vector<4xi32>"] * 2, "vector<2xi32>")
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
      [V], V, result2="f32", kind="small")
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
      %r = vector.mask %mk { vector.transfer_read %x[%b], %pad : memref<1024xf32>, vector<4xf32> } : vector<4xi1> -> vector<4xf32>""")
    m("vector.type_cast", "", """
      %e = memref.expand_shape %x [[0, 1]] output_shape [256, 4] : memref<1024xf32> into memref<256x4xf32>
      %s = memref.subview %e[0, 0] [1, 4] [1, 1] : memref<256x4xf32> to memref<1x4xf32, strided<[4, 1]>>
      %r = vector.load %x[%b] : memref<1024xf32>, vector<4xf32>""".replace(
        "%s = memref.subview %e[0, 0] [1, 4] [1, 1] : memref<256x4xf32> to memref<1x4xf32, strided<[4, 1]>>",
        "%tc = vector.type_cast %e : memref<256x4xf32> to memref<vector<256x4xf32>>"))
    return P


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


def probes():
    """Every probe of the audit, in dialect order."""
    return (_probes_gpu() + _probes_arith() + _probes_math() + _probes_scf_cf()
            + _probes_memref() + _probes_vector() + _probes_amdgpu())


def upstream_ops():
    """The ops of the item-2 dialects upstream MLIR registers (from the linked libraries)."""
    from .. import _aster
    return [o for o in _aster.upstream_ops() if o.split(".")[0] in DIALECTS]


def unlisted(all_probes=None):
    """Upstream ops with neither a probe nor an out-of-scope reason."""
    probed = {p.op for p in (all_probes or probes())}
    return [o for o in upstream_ops() if o not in probed and o not in OUT_OF_SCOPE]


# ---------------------------------------------------------------------------
# Running a probe
# ---------------------------------------------------------------------------
def _as(arr, view):
    """The array of a stored output in the element type it is compared in."""
    a = np.asarray(arr)
    if view in ("f16", "bf16", "f32", "f64", "i8", "i16", "i32", "i64"):
        dt = _np(view)
        if a.dtype.itemsize != dt.itemsize or a.dtype != dt:
            a = a.view(np.uint8).view(dt)
    return a


def _ulps(a, b, view):
    """Largest distance in ulp between float arrays a and b (NaN = any NaN); -1 if unequal ints."""
    if view.startswith(("f", "b")):
        x, y = _as(a, view), _as(b, view)
        xf, yf = x.astype(np.float64), y.astype(np.float64)
        nan = np.isnan(xf) & np.isnan(yf)
        if np.any(np.isnan(xf) != np.isnan(yf)):
            return np.inf
        ib = {2: np.int16, 4: np.int32, 8: np.int64}[x.dtype.itemsize]
        xi, yi = x.view(ib).astype(np.int64), y.view(ib).astype(np.int64)
        sign = np.int64(1) << (8 * x.dtype.itemsize - 1)
        xi = np.where(xi < 0, -(xi & (sign - 1)), xi)     # ordered integers
        yi = np.where(yi < 0, -(yi & (sign - 1)), yi)
        d = np.abs(xi - yi)[~nan]
        return int(d.max()) if d.size else 0
    return 0 if np.array_equal(np.asarray(a).view(np.uint8), np.asarray(b).view(np.uint8)) else -1


def _located(msg, op):
    return bool(re.search(r":\d+:\d+: error: '" + re.escape(op) + r"' op", msg))


def run_probe(p, llvm=True, target="gfx942", run=True):
    """The outcome of one probe: (status, detail). run=False: aster.lower
    and aster.compile only (status 'lowers' when both succeed)."""
    import aster
    import aster.lowering.llvm
    from .signature import Signature
    if not p.mlir:
        return "not-probed", p.variant
    try:
        mods = aster.lower(p.mlir, target=target)
    except aster.AsterError as e:
        msg = str(e)
        m = re.search(r"<string>:\d+:\d+: error: '([\w.]+)' op[^\n]*", msg)
        if _located(msg, p.op):
            return "error", m.group(0).split("error: ", 1)[1][:200] if m else msg[:200]
        if m:
            return "error-other", m.group(0).split("error: ", 1)[1][:200]
        first = msg.strip().split("\n")[0]
        if "does not verify" in msg or "cannot parse" in msg:
            return "bad-probe", first[:200]
        return "bad-error", first[:200]
    except Exception as e:       # noqa: BLE001 (a bug of the lowering: reported)
        return "crash", f"{type(e).__name__}: {e}"[:200]
    try:
        code = aster.compile(mods["kernels"], aster.lowering.PIPELINE)
    except aster.AsterError as e:
        return "bad-error", ("compile: " + str(e).strip().split("\n")[0])[:200]
    if not run:
        return "lowers", "not run"
    sig = Signature(p.kernel, _arg_types(p.mlir))

    def launch(c):
        a = p.inputs(np.random.default_rng(7))
        aster.launch(c, p.kernel, grid=p.grid, block=p.block, args=sig.args(*a), **p.launch)
        return a
    try:
        ours = launch(code)
    except Exception as e:       # noqa: BLE001
        return "differs", ("run: " + str(e).strip().split("\n")[0])[:200]
    notes = []
    if p.ref is not None:
        want = p.ref(p.inputs(np.random.default_rng(7)))
        for k, w in want.items():
            u = _ulps(ours[k], w, p.views.get(k, "i32"))
            if u != 0:
                return "differs", f"NumPy: argument {k} ({u} ulp)"
        notes.append("NumPy")
    if not llvm:
        return ("ok-nollvm" if notes else "lowers"), "not built by LLVM"
    try:
        theirs_code = aster.lowering.llvm.build(p.mlir, target=target)["kernels"]
        theirs = launch(theirs_code)
    except Exception as e:       # noqa: BLE001
        why = str(e).strip().split("\n")
        why = next((ln for ln in why if "error" in ln), why[0])
        return ("ok-nollvm" if notes else "lowers"), ("no LLVM build: " + why)[:200]
    worst = 0
    for k in p.outs:
        u = _ulps(ours[k], theirs[k], p.views.get(k, _view_of(ours[k])))
        if u < 0 or u > 4:
            return "differs", f"LLVM: argument {k} ({'bits' if u < 0 else str(u) + ' ulp'})"
        worst = max(worst, u)
    return ("ok" if worst == 0 else f"ok~{worst}"), ""


def _view_of(a):
    return {np.dtype(np.float32): "f32", np.dtype(np.float64): "f64", np.dtype(np.float16): "f16"}.get(
        np.asarray(a).dtype, "i32")


def _arg_types(text):
    sig = re.search(r"gpu\.func\s+@\w+\((.*?)\)\s*(?:workgroup|kernel)", text, re.S).group(1)
    return [t.strip() for t in re.findall(r"%\w+\s*:\s*([^,]+(?:<[^>]*>)?)", sig)]


_CHILD = []


def _worker(index, llvm, run):
    """In the child process: probe `index` of probes() (probes hold closures,
    which do not pickle; the list is the same in every process)."""
    if not _CHILD:
        _CHILD.extend(probes())
    return run_probe(_CHILD[index], llvm, run=run)


def audit(selected=None, llvm=True, timeout=120, log=None, run=True):
    """Runs the probes (all, or those whose op is in `selected`) in a child
    process (a crash or hang is an outcome, not the end of the audit);
    returns [(probe, status, detail)]."""
    ps = [(k, p) for k, p in enumerate(probes()) if not selected or p.op in selected]
    out = []
    pool = cf_.ProcessPoolExecutor(max_workers=1)
    for k, p in ps:
        try:
            st, det = pool.submit(_worker, k, llvm, run).result(timeout=timeout)
        except cf_.TimeoutError:
            st, det = "crash", f"hang (> {timeout} s)"
            for pr in list(pool._processes.values()):
                pr.kill()
            pool.shutdown(wait=False, cancel_futures=True)
            pool = cf_.ProcessPoolExecutor(max_workers=1)
        except cf_.process.BrokenProcessPool:
            st, det = "crash", "the process died"
            pool = cf_.ProcessPoolExecutor(max_workers=1)
        except Exception as e:   # noqa: BLE001 (a probe the child could not take)
            st, det = "crash", f"{type(e).__name__}: {e}"[:200]
        out.append((p, st, det))
        if log:
            print(f"{p.op:40} {p.variant:45} {st:10} {det}", file=log, flush=True)
    pool.shutdown()
    return out


def markdown(results):
    """The coverage table: one row per op (its probes' outcomes grouped)."""
    rows = {}
    for p, st, det in results:
        rows.setdefault(p.op, []).append((p.variant, st, det))
    lines = ["| op | outcome per probe |", "|---|---|"]
    for op in upstream_ops():
        if op in OUT_OF_SCOPE:
            lines.append(f"| `{op}` | out of scope: {OUT_OF_SCOPE[op]} |")
            continue
        if op not in rows:
            lines.append(f"| `{op}` | (not in this run) |")
            continue
        by = {}
        for v, st, det in rows[op]:
            key = st if st.startswith("ok") or st == "lowers" else f"{st}: {det}"
            by.setdefault(key, []).append(v or "-")
        cells = []
        for k, vs in by.items():
            k = k.replace("|", "\\|")
            cells.append(f"**{k}** ({', '.join(vs).replace('|', '')})" if len(vs) < 12 else
                         f"**{k}** ({len(vs)} probes: {', '.join(vs[:6])}, ...)")
        lines.append(f"| `{op}` | " + "; ".join(cells) + " |")
    return "\n".join(lines)


def main(argv=None):
    import argparse
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ops", help="comma-separated op names (default: all)")
    ap.add_argument("--dialect", help="only this dialect's ops")
    ap.add_argument("--no-llvm", action="store_true", help="skip LLVM's build (faster)")
    ap.add_argument("--lower-only", action="store_true", help="aster.lower + compile only")
    ap.add_argument("--markdown", help="write the table to this file")
    a = ap.parse_args(argv)
    sel = set(a.ops.split(",")) if a.ops else None
    if a.dialect:
        sel = {p.op for p in probes() if p.op.startswith(a.dialect + ".")}
    res = audit(sel, llvm=not a.no_llvm, log=sys.stdout, run=not a.lower_only)
    missing = unlisted()
    if missing:
        print("upstream ops with no probe and no reason:", ", ".join(missing))
    if a.markdown:
        with open(a.markdown, "w") as f:
            f.write(markdown(res) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
