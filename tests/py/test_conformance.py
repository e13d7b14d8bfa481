"""Conformance of the instruction table and the asm printer against LLVM MC.

For every instruction form and every target it claims, each example variant
(aster.isa: registers of each class, inline constants, literals, each
modifier) must assemble with LLVM and disassemble to exactly the text aster
printed, up to the encoding suffix (_e32/_e64) and branch targets (a label
for aster, an offset for LLVM). For every target a form does not claim, LLVM
must reject its plain variant, or accept it only as an alias that it prints
under another mnemonic (gfx12 renamed many gfx9 instructions), or the form is
listed in ACCEPTED_UNCLAIMED with the reason it is not claimed.
"""
import re

import pytest

import aster

TARGETS = ("gfx942", "gfx950", "gfx1201")

# Forms whose plain syntax LLVM accepts, and prints unchanged, on a target the
# table does not claim for them: same spelling, different meaning.
_WAVE64 = "wave64 exec/vcc mask operation; aster's gfx1201 is wave32"
_FP8 = "gfx12 converts the OCP fp8/bf8 formats, gfx940 the FNUZ ones"
_CPOL = ("same operation, but gfx12 spells the cache policy th:/scope: (no sc0/nt/sc1) "
         "and renamed the rest of the family; the gfx12 forms would be separate records")
ACCEPTED_UNCLAIMED = {
    ("s_waitcnt", "gfx1201"): "gfx12 has separate counters (s_wait_loadcnt, ...); "
                              "the legacy encoding has other field widths",
    ("v_div_fmas_f32", "gfx1201"): "reads vcc implicitly, which is vcc_lo in wave32",
    ("v_div_fmas_f64", "gfx1201"): "reads vcc implicitly, which is vcc_lo in wave32",
    ("v_pk_fmac_f16", "gfx1201"): "gfx12 takes only a VGPR src1 and reads inline constants "
                                  "as 32-bit values (1.0 is not 0x3c00)",
}
for _mn in ("buffer_atomic_add_f32", "buffer_atomic_pk_add_f16", "buffer_atomic_pk_add_bf16",
            "flat_atomic_add_f32", "flat_atomic_pk_add_f16", "flat_atomic_pk_add_bf16",
            "global_atomic_add_f32", "global_atomic_pk_add_f16", "global_atomic_pk_add_bf16"):
    ACCEPTED_UNCLAIMED[(_mn, "gfx1201")] = _CPOL
_HWREG = "gfx12 numbers and names the hardware registers differently (HW_REG_WAVE_MODE, ...)"
for _mn in ("s_getreg_b32", "s_setreg_b32", "s_setreg_imm32_b32"):
    ACCEPTED_UNCLAIMED[(_mn, "gfx1201")] = _HWREG
for _mn in ("s_sendmsg", "s_sendmsghalt"):
    ACCEPTED_UNCLAIMED[(_mn, "gfx1201")] = "gfx12 has other message ids (sendmsg(...) names)"
for _mn in ("s_and_saveexec_b64", "s_or_saveexec_b64", "s_xor_saveexec_b64",
            "s_nand_saveexec_b64", "s_nor_saveexec_b64", "s_xnor_saveexec_b64"):
    ACCEPTED_UNCLAIMED[(_mn, "gfx1201")] = _WAVE64
for _mn in ("v_cvt_f32_fp8", "v_cvt_f32_bf8", "v_cvt_pk_f32_fp8", "v_cvt_pk_f32_bf8",
            "v_cvt_pk_fp8_f32", "v_cvt_pk_bf8_f32", "v_cvt_sr_fp8_f32", "v_cvt_sr_bf8_f32"):
    ACCEPTED_UNCLAIMED[(_mn, "gfx1201")] = _FP8

# gfx12 keeps DPP (DPP16) with gfx9's spelling for the common controls but
# not wave_* / row_bcast, and adds fi: aster's DPP forms are gfx9's.
from aster._isa_gen import MNEMONICS as _MNEMONICS  # noqa: E402
for _mn in _MNEMONICS:
    if _mn.endswith("_dpp") and (not _mn.endswith(("_u16_dpp", "_i16_dpp", "_b16_dpp"))
                                 or _mn.startswith(("v_cvt_f16_", "v_sat_pk_"))):
        ACCEPTED_UNCLAIMED[(_mn, "gfx1201")] = ("gfx12 DPP16 has other controls (no wave_* or "
                                                "row_bcast, fi); aster's DPP forms are gfx9's")

_SUFFIX = re.compile(r"^(\S+?)(?:_e32|_e64)(?=\s|$)")


def normalize(line, branch=False):
    """Drops the encoding suffix; for branches, the target operand."""
    line = _SUFFIX.sub(r"\1", line.strip())
    if branch:
        line = line.rsplit(" ", 1)[0] + " <target>" if " " in line else line
    return " ".join(line.split())


def assemble_lines(lines, target):
    """LLVM's disassembly of each line, or (None, error) for lines it rejects.

    Assembles everything in one go; if that fails, line by line."""
    text = "\n".join(lines) + "\nlabel:\n"
    try:
        out = aster.disassemble(aster.assemble(text, target, link=False), target)
        if len(out) == len(lines):
            return [(o, None) for o in out]
    except aster.AsterError:
        pass
    result = []
    for line in lines:
        try:
            out = aster.disassemble(aster.assemble(line + "\nlabel:\n", target, link=False),
                                    target)
            result.append((" ; ".join(out), None))
        except aster.AsterError as e:
            result.append((None, str(e).splitlines()[0]))
    return result


def _instances(inst):
    seen = []
    for v in range(inst.num_variants):
        line = inst.example_asm(v)
        if line not in seen:
            seen.append(line)
    return seen


@pytest.fixture(scope="session")
def conformance(summary):
    """Runs the whole sweep once: per target, the mismatches; the rejections."""
    by_name = {i.name: i for i in aster.isa.all_instructions()}
    claimed = {t: aster.isa.instructions(t) for t in TARGETS}
    res = {"forms": {}, "instances": {}, "bad": {}, "rejected": 0, "aliases": 0,
           "explained": 0, "unexpected": [], "used": set()}
    for t in TARGETS:
        lines, owner = [], []
        for inst in claimed[t]:
            for line in _instances(inst):
                lines.append(line)
                owner.append(inst)
        bad = []
        for line, inst, (got, err) in zip(lines, owner, assemble_lines(lines, t)):
            branch = "BRANCH" in inst.properties and " label" in line
            if err is not None:
                bad.append(f"{t}: {line!r}: LLVM rejects it: {err}")
            elif normalize(got, branch) != normalize(line, branch):
                bad.append(f"{t}: {line!r}: LLVM prints {got!r}")
        res["forms"][t] = len(claimed[t])
        res["instances"][t] = len(lines)
        res["bad"][t] = bad
        # Unclaimed targets: the plain variant must not be LLVM's syntax there.
        names = {i.name for i in claimed[t]}
        others = [i for n, i in sorted(by_name.items()) if n not in names]
        plain = [i.example_asm(0) for i in others]
        for inst, line, (got, err) in zip(others, plain, _each(plain, t)):
            if err is not None:
                res["rejected"] += 1
            elif (inst.name, t) in ACCEPTED_UNCLAIMED:
                res["explained"] += 1
                res["used"].add((inst.name, t))
            elif got.split()[0] != line.split()[0] and \
                    normalize(got).split()[0] != line.split()[0]:
                res["aliases"] += 1  # LLVM's own spelling there is another one
            else:
                res["unexpected"].append(f"{t}: {inst.name}: LLVM accepts {line!r} "
                                         f"as {got!r}; claim {t} or explain why not")
    parts = [f"{t} {res['forms'][t]} forms / {res['instances'][t]} instances "
             f"{'OK' if not res['bad'][t] else str(len(res['bad'][t])) + ' BAD'}"
             for t in TARGETS]
    summary.append("conformance: " + "; ".join(parts) +
                   f"; rejected-as-expected {res['rejected']}"
                   f" (+ {res['aliases']} accepted only as renamed aliases,"
                   f" {res['explained']} explained)")
    return res


def _each(lines, target):
    """Like assemble_lines but never batched (every line is expected to fail)."""
    out = []
    for line in lines:
        try:
            got = aster.disassemble(aster.assemble(line + "\nlabel:\n", target, link=False),
                                    target)
            out.append((" ; ".join(got), None))
        except aster.AsterError as e:
            out.append((None, str(e).splitlines()[0]))
    return out


@pytest.mark.parametrize("target", TARGETS)
def test_claimed_forms_match_llvm(conformance, target):
    bad = conformance["bad"][target]
    assert not bad, f"{len(bad)} mismatches, first ones:\n" + "\n".join(bad[:40])


def test_unclaimed_targets_rejected(conformance):
    bad = conformance["unexpected"]
    assert not bad, f"{len(bad)} unexpected acceptances:\n" + "\n".join(bad[:40])


def test_explanations_are_current(conformance):
    """Every ACCEPTED_UNCLAIMED entry is a form LLVM still accepts unclaimed."""
    stale = sorted(set(ACCEPTED_UNCLAIMED) - conformance["used"])
    assert not stale, f"no longer needed (claimed, removed or rejected): {stale}"


def test_gfx942_has_300_forms():
    assert len(aster.isa.instructions("gfx942")) >= 300


def test_normalize():
    assert normalize("v_add_f32_e32 v1, v2, v3") == "v_add_f32 v1, v2, v3"
    assert normalize("v_cmp_eq_u32_e64 s[4:5], v2, v3") == "v_cmp_eq_u32 s[4:5], v2, v3"
    assert normalize("s_cbranch_scc1 4", branch=True) == "s_cbranch_scc1 <target>"
    assert normalize("v_e64_like v1") == "v_e64_like v1"


def test_property_invariants():
    """Facts the waitcnt insertion, the scheduler and the emulator rely on."""
    exec_free = {"v_readlane_b32", "v_writelane_b32", "v_nop", "buffer_inv", "buffer_wbl2"}
    for i in aster.isa.all_instructions():
        p, n = set(i.properties), i.name
        if "VMEM" in p or "SMEM" in p or "LDS" in p:
            assert p & {"VMCNT", "LGKMCNT"}, n
        if "SMEM" in p:
            assert "LGKMCNT" in p, n
        if i.encoding == "FLAT":
            assert {"VMCNT", "LGKMCNT"} <= p, n
        if "ATOMIC" in p:
            assert {"MAYLOAD", "MAYSTORE"} <= p, n
        if "RETURNS" in p:
            assert "ATOMIC" in p, n
        if "MFMA" in p or "TRANS" in p:
            assert "VALU" in p, n
        if ("VALU" in p or "VMEM" in p or "LDS" in p) and n not in exec_free:
            assert "exec" in i.implicit_uses, n
        if n.startswith("s_cbranch_"):
            assert i.implicit_uses == [n[len("s_cbranch_"):][:3].replace("exe", "exec")], n
        if "_saveexec_" in n or n.startswith("v_cmpx_"):
            assert "exec" in i.implicit_defs, n
