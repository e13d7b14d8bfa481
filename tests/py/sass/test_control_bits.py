"""Control bits (aster/sass/control.py) and the barrier pass (barriers.py) against ptxas.
Oracle: the control bits ptxas wrote into the corpus cubins, as nvdisasm shows them
(`.reuse` flags in the text).  The pass ran on an H100: see barriers.py's header."""
import collections

from aster import sass
from aster.sass import barriers, control, nvdisasm_text

from sass_corpus import files, sample


def _insts(which, step):
    for s in sample(which, step):
        for sec in nvdisasm_text.parse(files(which)[s]['sass']).values():
            yield from sec['insts']


def test_control_fields_are_where_the_corpus_puts_them():
    n = 0
    for which, step in (('own', 2), ('torch', 12)):
        for off, txt, word in _insts(which, step):
            c = control.unpack(word)
            assert c.extra == 0 and c.wrbar in (0, 1, 2, 3, 4, 5, 7) and c.rdbar in (0, 1, 2, 3, 4, 5, 7)
            assert (c.reuse != 0) == ('.reuse' in txt), txt      # reuse flags are bits 122-125
            assert control.unpack(c.pack()) == c
            n += 1
    assert n > 5000


def test_pass_classifies_variable_latency_like_ptxas():
    """Instructions ptxas gives a write barrier are ones the pass gives one (and back)."""
    wr, _, _ = barriers.classes()
    agree = collections.Counter()
    for off, txt, word in _insts('own', 2):
        op = barriers._opcode(txt)
        agree[(control.unpack(word).wrbar != 7, op in wr)] += 1
    ptxas_bar = agree[(True, True)] + agree[(True, False)]
    assert agree[(True, True)] / ptxas_bar > 0.97
    ptxas_none = agree[(False, False)] + agree[(False, True)]
    assert agree[(False, False)] / ptxas_none > 0.97


def test_pass_waits_before_every_use_of_a_pending_register():
    """Replay the pass's own barriers: no instruction names a register still pending."""
    for s in sample('own', 3):
        m = sass.raise_cubin(files('own')[s]['cubin'])
        for k in m.kernels.values():
            barriers.set_control(k.insts, k.labels.values())
            pending = {}
            for x in k.insts:
                regs = barriers._regs(x.text)
                for b in list(pending):
                    if x.ctrl.wait >> b & 1:
                        del pending[b]
                for b, rs in pending.items():
                    assert not (rs & regs), (s, x.text, b)
                for b in (x.ctrl.wrbar, x.ctrl.rdbar):
                    if b != 7:
                        pending[b] = regs
            assert m.cubin()      # the new bits encode


def test_inserted_instruction_waits_for_everything():
    c = barriers.conservative()
    assert c.wait == 0x3f and c.stall == 15 and c.wrbar == c.rdbar == 7
