"""Types, the Probe record and the builders of probe kernels.

Part of the coverage audit (aster.lowering.coverage: see its __init__)."""

import re
from dataclasses import dataclass, field

import numpy as np


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
    no_llvm: str = ""          # why LLVM's build is not an oracle for this probe
    target: str = ""           # the probe's target when not the audit's (gfx950-only ops)
    ulp: int = 0               # floats within this many ulp of NumPy's reference (its source: at the probe)


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
