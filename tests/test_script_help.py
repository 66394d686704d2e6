"""Every script of the command folders (tests/layout.py) answers -h/--help with its
usage (stdout, exit 0) and refuses an unknown option with its usage on
stderr and exit 2, before it does anything.

Each script runs with CGSCALE_BUILD set to a fresh empty directory, so a
script that does work before reading its arguments cannot touch the real
build area, and that directory must still be empty after the unknown-option
call. Guest scripts run here on the host: they must refuse before they
touch anything.
"""
import os
import pathlib
import subprocess

import pytest

TOP = pathlib.Path(__file__).resolve().parent.parent
from layout import command_files  # noqa: E402

UNKNOWN = "--no-such-option-cgscale"
TIMEOUT = 20

# Executable files that are not run, with the reason. Files without the
# executable bit (bench-merge.py and psi-steps-report.py,
# which are run as "python3 FILE") are skipped as well.
EXCLUDED = {
    "lib.sh": "sourced by the other scripts (helpers and paths), not run",
    "series.sh": "sourced by the scripts that handle the series (sgit, export_series), not run",
}


def scripts():
    return [p for p in command_files() if os.access(p, os.X_OK) and p.name not in EXCLUDED]


SCRIPT_LIST = scripts()


def run(script, arg, build):
    env = dict(os.environ, CGSCALE_BUILD=str(build))
    # a CGSCALE_SRC or accelerator choice of the caller plays no part
    for k in ("CGSCALE_SRC", "CGSCALE_ACCEL"):
        env.pop(k, None)
    return subprocess.run([str(script), arg], stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, env=env, cwd=build.parent, timeout=TIMEOUT)


def has_usage(text):
    return any("usage" in line.lower() for line in text.splitlines())


def test_walk_finds_the_scripts():
    names = {p.relative_to(TOP).as_posix() for p in SCRIPT_LIST}
    for want in ("scripts/run-guest.sh", "scripts/test.sh", "scripts/check-splats.py",
                 "scripts/guest/exec.sh", "checks/guest/odd-reads.py",
                 "submit/prepare-submission.sh", "submit/submission.py",
                 "scripts/guest/run-selftests.sh", "scripts/guest/setup-test-env.sh",
                 "scripts/build-selftests.sh", "checks/heavy/prove-selftests.sh",
                 "scripts/summarize-selftests.py", "checks/kunit-results.py",
                 "bench/bench.sh", "hardware/host-bench.sh"):
        assert want in names
    assert not {pathlib.PurePath(n).name for n in names} & set(EXCLUDED)


@pytest.fixture
def build(tmp_path):
    d = tmp_path / "build"
    d.mkdir()
    return d


@pytest.mark.parametrize("script", SCRIPT_LIST, ids=lambda p: p.relative_to(TOP).as_posix())
@pytest.mark.parametrize("arg", ["--help", "-h"])
def test_help(script, arg, build):
    p = run(script, arg, build)
    assert p.returncode == 0, f"{script.name} {arg}: exit {p.returncode}\n{p.stdout}{p.stderr}"
    assert has_usage(p.stdout), f"{script.name} {arg}: no usage line on stdout\n{p.stdout}{p.stderr}"
    assert not any(build.iterdir()), f"{script.name} {arg} wrote {sorted(build.iterdir())}"


@pytest.mark.parametrize("script", SCRIPT_LIST, ids=lambda p: p.relative_to(TOP).as_posix())
def test_unknown_option(script, build):
    p = run(script, UNKNOWN, build)
    assert p.returncode == 2, f"{script.name} {UNKNOWN}: exit {p.returncode}\n{p.stdout}{p.stderr}"
    assert has_usage(p.stderr), f"{script.name} {UNKNOWN}: no usage on stderr\n{p.stderr}"
    assert not any(build.iterdir()), \
        f"{script.name} {UNKNOWN} did something: {sorted(build.iterdir())}"
