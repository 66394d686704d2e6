"""scripts/kunit-results.py: KTAP from a boot log to result lines."""
import pathlib
import subprocess
import sys

TOP = pathlib.Path(__file__).resolve().parent.parent
SCRIPT = TOP / "scripts" / "kunit-results.py"

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
