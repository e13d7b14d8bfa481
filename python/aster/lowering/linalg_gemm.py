"""linalg.matmul / batch_matmul on host-level memrefs to the GEMM library's
kernels (issue 26 item 6).

    run = aster.lowering.linalg_gemm.compile(text, library=lib)   # a func.func
    run(A, B, C)            # each linalg op, in order: aster.ops.gemm on the emulator

`text` holds one `func.func` whose body is `linalg.fill` (of an
`arith.constant`), `linalg.matmul` and `linalg.batch_matmul` on its memref
arguments, then `return`. It is parsed and verified by upstream MLIR
(`mlir-opt-22 --mlir-print-op-generic`: no parser of ours decides what the
text means) and each op becomes a step:

  linalg.fill        0: the library's fill kernel (aster.ops.fill.zero); another
                     constant: set on the host
  linalg.matmul      C += A @ B as the library's GEMM kernel (aster.ops.gemm:
                     f16/bf16 A and B, f32 or 16-bit C); B's indexing map
                     (d1, d2) is trans_b. A matmul right after a fill of
                     0 of its C writes C (the kernel's out=); otherwise the
                     kernel's product is added to C on the host (linalg
                     accumulates into its outs)
  linalg.batch_matmul  the same per batch (C[i] += A[i] @ B[i])

Anything else in the body is an AsterError naming the op. Inside a gpu.func
kernel, linalg ops are instead lowered to loops by aster.lower
(docs/lowering.md).
"""
import re
import subprocess

import numpy as np

from .._aster import AsterError
from .signature import Signature

_IDENT_B = "(d0, d1, d2) -> (d2, d1)"
_TRANS_B = "(d0, d1, d2) -> (d1, d2)"
_BATCH_B = "(d0, d1, d2, d3) -> (d0, d3, d2)"
_BATCH_TB = "(d0, d1, d2, d3) -> (d0, d2, d3)"


def _generic(text):
    p = subprocess.run(["mlir-opt-22", "--mlir-print-op-generic"], input=text,
                       capture_output=True, text=True)
    if p.returncode:
        raise AsterError(f"linalg_gemm: mlir-opt-22 rejects the input: {p.stderr[:2000]}")
    return p.stdout


def _types(s):
    """The memref / scalar types of a comma-separated list (nested <> kept)."""
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
            continue
        depth += ch == "<"
        depth -= ch == ">"
        cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


class Program:
    """The steps of a compiled function; call it with one array per memref
    argument (dtype and shape checked, as aster.lowering.Signature does)."""

    def __init__(self, name, arg_types, steps, library, arch):
        self.name, self.arg_types, self.steps = name, arg_types, steps
        self.library, self.arch = library, arch
        self.signature = Signature(name, arg_types)

    def __call__(self, *arrays):
        from .. import ops
        self.signature.args(*arrays)                 # dtype, rank, static shapes
        zeroed = set()
        for step in self.steps:
            kind = step[0]
            if kind == "fill":
                _, value, k = step
                if value == 0:
                    ops.fill.zero(arrays[k], arch=self.arch)     # the library's fill kernel
                    zeroed.add(k)
                else:
                    arrays[k][...] = value
                continue
            _, (a, b, c), trans_b = step
            A, B, C = arrays[a], arrays[b], arrays[c]
            pairs = [(A, B, C)] if kind == "matmul" else list(zip(A, B, C))
            for x, y, z in pairs:
                kw = dict(trans_b=trans_b, library=self.library, arch=self.arch,
                          out_dtype=z.dtype)
                if c in zeroed:
                    ops.gemm(x, y, out=z, **kw)
                else:
                    z += ops.gemm(x, y, **kw)
            zeroed.discard(c)
        return arrays


def compile(text, library=None, arch="gfx942"):
    """A Program running the func.func of `text` (see the module doc)."""
    g = _generic(text)
    maps = dict(re.findall(r"^(#map\d*) = affine_map<(.*)>$", g, re.M))
    fn = re.search(r'"func.func"\(\) <\{function_type = \((.*?)\) -> \(\), sym_name = "(\w+)"', g)
    if not fn:
        raise AsterError("linalg_gemm: the input needs one func.func without results")
    arg_types, name = _types(fn.group(1)), fn.group(2)
    consts, steps = {}, []
    lines = g.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i].strip()
        i += 1
        m = re.match(r'(%\d+) = "arith.constant"\(\) <\{value = ([^ :]+) : \w+\}>', line)
        if m:
            consts[m.group(1)] = float(m.group(2))
            continue
        m = re.match(r'"(linalg\.\w+)"\(([^)]*)\)(.*)', line)
        if not m:
            other = re.match(r'(?:%\S+ = )?"([\w.]+)"', line)
            if other and other.group(1) not in ("func.func", "func.return", "builtin.module"):
                raise AsterError(f"linalg_gemm: '{other.group(1)}' is not lowered to the GEMM "
                                 "library (linalg.fill, matmul, batch_matmul are)")
            continue
        op, operands, rest = m.group(1), [x.strip() for x in m.group(2).split(",")], m.group(3)
        while not lines[i - 1].lstrip().startswith("})"):     # skip the op's region
            i += 1
        args = []
        for x in operands:
            a = re.fullmatch(r"%arg(\d+)", x)
            args.append(int(a.group(1)) if a else x)
        if op == "linalg.fill":
            if args[0] not in consts or not isinstance(args[1], int):
                raise AsterError("linalg_gemm: linalg.fill needs a constant and an argument")
            steps.append(("fill", consts[args[0]], args[1]))
            continue
        if op not in ("linalg.matmul", "linalg.batch_matmul"):
            raise AsterError(f"linalg_gemm: '{op}' is not lowered to the GEMM library "
                             "(linalg.fill, matmul, batch_matmul are)")
        if not all(isinstance(a, int) for a in args):
            raise AsterError(f"linalg_gemm: {op}'s operands must be function arguments")
        used = re.findall(r"#map\d*", rest)
        b_map = maps.get(used[1]) if len(used) >= 2 else None
        batch = op == "linalg.batch_matmul"
        if b_map in ((_BATCH_B, None) if batch else (_IDENT_B, None)):
            trans_b = False
        elif b_map == (_BATCH_TB if batch else _TRANS_B):
            trans_b = True
        else:
            raise AsterError(f"linalg_gemm: {op} with B's indexing map {b_map} is not lowered")
        steps.append(("matmul" if not batch else "batch_matmul", tuple(args), trans_b))
    if not steps:
        raise AsterError("linalg_gemm: the function has no linalg.matmul / batch_matmul")
    return Program(name, arg_types, steps, library, arch)
