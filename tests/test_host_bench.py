"""hardware/host-bench.sh and hardware/host-compare.py without root, cgroups or
a PMU: the refusals (each check, with a fake /proc and /sys under
CGSCALE_HOST_ROOT and CGSCALE_HOST_UID for the uid), the dry run, the JSON
file (the test benchmark "noop" through hardware/host-bench/measure.sh, with a fake
perf that counts or says <not supported> as perf does under QEMU TCG), the
comparison table with its significance mark, PSI overheads and missing
metrics, and the plot; the test command's smoke (hardware/host-bench/smoke.env) and
its result lines (hardware/check-host-bench.py)."""
import json
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

TOP = pathlib.Path(__file__).resolve().parent.parent
HOST_BENCH = TOP / "hardware" / "host-bench.sh"
COMPARE = TOP / "hardware" / "host-compare.py"
MEASURE = TOP / "hardware" / "host-bench" / "measure.sh"
NO_PMU = "cycles: not available (no PMU); wall clock only"
TIMEOUT = 60

FAKE_PERF = r"""#!/bin/bash
# perf as far as host-bench.sh uses it: --version, bench ... -h, stat
case $1 in
--version) echo "perf version 6.99-fake"; exit 0 ;;
bench) [ "@CGROUPS@" = 1 ] && echo "    -G, --cgroups <SEND,RECV>"; echo " Usage: perf bench"; exit 129 ;;
stat)
	shift; out=/dev/stderr; r=1
	while [ "$1" != "--" ]; do
		case $1 in -o) out=$2; shift 2 ;; -r) r=$2; shift 2 ;; *) shift ;; esac
	done
	shift
	st=0
	for ((i = 0; i < r; i++)); do "$@" || st=$?; done
	{
		echo "# started on a fake"
		echo
		echo "@CYCLES@,,cycles,1000,100.00,,"
		echo "@INSNS@,,instructions,1000,100.00,,"
	} >"$out"
	exit $st ;;
esac
exit 1
"""


def fake_perf(tmp, pmu=True, cgroups=False, name="perf"):
    p = tmp / "fakebin" / name
    p.parent.mkdir(exist_ok=True)
    text = (FAKE_PERF.replace("@CGROUPS@", "1" if cgroups else "0")
            .replace("@CYCLES@", "2000000" if pmu else "<not supported>")
            .replace("@INSNS@", "1000000" if pmu else "<not supported>"))
    p.write_text(text)
    p.chmod(0o755)
    return p


def fake_root(tmp, controllers="cpuset cpu io memory hugetlb pids", load="0.10",
              cgroup_fs="cgroup2", cpus="0-3", psi=True):
    r = tmp / "root"
    files = {
        "proc/loadavg": f"{load} 0.20 0.30 1/100 1234\n",
        "proc/mounts": f"sysfs /sys sysfs rw 0 0\n{cgroup_fs} /sys/fs/cgroup {cgroup_fs} rw 0 0\n",
        "proc/cpuinfo": "processor\t: 0\nmodel name\t: Fake CPU 9000 @ 2.00GHz\n",
        "proc/cmdline": "BOOT_IMAGE=/boot/vmlinuz root=/dev/sda1\n",
        "proc/sys/kernel/osrelease": "7.3.0-rc7-cgscale-series\n",
        "sys/fs/cgroup/cgroup.controllers": controllers + "\n",
        "sys/fs/cgroup/cgroup.subtree_control": "cpu io memory pids\n",
        "sys/devices/system/cpu/online": cpus + "\n",
    }
    if psi:
        files["proc/pressure/cpu"] = "some avg10=0.00 avg60=0.00 avg300=0.00 total=0\n"
    for path, text in files.items():
        p = r / path
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    return r


def run(args, tmp, root=None, uid=None, extra_env=None):
    build = tmp / "build"
    build.mkdir(exist_ok=True)
    env = dict(os.environ, CGSCALE_BUILD=str(build), TMPDIR=str(tmp))
    for k in ("CGSCALE_HOST_ROOT", "CGSCALE_HOST_UID"):
        env.pop(k, None)
    if root is not None:
        env["CGSCALE_HOST_ROOT"] = str(root)
    if uid is not None:
        env["CGSCALE_HOST_UID"] = str(uid)
    env.update(extra_env or {})
    return subprocess.run([str(HOST_BENCH), *args], capture_output=True, text=True, env=env,
                          cwd=tmp, stdin=subprocess.DEVNULL, timeout=TIMEOUT)


# --- the command line and the dry run -------------------------------------------

def test_help_list_and_unknown_option(tmp_path):
    p = run(["--help"], tmp_path)
    assert p.returncode == 0 and "usage: hardware/host-bench.sh" in p.stdout
    p = run(["--list"], tmp_path)
    assert p.returncode == 0
    for b in ("sched-pipe", "sched-messaging", "psi-wake", "kernfs", "rstat-update",
              "stat-read", "cpu-scale", "fleet-scrape", "psi"):
        assert b in p.stdout
    assert "noop" not in p.stdout
    p = run(["--no-such-option"], tmp_path)
    assert p.returncode == 2 and "usage" in p.stderr and "unknown option" in p.stderr
    p = run(["no-such-bench"], tmp_path)
    assert p.returncode == 2 and "unknown benchmark 'no-such-bench'" in p.stderr
    p = run(["--runs", "0"], tmp_path)
    assert p.returncode == 2


def test_dry_run_plans_every_benchmark_and_writes_nothing(tmp_path):
    perf = fake_perf(tmp_path, pmu=True, cgroups=True)
    p = run(["--dry-run", "--perf", str(perf)], tmp_path, root=fake_root(tmp_path))
    assert p.returncode == 0, p.stderr
    out = p.stdout
    assert "==> host-bench: kernel 7.3.0-rc7-cgscale-series (label series), 4 CPUs" in out
    assert "cycles: perf stat -e cycles,instructions (user + kernel)" in out
    assert "==> dry run: 5 run(s) of sched-pipe sched-messaging psi-wake kernfs" in out
    # sched-pipe with perf's -G: sibling leaves at depth 1 and 4
    assert "bench sched pipe -l 200000 -G cgscale-pipe-a,cgscale-pipe-b" in out
    assert "-G cgscale-pipe/l2/l3/a,cgscale-pipe/l2/l3/b" in out
    assert "taskset -c 3 " in out                       # the last online CPU
    assert "bench sched messaging -g 1 -l 1000" in out  # 4 CPUs / 8 -> 1 group
    assert "--metric wake_pipe_pairs2 " in out and "-G cgscale-wake/s%i,cgscale-wake/r%i" in out
    assert "kernfs_cgroupfs_own_threads4" in out and "kernfs_sysfs_same_threads1" in out
    assert "page_fault2_per_s_reader1000hz" in out
    for b in ("stat-read", "cpu-scale", "fleet-scrape", "psi"):
        assert f"bench/{b}/guest.sh $BIN" in out
    assert "(nothing was run or written)" in out
    assert not any((tmp_path / "build").iterdir())
    assert not [d for d in tmp_path.iterdir() if d.name.startswith("cgscale-host")]


def test_dry_run_without_pmu_says_wall_clock_only(tmp_path):
    """QEMU TCG has no PMU: perf stat says <not supported>."""
    perf = fake_perf(tmp_path, pmu=False)
    p = run(["--dry-run", "--perf", str(perf), "--quick", "sched-pipe", "kernfs"], tmp_path,
            root=fake_root(tmp_path))
    assert p.returncode == 0, p.stderr
    assert NO_PMU in p.stdout.splitlines()[1]
    # this perf has no -G: the emulator's pingpong, at the quick depths
    assert "has no -G/--cgroups" in p.stdout
    assert "$BIN/pingpong /sys/fs/cgroup 8 2000" in p.stdout
    assert "kernfs_cgroupfs_same_threads2 0.2 2" in p.stdout


def test_without_perf_the_other_benchmarks_run_wall_clock_only(tmp_path):
    p = run(["--dry-run", "--perf", str(tmp_path / "no" / "perf"), "kernfs"], tmp_path,
            root=fake_root(tmp_path))
    assert p.returncode == 0, p.stderr
    assert "cycles: not available (perf not found at" in p.stdout
    assert "apt install linux-perf); wall clock only" in p.stdout


# --- the refusals -------------------------------------------------------------------

REFUSALS = {
    "root": ({}, {"uid": 1000}, ["kernfs"],
             ["refused (root): not root (uid 1000)", "sudo hardware/host-bench.sh"]),
    "cgroup2": ({"cgroup_fs": "tmpfs"}, {}, ["kernfs"],
                ["refused (cgroup2): no cgroup2 at /sys/fs/cgroup (mounted there: tmpfs)",
                 "systemd.unified_cgroup_hierarchy=1"]),
    "controllers": ({"controllers": "cpu memory pids"}, {}, ["kernfs"],
                    ["refused (controllers): io not in /sys/fs/cgroup/cgroup.controllers "
                     "(it has: cpu memory pids)", "CONFIG_BLK_CGROUP"]),
    "load": ({"load": "3.50"}, {}, ["kernfs"],
             ["refused (load): machine busy: the 1-minute load average is 3.50, above 2.00 "
              "(0.5 x 4 CPUs", "--max-load"]),
    "perf": ({}, {"perf": None}, ["sched-pipe", "kernfs"],
             ["refused (perf): perf not found at", "sched-pipe run perf bench",
              "apt install linux-perf", "or leave out sched-pipe"]),
}


@pytest.mark.parametrize("check", sorted(REFUSALS))
def test_refusal(check, tmp_path):
    root_kw, how, benches, want = REFUSALS[check]
    perf = str(tmp_path / "no" / "perf") if "perf" in how else str(fake_perf(tmp_path))
    p = run(["--dry-run", "--perf", perf, *benches], tmp_path, root=fake_root(tmp_path, **root_kw),
            uid=how.get("uid"))
    assert p.returncode == 1, p.stdout + p.stderr
    for w in want:
        assert w in p.stderr, p.stderr
    assert "1 check(s) failed, nothing was run" in p.stderr
    assert "dry run" not in p.stdout and not any((tmp_path / "build").iterdir())


@pytest.mark.parametrize("check", ["root", "cgroup2", "controllers", "load"])
def test_refusal_of_a_real_run_writes_nothing(check, tmp_path):
    """Not a dry run: a refused run builds, runs and writes nothing, not even
    the result's directory, a .partial or a log."""
    root_kw, how, _, want = REFUSALS[check]
    out = tmp_path / "res" / "r.json"
    p = run(["--perf", str(fake_perf(tmp_path)), "--out", str(out), "noop"], tmp_path,
            root=fake_root(tmp_path, **root_kw), uid=how.get("uid"))
    assert p.returncode == 1, p.stdout + p.stderr
    assert want[0] in p.stderr and "1 check(s) failed, nothing was run" in p.stderr
    assert "building the benchmark programs" not in p.stdout
    assert not (tmp_path / "res").exists()
    assert not [d for d in tmp_path.iterdir() if d.name.startswith("cgscale-host")]


def test_refusal_of_a_missing_tool(tmp_path):
    """stat-read needs losetup and mkfs.ext4 (in /usr/sbin): without them on
    PATH it refuses and names the package."""
    if shutil.which("losetup", path="/usr/bin:/bin"):
        pytest.skip("losetup is in /usr/bin here")
    p = run(["--dry-run", "--perf", str(fake_perf(tmp_path)), "stat-read"], tmp_path,
            root=fake_root(tmp_path), extra_env={"PATH": "/usr/bin:/bin"})
    assert p.returncode == 1, p.stdout + p.stderr
    assert ("refused (tools): losetup not found, and stat-read need it: apt install util-linux"
            in p.stderr)


def test_no_fleet_scrape_beside_a_kubelet(tmp_path):
    root = fake_root(tmp_path)
    (root / "sys/fs/cgroup/kubepods").mkdir()
    p = run(["--dry-run", "--perf", str(fake_perf(tmp_path)), "fleet-scrape"], tmp_path, root=root)
    assert p.returncode == 1 and "refused (kubepods): /sys/fs/cgroup/kubepods exists" in p.stderr
    p = run(["--dry-run", "--perf", str(fake_perf(tmp_path)), "stat-read"], tmp_path, root=root)
    assert p.returncode == 0, p.stderr


def test_psi_off_boot(tmp_path):
    """A psi=0 boot: the PSI benchmarks' rows say psi_off; the pressure readers refuse."""
    root = fake_root(tmp_path, psi=False)
    perf = fake_perf(tmp_path)
    p = run(["--dry-run", "--perf", str(perf), "cpu-scale", "sched-pipe"], tmp_path, root=root)
    assert p.returncode == 1 and "refused (psi): PSI is off" in p.stderr and "cpu-scale" in p.stderr
    p = run(["--dry-run", "--perf", str(perf), "sched-pipe", "psi"], tmp_path, root=root)
    assert p.returncode == 0 and "PSI off" in p.stdout
    out = tmp_path / "off.json"
    p = run(["--perf", str(perf), "--runs", "1", "--out", str(out), "noop"], tmp_path, root=root)
    assert p.returncode == 0, p.stderr
    h, rows = read_result(out)
    assert h["psi"] == "off" and rows[0]["metric"] == "noop_psi_off"


def test_all_failed_checks_are_named_at_once(tmp_path):
    p = run(["--dry-run", "--perf", str(fake_perf(tmp_path)), "kernfs"], tmp_path,
            root=fake_root(tmp_path, load="9.0", controllers="cpu pids"), uid=1000)
    assert p.returncode == 1
    for check in ("root", "controllers", "load"):
        assert f"refused ({check})" in p.stderr
    assert "memory io not in" in p.stderr and "3 check(s) failed" in p.stderr


def test_max_load_raises_the_limit(tmp_path):
    root = fake_root(tmp_path, load="3.50")
    p = run(["--dry-run", "--max-load", "4", "--perf", str(fake_perf(tmp_path)), "kernfs"],
            tmp_path, root=root)
    assert p.returncode == 0, p.stderr


def test_fake_root_only_for_dry_runs_and_noop(tmp_path):
    p = run(["--perf", str(fake_perf(tmp_path)), "kernfs"], tmp_path, root=fake_root(tmp_path))
    assert p.returncode == 1 and "works only with --dry-run or the benchmark noop" in p.stderr
    p = run(["noop"], tmp_path)
    assert p.returncode == 2 and "is for tests" in p.stderr


# --- the JSON file ---------------------------------------------------------------------

def read_result(path):
    lines = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    assert "header" in lines[0]
    return lines[0]["header"], lines[1:]


def test_rows_with_cycles_per_op(tmp_path):
    out = tmp_path / "res" / "series.json"
    p = run(["--perf", str(fake_perf(tmp_path)), "--runs", "3", "--out", str(out), "noop"],
            tmp_path, root=fake_root(tmp_path))
    assert p.returncode == 0, p.stdout + p.stderr
    assert "==> [3/3] noop" in p.stdout and f"done: 3 rows in {out}" in p.stdout
    h, rows = read_result(out)
    assert h["kernel"] == "7.3.0-rc7-cgscale-series" and h["label"] == "series"
    assert h["cpu_model"] == "Fake CPU 9000 @ 2.00GHz" and h["cpus"] == 4
    assert h["pmu"] is True and h["perf_version"] == "perf version 6.99-fake"
    assert h["psi"] == "on" and h["runs"] == 3 and h["date"].startswith("20")
    assert [r["run"] for r in rows] == [1, 2, 3]
    for r in rows:
        assert r["bench"] == "noop" and r["metric"] == "noop" and r["value"] == 100
        assert r["unit"] == "ns" and r["better"] == "lower"
        # the fake perf's 2,000,000 cycles over the row's 1000 ops
        assert r["cycles"] == 2000.0 and r["instructions"] == 1000.0 and r["ops"] == 1000
    assert not (tmp_path / "res" / "series.json.partial").exists()
    assert not [d for d in tmp_path.iterdir() if d.name.startswith("cgscale-host")]


def test_no_pmu_rows_and_table(tmp_path):
    """As in a TCG guest: the message, rows without cycles, and the comparison."""
    perf = fake_perf(tmp_path, pmu=False)
    files = {}
    for label in ("base", "series"):
        files[label] = tmp_path / f"{label}.json"
        p = run(["--perf", str(perf), "--runs", "2", "--label", label, "--out", str(files[label]),
                 "noop"], tmp_path, root=fake_root(tmp_path))
        assert p.returncode == 0, p.stdout + p.stderr
        assert NO_PMU in p.stdout
        h, rows = read_result(files[label])
        assert h["pmu"] is False and h["cycles"] == NO_PMU and h["label"] == label
        assert len(rows) == 2 and not any("cycles" in r for r in rows)
    c = compare(files["base"], files["series"], "--no-plot")
    assert c.returncode == 0, c.stderr
    assert "| noop | noop | ns | lower | 100 [100-100] (2) | 100 [100-100] (2) | 1.000 |  |" in c.stdout
    assert f"A {NO_PMU}" in c.stdout and "No cycles: neither side has perf counts" in c.stdout


def test_measure_rules_and_perf_bench_text(tmp_path):
    """hardware/host-bench/measure.sh: ops of a guest.sh program from its arguments,
    and one row from perf bench's text."""
    perf = fake_perf(tmp_path)
    bindir = tmp_path / "bin"
    (bindir / "real").mkdir(parents=True)
    real = bindir / "real" / "statread"
    real.write_text('#!/bin/sh\necho "not a row"\n'
                    'echo \'{"metric": "cpu.stat", "unit": "ns", "better": "lower", "value": 5000.0}\'\n')
    real.chmod(0o755)
    (bindir / "statread").symlink_to(MEASURE)
    env = dict(os.environ, HB_PERF=str(perf), HB_REPEAT="1", HB_TMP=str(tmp_path))
    p = subprocess.run([str(bindir / "statread"), "cpu.stat", "/x/cpu.stat", "1990"],
                       capture_output=True, text=True, env=env, timeout=TIMEOUT)
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert lines[0] == "not a row"
    row = json.loads(lines[1])
    # statread READS + its 10 warm-up reads
    assert row["ops"] == 2000 and row["cycles"] == 1000.0 and row["instructions"] == 500.0
    text = ('printf "# Running\\n     Total time: 0.100 [sec]\\n     Total time: 0.300 [sec]\\n"')
    p = subprocess.run([str(MEASURE), "--metric", "wake_messaging_leaves2", "--ops-each", "4000",
                        "--instances", "2", "--", "sh", "-c", text],
                       capture_output=True, text=True, env=env, timeout=TIMEOUT)
    assert p.returncode == 0, p.stderr
    row = json.loads(p.stdout)
    assert row["metric"] == "wake_messaging_leaves2" and row["value"] == 50000.0
    assert row["ops"] == 8000 and row["cycles"] == 250.0
    # an instance that printed no time is an error, not a row
    p = subprocess.run([str(MEASURE), "--metric", "m", "--ops-each", "10", "--instances", "3",
                        "--", "sh", "-c", text], capture_output=True, text=True, env=env,
                       timeout=TIMEOUT)
    assert p.returncode == 1 and "2 of 3 perf bench runs reported a time" in p.stderr


# --- host-compare.py -----------------------------------------------------------------

def compare(a, b, *opts):
    return subprocess.run([sys.executable, str(COMPARE), *opts, str(a), str(b)],
                          capture_output=True, text=True, timeout=TIMEOUT)


def write_result(path, label, rows, psi="on", pmu=True):
    header = {"tool": "host-bench", "kernel": f"7.3.0-rc7-cgscale-{label}", "label": label,
              "cpu_model": "Fake CPU", "cpus": 64, "pmu": pmu, "psi": psi, "runs": 5,
              "perf_version": "perf version 6.12", "governor": "performance", "smt": "1",
              "numa_nodes": 2, "quick": False,
              "cycles": "cycles: perf stat" if pmu else NO_PMU}
    with open(path, "w") as f:
        f.write(json.dumps({"header": header}) + "\n")
        for bench, metric, values, cycles in rows:
            for run_no, v in enumerate(values, 1):
                r = {"bench": bench, "metric": metric, "unit": "ns", "better": "lower",
                     "value": v, "run": run_no}
                if cycles:
                    r.update(cycles=cycles[run_no - 1], instructions=cycles[run_no - 1] / 2)
                f.write(json.dumps(r) + "\n")
    return path


def synthetic(tmp):
    a = write_result(tmp / "base.json", "base", [
        ("stat-read", "memory.stat", [20000, 20100, 19900, 20050, 19950],
         [60000, 60100, 59900, 60050, 59950]),
        ("stat-read", "cpu.stat", [3000, 3010, 2990, 3005, 2995], None),
        ("kernfs", "only_in_base", [1, 2, 3], None),
    ])
    b = write_result(tmp / "series.json", "series", [
        ("stat-read", "memory.stat", [4000, 4010, 3990, 4005, 3995],
         [12000, 12010, 11990, 12005, 11995]),
        ("stat-read", "cpu.stat", [3000, 3012, 2988, 3004, 2996], None),
        ("kernfs", "only_in_series", [1, 2, 3], None),
    ])
    return a, b


def table_row(text, metric):
    rows = [line for line in text.splitlines() if line.startswith("| ") and f"| {metric} |" in line]
    assert rows, f"no row for {metric}:\n{text}"
    return [c.strip() for c in rows[0].strip("|").split("|")]


def test_compare_table_significance_and_missing(tmp_path):
    a, b = synthetic(tmp_path)
    p = compare(a, b, "--no-plot", "--md", str(tmp_path / "cmp.md"))
    assert p.returncode == 0, p.stderr
    out = p.stdout
    assert out.startswith("# Host A/B: base (A) against series (B)")
    assert (tmp_path / "cmp.md").read_text() == out
    ms = table_row(out, "memory.stat")
    assert ms[:4] == ["stat-read", "memory.stat", "ns", "lower"]
    assert ms[4] == "20,000 [19,900-20,100] (5)" and ms[5] == "4,000 [3,990-4,010] (5)"
    assert ms[6] == "0.200" and ms[7] == "*"
    cs = table_row(out, "cpu.stat")
    assert cs[6] == "1.000" and cs[7] == ""           # noise: no mark
    # cycles per op: their own table, with their own mark
    cycles = out.split("## Cycles and instructions per operation")[1]
    cy = table_row(cycles, "memory.stat")
    assert cy[2] == "60,000 [59,900-60,100] (5)" and cy[4] == "0.200" and cy[5] == "*"
    assert cy[8] == "0.200"
    # a metric that one file lacks is reported, not dropped
    assert "- kernfs only_in_base: only in A (base), missing in B" in out
    assert "- kernfs only_in_series: only in B (series), missing in A" in out
    assert table_row(out, "only_in_base")[5] == "-"


def test_compare_psi_overhead_from_a_directory_of_boots(tmp_path):
    """psi=1 and psi=0 boots of each kernel in one directory per kernel: the
    overhead is on - off, paired run by run."""
    for label, on, off in (("base", [6000, 6010, 5990], [4000, 4000, 4000]),
                           ("series", [4200, 4210, 4190], [4000, 4000, 4000])):
        d = tmp_path / label
        d.mkdir()
        write_result(d / "psi1.json", label,
                     [("sched-pipe", "sched_pipe_round_trip_depth8_psi_on", on, None)])
        write_result(d / "psi0.json", label,
                     [("sched-pipe", "sched_pipe_round_trip_depth8_psi_off", off, None)], psi="off")
    p = compare(tmp_path / "base", tmp_path / "series", "--no-plot")
    assert p.returncode == 0, p.stderr
    assert "2 file(s); PSI off/on" in p.stdout
    ov = table_row(p.stdout, "sched_pipe_round_trip_depth8_psi_overhead")
    assert ov[4] == "2,000 [1,990-2,010] (3)" and ov[5] == "200 [190-210] (3)"
    assert ov[6] == "0.100" and ov[7] == "*"


def test_compare_plot(tmp_path):
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        pytest.skip("matplotlib is not installed: host-compare.py skips the plot")
    a, b = synthetic(tmp_path)
    png = tmp_path / "plots" / "ab.png"
    p = compare(a, b, "--plot", str(png))
    assert p.returncode == 0, p.stderr
    assert png.exists() and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert f"Plot: {png}" in p.stdout
    # default: beside B
    p = compare(a, b)
    assert (tmp_path / "compare-base-vs-series.png").exists()


def test_compare_errors(tmp_path):
    p = subprocess.run([sys.executable, str(COMPARE), "--help"], capture_output=True, text=True)
    assert p.returncode == 0 and "usage: host-compare.py" in p.stdout
    p = subprocess.run([sys.executable, str(COMPARE), "only-one.json"], capture_output=True, text=True)
    assert p.returncode == 2 and "want two results" in p.stderr
    p = subprocess.run([sys.executable, str(COMPARE), "--bogus", "a", "b"], capture_output=True, text=True)
    assert p.returncode == 2 and "unknown option" in p.stderr
    a, _ = synthetic(tmp_path)
    p = compare(a, tmp_path / "missing.json", "--no-plot")
    assert p.returncode == 1 and "no such file or directory" in p.stderr
    empty = tmp_path / "empty.json"
    empty.write_text(json.dumps({"header": {"label": "x"}}) + "\n")
    p = compare(a, empty, "--no-plot")
    assert p.returncode == 1 and "has no rows" in p.stderr


# --- the test command's smoke: hardware/host-bench/smoke.env, hardware/check-host-bench.py -----

CHECK = TOP / "hardware" / "check-host-bench.py"


def smoke_benches():
    p = subprocess.run(["bash", "-c", f'set -a; . "{TOP}/hardware/host-bench/smoke.env"; echo "$HB_SMOKE_BENCHES"'],
                       capture_output=True, text=True, env={"PATH": os.environ["PATH"]})
    assert p.returncode == 0, p.stderr
    return p.stdout.split()


def test_smoke_env_plans_a_run_without_a_compiler(tmp_path):
    """The smoke's benchmarks exist, build no program (cc in a TCG guest
    costs a minute) and take the smoke's sizes."""
    benches = smoke_benches()
    assert benches
    env = {}
    p = subprocess.run(["bash", "-c", f'set -a; . "{TOP}/hardware/host-bench/smoke.env"; env'],
                       capture_output=True, text=True, env={"PATH": os.environ["PATH"]})
    for line in p.stdout.splitlines():
        k, _, v = line.partition("=")
        if k.startswith("HB_"):
            env[k] = v
    p = run(["--dry-run", "--quick", "--runs", "1", "--perf", str(fake_perf(tmp_path, pmu=False)),
             *benches], tmp_path, root=fake_root(tmp_path), extra_env=env)
    assert p.returncode == 0, p.stderr
    assert not [line for line in p.stdout.splitlines() if line.strip().startswith("$BIN/")]
    assert NO_PMU in p.stdout
    assert f"sched_messaging_depth{env['HB_DEPTHS']} " in p.stdout


def check(result, output):
    return subprocess.run([sys.executable, str(CHECK), str(result), str(output)],
                          capture_output=True, text=True, timeout=TIMEOUT)


def smoke_result(tmp_path, pmu=False):
    """A real host-bench.sh run of noop (fake root, fake perf): its file and output."""
    out = tmp_path / "smoke.json"
    p = run(["--perf", str(fake_perf(tmp_path, pmu=pmu)), "--runs", "1", "--out", str(out), "noop"],
            tmp_path, root=fake_root(tmp_path))
    assert p.returncode == 0, p.stdout + p.stderr
    log = tmp_path / "guest.log"
    log.write_text(p.stdout)
    return out, log


def check_lines(p):
    return dict(line.split(" ", 1)[::-1] for line in p.stdout.splitlines())


def test_check_host_bench_passes_a_run_without_pmu(tmp_path):
    out, log = smoke_result(tmp_path)
    p = check(out, log)
    assert p.returncode == 0, p.stdout + p.stderr
    assert p.stdout.splitlines() == ["pass host-bench:header", "pass host-bench:cycles-line",
                                     "pass host-bench:rows-noop", "pass host-bench:compare"]


def test_check_host_bench_passes_a_run_with_cycles(tmp_path):
    out, log = smoke_result(tmp_path, pmu=True)
    p = check(out, log)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "pass host-bench:cycles-line" in p.stdout


def test_check_host_bench_failures(tmp_path):
    out, log = smoke_result(tmp_path)
    text = out.read_text().splitlines()
    # the output does not say it has no PMU
    log.write_text("cycles: not available (perf not found: apt install linux-perf); wall clock only\n")
    p = check(out, log)
    assert p.returncode == 1
    assert "fail host-bench:cycles-line(the output does not say" in p.stdout
    log.write_text(NO_PMU + "\n")
    # a benchmark of the header without rows; a row without a value
    header = json.loads(text[0])
    header["header"]["benches"] = ["noop", "kernfs"]
    row = json.loads(text[1])
    bad = dict(row, metric="bad", value=0)
    out.write_text("\n".join([json.dumps(header), json.dumps(row), json.dumps(bad)]) + "\n")
    p = check(out, log)
    assert p.returncode == 1
    lines = check_lines(p)
    assert lines["host-bench:rows-kernfs(no rows)"] == "fail"
    assert lines["host-bench:rows-noop(bad rows: bad)"] == "fail"
    # a PMU in the header, rows without cycles
    header["header"].update(pmu=True, benches=["noop"])
    out.write_text("\n".join([json.dumps(header), json.dumps(row)]) + "\n")
    p = check(out, log)
    assert "fail host-bench:cycles-line(rows without cycles: noop" in p.stdout
    # a run that did not finish: no result file (only its .partial)
    p = check(tmp_path / "missing.json", log)
    assert p.returncode == 1 and p.stdout.startswith("fail host-bench:header(")


# --- the sources ------------------------------------------------------------------------

def test_shell_syntax():
    for s in (HOST_BENCH, TOP / "hardware" / "package-kernels.sh", *sorted((TOP / "hardware" / "host-bench").glob("*.sh"))):
        p = subprocess.run(["bash", "-n", str(s)], capture_output=True, text=True)
        assert p.returncode == 0, f"{s}: {p.stderr}"


@pytest.mark.skipif(not shutil.which("cc"), reason="no C compiler")
@pytest.mark.parametrize("src", ["hardware/host-bench/kernfs.c", "hardware/host-bench/faultloop.c", "hardware/host-bench/hostscrape.c"])
def test_programs_compile(src, tmp_path):
    """hostscrape.c includes bench/fleet-scrape/fleetscrape.c: a change there must keep it building."""
    p = subprocess.run(["cc", "-O2", "-Wall", "-Werror", "-pthread", "-I", str(TOP / "bench" / "include"),
                        "-o", str(tmp_path / "prog"), str(TOP / src)],
                       capture_output=True, text=True, timeout=TIMEOUT)
    assert p.returncode == 0, p.stderr
