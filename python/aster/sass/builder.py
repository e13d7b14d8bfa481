"""Build SASS kernels from Python: one method call per instruction of the table.

    b = sass.KernelBuilder()
    b.S2R('R0', 'SR_TID.X')                   # -> 'S2R R0, SR_TID.X'
    b.IMAD_WIDE('R2', 'R9', '0x4', 'R2')      # '_' in the name is '.' in the opcode
    b.label('loop'); b.BRA('`(loop)', pred='!P0')
    b.into(module, 'kernel')                  # replaces that kernel's code
Every instruction is checked against the table when it is written (SassError at
the caller's line for an unknown opcode/operand combination).  Control bits come
from barriers.set_control when the code is placed into a module.
Needs: the table.  Guarantees: the built code is the kernel's whole code; the
section size is kept (padding NOPs), registers counted into REGCOUNT.
"""
from . import barriers, syntax, table
from .cubin import Instruction
from .errors import SassError


class KernelBuilder:
    def __init__(self):
        self.insts = []
        self._labels = {}
        self._pending = []

    def emit(self, text):
        inst = syntax.tokenize(text, 0, _AnyLabel())
        if inst.key not in table.table():
            raise SassError(f'SASS builder: {text!r} (key {inst.key!r}) is not in the sm_90a table')
        x = Instruction(text)
        for name in self._pending:
            self._labels[name] = x
        self._pending = []
        self.insts.append(x)
        return x

    def label(self, name):
        if name in self._labels or name in self._pending:
            raise SassError(f'SASS builder: label {name!r} defined twice')
        self._pending.append(name)

    def __getattr__(self, name):
        if not name[:1].isupper():
            raise AttributeError(name)
        op = name.replace('_', '.')

        def emit(*operands, pred=None):
            pre = f'@{pred} ' if pred else ''
            return self.emit(pre + op + (' ' + ', '.join(str(o) for o in operands) if operands else ''))
        return emit

    def into(self, module, kernel):
        """Replace `kernel`'s code in `module` with the built code (control bits set)."""
        if self._pending:
            raise SassError(f'SASS builder: labels {self._pending} are not followed by an instruction')
        k = module.kernels.get(kernel)
        if k is None:
            raise SassError(f'SASS builder: no kernel {kernel!r} in the module')
        barriers.set_control(self.insts, self._labels.values())
        k.insts = list(self.insts)
        k.labels = dict(self._labels)
        k.edited = True
        return k


class _AnyLabel(dict):
    """Label table for checking text before placement: every name is at offset 0."""
    def __contains__(self, k):
        return True

    def __getitem__(self, k):
        return 0
