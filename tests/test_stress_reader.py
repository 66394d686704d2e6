"""Tests for checks/guest/stress-reader.py: well-formed files of each format
pass, and a NUL, an unparsable line or a PSI total or cpu.stat usage that goes
back fails. Counters are keyed by inode: a new group under an old name starts
from zero. A full run over a fake cgroup tree counts its reads."""
import importlib.util
import json
import pathlib

TOP = pathlib.Path(__file__).resolve().parent.parent
SCRIPT = TOP / "checks" / "guest" / "stress-reader.py"

spec = importlib.util.spec_from_file_location("stress_reader", SCRIPT)
reader = importlib.util.module_from_spec(spec)
spec.loader.exec_module(reader)

PSI = "some avg10=1.00 avg60=0.50 avg300=0.10 total={}\nfull avg10=0.00 avg60=0.00 avg300=0.00 total={}\n"


def check(name, text, seen=None, ino=1):
    return reader.check(name, text, {} if seen is None else seen, ino)


def test_well_formed_files_pass():
    assert check("memory.stat", "anon 4096\nfile 0\n") is None
    assert check("cpu.stat", "usage_usec 10\nuser_usec 5\nsystem_usec 5\n") is None
    assert check("cgroup.stat", "nr_descendants 0\nnr_dying_descendants 2\n") is None
    assert check("memory.numa_stat", "anon N0=4096 N1=0\n") is None
    assert check("cpu.pressure", PSI.format(10, 5)) is None
    assert check("irq.pressure", "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n") is None
    assert check("io.stat", "") is None


def test_io_stat_device_without_io_and_iocost_fields_pass():
    text = ("253:0 \n"
            "8:0 rbytes=4096 wbytes=0 rios=1 wios=0 dbytes=0 dios=0 "
            "cost.vrate=99.05 cost.usage=3 cost.wait=0 cost.indebt=0 cost.indelay=0\n")
    assert check("io.stat", text) is None


def test_nul_and_missing_newline_fail():
    assert check("memory.stat", "anon 1\nfile 2\n\0") == "NUL byte"
    assert check("memory.stat", "anon 1\nfile 2") == "no final newline"


def test_unparsable_lines_fail():
    assert "unparsable" in check("memory.stat", "anon 1 2\n")
    assert "unparsable" in check("memory.numa_stat", "anon 4096\n")
    assert "unparsable" in check("io.stat", "8:0 rbytes=-1\n")
    assert "unparsable" in check("cpu.pressure", "some avg10=1.0 avg60=0.50 avg300=0.10 total=1\n")


def test_psi_average_out_of_range_fails():
    text = "some avg10=100.01 avg60=0.00 avg300=0.00 total=1\n"
    assert "out of range" in check("memory.pressure", text)


def test_psi_total_going_back_fails():
    seen = {}
    assert check("cpu.pressure", PSI.format(100, 50), seen) is None
    assert check("cpu.pressure", PSI.format(100, 50), seen) is None
    assert "full total went back" in check("cpu.pressure", PSI.format(100, 49), seen)


def test_cpu_usage_going_back_fails():
    seen = {}
    assert check("cpu.stat", "usage_usec 10\nnr_periods 3\n", seen) is None
    assert check("cpu.stat", "usage_usec 10\nnr_periods 0\n", seen) is None
    assert "usage_usec went back" in check("cpu.stat", "usage_usec 9\n", seen)


def test_new_group_under_the_same_name_starts_from_zero():
    seen = {}
    assert check("cpu.stat", "usage_usec 1000\n", seen, ino=7) is None
    assert check("cpu.stat", "usage_usec 3\n", seen, ino=8) is None


def test_run_over_a_fake_tree_counts_reads_and_errors(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "memory.stat").write_text("anon 1\n")
    (tmp_path / "a" / "cpu.pressure").write_text(PSI.format(1, 1))
    (tmp_path / "a" / "memory.stat").write_text("anon x\n")
    (tmp_path / "a" / "other.file").write_text("ignored\n")
    out = tmp_path / "out.json"
    assert reader.main(["stress-reader.py", str(tmp_path), "0.2", str(out)]) == 0
    res = json.loads(out.read_text())
    assert res["passes"] >= 1
    assert res["reads"] == 3 * res["passes"]
    assert res["errors"] == res["passes"]
