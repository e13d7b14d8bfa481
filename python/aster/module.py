"""Modules (code objects for one target) holding kernels built from Python."""
from . import _aster
from ._aster import AsterTypeError
from .args import arg_type, check_sgpr_setup, kernarg_layout
from .compiler import _hsaco, compile as _compile
from .diagnostics import check_symbol as _symbol, user_frame
from .functions import Function, FunctionRef, _check_specs, _Instantiated
from .globals import global_data as _global_data
from .kernel import Kernel

__all__ = ["Module", "parse", "load_library", "TARGETS"]

TARGETS = ("gfx942", "gfx950", "gfx1201")
_LIMITS = {"lds": (0, 65536), "workitem_ids": (1, 3), "private_segment": (0, 1 << 20)}


def _int_attr(key, value):
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"kernel attribute {key!r} must be an int, got {type(value).__name__}")
    lo, hi = _LIMITS[key]
    if not lo <= value <= hi:
        raise ValueError(f"kernel attribute {key!r} must be in [{lo}, {hi}], got {value}")
    return value


def _block(block):
    if isinstance(block, int) and not isinstance(block, bool):
        block = (block,)
    if not isinstance(block, (tuple, list)) or not 1 <= len(block) <= 3:
        raise TypeError(f"block must be an int or a tuple of 1 to 3 ints, got {block!r}")
    for d in block:
        if isinstance(d, bool) or not isinstance(d, int):
            raise TypeError(f"block dimensions must be ints, got {d!r}")
        if d < 1:
            raise ValueError(f"block dimensions must be positive, got {tuple(block)}")
    block = tuple(block) + (1,) * (3 - len(block))
    if block[0] * block[1] * block[2] > 1024:
        raise ValueError(f"block {block} has {block[0] * block[1] * block[2]} work-items; "
                         "at most 1024 are allowed")
    return block


def _args(args):
    if isinstance(args, dict):
        args = list(args.items())
    if not isinstance(args, (list, tuple)):
        raise TypeError("args must be a list of (name, type) pairs or a dict, got "
                        f"{type(args).__name__}")
    out, seen = [], set()
    for item in args:
        if not isinstance(item, (tuple, list)) or len(item) != 2:
            raise TypeError(f"each argument must be a (name, type) pair, got {item!r}")
        name, t = item
        _symbol(name, "argument name")
        if name in seen:
            raise ValueError(f"argument {name!r} is given twice")
        seen.add(name)
        arg_type(t, name)
        out.append((name, t))
    return out


class Module:
    """A code object for one target (gfx942, gfx950, gfx1201), holding kernels.

        m = aster.Module("gfx942")
        k = m.kernel("vadd", args=[("a", aster.ptr(np.float32)), ("n", np.int32)],
                     block=(64, 1, 1))
    """

    def __init__(self, target="gfx942", name="module"):
        if not isinstance(target, str):
            raise TypeError(f"target must be a str, got {type(target).__name__}")
        if target not in TARGETS:
            raise ValueError(f"unknown target {target!r} (expected one of {', '.join(TARGETS)})")
        self.target = target
        self.name = _symbol(name, "module name")
        self._m = _aster.new_module(target, name)
        self.kernels = []
        self.functions = {}     # name -> Function (built here) or FunctionRef
        self._origins = {}      # name -> modules its copy came from (include)

    @classmethod
    def _wrap(cls, raw):
        m = cls.__new__(cls)
        m._m = raw
        m.target, m.name = _aster.module_info(raw)
        m.kernels = []
        m.functions = {}
        m._origins = {}
        m._refresh_functions()
        return m

    def _refresh_functions(self):
        for name, (params, results) in _aster.function_signatures(self._m).items():
            if name not in self.functions:
                self.functions[name] = FunctionRef(self, name, params, results)

    def function(self, name, params=(), results=()):
        """Adds a register-level function and returns its builder
        (`aster.Function`): the kernel's instruction methods, labels, loops
        and calls; `f.params` are the parameters as Values; end it with
        `f.ret(*values)`. params/results: register specs, virtual (`VGPR()`,
        `AGPR(4)`, `SGPR(2, align=2)`) or pinned (`v[3]`, `vcc`). Kernels
        call it with `k.call(f, *args)` (see aster.functions)."""
        file, line = user_frame()
        _symbol(name, "function name")
        if name in self.functions or self._has_kernel(name):
            kind = "function" if name in self.functions else "kernel"
            raise ValueError(f"module already has a {kind} named {name!r}")
        params = _check_specs(params, "params")
        results = _check_specs(results, "results")
        fb = _aster.add_function(self._m, name, params, results, file, line)
        f = Function(self, fb, name, params, results)
        self.functions[name] = f
        return f

    def global_data(self, name, data=None, *, nbytes=None, constant=False, align=None,
                    section=None, linkage="protected"):
        """Adds a global variable holding `data` (a NumPy array's bytes) or
        `nbytes` zero bytes and returns it (`aster.Global`); kernels take its
        address with `k.global_address(s[i:i+2], g)`. `constant` puts it in
        `.rodata` (HIP `__constant__`); see aster.globals."""
        return _global_data(self, name, data, nbytes=nbytes, constant=constant, align=align,
                           section=section, linkage=linkage)

    def include(self, other):
        """Copies the functions of `other` (a Module, e.g. from
        aster.load_library) into this module; a name already used here is an
        AsterError. The functions are checked against this module's target.
        Afterwards `k.call` also takes other's own Function objects (and
        @aster.function templates it built): they name their copies here."""
        if not isinstance(other, Module):
            raise TypeError(f"include() takes an aster.Module, got {type(other).__name__}")
        file, line = user_frame()
        other._finish()
        _aster.include_module(self._m, other._m, file, line)
        self._refresh_functions()
        for name in _aster.function_signatures(other._m):
            self._origins[name] = (other, *other._origins.get(name, ()))
            template = getattr(other.functions.get(name), "template", None)
            if template is not None:
                self.functions[name] = _Instantiated(self.functions[name], template)

    def kernel(self, name, args=(), block=(256, 1, 1), lds=0, *, sgpr_setup=None,
               workitem_ids=1, private_segment=0):
        """Adds a kernel and returns its builder (`Kernel`).

        args: [(name, type)] or {name: type}; a type is `aster.ptr(dtype)` (8
          bytes) or a NumPy scalar dtype, laid out each aligned to its size.
        block: workgroup size (x, y, z), at most 1024 work-items.
        lds: static LDS bytes. sgpr_setup: SGPRs the hardware initialises, in
          hardware order (default: kernarg_ptr when there are arguments, then
          workgroup_id_x). workitem_ids: how many of x, y, z are written in v0.
        private_segment: scratch bytes per lane."""
        file, line = user_frame()
        _symbol(name, "kernel name")
        arglist = _args(args)
        block = _block(block)
        attrs = {"block": list(block)}
        if _int_attr("lds", lds):
            attrs["lds"] = lds
        if _int_attr("workitem_ids", workitem_ids) != 1:
            attrs["workitem_ids"] = workitem_ids
        if _int_attr("private_segment", private_segment):
            attrs["private_segment"] = private_segment
        if sgpr_setup is None:
            setup = (["kernarg_ptr"] if arglist else []) + ["workgroup_id_x"]
        else:
            if isinstance(sgpr_setup, str) or not hasattr(sgpr_setup, "__iter__"):
                raise TypeError("sgpr_setup must be a list of strings")
            setup = attrs["sgpr_setup"] = check_sgpr_setup(sgpr_setup)
        if self._has_kernel(name):
            raise ValueError(f"module already has a kernel named {name!r}")
        if name in self.functions:
            raise ValueError(f"module already has a function named {name!r}")
        layout, size = kernarg_layout(arglist)
        kb = _aster.add_kernel(self._m, name, [n for n, _ in arglist],
                               [arg_type(t, n)[0] for n, t in arglist], attrs, file, line)
        k = Kernel(self, kb, name, layout, size, block, lds, setup, workitem_ids)
        self.kernels.append(k)
        self._kernel_names[1].add(name)
        self._kernel_names = (len(self.kernels), self._kernel_names[1])
        return k

    def _has_kernel(self, name):
        # A set of the names, rebuilt when self.kernels changed length (a module
        # of 10^4 kernels would otherwise check each new name in linear time).
        names = getattr(self, "_kernel_names", None)
        if names is None or names[0] != len(self.kernels):
            names = self._kernel_names = (len(self.kernels), {k.name for k in self.kernels})
        return name in names[1]

    def _finish(self):
        for f in self.functions.values():
            if isinstance(f, Function):
                f.finish()
        for k in self.kernels:
            k.finish()

    def __str__(self):
        return str(self._m)

    def __repr__(self):
        return f"<aster.Module {self.name} on {self.target}: {len(self.kernels)} kernel(s)>"

    def mlir(self, locations=False):
        """The module as textual IR; with `locations`, each op's Python file:line."""
        return _aster.print_module(self._m, bool(locations))

    def asm(self):
        """The assembly text, exactly the instructions built (no passes; calls
        of functions are inlined, on a copy, by amdgcn-inline)."""
        self._finish()
        if _aster.has_calls(self._m):
            return self.compile().asm
        return self._m.asm()

    def hsaco(self):
        """The linked code object (bytes), assembled and linked in process
        (calls inlined as for asm())."""
        self._finish()
        if _aster.has_calls(self._m):
            return self.compile().hsaco
        return _hsaco(self._m)

    def verify(self):
        self._finish()
        self._m.verify()

    def compile(self, pipeline=None):
        """Same as `aster.compile(self, pipeline)`."""
        return _compile(self, pipeline)

    def run_pipeline(self, pipeline, verify=True):
        """Runs a pass pipeline on this module in place; its kernels can no
        longer be extended (compile() with a pipeline works on a copy).
        `verify=False` skips the verifier after each pass."""
        if not isinstance(pipeline, str):
            raise TypeError(f"pipeline must be a str, got {type(pipeline).__name__}")
        if not isinstance(verify, bool):
            raise TypeError(f"verify must be a bool, got {type(verify).__name__}")
        self._finish()
        for k in self.kernels + [f for f in self.functions.values() if isinstance(f, Function)]:
            k._kb.seal()
        _aster.run_pipeline(self._m, pipeline, verify)


def parse(text, name="<string>"):
    """Parses textual amdgcn IR into a Module (usable with compile)."""
    if not isinstance(text, str):
        raise TypeError(f"parse() takes the IR text as a str, got {type(text).__name__}")
    return Module._wrap(_aster.parse(text, name))


def load_library(path):
    """Parses a .mlir file of functions (an `amdgcn.module` holding
    `amdgcn.func`s) into a Module; `m.include(lib)` copies its functions
    into `m` (checked against m's target there)."""
    if not isinstance(path, (str, bytes)) and not hasattr(path, "__fspath__"):
        raise AsterTypeError(f"load_library takes a path, got {type(path).__name__}")
    with open(path) as fh:
        text = fh.read()
    return parse(text, name=str(path))
