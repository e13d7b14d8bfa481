"""The fuzz targets: one function per aster entry point, each taking the raw
bytes libFuzzer made. A target returns normally or raises an *expected*
exception (aster.AsterError, aster.EmulatorError, or a TypeError/ValueError
from argument checking); anything else, a crash, an abort or a hang (libFuzzer's
-timeout) is a finding. run.py drives them (see README.md)."""
import atheris

with atheris.instrument_imports(include=["aster"]):
    import aster
    from aster import isa

import numpy as np

from mutators import text_mutator

TARGETS = ("gfx942", "gfx950", "gfx1201")
EXPECTED = (aster.AsterError, aster.EmulatorError, TypeError, ValueError, IndexError,
            OverflowError, KeyError)


class _Input:
    """The fuzzer's bytes read front to back: choices (one byte each), then
    the payload (the rest), so that seeds are a few choice bytes + a file."""

    def __init__(self, data):
        self.data, self.pos = data, 0

    def byte(self):
        b = self.data[self.pos] if self.pos < len(self.data) else 0
        self.pos += 1
        return b

    def ConsumeIntInRange(self, lo, hi):
        return lo + self.byte() % (hi - lo + 1)

    def ConsumeBool(self):
        return bool(self.byte() & 1)

    def ConsumeInt(self, nbytes):
        v = int.from_bytes(bytes(self.byte() for _ in range(nbytes)), "little")
        return v - (1 << (8 * nbytes - 1))

    def ConsumeRegularFloat(self):
        return float(self.ConsumeInt(4)) / 7.0

    def ConsumeUnicode(self, n):
        return "".join(chr(32 + self.byte() % 95) for _ in range(n))

    def ConsumeBytes(self, n):
        out = self.data[self.pos:self.pos + n]
        self.pos += n
        return out


def _fdp(data):
    return _Input(data)


def _rest(fdp):
    return fdp.ConsumeBytes(len(fdp.data))


def fuzz_asm(data):
    """assemble (with and without lld) then disassemble what assembled."""
    fdp = _fdp(data)
    target = TARGETS[fdp.ConsumeIntInRange(0, 2)]
    link = fdp.ConsumeBool()
    text = _rest(fdp).decode("latin-1")
    try:
        out = aster.assemble(text, target, link=link)
    except aster.AsterError:
        return
    try:
        aster.disassemble(out, target)
    except aster.AsterError:
        pass


def fuzz_disasm(data):
    """disassemble arbitrary bytes as an object / code object."""
    fdp = _fdp(data)
    target = TARGETS[fdp.ConsumeIntInRange(0, 2)]
    try:
        aster.disassemble(_rest(fdp), target)
    except aster.AsterError:
        pass


PIPELINES = (None, "amdgcn-regalloc", "amdgcn-hazards", "amdgcn-regalloc,amdgcn-hazards",
             "amdgcn-regalloc{max-vgprs=8 max-sgprs=16 max-agprs=4},amdgcn-hazards")


def fuzz_mlir(data):
    """parse + compile with passes + asm + hsaco."""
    fdp = _fdp(data)
    pipeline = PIPELINES[fdp.ConsumeIntInRange(0, len(PIPELINES) - 1)]
    text = _rest(fdp).decode("latin-1")
    try:
        c = aster.compile(aster.parse(text), pipeline=pipeline)
        c.asm
        c.hsaco
    except aster.AsterError:
        pass


def _args_for(kernel, fdp, arrays):
    """Kernel arguments from its metadata: small random arrays for pointers,
    fuzzed scalars otherwise (sometimes of the wrong kind on purpose)."""
    args = []
    for a in kernel.args:
        if a.hidden:
            continue
        if a.value_kind == "global_buffer":
            n = 1024 - fdp.ConsumeIntInRange(0, 1024)
            arr = np.frombuffer(fdp.ConsumeBytes(4 * n).ljust(4 * n, b"\0"), np.int32).copy()
            arrays.append((arr, arr.copy()))
            args.append(arr)
        else:
            choice = fdp.ConsumeIntInRange(0, 3)
            args.append([fdp.ConsumeIntInRange(0, 255), fdp.ConsumeRegularFloat(),
                         np.int64(fdp.ConsumeInt(8)), "x"][choice])
    return args


def fuzz_launch(data):
    """load_code_object + launch: mutated code object bytes, kernargs, grid/block,
    strict mode, the timing model and its device profiles, allocator slack,
    wave interleaving.
    Arrays of a failed launch must come back unchanged."""
    fdp = _fdp(data)
    grid = tuple(fdp.ConsumeIntInRange(0, 3) for _ in range(fdp.ConsumeIntInRange(1, 3)))
    block = tuple(fdp.ConsumeIntInRange(0, 130) for _ in range(fdp.ConsumeIntInRange(1, 3)))
    strict = fdp.ConsumeBool()
    timing = fdp.ConsumeBool()
    nargs_bytes = fdp.ConsumeIntInRange(0, 255)
    argdata = fdp.ConsumeBytes(nargs_bytes)
    code = _rest(fdp)
    try:
        co = aster.load_code_object(code)
    except EXPECTED:
        return
    afdp = _fdp(argdata)
    # Allocator slack (zeroed, readable, not writable) and the wave turn length.
    slack = (0, 0, 1, 64, 4096, -1)[afdp.ConsumeIntInRange(0, 5)]
    interleave = (4096, 4096, 1, 7, 0)[afdp.ConsumeIntInRange(0, 4)]
    # The timing model's device profiles (a wrong name and the other
    # architecture's device are errors).
    device = (None, None, "mi300x", "mi308x", "mi325x", "mi355x", "bogus")[
        afdp.ConsumeIntInRange(0, 6)]
    for kernel in co.kernels[:2]:
        arrays = []
        try:
            args = _args_for(kernel, afdp, arrays)
            aster.launch(code, kernel.name, grid=grid, block=block, args=args,
                         strict=strict, budget=20000, timing=timing, slack=slack,
                         interleave=interleave, device=device)
        except EXPECTED:
            for arr, before in arrays:
                if not np.array_equal(arr, before):
                    raise AssertionError("a failed launch changed the caller's array")


_METHODS = None


def _methods():
    global _METHODS
    if _METHODS is None:
        _METHODS = sorted({i.name for i in isa.instructions("gfx942")})
    return _METHODS


def _operand(fdp):
    from aster import v, s, a
    kind = fdp.ConsumeIntInRange(0, 9)
    n = fdp.ConsumeIntInRange(-2, 300)
    if kind == 0:
        return v[n] if n >= 0 else n
    if kind == 1:
        return s[n] if n >= 0 else n
    if kind == 2:
        return a[n] if n >= 0 else n
    if kind == 3:
        lo = fdp.ConsumeIntInRange(0, 260)
        return [v, s, a][n % 3][lo:lo + fdp.ConsumeIntInRange(-1, 17)]
    if kind == 4:
        return fdp.ConsumeInt(8)
    if kind == 5:
        return fdp.ConsumeRegularFloat()
    if kind == 6:
        return fdp.ConsumeUnicode(4)
    if kind == 7:
        return [aster.VGPR, aster.SGPR, aster.AGPR][n % 3](fdp.ConsumeIntInRange(-1, 17))
    if kind == 8:
        return None
    return aster.vcc


def fuzz_builder(data):
    """The builder with random instruction methods and random arguments, then
    compile (regalloc + hazards) what was accepted."""
    fdp = _fdp(data)
    m = aster.Module(TARGETS[fdp.ConsumeIntInRange(0, 2)])
    k = m.kernel("k", block=(64, 1, 1))
    methods = _methods()
    virtual = False
    for _ in range(fdp.ConsumeIntInRange(0, 12)):
        name = methods[fdp.ConsumeIntInRange(0, len(methods) - 1)]
        try:
            ops = [_operand(fdp) for _ in range(fdp.ConsumeIntInRange(0, 5))]
            kwargs = {}
            if fdp.ConsumeBool():
                kwargs[["offset", "glc", "neg", "clamp", "omod", "abs", "bogus"][
                    fdp.ConsumeIntInRange(0, 6)]] = fdp.ConsumeInt(2)
            r = getattr(k, name, None)
            if r is None:
                continue
            out = r(*ops, **kwargs)
            virtual |= out is not None and not isinstance(out, (int, float, str))
        except (*EXPECTED, AttributeError):
            pass
    k.s_endpgm()
    try:
        c = aster.compile(m, pipeline="amdgcn-regalloc,amdgcn-hazards")
        c.hsaco
    except aster.AsterError:
        pass


def fuzz_raise(data):
    """raise_asm (text) or raise_code_object (bytes), then compile the raised
    module back to a code object, and run amdgcn-hazards on it."""
    fdp = _fdp(data)
    mode = fdp.ConsumeIntInRange(0, 3)
    unknown = "keep" if fdp.ConsumeBool() else "error"
    rest = _rest(fdp)
    try:
        if mode < 2:
            m = aster.raise_asm(rest.decode("latin-1"), TARGETS[mode], unknown=unknown)
        else:
            m = aster.raise_code_object(rest, unknown=unknown)
        aster.compile(m).hsaco
        aster.compile(m, pipeline="amdgcn-hazards").hsaco
    except EXPECTED:
        pass


SASS_EDITS = ("IADD3 R9, R4, R3, 0x1", "NOP", "MOV R0, 0xffffffff", "EXIT", "BRA 0x0",
              "FADD R2, R2, -1", "S2R R0, SR_TID.X", "ISETP.GE.AND P0, PT, R0, 0x7fffffff, PT",
              "LDG.E R2, desc[UR4][R2.64]", "bogus", "")


def fuzz_sass(data):
    """aster.sass: raise a cubin; with no edit, cubin() must give the same bytes;
    else set/insert/delete an instruction and re-encode."""
    from aster import sass
    fdp = _fdp(data)
    edit = fdp.ConsumeIntInRange(0, 3)
    index = fdp.ConsumeIntInRange(0, 255)
    which = fdp.ConsumeIntInRange(0, 255)
    cubin = _rest(fdp)
    try:
        m = sass.raise_cubin(cubin)
    except EXPECTED:
        return
    try:
        if edit == 0:
            if m.cubin() != cubin:
                raise AssertionError("a cubin that raises did not round-trip byte-exact")
            return
        kernels = list(m.kernels.values())
        if not kernels:
            return
        k = kernels[which % len(kernels)]
        text = SASS_EDITS[which % len(SASS_EDITS)]
        if edit == 1:
            k.set(index % max(1, len(k.insts)), text)
        elif edit == 2:
            k.insert(index % (len(k.insts) + 1), text)
        else:
            k.delete(index % max(1, len(k.insts)))
        m.cubin()
    except EXPECTED:
        pass


# Text targets also get number mutations (mutators.py): the first argument is
# how many choice bytes come before the text.
MUTATORS = {"asm": text_mutator(2), "raise": text_mutator(2), "mlir": text_mutator(1)}

ALL = {name[len("fuzz_"):]: fn for name, fn in globals().items() if name.startswith("fuzz_")}
