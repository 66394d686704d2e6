"""Tests for checks/heavy/compare-warnings.py: only warnings in the touched files
count, line numbers do not, and a warning is new only if the patched build
has it more often than the base build."""
import pathlib
import subprocess
import sys

TOP = pathlib.Path(__file__).resolve().parent.parent
SCRIPT = TOP / "checks" / "heavy" / "compare-warnings.py"

BASE_LOG = """\
  CC      mm/memcontrol.o
../linux/mm/memcontrol.c:100:5: warning: no previous prototype for 'f' [-Wmissing-prototypes]
../linux/kernel/fork.c:12:1: warning: unused variable 'x' [-Wunused-variable]
../linux/kernel/fork.c:20:1: warning: unused variable 'x' [-Wunused-variable]
"""


def run(tmp_path, base, patched, files="mm/memcontrol.c\nkernel/fork.c\nlib/seq_buf.c\n"):
    (tmp_path / "files").write_text(files)
    (tmp_path / "base.log").write_text(base)
    (tmp_path / "patched.log").write_text(patched)
    p = subprocess.run([sys.executable, str(SCRIPT), "--files", str(tmp_path / "files"),
                        str(tmp_path / "base.log"), str(tmp_path / "patched.log")],
                       capture_output=True, text=True)
    return p.returncode, p.stdout.splitlines()


def test_same_warnings_on_moved_lines_are_not_new(tmp_path):
    patched = BASE_LOG.replace(":100:5:", ":130:5:").replace(":20:1:", ":44:1:")
    rc, out = run(tmp_path, BASE_LOG, patched)
    assert rc == 0
    assert out == ["base 3 patched 3 new 0"]


def test_new_warning_in_a_touched_file(tmp_path):
    patched = BASE_LOG + "/abs/linux/lib/seq_buf.c:7:3: warning: comparison is always true [-Wtype-limits]\n"
    rc, out = run(tmp_path, BASE_LOG, patched)
    assert rc == 1
    assert out == ["base 3 patched 4 new 1",
                   "lib/seq_buf.c: comparison is always true [-Wtype-limits]"]


def test_a_warning_more_often_than_on_base_is_new(tmp_path):
    patched = BASE_LOG + "../linux/kernel/fork.c:99:1: warning: unused variable 'x' [-Wunused-variable]\n"
    rc, out = run(tmp_path, BASE_LOG, patched)
    assert rc == 1
    assert out[1] == "kernel/fork.c: unused variable 'x' [-Wunused-variable]"


def test_untouched_files_and_other_lines_are_ignored(tmp_path):
    patched = BASE_LOG + ("../linux/mm/vmscan.c:1:1: warning: something [-Wextra]\n"
                          "../linux/mm/memcontrol.c:5:2: error: this is not a warning\n"
                          "../linux/mm/memcontrol.c:5:2: note: nor this\n")
    rc, out = run(tmp_path, BASE_LOG, patched)
    assert rc == 0
    assert out == ["base 3 patched 3 new 0"]


def test_fewer_warnings_than_base_pass(tmp_path):
    rc, out = run(tmp_path, BASE_LOG, "")
    assert rc == 0
    assert out == ["base 3 patched 0 new 0"]
