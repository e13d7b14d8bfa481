"""A kernel being built: one method per instruction, plus labels, loops,
kernel-argument loads and the registers where the hardware puts ids."""
import sys

from . import _aster
from ._aster import AsterError, AsterTypeError
from ._isa_gen import MNEMONICS, SPECS, InstructionBuilder
from .args import sgpr_layout
from .diagnostics import user_frame, user_loc
from .registers import v, s, Reg, SGPR, VGPR, Value

__all__ = ["Kernel", "Loop", "Builder"]

_DIMS = {"x": 0, "y": 1, "z": 2, 0: 0, 1: 1, 2: 2}


def _error(msg, exc=AsterError):
    file, line = user_frame(3)
    return exc(f"{file}:{line}: error: {msg}")


def _dim(dim):
    if dim not in _DIMS or isinstance(dim, bool):
        raise ValueError(f"dimension must be 'x', 'y' or 'z' (or 0, 1, 2), got {dim!r}")
    return _DIMS[dim]


class Loop:
    """`with k.loop(s[8], 10) as L:` — a real loop running its body `count`
    times (at least once): the counter SGPR is set to `count`, the body
    follows label `L.top`, and the end decrements the counter and branches
    back while it is not zero. `L.end` is a label bound after the loop
    when a branch uses it (branch to it to break).

    Values carried around the loop (virtual registers, for register
    allocation) are declared with `carry=[...]` (their values on entry); in
    the body `L.carry` holds them as they are at the top of each iteration,
    and `L.next(...)` gives their values for the next iteration (one per
    carried value, each of the same register class and width):

        with k.loop(s[8], 8, carry=[acc]) as L:
            acc = k.v_add_u32(aster.VGPR(), x, L.carry[0])
            L.next(acc)
        # acc: the value after the last iteration

    They become block arguments of the loop's top label, passed by the
    fall-through into it and by the branch back."""

    def __init__(self, kernel, counter, count, name, carry=()):
        if not isinstance(counter, Reg) or counter.kind != 1 or counter.is_virtual \
                or counter.width != 1:
            raise TypeError(f"loop counter must be one allocated SGPR (e.g. s[8]), got {counter!r}")
        if isinstance(count, bool) or not isinstance(count, (int, Reg)):
            raise TypeError(f"loop count must be an int or an SGPR, got {type(count).__name__}")
        if isinstance(count, int) and not 1 <= count < 2**32:
            raise ValueError(f"loop count must be in [1, 2**32), got {count}")
        carry = list(carry)
        for x in carry:
            if not isinstance(x, Value):
                raise TypeError("loop carry takes Values (results of instructions with "
                                f"virtual destinations), got {x!r}")
        self.kernel, self.counter, self.count = kernel, counter, count
        self.top = kernel.label(f"{name}_top")
        self.end = kernel.label(f"{name}_end")
        self._init = carry
        self.carry = []
        self._next = None

    def next(self, *values):
        """The carried values for the next iteration (and after the loop)."""
        if self._next is not None:
            raise _error("loop: next() was already called for this loop")
        if len(values) != len(self._init):
            raise _error(f"loop: next() takes {len(self._init)} value(s) (one per carried "
                         f"value), got {len(values)}")
        for i, (x, p) in enumerate(zip(values, self.carry)):
            if not isinstance(x, Value):
                raise _error(f"loop: next() value #{i} must be a Value, got {x!r}", TypeError)
            if x.type != p.type:
                raise _error(f"loop: next() value #{i} is a {x.type}, but the carried value "
                             f"is a {p.type}")
        self._next = list(values)

    def __enter__(self):
        k = self.kernel
        if self.count != self.counter:
            k.s_mov_b32(self.counter, self.count)
        if self._init:
            try:
                self.carry = k._kb.add_block_args(self.top, self._init)
                k._kb.bind(self.top, self._init)
            except AsterError as e:
                raise _error(str(e)) from None
        else:
            k.bind(self.top)
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc_type is not None:
            return False
        if self._init and self._next is None:
            raise _error(f"loop: the body must end with next(...) giving the "
                         f"{len(self._init)} carried value(s) for the next iteration")
        k, c = self.kernel, self.counter
        # gfx12 renamed the scalar carry-out subtract.
        sub = k.s_sub_co_u32 if k.module.target == "gfx1201" else k.s_sub_u32
        sub(c, c, 1)
        k.s_cmp_lg_u32(c, 0)
        if self._init:
            k._kb.set_branch_args(self._next)    # taken by the branch back
        k.s_cbranch_scc1(self.top)
        if self._init:
            if self.end.used:
                raise _error("loop: a loop with carried values cannot be left by a "
                             "branch to its end label")
        if self.end.used:                # a break
            k.bind(self.end)
        return False

    @property
    def results(self):
        """The carried values after the loop (the values given to next())."""
        return list(self._next or ())


class Builder(InstructionBuilder):
    """What kernels and functions are built with: every instruction of the
    table as a method, labels, loops, concat and calls of functions."""

    __slots__ = ()

    def _unknown_modifiers(self, index, unknown):
        mnemonic = MNEMONICS[index]
        valid = [m[0] for m in SPECS[mnemonic][3] if m[1] not in ("fixed", "fixedpos")]
        valid += [x[0] for x in SPECS[mnemonic][2] if x[2]]       # tied sources
        names = ", ".join(repr(n) for n in unknown)
        raise _error(f"{mnemonic} has no modifier {names} (valid: "
                     f"{', '.join(valid) if valid else 'none'})")

    def concat(self, *values):
        """A new virtual range holding the virtual Values in order (one
        register class): `pair = k.concat(lo, hi)` for a 64-bit or MFMA
        operand built from 32-bit results. Register allocation copies the
        parts into place (no copy when they already sit there)."""
        return self._kb.concat(list(values), sys._getframe(1))

    # ---- labels and control flow ---------------------------------------
    def label(self, name="L"):
        """A new label: pass it to branches, place it with `bind`."""
        if not isinstance(name, str):
            raise TypeError(f"label name must be a str, got {type(name).__name__}")
        return self._kb.new_label(name)

    def bind(self, label):
        """Places `label` here: the following instructions start at it."""
        if not isinstance(label, _aster.Label):
            raise TypeError(f"bind() takes a label from k.label(), got {type(label).__name__}")
        try:
            self._kb.bind(label)
        except AsterError as e:
            raise _error(str(e)) from None

    def here(self, name="L"):
        """A new label bound at this point (a backward-branch target)."""
        lab = self.label(name)
        self.bind(lab)
        return lab

    def loop(self, counter, count, name=None, carry=()):
        """A real loop (see `Loop`): `with k.loop(s[8], 10): ...` runs the body
        10 times with s8 as the counter; `carry=[values]` declares virtual
        values carried around it (`L.carry`, `L.next(...)`). For an unrolled
        loop, use a Python `for` around the instructions."""
        if name is None:
            name = f"loop{self._nloops}"
            self._nloops += 1
        return Loop(self, counter, count, name, carry)

    # ---- functions ---------------------------------------------------------
    def call(self, function, *args):
        """Calls a register-level function: `function` is an `aster.Function`
        of this module (m.function, m.functions[name] after m.include), an
        `@aster.function` (added to this module on its first call) or a
        name. `args` are Values or registers, one per parameter, of its class
        and width (a pinned parameter takes exactly its register); returns
        the results as a tuple of Values. amdgcn-inline (run by
        aster.compile) puts the body here."""
        if isinstance(function, str):
            name = function
        elif hasattr(function, "_name_in"):     # aster.functions: Function, FunctionRef, template
            name = function._name_in(self.module)
        else:
            raise AsterTypeError(f"{user_loc()}: error: call takes an aster.Function, an "
                                 f"@aster.function or a name, got {type(function).__name__}")
        return _aster.call(self._kb, name, list(args), sys._getframe(1))

    # ---- instruction order (aster.schedule) --------------------------------
    def stream(self):
        """`with k.stream() as st:` captures the instructions emitted in the
        block (st: a list of aster.Op) for `interleave`."""
        from . import schedule
        return schedule.stream(self)

    def interleave(self, streams, delay=None, rate=None, order=None):
        """Reorders captured streams: item j of stream i at slot delay[i] +
        j * rate[i], or an explicit permutation `order` (aster.schedule)."""
        from . import schedule
        try:
            return schedule.interleave(self, streams, delay, rate, order)
        except AsterError as e:
            raise _error(str(e)) from None

    def unroll(self, shape, body, key=None):
        """A Python-unrolled loop nest ordered by `key(*idx)` (aster.schedule.unroll)."""
        from . import schedule
        try:
            return schedule.unroll(self, shape, body, key)
        except AsterError as e:
            raise _error(str(e)) from None

    def pipeline(self, n, stages, late_first=True):
        """A software pipeline: stage s of iteration i at step i + s
        (prologue, steady state, epilogue; aster.schedule.pipeline)."""
        from . import schedule
        return schedule.pipeline(self, n, stages, late_first)

    def pipeline_loop(self, counter, n, stages, state, advance, late_first=True):
        """A software pipeline whose steady state is a real loop (`k.loop`
        on `counter`), values in flight carried (aster.schedule.pipeline_loop)."""
        from . import schedule
        return schedule.pipeline_loop(self, counter, n, stages, state, advance, late_first)

    def global_address(self, pair, g, offset=0):
        """The address of global `g` (an aster.Global or a symbol name) plus
        `offset` into the allocated SGPR pair `pair` (s_getpc_b64, s_add_u32
        g@rel32@lo, s_addc_u32 g@rel32@hi; see aster.globals)."""
        from .globals import global_address
        global_address(self, pair, g, offset)

    def no_reorder(self):
        """`with k.no_reorder():` its instructions stay as written under
        amdgcn-schedule (amdgcn.sched_barrier {freeze} ... sched_barrier)."""
        from . import schedule
        return schedule.no_reorder(self)

    def sched_barrier(self):
        """A fence amdgcn-schedule moves nothing across (emits no instruction)."""
        _aster.sched_barrier(self._kb, False)


class Kernel(Builder):
    """Builds one kernel: every instruction of the table is a method
    (`k.v_add_u32(v[1], v[0], v[1])`), appended in call order. Register
    operands are allocated registers (`v[1]`, `s[0:2]`), special registers
    (`vcc`, `exec`, `m0`), Values returned for virtual destinations
    (`x = k.v_mov_b32(aster.VGPR(), 1)`), or Python numbers (immediates)."""

    __slots__ = ("_kb", "_e", "module", "name", "args", "kernarg_size", "block",
                 "lds", "sgpr_setup", "workitem_ids", "_args", "_sgprs", "_nloops")

    def __init__(self, module, kb, name, args, kernarg_size, block, lds, sgpr_setup,
                 workitem_ids):
        self._kb = kb
        self._e = kb.fast_emit
        self.module = module
        self.name = name
        self.args = tuple(args)
        self._args = {a.name: a for a in args}
        self.kernarg_size = kernarg_size
        self.block = block
        self.lds = lds
        self.sgpr_setup = tuple(sgpr_setup)
        self._sgprs = sgpr_layout(sgpr_setup)
        self.workitem_ids = workitem_ids
        self._nloops = 0

    def __repr__(self):
        return f"<aster.Kernel {self.name} on {self.module.target}>"

    # ---- kernel arguments --------------------------------------------------
    def arg(self, name):
        """The KernelArg (offset, size, type) of argument `name`."""
        a = self._args.get(name)
        if a is None:
            known = ", ".join(self._args) or "none"
            raise ValueError(f"kernel '{self.name}' has no argument {name!r} (arguments: {known})")
        return a

    @property
    def kernarg_ptr(self):
        """The SGPR pair holding the kernarg segment address (s[0:2] when
        sgpr_setup starts with kernarg_ptr)."""
        return self.setup_sgpr("kernarg_ptr")

    def setup_sgpr(self, name):
        """The SGPRs the hardware initialises with `name` (an sgpr_setup entry)."""
        where = self._sgprs.get(name)
        if where is None:
            raise ValueError(f"kernel '{self.name}' does not request {name!r}: its "
                             f"sgpr_setup is {list(self.sgpr_setup)}")
        first, n = where
        return s[first] if n == 1 else s[first:first + n]

    @property
    def num_setup_sgprs(self):
        """SGPRs the hardware initialises; s[num_setup_sgprs] onward are free."""
        return sum(n for _, n in self._sgprs.values())

    def load_arg(self, name, dst=None, *, base=None):
        """Loads kernel argument `name` with s_load_dword (4-byte and smaller
        arguments: the aligned dword holding it) or s_load_dwordx2 (8-byte
        arguments, pointers) from the kernarg pointer (or `base`), at its
        offset in the kernarg layout. `dst` defaults to a new virtual SGPR
        range; returns the destination. Wait with s_waitcnt(lgkmcnt=0)."""
        a = self.arg(name)
        width = 2 if a.size == 8 else 1
        if dst is None:
            dst = SGPR(width, align=width)
        if base is None:
            base = self.kernarg_ptr
        op = self.s_load_dwordx2 if width == 2 else self.s_load_dword
        return op(dst, base, a.offset & ~3)

    # ---- hardware ids ------------------------------------------------------
    def workitem_id(self, dim="x", dst=None):
        """The work-item id in the workgroup along `dim`. The hardware puts
        them packed in v0 (x bits 0-9, y 10-19, z 20-29); when the block is
        one-dimensional, v0 is x itself and v[0] is returned without code;
        along a dimension of size 1 the id is the immediate 0.
        Otherwise the field is extracted into `dst` (default: a new virtual
        VGPR) with v_bfe_u32."""
        d = _dim(dim)
        if self.block[d] == 1:
            return 0 if d else v[0]
        if d >= self.workitem_ids:
            raise ValueError(f"work-item id {'xyz'[d]} is not written by the hardware: "
                             f"create the kernel with workitem_ids={d + 1}")
        if d == 0 and self.block[1] == 1 and self.block[2] == 1:
            return v[0]
        if dst is None:
            dst = VGPR()
        return self.v_bfe_u32(dst, v[0], 10 * d, 10)

    @property
    def workitem_ids_vgpr(self):
        """v[0]: the packed work-item ids (x | y << 10 | z << 20)."""
        return v[0]

    def workgroup_id(self, dim="x"):
        """The SGPR holding the workgroup id along `dim`: the system SGPRs
        follow the user SGPRs (s2 for x with the default sgpr_setup
        kernarg_ptr, workgroup_id_x)."""
        return self.setup_sgpr(f"workgroup_id_{'xyz'[_dim(dim)]}")

    def finish(self):
        """Checks the kernel ends with s_endpgm or a branch and every used
        label is bound (done by asm(), hsaco() and compile())."""
        self._kb.finish()
