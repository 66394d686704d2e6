"""need_disk (scripts/lib.sh): a full disk is refused before a build starts.

The test command of 2026-11-27 (repo commit da54da1) failed in CI after
7 min with gcc's "No space left on device" in the middle of the kernel
build: the disk under the build area was full. test.sh and build-kernel.sh
now check the free space first and say which step, how much, and what to
do. A fake df on PATH stands for the disk.
"""
import os
import pathlib
import subprocess

TOP = pathlib.Path(__file__).resolve().parent.parent


def run_need_disk(tmp_path, free_kib, gib):
    fake = tmp_path / "bin"
    fake.mkdir(exist_ok=True)
    df = fake / "df"
    df.write_text(
        "#!/bin/sh\n"
        "echo 'Filesystem 1024-blocks Used Available Capacity Mounted on'\n"
        f"echo '/dev/x 100000000 1 {free_kib} 1% /'\n"
    )
    df.chmod(0o755)
    env = dict(os.environ,
               PATH=f"{fake}:{os.environ['PATH']}",
               CGSCALE_BUILD=str(tmp_path / "build"))
    script = f'. "{TOP}/scripts/lib.sh"; need_disk "the step" {gib} "the job"; echo ok'
    return subprocess.run(["bash", "-c", script], env=env,
                          capture_output=True, text=True)


def test_enough_space_goes_on(tmp_path):
    r = run_need_disk(tmp_path, 4 * 1024 * 1024, 3)
    assert r.returncode == 0
    assert r.stdout.strip() == "ok"


def test_full_disk_is_refused_with_step_and_amount(tmp_path):
    r = run_need_disk(tmp_path, 2 * 1024 * 1024 - 1, 3)
    assert r.returncode == 1
    assert "ok" not in r.stdout
    assert "error: the step: only 1 GiB free" in r.stderr
    assert "the job needs about 3 GiB" in r.stderr
    assert "nothing was changed" in r.stderr


def test_build_and_test_scripts_check_first():
    for name in ("build-kernel.sh", "test.sh"):
        text = (TOP / "scripts" / name).read_text()
        assert "need_disk " in text, name
