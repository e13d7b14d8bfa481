"""Register names: v[3], s[0:2], a[0:4] (allocated), VGPR(4) (virtual), vcc, exec, m0."""
from ._aster import Reg, special_index

_KINDS = {"v": 0, "s": 1, "a": 2}


class RegisterFile:
    """`v[i]` is one register, `v[i:j]` the range i..j-1 (Python slice)."""

    __slots__ = ("prefix", "kind", "_cache")

    def __init__(self, prefix):
        self.prefix = prefix
        self.kind = _KINDS[prefix]
        self._cache = {}

    def __getitem__(self, key):
        ck = (key.start, key.stop, key.step) if isinstance(key, slice) else key
        r = self._cache.get(ck)
        if r is not None:
            return r
        if isinstance(key, slice):
            if key.step not in (None, 1):
                raise ValueError(f"{self.prefix}[{key.start}:{key.stop}:{key.step}]: "
                                 "register ranges cannot have a step")
            lo, hi = key.start, key.stop
            if not isinstance(lo, int) or not isinstance(hi, int) or lo < 0 or hi <= lo:
                raise ValueError(f"{self.prefix}[{lo}:{hi}]: expected 0 <= start < stop")
            r = Reg(self.kind, lo, hi - lo)
        elif isinstance(key, int) and not isinstance(key, bool):
            if key < 0:
                raise ValueError(f"{self.prefix}[{key}]: register index must be >= 0")
            r = Reg(self.kind, key, 1)
        else:
            raise TypeError(f"{self.prefix}[...] takes an int or a slice, got "
                            f"{type(key).__name__}")
        self._cache[ck] = r
        return r

    def __repr__(self):
        return f"<register file {self.prefix}>"


v = RegisterFile("v")
s = RegisterFile("s")
a = RegisterFile("a")


def _virtual(kind, width, align):
    if not isinstance(width, int) or width < 1:
        raise ValueError("virtual register width must be a positive int")
    if align < 1 or align & (align - 1):
        raise ValueError("alignment must be a power of two")
    return Reg(kind, -1, width, align)


def VGPR(width=1, align=1):
    """A new virtual VGPR range as a destination (allocated by register allocation)."""
    return _virtual(0, width, align)


def SGPR(width=1, align=1):
    """A new virtual SGPR range as a destination."""
    return _virtual(1, width, align)


def AGPR(width=1, align=1):
    """A new virtual AGPR range as a destination."""
    return _virtual(2, width, align)


def _special(name):
    return Reg(3, special_index(name), 1)


vcc = _special("vcc")
vcc_lo = _special("vcc_lo")
vcc_hi = _special("vcc_hi")
exec = _special("exec")
exec_lo = _special("exec_lo")
exec_hi = _special("exec_hi")
m0 = _special("m0")
