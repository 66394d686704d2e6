"""checks/heavy/check-psi-model.sh: the differential PSI model of tests/psi-model
on the series (build/linux) in a few seconds: a short random campaign (the
regression traces replayed, the directed chain case, a few trees, no
mismatch), one break of
tests/psi-model/breaks caught, and a change that breaks nothing reported as
not caught, with exit 1. Also that every break diff applies to the psi.c
it was made for: tests/psi-model/breaks to the series'.

Skipped without the series work tree or the unpacked base tree (the model
extracts its code from both): scripts/make-worktree.sh and
scripts/get-base.sh make them.
"""
import difflib
import os
import pathlib
import shutil
import subprocess

import pytest

TOP = pathlib.Path(__file__).resolve().parent.parent
SCRIPT = TOP / "checks" / "heavy" / "check-psi-model.sh"
SERIES = TOP / "build" / "linux"
BASE = TOP / "build" / "base" / "linux-source-7.3"
BREAKS = TOP / "tests" / "psi-model" / "breaks"
PSI_C = pathlib.Path("kernel/sched/psi.c")
TIMEOUT = 300

pytestmark = [
    pytest.mark.skipif(not (SERIES / PSI_C).exists(),
                       reason="no series work tree build/linux (scripts/make-worktree.sh)"),
    pytest.mark.skipif(not (BASE / PSI_C).exists(),
                       reason="no base tree build/base/linux-source-7.3 (scripts/get-base.sh)"),
    pytest.mark.skipif(not shutil.which("gcc"), reason="no gcc to build the model"),
]


def check(tmp_path, *args):
    env = dict(os.environ)
    env.pop("CGSCALE_SRC", None)
    p = subprocess.run([str(SCRIPT), "--tree", str(SERIES), "--out", str(tmp_path / "out"),
                        "--trees", "5", "--events", "2000", *args],
                       stdin=subprocess.DEVNULL, capture_output=True, text=True, env=env,
                       timeout=TIMEOUT)
    lines = [l for l in p.stdout.splitlines() if l.startswith(("pass psi-model:", "fail psi-model:"))]
    return p, lines


def test_short_campaign_on_the_series(tmp_path):
    p, lines = check(tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    assert lines[0].startswith("pass psi-model: traces (")
    assert lines[1].startswith("pass psi-model: directed chain, 0 mismatches")
    assert lines[2].startswith("pass psi-model: 5 trees, 10000 events (")
    assert "0 mismatches" in lines[2]
    assert len(lines) == 3, lines


def test_a_break_is_caught(tmp_path):
    one = tmp_path / "breaks"
    one.mkdir()
    shutil.copy(BREAKS / "no-kick.diff", one)
    p, lines = check(tmp_path, "--breaks", str(one))
    assert p.returncode == 0, p.stdout + p.stderr
    assert lines[-1].startswith("pass psi-model: break no-kick caught by event "), lines
    assert "kick: " in lines[-1]


def test_a_harmless_change_is_not_caught(tmp_path):
    # a comment added to psi.c: the model must run all its trees and fail
    old = (SERIES / PSI_C).read_text().splitlines(keepends=True)
    new = old[:1] + ["/* nothing planted */\n"] + old[1:]
    one = tmp_path / "breaks"
    one.mkdir()
    (one / "comment.diff").write_text(
        "A change that plants no bug.\n\n" +
        "".join(difflib.unified_diff(old, new, "a/" + str(PSI_C), "b/" + str(PSI_C))))
    p, lines = check(tmp_path, "--breaks", str(one))
    assert p.returncode == 1, p.stdout + p.stderr
    assert lines[-1].startswith("fail psi-model: break comment not caught in 5 trees"), lines


def test_break_diffs_apply(tmp_path):
    breaks, tree = BREAKS, SERIES
    diffs = sorted(breaks.glob("*.diff"))
    assert diffs
    for d in diffs:
        shutil.copy(tree / PSI_C, tmp_path / "psi.c")
        p = subprocess.run(["patch", "--dry-run", "-F0", str(tmp_path / "psi.c")],
                           stdin=d.open(), capture_output=True, text=True)
        assert p.returncode == 0, f"{d.name} does not apply to {tree}/{PSI_C}:\n{p.stdout}"
