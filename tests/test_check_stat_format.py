"""checks/check-stat-format.py: the printf reference formatter and the
shape comparison catch the ways a hand-written formatter goes wrong."""
import pathlib
import subprocess
import sys

TOP = pathlib.Path(__file__).resolve().parent.parent
SCRIPT = TOP / "checks" / "check-stat-format.py"

GOOD = {
    "cap/memory.stat": b"anon 4096\nfile 0\nslab 18446744073709551615\n",
    "cap/cgroup.stat": b"nr_descendants 2\nnr_subsys_cpu 3\n",
    "cap/memory.numa_stat": b"anon N0=4096 N1=0\nfile N0=12 N1=8192\n",
    "root/io.stat": b"7:0 rbytes=4096 wbytes=8192 rios=1 wios=2 dbytes=0 dios=0"
                    b" cost.vrate=100.05 cost.usage=17\n7:1 \n",
    "cap/cpu.stat": b"usage_usec 10\nuser_usec 7\n",
    "cap/memory.pressure": b"some avg10=0.05 avg60=12.30 avg300=0.00 total=17\n"
                           b"full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n",
}


def write(top, files):
    for rel, data in files.items():
        p = top / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data)


def run(tmp, files, base=None):
    write(tmp / "cap", files)
    args = [sys.executable, str(SCRIPT), str(tmp / "cap")]
    if base is not None:
        write(tmp / "base", base)
        args += ["--base", str(tmp / "base")]
    return subprocess.run(args, capture_output=True, text=True)


def test_good_capture_passes(tmp_path):
    p = run(tmp_path, GOOD, base=GOOD)
    assert p.returncode == 0, p.stdout
    assert "fail" not in p.stdout
    assert p.stdout.count("pass stat-format:shape:") == len(GOOD)


def bad(tmp_path, rel, data):
    files = dict(GOOD, **{rel: data})
    p = run(tmp_path, files)
    assert p.returncode == 1, p.stdout
    return [l for l in p.stdout.splitlines() if l.startswith("fail")]


def test_trailing_garbage_after_lost_nul(tmp_path):
    f = bad(tmp_path, "cap/memory.stat", b"anon 4096\nfile 0\nle 0\n\xa5\xa5")
    assert "memory.stat" in f[0]


def test_nul_byte(tmp_path):
    assert "NUL" in bad(tmp_path, "cap/memory.stat", b"anon 4096\n\0")[0]


def test_space_padded_zero_field(tmp_path):
    data = b"7:0 rbytes=1 wbytes=1 rios=1 wios=1 dbytes=0 dios=0 cost.vrate=100. 5\n"
    assert "io.stat" in bad(tmp_path, "root/io.stat", data)[0]


def test_unpadded_zero_field(tmp_path):
    data = b"7:0 rbytes=1 wbytes=1 rios=1 wios=1 dbytes=0 dios=0 cost.vrate=100.5\n"
    assert "printf format gives" in bad(tmp_path, "root/io.stat", data)[0]


def test_leading_zero(tmp_path):
    assert "printf format gives" in bad(tmp_path, "cap/cpu.stat", b"usage_usec 010\n")[0]


def test_missing_separator(tmp_path):
    assert "does not parse" in bad(tmp_path, "cap/memory.numa_stat", b"anon N0=4096N1=0\n")[0]


def test_missing_newline(tmp_path):
    assert "newline" in bad(tmp_path, "cap/cgroup.stat", b"nr_descendants 2")[0]


def test_shape_catches_reordered_or_missing_keys(tmp_path):
    files = dict(GOOD, **{"cap/memory.stat": b"file 0\nanon 4096\nslab 1\n"})
    p = run(tmp_path, files, base=GOOD)
    assert p.returncode == 1
    assert "fail stat-format:shape:cap/memory.stat (line 1" in p.stdout


def test_shape_catches_files_missing_from_capture(tmp_path):
    files = {k: v for k, v in GOOD.items() if k != "cap/cpu.stat"}
    p = run(tmp_path, files, base=GOOD)
    assert "fail stat-format:shape:cap/cpu.stat (in the base capture only)" in p.stdout


def test_values_may_differ_from_base(tmp_path):
    files = dict(GOOD, **{"cap/memory.stat": b"anon 8192\nfile 123\nslab 7\n"})
    assert run(tmp_path, files, base=GOOD).returncode == 0


def test_committed_base_capture_matches_the_printf_reference():
    """The base capture was printed by the unpatched kernel's printf formats:
    the reference formatter must reproduce every byte of it, or the
    reference (not the kernel) is wrong."""
    base = TOP / "tests" / "stat-format" / "base"
    p = subprocess.run([sys.executable, str(SCRIPT), str(base)], capture_output=True, text=True)
    assert p.returncode == 0, p.stdout
    assert p.stdout.count("pass stat-format:reference:") == 86


def test_committed_base_capture_covers_hugetlb_numa_balancing_and_v1():
    """The lines config test's coverage.config and the capture's hugetlb page
    add to memory.stat, and cgroup v1's memory.stat, are in the capture."""
    base = TOP / "tests" / "stat-format" / "base"
    stat = (base / "cap" / "a" / "memory.stat").read_text()
    for key in ("hugetlb", "pgpromote_success", "numa_pages_migrated",
                "numa_pte_updates", "numa_hint_faults"):
        assert "\n%s " % key in stat, key
    assert "\nhugetlb 2097152\n" in stat
    for g in ("root", "cap", "cap/a"):
        v1 = (base / "v1" / g / "memory.stat").read_text()
        assert v1.startswith("cache ") and "\nhierarchical_memory_limit " in v1


def test_committed_base_capture_covers_both_vrate_paddings_and_cpu_stat_local():
    """cost.vrate with a fraction of ten or more (no pad) and below ten
    (zero pad), and cpu.stat.local, are in the capture, so the format
    checks exercise them."""
    base = TOP / "tests" / "stat-format" / "base"
    assert " cost.vrate=99.25 " in (base / "root" / "io.stat").read_text()
    assert " cost.vrate=99.05 " in (base / "root-vrate" / "io.stat").read_text()
    for g in ("root", "cap", "cap/a", "cap/b"):
        assert (base / g / "cpu.stat.local").read_text().startswith("throttled_usec ")


def test_pressure_fraction_not_zero_padded(tmp_path):
    bad = dict(GOOD)
    bad["cap/memory.pressure"] = b"some avg10=0.5 avg60=12.30 avg300=0.00 total=17\n"
    p = run(tmp_path, bad)
    assert p.returncode == 1
    assert "fail stat-format:reference:cap/memory.pressure" in p.stdout
