"""Raising AMD's own code objects (the amd-aiter wheel's aiter_meta/hsa) and
compiling them back, both ways:

* `raise_code_object(bytes)` -> `aster.compile`;
* `raise_asm` of LLVM's disassembly of the code object: llvm-objdump-22's
  listing of the code (labels from the symbol table, branch targets as
  labels) and of each `NAME.kd` (as `.amdhsa_kernel` directives), with the
  metadata note as llvm-readelf-22 prints it, made into an assembler file.

The oracle is LLVM's tools (elf_facts.differences): the same code bytes,
kernel descriptors and metadata as AMD's file.

    python tests/py/aiter_roundtrip.py [--jobs N] [--every K]   # make raise-aiter

runs every gfx942 and gfx950 code object of the wheel and prints N/N per
architecture and way, with the failures grouped by message.
"""
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import elf_facts  # noqa: E402

OBJDUMP = shutil.which("llvm-objdump-22") or "/usr/lib/llvm-22/bin/llvm-objdump"
ARCHS = ("gfx942", "gfx950")
WAYS = ("raise_code_object", "raise_asm")


def code_objects(arch):
    """The wheel's code objects for `arch`: [(path relative to hsa/<arch>, Path)]."""
    from aster import aiter
    root = aiter.hsa_dir(arch)
    return [(str(p.relative_to(root)), p) for p in aiter.code_objects(arch)]


def sample(arch, n):
    """A fixed sample of `n` code objects of `arch` that holds every folder:
    each folder's first (by path) object, then every k-th of the rest."""
    objs = code_objects(arch)
    first = {}
    for rel, p in objs:
        first.setdefault(os.path.dirname(rel), (rel, p))
    picked = dict(first.values())
    rest = [o for o in objs if o[0] not in picked]
    k = max(1, len(rest) // max(1, n - len(picked)))
    for rel, p in rest[::k][: max(0, n - len(picked))]:
        picked[rel] = p
    return sorted(picked.items())


def _assemblable(line):
    """A descriptor line of llvm-objdump-22 as llvm-mc-22 takes it back on
    gfx94x/gfx95x: objdump prints `.amdhsa_next_free_sgpr` as the whole SGPR
    granule with nothing reserved, and `.amdhsa_reserve_xnack_mask 0`, which
    llvm-mc rejects for a target with xnack "any" ("does not match target
    id"), and next_free_sgpr up to 112, where llvm-mc takes at most 102; the
    assembler adds 6 SGPRs to next_free_sgpr there whatever the reserve
    directives say (architected flat scratch), so the smallest count of the
    same granule, 8 * granule - 5 = printed - 13, is written, and the xnack
    directive is left to the target."""
    m = re.match(r"\s*\.amdhsa_next_free_sgpr (\d+)", line)
    if m:
        return f"\t.amdhsa_next_free_sgpr {max(int(m.group(1)) - 13, 0)}"
    return "" if ".amdhsa_reserve_xnack_mask" in line else line


def listings(datas):
    """{data: llvm-objdump-22's listing of its code and descriptors}, from
    one run over all of them."""
    datas = list(dict.fromkeys(datas))
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for i, d in enumerate(datas):
            paths.append(os.path.join(tmp, f"{i}.co"))
            with open(paths[-1], "wb") as f:
                f.write(d)
        out = subprocess.run(
            [OBJDUMP, "-D", "--symbolize-operands", "--no-show-raw-insn", "--no-leading-addr",
             "-j", ".text", "-j", ".rodata", *paths],
            capture_output=True, text=True, check=True).stdout
    parts = re.split(r"^(\S+):\tfile format \S+$", out, flags=re.M)
    by_path = dict(zip(parts[1::2], parts[2::2]))
    return {d: by_path[p] for d, p in zip(datas, paths)}


def objdump_asm(data, listing=None):
    """The code object as an assembler file, from LLVM's disassembly: the
    code and descriptors (llvm-objdump-22), the metadata (llvm-readelf-22)."""
    if listing is None:
        listing = listings([data])[data]
    header = elf_facts._readelf(data, "-h")
    funcs = {n for n, (_, _, t) in elf_facts.symbols(data).items() if t == "FUNC"}
    abi = int(re.search(r"ABI Version:\s+(\d+)", header).group(1))
    arch = re.search(r"Flags:\s+\S+, (gfx\w+)", header).group(1)
    out = [f'\t.amdgcn_target "amdgcn-amd-amdhsa--{arch}"',
           f"\t.amdhsa_code_object_version {abi + 2}", "\t.text"]
    descriptors, section, in_kd = [], None, False
    for line in listing.splitlines():
        m = re.match(r"Disassembly of section (\S+):", line)
        if m:
            section = m.group(1)
            continue
        if section == ".rodata":
            if line.startswith(".amdhsa_kernel"):
                in_kd = True
            if in_kd:
                descriptors.append(_assemblable(line))
            if line.startswith(".end_amdhsa_kernel"):
                in_kd = False
            continue
        if section != ".text" or not line.strip():
            continue
        m = re.match(r"^<(.+)>:$", line)
        if m:
            name = m.group(1)
            if name in funcs:
                out += [f"\t.globl\t{name}", "\t.p2align\t8", f"\t.type\t{name},@function"]
            out.append(f"{name}:")
            continue
        # (comments dropped: `// address: words`, and the `/* ... */` LLVM
        # puts after an operand it finds invalid)
        out.append("\t" + re.sub(r"/\*.*?\*/", "", line.split("//")[0]).strip())
    yaml = re.sub(r"^\s*---\n", "", elf_facts.metadata(data) or "")
    out += ["\t.rodata"] + descriptors
    out += ["\t.amdgpu_metadata", "---", yaml, "...", "\t.end_amdgpu_metadata", ""]
    return "\n".join(out)


# raise_asm's problem when LLVM's own listing is not exact: llvm-mc-22 and
# ld.lld-22 make other code bytes from it than AMD's (bits the disassembler
# does not print, as AMD's v_mfma_scale_* scale-prefix op_sel bits), so no
# assembler text reader can round-trip that code object from it.
LOSSY_LISTING = "LLVM's listing does not hold AMD's bytes (llvm-mc-22 makes others from it)"


def llvm_reassembles(data, asm, arch):
    """Whether llvm-mc-22 + ld.lld-22 make AMD's code bytes, descriptors and
    metadata from `asm`."""
    with tempfile.TemporaryDirectory() as tmp:
        src, obj, co = (os.path.join(tmp, n) for n in ("k.s", "k.o", "k.co"))
        with open(src, "w") as f:
            f.write(asm)
        if subprocess.run(["llvm-mc-22", "-triple", "amdgcn-amd-amdhsa", f"-mcpu={arch}",
                           "-filetype=obj", src, "-o", obj], capture_output=True).returncode:
            return False     # LLVM rejects its own listing (an operand it prints as invalid)
        subprocess.run(["ld.lld-22", "-shared", obj, "-o", co], check=True, capture_output=True)
        return elf_facts.differences(data, open(co, "rb").read()) == []


def _compile_both(item):
    """(code object bytes or error, the same through raise_asm of `asm`)."""
    import aster
    name, data, asm = item

    def attempt(raise_fn):
        try:
            return aster.compile(raise_fn()).hsaco
        except aster.AsterError as e:
            return str(e).splitlines()[0]
    return (attempt(lambda: aster.raise_code_object(data, name=name)),
            attempt(lambda: aster.raise_asm(asm, name=name)))


def check(paths, jobs=1, chunk=128):
    """[(path, problem of raise_code_object, problem of raise_asm)], each
    problem None when the round trip is exact, else one line. Compiles in
    `jobs` processes; LLVM's tools run once per chunk of code objects."""
    import concurrent.futures
    import multiprocessing
    results = []
    # Fresh interpreters (spawn), and an executor that reports a worker that
    # died (BrokenProcessPool) instead of waiting for its task for ever.
    pool = (concurrent.futures.ProcessPoolExecutor(
        jobs, mp_context=multiprocessing.get_context("spawn")) if jobs > 1 else None)
    try:
        for i in range(0, len(paths), chunk):
            part = paths[i:i + chunk]
            datas = [open(p, "rb").read() for p in part]
            with elf_facts.batch(datas, (("-h",), ("-s",), ("--notes",))):
                lists = listings(datas)
                items = [(str(p), d, objdump_asm(d, lists[d])) for p, d in zip(part, datas)]
            outs = (pool.map if pool else map)(_compile_both, items)
            outs = list(outs)
            made = [o for pair in outs for o in pair if isinstance(o, bytes)]
            with elf_facts.batch(datas + made):
                for p, d, item, pair in zip(part, datas, items, outs):
                    problems = []
                    for way, o in zip(WAYS, pair):
                        diff = [o] if isinstance(o, str) else elf_facts.differences(d, o)
                        if diff and diff in (["code bytes"], [o]) and way == "raise_asm":
                            arch = re.search(r"gfx\d+", item[2]).group(0)
                            if not llvm_reassembles(d, item[2], arch):
                                problems.append(LOSSY_LISTING)
                                continue
                        problems.append(o if isinstance(o, str) else
                                        f"the round trip changed the {', '.join(diff)}"
                                        if diff else None)
                    results.append((p, *problems))
    finally:
        if pool:
            pool.shutdown()
    return results


def _key(msg):
    """A failure message without names, addresses and numbers."""
    msg = re.sub(r"^\S+ pc 0x[0-9a-f]+: ", "", msg)
    msg = re.sub(r"^\S+:\d+: ", "", msg)
    return re.sub(r"\d+", "N", msg)[:140]


def main(argv):
    import argparse
    import collections
    import time
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--jobs", type=int, default=os.cpu_count())
    ap.add_argument("--every", type=int, default=1, help="only every K-th code object")
    ap.add_argument("--arch", choices=ARCHS, action="append", help="only these (default: all)")
    ap.add_argument("--progress", action="store_true", help="print counts after each batch")
    args = ap.parse_args(argv)
    t0 = time.time()
    failures = collections.defaultdict(list)
    for arch in args.arch or ARCHS:
        objs = code_objects(arch)[:: args.every]
        # In an order that mixes the folders, so that a partial run (--progress)
        # already samples all of them.
        paths = [p for _, p in objs]
        random.Random(0).shuffle(paths)
        ok, lossy, done = collections.Counter(), collections.Counter(), 0
        for i in range(0, len(paths), 32):
            for p, *problems in check(paths[i:i + 32], args.jobs):
                done += 1
                for way, problem in zip(WAYS, problems):
                    if problem is None:
                        ok[way] += 1
                    elif problem == LOSSY_LISTING:
                        lossy[way] += 1
                    else:
                        failures[way, _key(problem)].append(f"{p}: {problem}")
                        if args.progress:
                            print(f"FAIL {way} {p}: {problem}", flush=True)
            if args.progress:
                print(f"  {arch}: {done}/{len(paths)} done: " +
                      ", ".join(f"{way} {ok[way]}/{done}" for way in WAYS),
                      f"({time.time() - t0:.0f} s)", flush=True)
        for way in WAYS:
            print(f"{arch} {way}: {ok[way]}/{len(objs)} code objects round-trip exactly" +
                  (f"; {lossy[way]} others from a listing LLVM itself does not re-assemble "
                   "exactly" if lossy[way] else ""), flush=True)
    for (way, key), where in sorted(failures.items(), key=lambda kv: -len(kv[1])):
        print(f"{len(where)} x {way}: {key}\n    e.g. {where[0][:300]}")
    print(f"({time.time() - t0:.0f} s, {args.jobs} processes)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
