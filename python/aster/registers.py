"""Register names: v[3], s[0:2], a[0:4] (allocated), VGPR(4) (virtual), vcc, exec, m0.

`v[i:j]` is the range i..j-1 (a Python slice: `v[4:8]` is v[4:7] in assembly,
4 registers). A range can be indexed and sliced again: `v[4:8][1]` is v5,
`v[4:8][0:2]` is v[4:5]. `VGPR(4)` is a new virtual range to pass as a
destination; the instruction returns a Value to use as a source later.
"""
from ._aster import Reg, Value, special_index, virtual_spec_functions

__all__ = ["Reg", "Value", "RegisterFile", "v", "s", "a", "VGPR", "SGPR", "AGPR",
           "vcc", "vcc_lo", "vcc_hi", "exec", "exec_lo", "exec_hi", "m0", "scc",
           "flat_scratch", "flat_scratch_lo", "flat_scratch_hi"]

_KINDS = {"v": 0, "s": 1, "a": 2}
# Registers an instruction can name: v0-v255, a0-a255, s0-s105.
_LIMIT = {"v": 256, "s": 106, "a": 256}


class RegisterFile:
    """`v[i]` is one register, `v[i:j]` the range i..j-1 (Python slice)."""

    __slots__ = ("prefix", "kind", "limit", "_cache")

    def __init__(self, prefix):
        self.prefix = prefix
        self.kind = _KINDS[prefix]
        self.limit = _LIMIT[prefix]
        self._cache = {}

    def __getitem__(self, key):
        t = type(key)
        ck = key if t is int else (key.start, key.stop, key.step) if t is slice else None
        if ck is not None:
            r = self._cache.get(ck)
            if r is not None:
                return r
        if isinstance(key, slice):
            if key.step not in (None, 1):
                raise ValueError(f"{self.prefix}[{key.start}:{key.stop}:{key.step}]: "
                                 "register ranges cannot have a step")
            lo, hi = key.start, key.stop
            if not isinstance(lo, int) or not isinstance(hi, int) or isinstance(lo, bool) \
                    or isinstance(hi, bool):
                raise TypeError(f"{self.prefix}[{lo}:{hi}]: register ranges need int bounds")
            if lo < 0 or hi <= lo or hi > self.limit:
                raise ValueError(f"{self.prefix}[{lo}:{hi}]: expected 0 <= start < stop "
                                 f"<= {self.limit}")
            r = Reg(self.kind, lo, hi - lo)
        elif isinstance(key, int) and not isinstance(key, bool):
            if not 0 <= key < self.limit:
                raise ValueError(f"{self.prefix}[{key}]: register index must be in "
                                 f"[0, {self.limit})")
            r = Reg(self.kind, key, 1)
        else:
            raise TypeError(f"{self.prefix}[...] takes an int or a slice, got "
                            f"{type(key).__name__}")
        if ck is not None:
            self._cache[ck] = r
        return r

    def __repr__(self):
        return f"<register file {self.prefix}>"


v = RegisterFile("v")
s = RegisterFile("s")
a = RegisterFile("a")


# One spec object per (kind, width, align): a virtual spec only says "a new
# register of this shape" (each use as a destination defines a new Value),
# so VGPR() in a hot loop need not build a new object.
_SPECS = ({}, {}, {})


def _virtual(kind, width, align):
    if type(width) is int and type(align) is int:
        r = _SPECS[kind].get((width, align))
        if r is not None:
            return r
    for what, x in (("width", width), ("align", align)):
        if isinstance(x, bool) or not isinstance(x, int):
            raise TypeError(f"virtual register {what} must be an int, got {type(x).__name__}")
    if not 1 <= width <= 32:
        raise ValueError(f"virtual register width must be in [1, 32], got {width}")
    if align < 1 or align & (align - 1):
        raise ValueError(f"alignment must be a power of two, got {align}")
    r = _SPECS[kind][(width, align)] = Reg(kind, -1, width, align)
    return r


# VGPR(width=1, align=1), SGPR(...), AGPR(...): a new virtual VGPR / SGPR /
# AGPR range as a destination (allocated by register allocation). C
# functions (cc/python/VirtualSpecs.inc) that return the spec of a known
# shape at once and call _virtual otherwise.
VGPR, SGPR, AGPR = virtual_spec_functions(_virtual, __name__)


def _special(name):
    return Reg(3, special_index(name), 1)


vcc = _special("vcc")
vcc_lo = _special("vcc_lo")
vcc_hi = _special("vcc_hi")
exec = _special("exec")
exec_lo = _special("exec_lo")
exec_hi = _special("exec_hi")
m0 = _special("m0")
scc = _special("scc")
flat_scratch = _special("flat_scratch")
flat_scratch_lo = _special("flat_scratch_lo")
flat_scratch_hi = _special("flat_scratch_hi")
