"""Register-level functions ("nanokernels"): small hand-written pieces of
instructions on registers, called from kernels and functions with registers
chosen per call site, and inlined by the amdgcn-inline pass (which
aster.compile runs when a kernel has calls).

    f = m.function("axpy", params=[VGPR(), VGPR(), SGPR()], results=[VGPR()])
    x, y, alpha = f.params
    f.ret(f.v_fma_f32(VGPR(), x, alpha, y))
    (r,) = k.call(f, xv, yv, s_alpha)         # checked here: count, class, width

    @aster.function(params=[VGPR(), VGPR()], results=[VGPR()])
    def add(f, a, b):                          # added to a module on first call
        return f.v_add_u32(VGPR(), a, b)

Parameters and results are register specs: virtual (`VGPR()`, `AGPR(4)`,
`SGPR(2, align=2)`: any register of that class and width is passed) or
pinned (`v[3]`, `vcc`: the caller passes exactly that register)."""
import sys

from . import _aster
from ._aster import AsterError, AsterTypeError
from .diagnostics import user_loc
from .kernel import Builder
from .registers import Reg

__all__ = ["Function", "FunctionRef", "FunctionTemplate", "function"]


def _spec_repr(spec):
    return repr(Reg(*spec))


class FunctionRef:
    """A function of a module that has no Python builder (from
    `Module.include`, `aster.parse` or `aster.load_library`): its name and
    signature, usable with `k.call`."""

    def __init__(self, module, name, params, results):
        self.module, self.name = module, name
        self.param_specs = tuple(params)
        self.result_specs = tuple(results)

    def __repr__(self):
        ps = ", ".join(map(repr, self.param_specs))
        rs = ", ".join(map(repr, self.result_specs))
        return f"<aster.Function {self.name}({ps}) -> ({rs})>"


class Function(Builder):
    """Builds one amdgcn.func (from `Module.function`): every instruction
    method of a kernel, labels and loops, calls of other functions;
    `params` are the parameters as Values; `ret(*values)` ends it."""

    __slots__ = ("_kb", "_e", "module", "name", "params", "param_specs", "result_specs",
                 "_nloops")

    def __init__(self, module, kb, name, params, results):
        self._kb = kb
        self._e = kb.fast_emit
        self.module = module
        self.name = name
        self.param_specs = tuple(params)
        self.result_specs = tuple(results)
        self.params = tuple(_aster.function_params(kb))
        self._nloops = 0

    def __repr__(self):
        return f"<aster.Function {self.name} on {self.module.target}>"

    def ret(self, *values):
        """Ends the function returning `values` (Values or registers), one per
        result, each of its class and width (a pinned result is exactly its
        register)."""
        _aster.ret(self._kb, list(values), sys._getframe(1))

    def finish(self):
        """Checks the function ends with ret() or a branch and every used
        label is bound (done by asm(), hsaco() and compile())."""
        self._kb.finish()


def _check_specs(specs, what):
    if isinstance(specs, Reg):
        specs = [specs]
    if not isinstance(specs, (list, tuple)):
        raise AsterTypeError(f"{what} must be a list of register specs (VGPR(), AGPR(4), "
                             f"v[3], ...), got {type(specs).__name__}")
    for i, r in enumerate(specs):
        if not isinstance(r, Reg):
            raise AsterTypeError(f"{what} #{i} must be a register spec (VGPR(), AGPR(4), "
                                 f"v[3], vcc, ...), got {r!r}")
    return list(specs)


class FunctionTemplate:
    """A Python function building a register-level function (from the
    `@aster.function` decorator). It belongs to no module: `k.call(t, ...)`
    adds it to the caller's module on first use (`t.add_to(m)` does so
    explicitly), calling the Python function with the builder and the
    parameters as Values; its return value (a Value, a register, a tuple of
    them or None) is what the function returns. The body may depend on
    `f.module.target`."""

    def __init__(self, build, params, results, name):
        self.build = build
        self.params = _check_specs(params, "params")
        self.results = _check_specs(results, "results")
        self.name = name
        self.__doc__ = build.__doc__
        self.__wrapped__ = build

    def __repr__(self):
        return f"<aster.function {self.name}>"

    def _name_in(self, module):
        return self.add_to(module).name

    def add_to(self, module):
        """The function in `module` (built there on first use)."""
        have = module.functions.get(self.name)
        if have is not None:
            if getattr(have, "template", None) is not self:
                raise AsterError(f"the module already has a function named {self.name!r} "
                                 "not made from this @aster.function")
            return have
        f = module.function(self.name, self.params, self.results)
        try:
            out = self.build(f, *f.params)
            if out is None:
                out = ()
            elif not isinstance(out, (tuple, list)):
                out = (out,)
            f.ret(*out)
        except BaseException:
            # A body that failed to build leaves nothing behind in the module.
            del module.functions[self.name]
            _aster.erase_function(module._m, self.name)
            raise
        module.functions[self.name] = _Instantiated(f, self)
        return module.functions[self.name]


class _Instantiated(FunctionRef):
    """A FunctionTemplate added to a module."""

    def __init__(self, f, template):
        super().__init__(f.module, f.name, f.param_specs, f.result_specs)
        self.template = template


def function(params=(), results=(), name=None):
    """Decorator: a Python function `build(f, *params) -> results` becomes a
    register-level function (a FunctionTemplate) that kernels call with
    `k.call(...)`; see FunctionTemplate."""
    def wrap(build):
        if not callable(build):
            raise AsterTypeError("@aster.function decorates a Python function")
        return FunctionTemplate(build, params, results, name or build.__name__)
    return wrap


def _name_in(self, module):
    """The name, in `module`, of this function when a kernel of `module` calls
    it (`Builder.call`): its own name when it is `module`'s or was copied into
    it by `m.include(its module)`."""
    if self.module is module or any(
            o is self.module for o in module._origins.get(self.name, ())):
        return self.name
    where = f"{user_loc()}: error: function {self.name!r} belongs to module " \
            f"{self.module.name!r}"
    if self.name in module.functions:
        raise AsterError(f"{where}; module {module.name!r} has another function of that "
                         "name (not copied from it)")
    raise AsterError(f"{where}; copy it into this module with m.include(other) first")


FunctionRef._name_in = Function._name_in = _name_in
