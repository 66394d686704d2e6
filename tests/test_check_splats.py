"""Golden tests for scripts/check-splats.py: every kind of splat is caught,
a clean boot log with lookalike lines is not."""
import importlib.util
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
