"""The docs cannot rot: README.md and docs/*.md are checked as the code is.

- Links: every relative link of every Markdown file in the repository
  (`[text](path)`, `[text](path#anchor)`, `![img](path)`) names a file or
  folder that exists, and an anchor names a heading of its page (GitHub's
  rule: lower case, punctuation but `-` and `_` dropped, spaces to `-`).
- Examples: every ```python block of README.md and docs/*.md compiles, and
  the blocks of a page run in order in one namespace (like a notebook), in a
  temporary folder, on the emulator. A block right after a line
  `<!-- not run: why -->` is only compiled: an illustration whose inputs
  (a GPU, a cubin, minutes of simulation, names set up in prose) a reader
  supplies. The test counts the blocks that ran, so marking every block
  "not run" cannot pass silently.
- The instruction reference (tools/docs/instruction_reference.py) covers
  every instruction of the table and says what the emulator runs
  (`make docs` writes it into build/docs/).
"""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
_LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
_FENCE = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```", re.S | re.M)
_NOT_RUN = "<!-- not run:"


def _markdown_files():
    out = subprocess.run(["git", "ls-files", "*.md"], cwd=ROOT, capture_output=True,
                         text=True)
    files = [ROOT / f for f in out.stdout.split()] if out.returncode == 0 else []
    # A fresh checkout without git metadata still checks the docs.
    return sorted(set(files) | set(PAGES))


def _slug(heading):
    s = heading.strip().lower()
    s = re.sub(r"[^\w\- ]", "", s)
    return s.replace(" ", "-")


def _anchors(path):
    text = _FENCE.sub("", path.read_text())
    return {_slug(m[1]) for m in re.finditer(r"^#+\s+(.*)$", text, re.M)}


def _strip_code(text):
    """The text without fenced blocks and inline code (links there are code)."""
    text = _FENCE.sub("", text)
    return re.sub(r"`[^`\n]*`", "", text)


def _links(path):
    return [m[1] for m in _LINK.finditer(_strip_code(path.read_text()))]


def test_relative_links_resolve():
    files = _markdown_files()
    assert ROOT / "README.md" in files and len(files) >= 5
    broken, checked = [], 0
    for md in files:
        for link in _links(md):
            if re.match(r"[a-z][a-z0-9+.-]*:", link, re.I):      # http:, mailto:, ...
                continue
            target, _, anchor = link.partition("#")
            dest = (md.parent / target).resolve() if target else md
            checked += 1
            if not dest.exists():
                broken.append(f"{md.relative_to(ROOT)}: {link} (no such file)")
            elif anchor and dest.suffix == ".md" and anchor not in _anchors(dest):
                broken.append(f"{md.relative_to(ROOT)}: {link} (no heading #{anchor})")
    assert checked > 20
    assert not broken, "broken links:\n" + "\n".join(broken)


def test_link_checker_finds_a_broken_link(tmp_path):
    """The checker's parts on a made-up page: a missing file, a missing anchor."""
    page = tmp_path / "p.md"
    page.write_text("# A `code` title\n[x](missing.md) [y](#a-code-title) [z](#nope) "
                    "`[c](code.md)`\n```sh\n# not a heading\n```\n")
    assert _links(page) == ["missing.md", "#a-code-title", "#nope"]
    assert _anchors(page) == {"a-code-title"}


def _blocks(page):
    """[(line, code, runs)] of the page's python blocks."""
    text = page.read_text()
    out = []
    for m in _FENCE.finditer(text):
        if m[1] != "python":
            continue
        before = text[:m.start()].rstrip().splitlines()
        runs = not (before and before[-1].strip().startswith(_NOT_RUN))
        out.append((text[:m.start()].count("\n") + 1, m[2], runs))
    return out


def test_every_python_block_compiles():
    n = 0
    for page in PAGES:
        for line, code, _ in _blocks(page):
            compile(code, f"{page.relative_to(ROOT)}:{line}", "exec")
            n += 1
    assert n >= 10


@pytest.mark.parametrize("page", [p for p in PAGES if any(r for *_, r in _blocks(p))],
                         ids=lambda p: p.name)
def test_examples_run(page, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    namespace = {"__name__": "__doc_example__"}
    for line, code, runs in _blocks(page):
        if runs:
            exec(compile(code, f"{page.relative_to(ROOT)}:{line}", "exec"), namespace)


def test_readme_tour_runs():
    """The README's tour is run (not marked away), and the README stays short."""
    blocks = _blocks(ROOT / "README.md")
    assert blocks and blocks[0][2], "the README's first python block must run"
    assert len((ROOT / "README.md").read_text().splitlines()) < 300


def test_instruction_reference(tmp_path):
    """Every instruction of the table is a row; the emulator's own counts
    (aster-emu-isa-coverage: gfx942 all but s_sendmsghalt) agree."""
    import aster
    from aster import isa
    out = tmp_path / "instructions.md"
    build = Path(aster.__file__).resolve().parents[2]
    p = subprocess.run([sys.executable, str(ROOT / "tools" / "docs" / "instruction_reference.py"),
                        "--build", str(build), "-o", str(out)],
                       capture_output=True, text=True, timeout=600,
                       env={**os.environ, "PYTHONPATH": str(build / "python_packages")})
    assert p.returncode == 0, p.stderr
    rows = [r for r in out.read_text().splitlines() if r.startswith("| `")]
    names = [r.split("`")[1] for r in rows]
    assert sorted(names) == sorted(i.name for i in isa.all_instructions())
    halt = next(r for r in rows if r.startswith("| `s_sendmsghalt`"))
    assert "gfx942: no:" in halt
    gfx942 = [r for r in rows if "gfx942: yes" in r]
    assert len(gfx942) == len(isa.instructions("gfx942")) - 1
    mfma = next(r for r in rows if r.startswith("| `v_mfma_f32_32x32x8_f16`"))
    # AMD's matrix instruction calculator, CDNA3: v_mfma_f32_32x32x8_f16 takes
    # 32 cycles, 8 passes of 4.
    assert "matrix core, 8 passes" in mfma
