"""bench/native/psi.sh: psi.c's functions of the base and of the series
timed natively, in a smoke run of seconds: every workload has its row for
both kernels, the report is written, and a planted accounting bug in the
series' psi.c (NONIDLE time halved) makes the run fail, because both
universes must agree on every group's times at the end.

Skipped without the series work tree (scripts/make-worktree.sh)."""
import json
import pathlib
import shutil
import subprocess

import pytest

from layout import TOP  # noqa: E402

SCRIPT = TOP / "bench" / "native" / "psi.sh"
SERIES = TOP / "build" / "linux"
PSI_C = SERIES / "kernel" / "sched" / "psi.c"

pytestmark = [
    pytest.mark.skipif(not PSI_C.exists(), reason="no series work tree build/linux (scripts/make-worktree.sh)"),
    pytest.mark.skipif(not shutil.which("gcc"), reason="no gcc"),
]


def run(out, *args):
    return subprocess.run([str(SCRIPT), "--tree", str(SERIES), "--quick", "--out", str(out), *args],
                          capture_output=True, text=True, timeout=300)


def test_smoke_rows_for_every_workload(tmp_path):
    p = run(tmp_path / "run")
    assert p.returncode == 0, p.stdout + p.stderr
    rows = [json.loads(line) for line in (tmp_path / "run" / "raw.jsonl").read_text().splitlines()]
    seen = {(r["workload"], r["depth"], r["kernel"]) for r in rows}
    for w, d in (("pingpong", 1), ("pingpong", 16), ("lone", 1), ("lone", 16), ("kubepods", 4)):
        assert (w, d, "base") in seen and (w, d, "series") in seen, (w, d, sorted(seen))
    assert all(r["ns_per_round"] > 0 for r in rows)
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert len(summary["rows"]) == 7
    report = (tmp_path / "run" / "REPORT.md").read_text()
    assert "CLOCK_MONOTONIC" in report and "| pingpong | 8 |" in report


def test_a_planted_bug_fails_the_run(tmp_path):
    text = PSI_C.read_text()
    line = "groupc->times[PSI_NONIDLE] += delta;"
    assert line in text, "the planted bug's line is gone from psi.c; pick another"
    broken = tmp_path / "psi.c"
    broken.write_text(text.replace(line, "groupc->times[PSI_NONIDLE] += delta / 2;", 1))
    p = run(tmp_path / "run", "--psi-c", str(broken))
    assert p.returncode != 0, p.stdout + p.stderr
    assert "times or counts differ" in p.stderr, p.stderr
