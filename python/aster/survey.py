"""Survey: how much of a set of assembly files / code objects aster handles.

    python -m aster.survey K.s K.hsaco DIR ...   [--target gfx942]

For each .s/.S/.asm file (target from its .amdgcn_target, else --target) and
each .hsaco/.co file: raise it (aster.raise_asm / aster.raise_code_object),
compile the result back and compare with the original (code objects: the
.text bytes and every kernel descriptor; assembly: the .text bytes LLVM MC +
lld make from the original text against those made from aster's output), and
ask the emulator which kernels use something it does not run. Assembly that
raise_asm does not take (macros, `.set` symbols as register numbers, as
generators such as Tensile write) is assembled by LLVM MC and its code object
raised instead; the row says so and names the text's first error. Emulator
support is CodeObject.unsupported per kernel. Prints one row per file, the first error of each
failure and totals (files, kernels, raised, round-trip exact, fully runnable).
`survey(paths)` returns the rows as dicts for programs and tests.

The ELF reading here (section headers and .symtab of a 64-bit little-endian
object, ELF spec "Sections" / "Symbol Table") only looks bytes up; writing
code objects stays with LLVM MC and lld.
"""
import argparse
import os
import re
import struct
import sys

import aster

ASM_EXT = (".s", ".S", ".asm")
CO_EXT = (".hsaco", ".co")


def _sections(data):
    """{name: (address, offset, size, type)} of an ELF64 LE object."""
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise ValueError("not a 64-bit little-endian ELF file")
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    hdrs = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
    stroff = hdrs[shstrndx][4]

    def name(off):
        end = data.index(b"\0", stroff + off)
        return data[stroff + off:end].decode()
    return {name(h[0]): (h[3], h[4], h[5], h[1]) for h in hdrs}, hdrs


def _symbols(data, hdrs):
    """{name: value} from .symtab (type SHT_SYMTAB = 2)."""
    out = {}
    for h in hdrs:
        if h[1] != 2:
            continue
        stroff = hdrs[h[6]][4]
        for i in range(h[5] // 24):
            st_name, _, _, _, value, _ = struct.unpack_from("<IBBHQQ", data, h[4] + i * 24)
            end = data.index(b"\0", stroff + st_name)
            out[data[stroff + st_name:end].decode()] = value
    return out


def code_facts(data):
    """(.text bytes, {kernel: descriptor bytes without the code-entry offset})."""
    secs, hdrs = _sections(data)
    syms = _symbols(data, hdrs)
    text = b""
    if ".text" in secs:
        _, off, size, _ = secs[".text"]
        text = data[off:off + size]
    kds = {}
    for name, value in syms.items():
        if not name.endswith(".kd"):
            continue
        for sname, (addr, off, size, _) in secs.items():
            if sname != ".text" and addr <= value < addr + size and addr:
                kd = data[off + value - addr:off + value - addr + 64]
                kds[name[:-3]] = kd[:16] + kd[24:]       # bytes 16..23: a layout fact
    return text, kds


def _target_of(text, default):
    m = re.search(r'\.amdgcn_target\s+"amdgcn-amd-amdhsa--(gfx\w+)', text)
    return m.group(1) if m else default


def _first_line(err):
    return str(err).strip().splitlines()[0][:400] if str(err).strip() else type(err).__name__


def _original(path, target, row):
    """The file as a code object (assembly: LLVM MC + lld) and its text."""
    if path.endswith(ASM_EXT):
        text = open(path, encoding="utf-8", errors="replace").read()
        tgt = _target_of(text, target)
        row["kind"] = "asm"
        try:
            return aster.assemble(text, tgt), text, tgt
        except Exception as e:
            mc = "LLVM MC rejects the original: " + _first_line(e)
            try:
                aster.raise_asm(text, tgt, name=path)
            except Exception as e2:     # aster names the line and its text
                raise ValueError(f"{_first_line(e2)}; {mc}") from None
            raise ValueError(mc) from None
    row["kind"] = "code object"
    return open(path, "rb").read(), None, None


def _raise(path, original, text, tgt, row):
    if text is None:
        return aster.raise_code_object(original, name=path)
    try:
        return aster.raise_asm(text, tgt, name=path)
    except aster.AsterError as e:
        # Text raise_asm does not take (macros, .set symbols as register
        # numbers, non-canonical spellings): the code object LLVM MC made of it
        # is raised instead; the row keeps the text's error.
        row["asm_error"] = _first_line(e)
        row["via"] = "code object"
        try:
            return aster.raise_code_object(original, name=path)
        except Exception as e2:
            raise ValueError(f"{row['asm_error']}; then {_first_line(e2)}") from None


def _emulator(original, row):
    co = aster.load_code_object(original)
    names = [k.name if hasattr(k, "name") else str(k) for k in co.kernels]
    row["kernels"] = len(names)
    for k in names:
        missing = co.unsupported(k)
        if missing:
            row["unsupported"][k] = missing
        else:
            row["runnable"] += 1


def survey_one(path, target="gfx942"):
    """One row: file, kind, kernels, raised, exact, runnable, unsupported, error
    (the first error: raising, round trip, else the first not-emulated
    instruction), via ("code object" when assembly was raised through it)."""
    row = {"file": path, "kind": "?", "kernels": 0, "raised": False, "exact": False,
           "runnable": 0, "unsupported": {}, "error": None, "via": None, "asm_error": None}
    try:
        original, text, tgt = _original(path, target, row)
    except Exception as e:
        row["error"] = _first_line(e)
        return row
    try:
        module = _raise(path, original, text, tgt, row)
        row["raised"] = True
        a, b = code_facts(original), code_facts(aster.compile(module).hsaco)
        if a[0] != b[0]:
            row["error"] = "round trip: .text bytes differ" + _first_diff(a[0], b[0])
        elif a[1] != b[1]:
            bad = sorted(k for k in set(a[1]) | set(b[1]) if a[1].get(k) != b[1].get(k))
            row["error"] = "round trip: descriptors differ: " + ", ".join(bad)
        else:
            row["exact"] = True
    except Exception as e:                  # a row per file: the first error, never a stop
        row["error"] = _first_line(e)
    try:
        _emulator(original, row)
    except Exception as e:
        row["error"] = row["error"] or "emulator: " + _first_line(e)
    if row["unsupported"] and row["error"] is None:
        k, missing = next(iter(row["unsupported"].items()))
        first = missing[0] if isinstance(missing, (list, tuple)) else missing
        row["error"] = f"not emulated in {k}: {_first_line(first)}"
    return row


def _first_diff(x, y):
    for i, (p, q) in enumerate(zip(x, y)):
        if p != q:
            return f" at pc 0x{i & ~3:x}"
    return f" (sizes {len(x)} vs {len(y)})"


def expand(paths):
    out = []
    for p in paths:
        if os.path.isdir(p):
            for root, _, files in sorted(os.walk(p)):
                out += [os.path.join(root, f) for f in sorted(files)
                        if f.endswith(ASM_EXT + CO_EXT)]
        else:
            out.append(p)
    return out


def survey(paths, target="gfx942"):
    return [survey_one(p, target) for p in expand(paths)]


def totals(rows):
    return {"files": len(rows), "kernels": sum(r["kernels"] for r in rows),
            "raised": sum(r["raised"] for r in rows),
            "raised_text": sum(r["raised"] and not r["via"] for r in rows), "exact": sum(r["exact"] for r in rows),
            "runnable": sum(r["runnable"] for r in rows)}


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m aster.survey", description=__doc__.split("\n")[0])
    ap.add_argument("paths", nargs="+")
    ap.add_argument("--target", default="gfx942", help="for assembly without .amdgcn_target")
    args = ap.parse_args(argv)
    rows = survey(args.paths, args.target)
    for r in rows:
        print(f"{r['file']}: {r.get('kind', '?')} kernels={r['kernels']} "
              f"raised={'yes' if r['raised'] else 'no'} exact={'yes' if r['exact'] else 'no'} "
              f"runnable={r['runnable']}/{r['kernels']}"
              + (f" (raised from LLVM MC's code object; the text: {r['asm_error']})"
                 if r["via"] else "")
              + (f"\n    {r['error']}" if r["error"] else ""))
    t = totals(rows)
    print(f"total: files={t['files']} kernels={t['kernels']} raised={t['raised']} "
          f"(from the text: {t['raised_text']}) "
          f"exact={t['exact']} runnable={t['runnable']}/{t['kernels']}")
    return 0 if t["raised"] == t["files"] else 1


if __name__ == "__main__":
    sys.exit(main())
