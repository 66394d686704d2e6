"""checks/kunit-results.py: KTAP from a boot log to result lines."""
import pathlib
import subprocess
import sys

TOP = pathlib.Path(__file__).resolve().parent.parent
SCRIPT = TOP / "checks" / "kunit-results.py"

DMESG = """\
[    0.912345] KTAP version 1
[    0.912346] 1..2
[    0.912400]     KTAP version 1
[    0.912401]     # Subtest: seq_buf
[    0.912402]     # module: seq_buf_kunit
[    0.912403]     1..3
[    0.912500]     ok 1 seq_buf_init_test
[    0.912600]     not ok 2 seq_buf_put_keyed_line_overflow_test
[    0.912700]     ok 3 seq_buf_hex_test # SKIP no hex
[    0.912800] # seq_buf: pass:1 fail:1 skip:1 total:3
[    0.912900] not ok 1 seq_buf
[    0.913000]     KTAP version 1
[    0.913001]     # Subtest: other
[    0.913002]     1..1
[    0.913003]     ok 1 other_test
[    0.913004] ok 2 other
"""


def run(tmp, text, *suites):
    (tmp / "dmesg").write_text(text)
    return subprocess.run([sys.executable, str(SCRIPT), str(tmp / "dmesg"), *suites],
                          capture_output=True, text=True)


def test_cases_of_the_asked_suite(tmp_path):
    p = run(tmp_path, DMESG, "seq_buf")
    assert p.returncode == 1
    assert p.stdout.splitlines() == [
        "pass kunit:seq_buf.seq_buf_init_test",
        "fail kunit:seq_buf.seq_buf_put_keyed_line_overflow_test",
        "skip kunit:seq_buf.seq_buf_hex_test",
    ]


def test_passing_suite(tmp_path):
    p = run(tmp_path, DMESG, "other")
    assert p.returncode == 0
    assert p.stdout.splitlines() == ["pass kunit:other.other_test"]


def test_missing_suite_fails(tmp_path):
    p = run(tmp_path, DMESG, "absent")
    assert p.returncode == 1
    assert p.stdout.startswith("fail kunit:absent (no KTAP results")


# The format boot of a kernel with CONFIG_KERNFS_KUNIT_TEST=y (shape of
# 9272917:wip/tests' run: kernfs first, then seq_buf, in one KTAP document).
DMESG_KERNFS = """\
[    4.056735] KTAP version 1
[    4.056776] 1..2
[    4.057103]     KTAP version 1
[    4.057122]     # Subtest: kernfs
[    4.057302]     # module: kernfs_test
[    4.060786]     1..3
[    4.102701]     ok 1 kernfs_revalidate_rcu_current
[    4.134380]     not ok 2 kernfs_revalidate_rcu_renamed
[    4.210127]     ok 3 kernfs_permission_rcu_current
[    4.220737] # kernfs: pass:2 fail:1 skip:0 total:3
[    4.220794] # Totals: pass:2 fail:1 skip:0 total:3
[    4.220921] not ok 1 kernfs
[    4.220956]     KTAP version 1
[    4.220964]     # Subtest: seq_buf
[    4.220970]     1..1
[    4.404400]     ok 1 seq_buf_init_test
[    4.404422] # Totals: pass:1 fail:0 skip:0 total:1
[    4.404434] ok 2 seq_buf
"""


def test_test_commands_suites(tmp_path):
    """scripts/test.sh asks for seq_buf and kernfs."""
    p = run(tmp_path, DMESG_KERNFS, "seq_buf", "kernfs")
    assert p.returncode == 1
    assert p.stdout.splitlines() == [
        "pass kunit:seq_buf.seq_buf_init_test",
        "pass kunit:kernfs.kernfs_revalidate_rcu_current",
        "fail kunit:kernfs.kernfs_revalidate_rcu_renamed",
        "pass kunit:kernfs.kernfs_permission_rcu_current",
    ]


def test_kernel_without_the_kernfs_suite(tmp_path):
    """CONFIG_KERNFS_KUNIT_TEST not built in: seq_buf passes, and kernfs
    gets a fail line of its own (not silently nothing)."""
    seq_buf_only = "".join(line + "\n" for line in DMESG_KERNFS.splitlines()
                           if not any(k in line for k in ("kernfs", "Totals: pass:2")))
    seq_buf_only = seq_buf_only.replace("1..2", "1..1").replace("ok 2 seq_buf", "ok 1 seq_buf")
    p = run(tmp_path, seq_buf_only, "seq_buf", "kernfs")
    assert p.returncode == 1
    lines = p.stdout.splitlines()
    assert lines[0] == "pass kunit:seq_buf.seq_buf_init_test"
    assert len(lines) == 2 and lines[1].startswith("fail kunit:kernfs (no KTAP results")
