"""scripts/summarize-selftests.py: TAP parsing, exit-status fallbacks,
denylist handling and the closing line."""
import pathlib
import subprocess
import sys

import pytest

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


FIRST = "ok 1 test_a\nnot ok 2 test_b\n"


@pytest.mark.parametrize("retry_log, rc, closing, note", [
    # passed the second time: counted as passed, marked and listed
    ("ok 1 test_a\nok 2 test_b\n", 0, "2 passed, 0 failed, 0 skipped", "passed on retry"),
    # failed again: a failure; the first run decides test_a, only test_b was retried
    ("not ok 1 test_a\nnot ok 2 test_b\n", 1, "1 passed, 1 failed, 0 skipped", "retry: fail"),
], ids=["passes-on-retry", "fails-again"])
def test_retry_decides_the_first_runs_failures(tmp_path, retry_log, rc, closing, note):
    p = run(tmp_path, {"test_x": (FIRST, 1), "test_x.retry": (retry_log, rc)})
    lines = p.stdout.strip().splitlines()
    assert lines[-1] == closing
    assert any("test_x:test_b" in line and note in line for line in lines)
    assert ("failed once and passed on retry: test_x:test_b" in p.stdout) == (rc == 0)
    assert p.returncode == (0 if rc == 0 else 1)


GUEST = TOP / "scripts" / "guest" / "run-selftests.sh"


def fake_program(path, first, second):
    """A kselftest-like program: prints FIRST on its first run, SECOND later."""
    path.write_text(
        "#!/bin/bash\n"
        f"if [ -e \"$0.ran\" ]; then out='{second}'; else touch \"$0.ran\"; out='{first}'; fi\n"
        'printf "$out"\n'
        'case $out in *"not ok"*) exit 1 ;; esac\n')
    path.chmod(0o755)


def run_guest_script(tmp, programs, deny, retry=True):
    ksft = tmp / "ksft"
    ksft.mkdir()
    for name, (first, second, flags) in programs.items():
        fake_program(ksft / name, first, second)
    lst = tmp / "list"
    lst.write_text("".join(f"{n} 30 {f}\n" for n, (_, _, f) in programs.items()))
    (tmp / "deny").write_text(deny)
    args = ["bash", str(GUEST)] + (["--retry", str(tmp / "deny")] if retry else [])
    args += [str(ksft), str(lst), str(tmp / "st")]
    env = {"PATH": "/usr/bin:/bin", "CGSCALE_NO_GUEST_SETUP": "1"}
    subprocess.run(args, check=True, capture_output=True, text=True, env=env)
    return sorted(p.name for p in (tmp / "st").iterdir())


def test_guest_script_retries_only_unlisted_failures_of_retry_programs(tmp_path):
    fail, ok = "not ok 1 test_b\\n", "ok 1 test_b\\n"
    files = run_guest_script(tmp_path, {
        "up_flaky": (fail, ok, "retry"),    # unexpected failure: retried
        "up_denied": (fail, ok, "retry"),   # failure is on the denylist
        "up_ok": (ok, ok, "retry"),         # passed: nothing to retry
        "ours": (fail, ok, ""),             # the series' own: never retried
    }, deny="up_denied:test_b  known\n")
    assert "up_flaky.retry.log" in files and "up_flaky.retry.rc" in files
    assert not any(f.startswith(("up_denied.retry", "up_ok.retry", "ours.retry")) for f in files)


def test_guest_script_without_retry_option_never_retries(tmp_path):
    fail, ok = "not ok 1 test_b\\n", "ok 1 test_b\\n"
    files = run_guest_script(tmp_path, {"up_flaky": (fail, ok, "retry")}, deny="", retry=False)
    assert files == ["up_flaky.log", "up_flaky.rc"]


def test_not_built_program_shows_what_is_missing(tmp_path):
    log = "sysfs_perm: not built: no directory /obj/kselftest/filesystems/sysfs\n"
    p = run(tmp_path, {"sysfs_perm": (log, 127), "test_x": (TAP, 1)})
    line = next(line for line in p.stdout.splitlines() if line.strip().startswith("sysfs_perm"))
    assert "FAIL" in line and "(not built: no directory /obj/kselftest/filesystems/sysfs)" in line
    assert p.stdout.strip().splitlines()[-1] == "1 passed, 2 failed, 1 skipped"
    assert p.returncode == 1


def test_guest_script_second_run_into_the_same_outdir(tmp_path):
    """The test command's first boot: the cgroup list with --retry, then
    config/selftests-sysfs.list from another directory into the same OUTDIR,
    never retried; the summary counts both."""
    fail, ok = "not ok 1 test_b\\n", "ok 1 test_b\\n"
    run_guest_script(tmp_path, {"up_flaky": (fail, ok, "retry")}, deny="")
    sysfs = tmp_path / "sysfs"
    sysfs.mkdir()
    fake_program(sysfs / "sysfs_perm", "not ok 1 sysfs_perm.chmod\\nok 2 sysfs_perm.chown\\n", ok)
    env = {"PATH": "/usr/bin:/bin", "CGSCALE_NO_GUEST_SETUP": "1"}
    subprocess.run(["bash", str(GUEST), str(sysfs), str(TOP / "config" / "selftests-sysfs.list"),
                    str(tmp_path / "st")], check=True, capture_output=True, text=True, env=env)
    files = sorted(p.name for p in (tmp_path / "st").iterdir())
    assert files == ["sysfs_perm.log", "sysfs_perm.rc", "up_flaky.log", "up_flaky.rc",
                     "up_flaky.retry.log", "up_flaky.retry.rc"]
    p = subprocess.run([sys.executable, str(SCRIPT), str(tmp_path / "st"), str(tmp_path / "deny")],
                       capture_output=True, text=True)
    assert "sysfs_perm:sysfs_perm.chmod" in p.stdout and "sysfs_perm:sysfs_perm.chown" in p.stdout
    assert p.stdout.strip().splitlines()[-1] == "2 passed, 1 failed, 0 skipped"


def test_guest_script_missing_directory_is_not_built(tmp_path):
    """A tree without filesystems/sysfs: every program of the list gets exit
    status 127 and a log naming the missing directory."""
    missing = tmp_path / "kselftest" / "filesystems" / "sysfs"
    env = {"PATH": "/usr/bin:/bin", "CGSCALE_NO_GUEST_SETUP": "1"}
    subprocess.run(["bash", str(GUEST), str(missing), str(TOP / "config" / "selftests-sysfs.list"),
                    str(tmp_path / "st")], check=True, capture_output=True, text=True, env=env)
    assert (tmp_path / "st" / "sysfs_perm.rc").read_text().strip() == "127"
    assert (tmp_path / "st" / "sysfs_perm.log").read_text() == \
        f"sysfs_perm: not built: no directory {missing}\n"


def test_sysfs_list_is_sysfs_perm_never_retried():
    lines = [line.split() for line in (TOP / "config" / "selftests-sysfs.list").read_text().splitlines()
             if line.strip() and not line.startswith("#")]
    assert lines == [["sysfs_perm", "300"]]
    cgroup = (TOP / "config" / "selftests.list").read_text()
    assert not any(line.startswith("sysfs_perm") for line in cgroup.splitlines())
