"""python/aster's imports run one way: no module imports itself back.

The rule, checked on the source (ast, nothing imported):
- every `import` / `from ... import` statement counts, at module level and
  inside functions alike (a lazy import still makes two modules depend on each
  other); `from .pkg import name` is an edge to `pkg.name` when that is a
  module of the package, else to `pkg`;
- the graph of these edges over python/aster's modules has no cycle (the test
  names the modules of each cycle with the lines that close it);
- a package's `__init__` is a module like the others: `from .. import
  AsterError` in aster/aiter is an edge to `aster`, a cycle only if aster's
  `__init__` imports aster.aiter (it does not: subpackages are attributes on
  first use, PEP 562, which is no import statement).
Importing a submodule also runs its parents' `__init__` (Python does that, not
the module), so that implicit edge is not counted.

The layers this leaves (lowest first): the extensions (_aster, _emu, _isa_gen);
diagnostics, registers, args, kernargs, timing; schedule, globals; kernel (the
builder); functions; compiler; module; launching; hip_backend; runtime; then
raising, editing, equivalence, the package `aster` itself, and the subpackages
that use aster as a whole (aiter, the GEMM generator and library, sass).
"""
import ast
import os

import pytest

PKG = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                   "python", "aster")
# Modules the build makes (no .py under python/aster): leaves of the graph.
BUILT = ("aster._aster", "aster._emu", "aster._isa_gen")


def _modules():
    """{dotted name: (path, is_package)} for every .py file under python/aster."""
    out = {b: (None, False) for b in BUILT}
    for root, dirs, files in os.walk(PKG):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        rel = os.path.relpath(root, os.path.dirname(PKG)).split(os.sep)
        for f in sorted(files):
            if not f.endswith(".py"):
                continue
            if f == "__init__.py":
                out[".".join(rel)] = (os.path.join(root, f), True)
            else:
                out[".".join(rel + [f[:-3]])] = (os.path.join(root, f), False)
    return out


def _edges(mods):
    """[(importer, imported, line)] over the modules of the package."""
    edges = []
    for name, (path, is_pkg) in mods.items():
        if path is None:
            continue
        with open(path) as f:
            tree = ast.parse(f.read(), path)
        here = name if is_pkg else name.rpartition(".")[0]   # the importer's package
        for node in ast.walk(tree):
            targets = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = here.split(".")
                    base = base[:len(base) - (node.level - 1)]
                    mod = ".".join(base + ([node.module] if node.module else []))
                else:
                    mod = node.module
                for a in node.names:
                    sub = f"{mod}.{a.name}"
                    targets.append(sub if sub in mods else mod)
            for t in targets:
                # `import aster.lib.dispatch` names a module; `import x.y` of
                # something outside the package is not an edge.
                while t and t not in mods:
                    t = t.rpartition(".")[0]
                if t and t != name and (name, t, node.lineno) not in edges:
                    edges.append((name, t, node.lineno))
    return edges


def _cycles(mods, edges):
    """Strongly connected components of more than one module (Tarjan)."""
    graph = {m: set() for m in mods}
    for a, b, _ in edges:
        graph[a].add(b)
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for m in sorted(mods):
        if m not in index:
            visit(m)
    return out


def test_walker_sees_the_package():
    """The walker finds the modules and their imports (else a cycle-free
    result would prove nothing): kernel.py imports registers at module level,
    and a cycle made up here is found."""
    mods = _modules()
    assert {"aster", "aster.kernel", "aster.module", "aster.compiler",
            "aster.runtime"} <= set(mods)
    edges = _edges(mods)
    assert ("aster.kernel", "aster.registers") in {(a, b) for a, b, _ in edges}
    assert ("aster", "aster.module") in {(a, b) for a, b, _ in edges}
    import importlib.util
    for b in BUILT:             # what the build makes is there (else the list is stale)
        assert importlib.util.find_spec(b) is not None, b
    fake = edges + [("aster.registers", "aster.kernel", 0)]
    assert any({"aster.kernel", "aster.registers"} <= set(c) for c in _cycles(mods, fake))


def test_no_import_cycles():
    mods = _modules()
    edges = _edges(mods)
    cycles = _cycles(mods, edges)
    if cycles:
        lines = []
        for comp in cycles:
            members = set(comp)
            lines.append(" <-> ".join(comp) + ":")
            lines += [f"    {os.path.relpath(mods[a][0], PKG)}:{n} imports {b}"
                      for a, b, n in edges if a in members and b in members]
        pytest.fail("import cycles in python/aster:\n" + "\n".join(lines))

