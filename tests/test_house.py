"""The house keeps its shape (README.md, "Layout"; wip/README.md):

- wip/ holds open topics only: each wip/TOPIC/README.md has a line
  "Status: open" and does not say that the topic was folded, dropped or
  decided against;
- README.md is a first screen: at most 12 KB, both commands in its first
  25 lines, one table, every top-level folder named in its layout;
- docs/README.md names every page of docs/, and no page is a log that
  keeps growing (psi-depth.md at most 400 lines, any page at most 600);
- no tracked file names a path that the regrouping of 2026-12-02 moved
  (tests/layout.py, MOVED).
"""
import pathlib
import re
import subprocess

import pytest

from layout import MOVED, TOP  # noqa: E402

CLOSED = re.compile(r"\b(?:folded|dropped|decided against|stays out|taken back out)\b", re.I)
STATUS_OPEN = re.compile(r"^Status: open\b", re.M)


def closed_topics(wip):
    """the topics of the folder wip whose README is missing, lacks the
    Status: open line or says they are closed, with the reason"""
    bad = []
    for d in sorted(p for p in wip.iterdir() if p.is_dir()):
        readme = d / "README.md"
        if not readme.is_file():
            bad.append(f"{d.name}: no README.md")
            continue
        text = readme.read_text()
        if not STATUS_OPEN.search(text):
            bad.append(f"{d.name}: no 'Status: open' line")
        m = CLOSED.search(text)
        if m:
            bad.append(f"{d.name}: its README says '{m.group(0)}'")
    return bad


def test_wip_holds_open_topics_only():
    assert closed_topics(TOP / "wip") == [], \
        "a decided topic leaves wip/ (wip/README.md says where its decision and files go)"


@pytest.mark.parametrize("readme, why", [
    (None, "no README.md"),
    ("# t\n\nA fixup.\n", "no 'Status: open' line"),
    ("# t\n\nStatus: open\n\nFolded into patch 34 on 2026-11-28.\n", "says 'Folded'"),
    ("# t\nStatus: open\nThe carry stays out of the series.\n", "says 'stays out'"),
    ("# t\nStatus: open\nDropped after the A/B.\n", "says 'Dropped'"),
])
def test_closed_topics_are_found(tmp_path, readme, why):
    (tmp_path / "topic").mkdir()
    if readme is not None:
        (tmp_path / "topic" / "README.md").write_text(readme)
    bad = closed_topics(tmp_path)
    assert len(bad) >= 1 and any(why in b for b in bad), bad


def test_an_open_topic_passes(tmp_path):
    (tmp_path / "topic").mkdir()
    (tmp_path / "topic" / "README.md").write_text("# t\n\nStatus: open (A/B left)\n")
    assert closed_topics(tmp_path) == []


README = (TOP / "README.md").read_text()


def test_readme_is_a_first_screen():
    assert len(README.encode()) <= 12 * 1024, f"README.md is {len(README.encode())} bytes"
    head = "\n".join(README.splitlines()[:25])
    for cmd in ("scripts/run.sh", "scripts/test.sh"):
        assert cmd in head, f"{cmd} is not in README.md's first 25 lines"
    tables = [ln for ln in README.splitlines() if re.match(r"^\|\s*:?-{3,}", ln)]
    assert len(tables) == 1, f"README.md has {len(tables)} tables; the headline one only"


def tracked():
    out = subprocess.run(["git", "-C", str(TOP), "ls-files"], capture_output=True, text=True)
    if out.returncode != 0:
        pytest.skip("not a git checkout")
    return out.stdout.split()


def test_readme_names_every_folder():
    layout = README[README.index("## Layout"):] if "## Layout" in README else ""
    assert layout, "README.md has no '## Layout' section"
    tops = sorted({f.split("/")[0] for f in tracked() if "/" in f and not f.startswith(".")})
    missing = [t for t in tops if not re.search(rf"(?<![\w.-]){re.escape(t)}/", layout)]
    assert missing == [], f"folders not in README.md's layout: {missing}"


DOCS = TOP / "docs"


def test_docs_index_names_every_page():
    index = (DOCS / "README.md").read_text()
    pages = sorted(p.name for p in DOCS.glob("*.md") if p.name != "README.md")
    missing = [p for p in pages if f"({p})" not in index and f"`{p}`" not in index]
    assert missing == [], f"docs/README.md does not name {missing}"
    named = set(re.findall(r"\(([\w.-]+\.md)\)", index))
    gone = sorted(n for n in named if not (DOCS / n).is_file() and n != "README.md")
    assert gone == [], f"docs/README.md names pages that do not exist: {gone}"


@pytest.mark.parametrize("page, limit", [("psi-depth.md", 400), ("*", 600)])
def test_docs_are_not_logs(page, limit):
    for p in sorted(DOCS.glob("*.md") if page == "*" else [DOCS / page]):
        n = len(p.read_text().splitlines())
        assert n <= limit, f"docs/{p.name} has {n} lines (at most {limit}): history goes to git"


def test_nothing_names_a_moved_path():
    pat = re.compile("(?:" + "|".join(re.escape(m) for m in MOVED) + r")(?![\w-]|\.\w)")
    hits = []
    for f in tracked():
        if f.startswith("patches/") or f == "tests/layout.py":
            continue
        p = TOP / f
        if p.suffix in (".png", ".gz", ".xz") or not p.is_file() or p.stat().st_size > 4 << 20:
            continue
        try:
            text = p.read_text()
        except UnicodeDecodeError:
            continue
        for n, line in enumerate(text.splitlines(), 1):
            m = pat.search(line)
            if m:
                hits.append(f"{f}:{n}: {m.group(0)}")
    assert hits == [], "old paths (README.md, 'Layout', has the new ones):\n" + "\n".join(hits[:40])
