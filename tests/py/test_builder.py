"""Every instruction of the table can be built from Python: for each example
line the table gives (`Instruction.example_asm(variant)`), the test reads the
operands and modifiers back from the text, calls the generated method with
them, and checks the assembly printed for the built op is the same line."""
import re

import pytest

import aster
from aster import _isa_gen

SPECIALS = {n: getattr(aster, n) for n in (
    "vcc", "vcc_lo", "vcc_hi", "exec", "exec_lo", "exec_hi", "m0", "scc",
    "flat_scratch", "flat_scratch_lo", "flat_scratch_hi")}
FILES = {"v": aster.v, "s": aster.s, "a": aster.a}
REG = re.compile(r"([vsa])(?:(\d+)|\[(\d+):(\d+)\])\Z")
OMOD = {"mul:2": 1, "mul:4": 2, "div:2": 3}


def operand(text):
    """A register, special register, `off` (None) or immediate from asm text;
    with the neg/abs source modifiers it carries."""
    neg = text.startswith("-") and not re.match(r"-[\d.]", text)
    if neg:
        text = text[1:]
    ab = text.startswith("|") and text.endswith("|")
    if ab:
        text = text[1:-1]
    if text == "off":
        return None, neg, ab
    if text in SPECIALS:
        return SPECIALS[text], neg, ab
    m = REG.match(text)
    if m:
        f = FILES[m.group(1)]
        if m.group(2) is not None:
            return f[int(m.group(2))], neg, ab
        return f[int(m.group(3)):int(m.group(4)) + 1], neg, ab
    if re.match(r"-?0x[0-9a-fA-F]+\Z", text):
        return int(text, 16), neg, ab
    if re.match(r"-?\d+\Z", text):
        return int(text), neg, ab
    return float(text), neg, ab


def modifier(word, kinds):
    """(name, value) of one space-separated modifier of the asm line."""
    if word in OMOD:
        return "omod", OMOD[word]
    m = re.match(r"(\w+)\((\d+)\)\Z", word)          # waitcnt counter
    if m:
        return m.group(1), int(m.group(2))
    name, _, val = word.partition(":")
    if not val:
        return name, True                              # flag (or fixed)
    if val.startswith("["):
        return name, [int(b) for b in val[1:-1].split(",")]
    return name, int(val, 0)


_RAISED_KINDS = {"dpp", "hexmask", "sel", "unused", "srcsext", "fixedpos", "hwreg", "sendmsg",
                 "swizzle", "gpridx"}


def call_args(name, line):
    """Positional args, keyword args and whether a label is taken, for `line`."""
    _, dsts, srcs, mods = _isa_gen.SPECS[name]
    kinds = {m[0]: m[1] for m in mods}
    rest = line.split(" ", 1)[1] if " " in line else ""
    items = re.split(r", (?![^(]*\))", rest) if rest else []   # not inside hwreg(a, b, c)
    words = []
    if items:                  # modifiers follow the last comma-separated item
        last = items[-1].split(" ")
        items[-1] = last[0]
        words = last[1:]
    visible = [x for x in srcs if not x[2]]
    n_ops = len(dsts) + len(visible)
    label = name.startswith("s_cbranch") or name == "s_branch" or "label" in items
    if items and items[0] not in ("label",) and n_ops == 0 and not any(
            k in ("pos", "hex16") for k in kinds.values()):
        words = items + words                          # no operands: all modifiers
        items = []
    raised = {}
    if any(k in _RAISED_KINDS for k in kinds.values()):
        # DPP/SDWA/scratch-without-saddr/swizzle spellings: the modifier values as
        # aster's raiser reads them (itself checked against LLVM MC).
        text = '\t.amdgcn_target "amdgcn-amd-amdhsa--gfx942"\n\t.text\nk:\n'
        text += f"\t{line}\n\ts_endpgm\n"
        op = aster.raise_asm(text).kernels[0].ops[0]
        raised = {k: v for k, v in op.attributes.items() if k not in ("encoding", "literal")}
        items = [x[5:-1] if x.startswith("sext(") else x for x in items
                 if not re.match(r"(hwreg|sendmsg|gpr_idx)\(", x)]
        words = []
    pos, kw, neg, ab = [], dict(raised), 0, 0
    for i, text in enumerate(items[:n_ops]):
        val, n, a = operand(text)
        si = i - len(dsts)
        neg |= n << si if si >= 0 else 0
        ab |= a << si if si >= 0 else 0
        pos.append(val)
    extra = items[n_ops:]
    if extra and extra[0] == "label":
        extra = extra[1:]
    positional_mods = [m[0] for m in mods if m[1] in ("pos", "hex16")]
    for mname, text in zip(positional_mods, extra):
        kw[mname] = int(text, 0)
    for w in words:
        mname, val = modifier(w, kinds)
        if kinds.get(mname) == "fixed":
            continue
        if kinds.get(mname) in ("srcneg", "srcabs"):
            continue
        kw[mname] = val
    if neg:
        kw["neg"] = neg
    if ab:
        kw["abs"] = ab
    return pos, kw, label


def built_line(target, name, pos, kw, label):
    m = aster.Module(target)
    k = m.kernel("t", block=(64, 1, 1))
    if label:
        lab = k.label("target")
        getattr(k, name)(*pos, lab, **kw)
        k.bind(lab)
    else:
        getattr(k, name)(*pos, **kw)
    k.s_endpgm()
    body = m.asm().split("\nt:\n", 1)[1].split("\n")
    line = body[0].strip()
    return re.sub(r"\.LBB\d+_\d+", "label", line)


def cases():
    for inst in aster.isa.all_instructions():
        yield pytest.param(inst.targets[0], inst.name, id=inst.name)


@pytest.mark.parametrize("target,name", list(cases()))
def test_every_instruction_builds_its_examples(target, name):
    inst = next(i for i in aster.isa.instructions(target) if i.name == name)
    for variant in range(inst.num_variants):
        line = inst.example_asm(variant)
        pos, kw, label = call_args(name, line)
        got = built_line(target, name, pos, kw, label)
        assert got == line, f"variant {variant}: built {got!r} from {pos} {kw}"


def test_every_instruction_has_a_documented_method():
    for inst in aster.isa.all_instructions():
        meth = getattr(aster.Kernel, inst.name)
        doc = meth.__doc__
        assert doc.split("\n")[0].split(" ")[0] == inst.example_asm(0).split(" ")[0]
        assert "targets: " + ", ".join(inst.targets) in doc
        assert f"k.{inst.name}(" in doc


def test_stub_is_complete():
    import os
    stub = os.path.join(os.path.dirname(_isa_gen.__file__), "_isa_gen.pyi")
    text = open(stub).read()
    for name in _isa_gen.MNEMONICS:
        assert re.search(rf"\n    def {name}\(self", text), name
    compile(text, stub, "exec")    # valid Python syntax
