"""scripts/summarize-selftests.py: TAP parsing, exit-status fallbacks,
denylist handling and the closing line."""
import pathlib
import subprocess
import sys

TOP = pathlib.Path(__file__).resolve().parent.parent
SCRIPT = TOP / "scripts" / "summarize-selftests.py"


def run(tmp, programs, deny="", host=None):
    out = tmp / "st"
    out.mkdir()
    for name, (log, rc) in programs.items():
        (out / f"{name}.log").write_text(log)
        (out / f"{name}.rc").write_text(f"{rc}\n")
    (tmp / "deny").write_text(deny)
    args = [sys.executable, str(SCRIPT), str(out), str(tmp / "deny")]
    if host is not None:
        (tmp / "host").write_text(host)
        args += ["--host-results", str(tmp / "host")]
    return subprocess.run(args, capture_output=True, text=True)


TAP = "TAP version 13\n1..3\nok 1 test_a\nnot ok 2 test_b\nok 3 # SKIP test_c\n"


def test_counts_and_closing_line(tmp_path):
    p = run(tmp_path, {"test_x": (TAP, 1)}, host="pass checkpatch:0001\nfail pytest:t\n")
    lines = p.stdout.strip().splitlines()
    assert lines[-1] == "2 passed, 2 failed, 1 skipped"
    assert p.returncode == 1
    assert any("test_x:test_b" in line and "FAIL" in line for line in lines)


def test_denylisted_failure_is_not_counted(tmp_path):
    p = run(tmp_path, {"test_x": (TAP, 1)}, deny="test_x:test_b  flaky under TCG\n")
    assert p.stdout.strip().splitlines()[-1] == "1 passed, 0 failed, 1 skipped"
    assert "XFAIL" in p.stdout and "flaky under TCG" in p.stdout
    assert p.returncode == 0


def test_no_tap_falls_back_to_exit_status(tmp_path):
    p = run(tmp_path, {"a": ("", 0), "b": ("", 4), "c": ("not built", 127)})
    assert p.stdout.strip().splitlines()[-1] == "1 passed, 1 failed, 1 skipped"


def test_timeout_after_results_is_a_failure(tmp_path):
    p = run(tmp_path, {"t": ("ok 1 first\n", 124)})
    assert "t:<timeout>" in p.stdout
    assert p.stdout.strip().splitlines()[-1] == "1 passed, 1 failed, 0 skipped"


def test_nothing_ran_is_a_failure(tmp_path):
    p = run(tmp_path, {})
    assert p.returncode == 1
