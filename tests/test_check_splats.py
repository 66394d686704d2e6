"""Golden tests for scripts/check-splats.py: every kind of splat is caught,
a clean boot log with lookalike lines is not."""
import importlib.util
import os
import pathlib
import subprocess
import sys

import pytest

TOP = pathlib.Path(__file__).resolve().parent.parent
SCRIPT = TOP / "scripts" / "check-splats.py"
SAMPLES = TOP / "tests" / "splats"

spec = importlib.util.spec_from_file_location("check_splats", SCRIPT)
check_splats = importlib.util.module_from_spec(spec)
spec.loader.exec_module(check_splats)

# sample -> kinds, in order of the lines that start a splat
EXPECTED = {
    "clean-boot.log": [],
    "warning.log": ["warning"],
    "lockdep-circular.log": ["warning"],
    "rcu-usage.log": ["warning"],
    "sleeping.log": ["bug"],
    "rcu-stall.log": ["rcu-stall"],
    "hung-task.log": ["hung-task"],
    "soft-lockup.log": ["bug"],
    "kasan.log": ["bug"],
    "psi-inconsistent.log": ["psi", "psi"],
    "oops.log": ["bug", "oops", "panic"],
    "kcsan.log": ["kcsan"],
}


def test_every_sample_has_an_expectation():
    assert sorted(p.name for p in SAMPLES.glob("*.log")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_scan(name):
    lines = (SAMPLES / name).read_text().splitlines(keepends=True)
    assert [kind for _, kind, _ in check_splats.scan(lines)] == EXPECTED[name]


@pytest.mark.parametrize("name,rc", [("clean-boot.log", 0), ("psi-inconsistent.log", 1)])
def test_exit_status_and_report(name, rc):
    p = subprocess.run([sys.executable, str(SCRIPT), str(SAMPLES / name)],
                       capture_output=True, text=True)
    assert p.returncode == rc
    if rc:
        assert "SPLAT (psi)" in p.stdout and "inconsistent task state" in p.stdout


def test_missing_file_is_an_error(tmp_path):
    p = subprocess.run([sys.executable, str(SCRIPT), str(tmp_path / "nope")],
                       capture_output=True, text=True)
    assert p.returncode == 2 and "cannot read" in p.stderr


def run_allowing(paths, allow):
    env = dict(os.environ, CGSCALE_SPLATS_ALLOW=allow)
    return subprocess.run([sys.executable, str(SCRIPT), *map(str, paths)],
                          capture_output=True, text=True, env=env)


def test_kcsan_counts_unless_allowed():
    log = SAMPLES / "kcsan.log"
    p = subprocess.run([sys.executable, str(SCRIPT), str(log)], capture_output=True, text=True,
                       env={k: v for k, v in os.environ.items() if k != "CGSCALE_SPLATS_ALLOW"})
    assert p.returncode == 1 and "SPLAT (kcsan)" in p.stdout
    p = run_allowing([log], "kcsan")
    assert p.returncode == 0 and "1 allowed report(s) not counted" in p.stderr


def test_allowing_kcsan_still_counts_everything_else(tmp_path):
    mixed = tmp_path / "mixed.log"
    mixed.write_text((SAMPLES / "kcsan.log").read_text() + (SAMPLES / "warning.log").read_text()
                     + (SAMPLES / "kasan.log").read_text())
    p = run_allowing([mixed], "kcsan")
    assert p.returncode == 1
    assert "2 splat line(s) found" in p.stderr and "1 allowed report(s)" in p.stderr
    assert "SPLAT (warning)" in p.stdout and "BUG: KASAN" in p.stdout
    assert "SPLAT (kcsan)" not in p.stdout


def test_only_kcsan_can_be_allowed():
    p = run_allowing([SAMPLES / "warning.log"], "warning")
    assert p.returncode == 2 and "may only name" in p.stderr
