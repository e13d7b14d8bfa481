"""README's "How far to trust the cycles" table states the same medians and
worst errors as the summary lines of docs/timing-fidelity.md, which
`bench/bench_fidelity.py --summarize` prints: the README section the issue
asks for cannot drift from the measured table."""
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _read(rel):
    with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
        return f.read()


def readme_rows():
    text = _read("README.md")
    sec = text[text.index("## How far to trust the cycles"):]
    sec = sec[:sec.index("\n## ", 1)]
    rows = {}
    for line in sec.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 5 or not cells[2].isdigit():
            continue
        family = cells[0].split(" (")[0]
        rows[(family, cells[1].lower())] = (int(cells[2]), cells[3], cells[4])
    return rows


def doc_rows():
    text = _read("docs/timing-fidelity.md")
    rows = {}
    for m in re.finditer(r"^- (\S+) on (\S+): (\d+) launches, median ([\d.]+%), worst ([\d.]+%)",
                         text, re.M):
        rows[(m[1], m[2])] = (int(m[3]), m[4], m[5])
    m = re.search(r"^- all: (\d+) launches .*?median ([\d.]+%).*?worst ([\d.]+%)", text,
                  re.M | re.S)
    rows[("all", "both")] = (int(m[1]), m[2], m[3])
    return rows


def test_readme_fidelity_table_matches_docs():
    readme, docs = readme_rows(), doc_rows()
    assert len(readme) == 5, readme
    for key, value in readme.items():
        assert key in docs, f"README row {key} has no summary line in docs/timing-fidelity.md"
        assert value == docs[key], f"{key}: README {value} vs docs {docs[key]}"


def test_every_family_device_of_the_docs_is_in_the_readme():
    readme, docs = readme_rows(), doc_rows()
    families = {k for k in docs if k[0] in ("fmoe_stage1", "gemm_a8w8_m128", "f4gemm")}
    assert families and families <= set(readme), families - set(readme)
