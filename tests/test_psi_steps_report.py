"""Tests for bench/bin/psi-steps-report.py: per-iteration overhead (psi=1 minus
psi=0), each step's effect against the step before, only the steps in
steps.list, and the changelog paragraph of one step."""
import json
import pathlib
import subprocess
import sys

TOP = pathlib.Path(__file__).resolve().parent.parent
SCRIPT = TOP / "bench" / "bin" / "psi-steps-report.py"


def write_step(run, step, on, off, subject="x"):
    (run / "kernels").mkdir(parents=True, exist_ok=True)
    (run / "kernels" / f"{step}.subject").write_text(subject + "\n")
    for variant, base in (("psi-on", on), ("psi-off", off)):
        d = run / "raw" / "psi" / step / variant
        d.mkdir(parents=True)
        for it in range(1, 6):
            lines = [json.dumps({"metric": f"round_trip_depth{dep}", "value": base + dep + it})
                     for dep in (1, 8)]
            (d / f"{it}.jsonl").write_text("\n".join(lines) + "\n")


def test_effects_and_changelog(tmp_path):
    write_step(tmp_path, "00-base", 13000, 11000, "base")
    write_step(tmp_path, "02-abc", 12900, 11000, "psi: a")
    write_step(tmp_path, "03-old", 99999, 11000, "stale step, not listed")
    (tmp_path / "steps.list").write_text("00-base\n02-abc\n")
    out = subprocess.run([sys.executable, SCRIPT, tmp_path], capture_output=True, text=True, check=True)
    assert "stale step" not in out.stdout
    rows = json.loads((tmp_path / "steps.json").read_text())
    assert [r["step"] for r in rows] == ["00-base", "02-abc"]
    assert rows[0]["overhead"]["1"]["median"] == 2000
    assert rows[1]["effect"]["8"]["delta"] == -100
    assert rows[1]["effect"]["8"]["significant"]
    log = subprocess.run([sys.executable, SCRIPT, tmp_path, "--changelog", "2"],
                         capture_output=True, text=True, check=True).stdout
    assert "overhead before                2,000     2,000" in log
    assert "change                         -100*     -100*" in log
    assert max(len(line.expandtabs()) for line in log.splitlines()) <= 75
    bad = subprocess.run([sys.executable, SCRIPT, tmp_path, "--changelog", "0"],
                         capture_output=True, text=True)
    assert bad.returncode != 0 and "no step" in bad.stderr
