"""Facts of a code object read with LLVM's own tools (llvm-readelf-22), not
aster: the code section's bytes, each kernel's descriptor bytes and the
metadata note (as llvm-readelf prints it, YAML). The oracle of the raising
round-trip tests."""
import contextlib
import functools
import os
import re
import shutil
import subprocess
import tempfile

READELF = shutil.which("llvm-readelf-22") or "/usr/lib/llvm-22/bin/llvm-readelf"


# llvm-readelf's output for (code object, flags) read ahead by `batch`.
_BATCH = {}


@contextlib.contextmanager
def batch(datas, flag_sets=(("-S",), ("-s",), ("--notes",))):
    """Within the block, the facts of `datas` come from one llvm-readelf-22
    run per set of flags over all of them (starting a process per fact per
    code object costs more than the reading)."""
    datas = list(dict.fromkeys(datas))
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for i, d in enumerate(datas):
            paths.append(os.path.join(tmp, f"{i}.co"))
            with open(paths[-1], "wb") as f:
                f.write(d)
        for flags in flag_sets:
            out = subprocess.run([READELF, "--wide", *flags, *paths], capture_output=True,
                                 text=True, check=True).stdout
            parts = re.split(r"^File: (.+)$", out, flags=re.M)
            # (one file: no `File:` line)
            by_path = dict(zip(parts[1::2], parts[2::2])) if len(paths) > 1 else {paths[0]: out}
            for path, d in zip(paths, datas):
                _BATCH[d, flags] = by_path[path]
    try:
        yield
    finally:
        for d in datas:
            for flags in flag_sets:
                _BATCH.pop((d, flags), None)


@functools.lru_cache(maxsize=32)   # one code object is read for several facts
def _readelf(data, *flags):
    if (data, flags) in _BATCH:
        return _BATCH[data, flags]
    with tempfile.NamedTemporaryFile(suffix=".hsaco", delete=False) as f:
        f.write(data)
        path = f.name
    try:
        return subprocess.run([READELF, "--wide", *flags, path], capture_output=True,
                              text=True, check=True).stdout
    finally:
        os.unlink(path)


def sections(data):
    """{name: (address, file offset, size)}"""
    out = {}
    for m in re.finditer(r"\]\s+(\S+)\s+\S+\s+([0-9a-f]{16})\s+([0-9a-f]+)\s+([0-9a-f]+)",
                         _readelf(data, "-S")):
        out[m.group(1)] = (int(m.group(2), 16), int(m.group(3), 16), int(m.group(4), 16))
    return out


def symbols(data):
    """{name: (value, size, type)} from .symtab."""
    out = {}
    for line in _readelf(data, "-s").splitlines():
        parts = line.split()
        if len(parts) == 8 and parts[0].endswith(":") and parts[0][:-1].isdigit():
            out[parts[7]] = (int(parts[1], 16), int(parts[2], 0), parts[3])
    return out


def text_bytes(data):
    addr, off, size = sections(data)[".text"]
    return data[off:off + size]


def descriptors(data):
    """{kernel: 64 descriptor bytes, with kernel_code_entry_byte_offset
    (bytes 16..23, a layout fact) replaced by whether it points at the
    kernel's code}."""
    secs = sections(data)
    syms = symbols(data)
    out = {}
    for name, (value, size, _) in syms.items():
        if not name.endswith(".kd"):
            continue
        for sname, (addr, off, ssize) in secs.items():
            if addr <= value < addr + ssize and sname != ".text":
                kd = data[off + value - addr: off + value - addr + 64]
                entry = int.from_bytes(kd[16:24], "little", signed=True)
                points = syms.get(name[:-3], (None,))[0] == value + entry
                out[name[:-3]] = kd[:16] + bytes([points]) * 8 + kd[24:]
    return out


def metadata(data):
    """The metadata note as llvm-readelf prints it (YAML)."""
    text = _readelf(data, "--notes")
    m = re.search(r"AMDGPU Metadata:\n(.*?)\n\s*\.\.\.", text, re.S)
    return m.group(1) if m else None


def data_sections(data):
    """{name: bytes} of the data sections (.data*, .bss*, .rodata*); a NOBITS
    section as its size in zero bytes."""
    out = {}
    text = _readelf(data, "-S")
    for m in re.finditer(r"\]\s+(\S+)\s+(\S+)\s+([0-9a-f]{16})\s+([0-9a-f]+)\s+([0-9a-f]+)",
                         text):
        name, kind = m.group(1), m.group(2)
        off, size = int(m.group(4), 16), int(m.group(5), 16)
        if not name.startswith((".data", ".bss", ".rodata")):
            continue
        out[name] = bytes(size) if kind == "NOBITS" else data[off:off + size]
    return out


def dynamic_symbols(data):
    """{name: (value, size, type, bind, visibility, section index)} from .dynsym."""
    out = {}
    for line in _readelf(data, "--dyn-syms").splitlines():
        parts = line.split()
        if len(parts) == 8 and parts[0].endswith(":") and parts[0][:-1].isdigit():
            out[parts[7]] = (int(parts[1], 16), int(parts[2], 0), *parts[3:7])
    return out


def dynamic_relocations(data):
    """Sorted (offset, type, symbol, addend) of the dynamic relocations."""
    out = []
    for line in _readelf(data, "-r").splitlines():
        parts = line.split()
        if len(parts) >= 4 and re.fullmatch(r"[0-9a-f]{16}", parts[0]):
            if len(parts) == 4:      # R_AMDGPU_RELATIVE64: no symbol, the addend
                out.append((int(parts[0], 16), parts[2], "", int(parts[3], 16)))
            else:                    # symbol value, name, + addend
                out.append((int(parts[0], 16), parts[2], parts[4],
                            int(parts[-1], 16) if parts[-2] in "+-" else 0))
    return sorted(out)


def _cuid(symbols):
    """HIP's one-byte `__hip_cuid_<hash>` marker under one name: its hash is
    of the compile (clang -S and clang -c of one file differ)."""
    return {("__hip_cuid" if k.startswith("__hip_cuid_") else k): v for k, v in symbols.items()}


def differences(h, h2, image=False):
    """Which of the code bytes, descriptors and metadata of two code objects
    differ; with `image`, also their data sections, dynamic symbols and
    dynamic relocations (llvm-readelf-22)."""
    diff = []
    if text_bytes(h) != text_bytes(h2):
        diff.append("code bytes")
    if image:
        if data_sections(h) != data_sections(h2):
            diff.append("data sections")
        if _cuid(dynamic_symbols(h)) != _cuid(dynamic_symbols(h2)):
            diff.append("dynamic symbols")
        if dynamic_relocations(h) != dynamic_relocations(h2):
            diff.append("relocations")
    if descriptors(h) != descriptors(h2):
        diff.append("descriptors")
    if metadata(h) != metadata(h2):
        diff.append("metadata")
    return diff
