"""bench/bin/bench-report.py on a synthetic run: medians, ratio, derived PSI
overhead, significance, the Markdown naming the clock, and runs of three or
four kernels (a row per compared pair, a column per kernel)."""
import importlib.util
import json
import pathlib
import subprocess
import sys

import pytest

TOP = pathlib.Path(__file__).resolve().parent.parent
REPORT = TOP / "bench" / "bin" / "bench-report.py"


def write_run(tmp, values):
    (tmp / "meta.json").write_text(json.dumps(
        {"mode": "full", "accel": "tcg", "clock": "icount", "iterations": 5,
         "kernels": ["base", "patched"], "host_cpus": 2}))
    for (kernel, variant, metric), vals in values.items():
        d = tmp / "raw" / "psi" / kernel / variant
        d.mkdir(parents=True, exist_ok=True)
        for i, v in enumerate(vals, 1):
            with open(d / f"{i}.jsonl", "a") as f:
                f.write(json.dumps({"metric": metric, "unit": "ns", "better": "lower",
                                    "value": v}) + "\n")


def run_report(tmp):
    p = subprocess.run([sys.executable, str(REPORT), str(tmp)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    return {r["metric"]: r for r in json.loads((tmp / "summary.json").read_text())}


def run_report_rows(tmp):
    """the rows of summary.json in order (a metric has several with three kernels)"""
    p = subprocess.run([sys.executable, str(REPORT), str(tmp)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    return json.loads((tmp / "summary.json").read_text())


def test_psi_overhead_ratio_and_significance(tmp_path):
    write_run(tmp_path, {
        ("base", "psi-on", "round_trip_depth8"): [23300, 23310, 23290, 23305, 23300],
        ("base", "psi-off", "round_trip_depth8"): [15300, 15310, 15290, 15300, 15300],
        ("patched", "psi-on", "round_trip_depth8"): [20300, 20310, 20290, 20300, 20305],
        ("patched", "psi-off", "round_trip_depth8"): [15300, 15305, 15295, 15300, 15300],
    })
    rows = run_report(tmp_path)
    ov = rows["overhead_depth8"]
    assert ov["base"]["median"] == 8000 and ov["patched"]["median"] == 5000
    assert ov["base"]["n"] == 5 and abs(ov["ratio"] - 0.625) < 1e-9
    assert ov["significant"] is True and ov["unit"] == "insn"
    off = rows["round_trip_depth8_psi_off"]
    assert off["significant"] is False  # same distribution
    md = (tmp_path / "REPORT.md").read_text()
    assert "icount" in md and "| overhead_depth8 |" in md


def test_psi_messaging_and_depth16_overheads(tmp_path):
    """derive.py: messaging_depthD gives messaging_overhead_depthD, depth 16
    an overhead row like the other depths, and neither mixes with the other."""
    write_run(tmp_path, {
        ("base", "psi-on", "messaging_depth4"): [30000, 30010, 29990],
        ("base", "psi-off", "messaging_depth4"): [20000, 20000, 20000],
        ("patched", "psi-on", "messaging_depth4"): [26000, 26010, 25990],
        ("patched", "psi-off", "messaging_depth4"): [20000, 20005, 19995],
        ("base", "psi-on", "round_trip_depth16"): [27000, 27000, 27000],
        ("base", "psi-off", "round_trip_depth16"): [15000, 15000, 15000],
        ("patched", "psi-on", "round_trip_depth16"): [21000, 21000, 21000],
        ("patched", "psi-off", "round_trip_depth16"): [15000, 15000, 15000],
    })
    rows = run_report(tmp_path)
    mo = rows["messaging_overhead_depth4"]
    assert mo["base"]["median"] == 10000 and mo["patched"]["median"] == 6000
    assert abs(mo["ratio"] - 0.6) < 1e-9 and mo["unit"] == "insn"
    ov = rows["overhead_depth16"]
    assert ov["base"]["median"] == 12000 and ov["patched"]["median"] == 6000
    assert "messaging_depth4_psi_on" in rows and "round_trip_depth16_psi_off" in rows
    assert "overhead_depth4" not in rows and "messaging_overhead_depth16" not in rows


def test_noise_is_not_significant(tmp_path):
    write_run(tmp_path, {
        ("base", "default", "x_n1"): [1000, 1001, 999, 1000, 1000],
        ("patched", "default", "x_n1"): [1000.5, 1001, 999.5, 1000.5, 1000],
    })
    rows = run_report(tmp_path)
    assert rows["x_n1"]["significant"] is False


def test_empty_run_is_an_error(tmp_path):
    (tmp_path / "meta.json").write_text(json.dumps(
        {"mode": "smoke", "accel": "tcg", "clock": "icount", "iterations": 1,
         "kernels": ["patched"], "host_cpus": 2}))
    p = subprocess.run([sys.executable, str(REPORT), str(tmp_path)], capture_output=True, text=True)
    assert p.returncode == 1 and "no results" in p.stderr


def test_kfunc_vs_text_ratio_unit_and_direction(tmp_path):
    (tmp_path / "meta.json").write_text(json.dumps(
        {"mode": "full", "accel": "tcg", "clock": "icount", "iterations": 2,
         "kernels": ["base", "patched"], "host_cpus": 2}))
    vals = {"base": ([78000, 78010], [6500, 6501]), "patched": ([39000, 39010], [6500, 6502])}
    for kernel, (text, kfunc) in vals.items():
        d = tmp_path / "raw" / "kfunc-vs-text" / kernel / "default"
        d.mkdir(parents=True)
        for i in range(2):
            (d / f"{i + 1}.jsonl").write_text("".join(
                json.dumps({"metric": m, "unit": "ns", "better": "lower", "value": v}) + "\n"
                for m, v in (("text_per_sample", text[i]), ("kfunc_per_sample", kfunc[i]))))
    rows = run_report(tmp_path)
    r = rows["text_over_kfunc"]
    assert r["unit"] == "ratio" and r["better"] == "-"
    assert abs(r["base"]["median"] - 12.0) < 0.01 and abs(r["patched"]["median"] - 6.0) < 0.01
    assert rows["text_per_sample"]["unit"] == "insn"


def write_cpu_scale(tmp, cost, iters=3):
    """cost(kernel, kind, n) -> insn per read of cpu.stat; a readers row in online runs."""
    (tmp / "meta.json").write_text(json.dumps(
        {"mode": "full", "accel": "tcg", "clock": "icount", "iterations": iters,
         "kernels": ["base", "patched"], "host_cpus": 2}))
    for kernel in ("base", "patched"):
        for kind, ns in (("online", (2, 8, 32)), ("possible", (8, 64, 256))):
            for n in ns:
                d = tmp / "raw" / "cpu-scale" / kernel / f"{kind}{n}"
                d.mkdir(parents=True)
                for i in range(1, iters + 1):
                    lines = [{"metric": "cpu.stat", "unit": "ns", "better": "lower",
                              "value": cost(kernel, kind, n) + i}]
                    if kind == "online":
                        lines.append({"metric": f"cpu.stat_readers{n}", "unit": "ns",
                                      "better": "lower", "value": 1000 * n + i, "bare": True})
                    (d / f"{i}.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
                    (d / f"{i}.wall").write_text(f"{10 + n}\n")


def test_cpu_scale_names_slopes_and_boot_times(tmp_path):
    # base: 3000 + 100 per CPU; patched: 2800 + 5 per CPU
    write_cpu_scale(tmp_path, lambda k, kind, n: 3000 + 100 * n if k == "base" else 2800 + 5 * n)
    rows = run_report(tmp_path)
    assert rows["cpu.stat_online32"]["base"]["median"] == 6202
    assert rows["cpu.stat_possible256"]["patched"]["median"] == 4082
    # online2 is also the first point of the possible curve
    assert rows["cpu.stat_possible2"]["base"]["median"] == rows["cpu.stat_online2"]["base"]["median"]
    # "bare" metrics keep their own name
    assert "cpu.stat_readers8" in rows and "cpu.stat_readers8_online8" not in rows
    for kind in ("online", "possible"):
        s = rows[f"cpu.stat_slope_{kind}"]
        assert s["unit"] == "insn/CPU"
        assert abs(s["base"]["median"] - 100) < 1e-6 and abs(s["patched"]["median"] - 5) < 1e-6
        assert s["significant"] is True
    md = (tmp_path / "REPORT.md").read_text()
    assert "cpu-scale-cpu.stat_online.png" in md and "cpu-scale-cpu.stat_possible.png" in md
    assert "## Host time per boot" in md and "| cpu-scale | online32 | 42 [42-42] | 42 [42-42] |" in md


def write_pair_run(tmp):
    """psi (base/patched, no kernels file: a run from before the file) next to
    seed-shrinker (off=ablation:shrinker-loop on=base)"""
    (tmp / "meta.json").write_text(json.dumps(
        {"mode": "full", "accel": "tcg", "clock": "icount", "iterations": 3,
         "kernels": ["base", "patched", "ablation-shrinker-loop"], "host_cpus": 2,
         "pairs": {"psi": "base=base patched=patched",
                   "seed-shrinker": "off=ablation:shrinker-loop on=base"}}))
    vals = {("psi", "base"): 2000, ("psi", "patched"): 1000,
            ("seed-shrinker", "off"): 40000, ("seed-shrinker", "on"): 10000}
    for (bench, key), v in vals.items():
        for n in (125, 250):
            d = tmp / "raw" / bench / key / "default"
            d.mkdir(parents=True, exist_ok=True)
            for i in (1, 2, 3):
                with open(d / f"{i}.jsonl", "a") as f:
                    f.write(json.dumps({"metric": f"x_n{n}", "unit": "ns", "better": "lower",
                                        "value": v * n / 125 + i}) + "\n")
                (d / f"{i}.wall").write_text("7\n")
    (tmp / "raw" / "seed-shrinker" / "kernels").write_text("off=ablation:shrinker-loop on=base\n")


def test_on_off_benchmark_next_to_base_patched(tmp_path):
    write_pair_run(tmp_path)
    p = subprocess.run([sys.executable, str(REPORT), str(tmp_path)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    rows = json.loads((tmp_path / "summary.json").read_text())
    psi = next(r for r in rows if r["benchmark"] == "psi" and r["metric"] == "x_n125")
    # today's shape, plus keys
    assert list(psi) == ["benchmark", "metric", "unit", "better", "base", "patched",
                         "ratio", "significant", "keys"]
    assert psi["keys"] == ["base", "patched"] and abs(psi["ratio"] - 0.5) < 1e-3
    seed = next(r for r in rows if r["benchmark"] == "seed-shrinker" and r["metric"] == "x_n250")
    assert list(seed) == ["benchmark", "metric", "unit", "better", "off", "on",
                          "ratio", "significant", "keys"]
    assert seed["keys"] == ["off", "on"] and "base" not in seed
    assert seed["off"]["median"] == 80002 and seed["on"]["median"] == 20002
    assert abs(seed["ratio"] - 20002 / 80002) < 1e-12 and seed["significant"] is True
    md = (tmp_path / "REPORT.md").read_text()
    sec = md[md.index("## seed-shrinker"):md.index("## Host time")]
    assert "| metric | unit | better | off | on | ratio | sig |" in sec
    assert "Kernels: off = ablation:shrinker-loop (reference), on = base; ratio = on/off" in sec
    assert "| metric | unit | better | base | patched | ratio | sig |" in md[md.index("## psi"):]
    # boot times: one table per pair of keys
    assert "| benchmark | variant | base | patched |" in md
    assert "| benchmark | variant | off | on |" in md
    assert "| seed-shrinker | default | 7 [7-7] | 7 [7-7] |" in md
    # plots: the n ladder of each benchmark, lines labelled by its keys
    assert (tmp_path / "seed-shrinker-x_n.png").exists() and (tmp_path / "psi-x_n.png").exists()


def test_results_of_a_kernel_outside_the_pair_are_refused(tmp_path):
    write_pair_run(tmp_path)
    d = tmp_path / "raw" / "seed-shrinker" / "patched" / "default"
    d.mkdir(parents=True)
    (d / "1.jsonl").write_text(json.dumps({"metric": "x_n125", "value": 1}) + "\n")
    p = subprocess.run([sys.executable, str(REPORT), str(tmp_path)], capture_output=True, text=True)
    assert p.returncode == 1
    assert "raw/seed-shrinker/patched is not one of the kernels of seed-shrinker" in p.stderr


def test_smoke_run_of_an_on_off_benchmark(tmp_path):
    # smoke mode: the patched test kernel alone, key "patched", no kernels file
    (tmp_path / "meta.json").write_text(json.dumps(
        {"mode": "smoke", "accel": "tcg", "clock": "icount", "iterations": 1,
         "kernels": ["patched"], "host_cpus": 2}))
    d = tmp_path / "raw" / "seed-shrinker" / "patched" / "default"
    d.mkdir(parents=True)
    (d / "1.jsonl").write_text(json.dumps({"metric": "x_n125", "value": 5}) + "\n")
    r = run_report(tmp_path)["x_n125"]
    assert r["base"] is None and r["patched"]["median"] == 5 and r["ratio"] is None
    assert r["keys"] == ["base", "patched"]


def test_two_kernel_output_is_pinned(tmp_path):
    """A run of two kernels per benchmark gives the report and rows it gave
    before runs of three or four kernels existed, byte for byte."""
    write_pair_run(tmp_path)
    rows = run_report_rows(tmp_path)
    assert [(r["benchmark"], r["metric"], r["keys"]) for r in rows] == [
        ("psi", "x_n125", ["base", "patched"]), ("psi", "x_n250", ["base", "patched"]),
        ("seed-shrinker", "x_n125", ["off", "on"]), ("seed-shrinker", "x_n250", ["off", "on"])]
    assert rows[2] == {
        "benchmark": "seed-shrinker", "metric": "x_n125", "unit": "insn", "better": "lower",
        "off": {"median": 40002.0, "min": 40001.0, "max": 40003.0, "stddev": 1.0, "n": 3},
        "on": {"median": 10002.0, "min": 10001.0, "max": 10003.0, "stddev": 1.0, "n": 3},
        "ratio": 10002 / 40002, "significant": True, "keys": ["off", "on"]}
    assert (tmp_path / "REPORT.md").read_text() == """\
# cgscale benchmark report (full)

Clock: **guest instructions (QEMU TCG -icount shift=0)**; repeatable to about 0.05% between boots, blind to cache effects.
Accelerator: tcg. Iterations per kernel: 3, kernels booted alternately (A B, B A, ...). Kernels: base, patched, ablation-shrinker-loop (configs and uname in kernels/).

Columns: median [min-max] (stddev); ratio = patched/base median (a section that names other kernels says which ratio it shows); sig = 95% bootstrap CI of the median difference excludes 0 and the difference exceeds 0.1%.

## psi

| metric | unit | better | base | patched | ratio | sig |
|---|---|---|---|---|---|---|
| x_n125 | insn | lower | 2,002 [2,001-2,003] (1) | 1,002 [1,001-1,003] (1) | 0.500 | * |
| x_n250 | insn | lower | 4,002 [4,001-4,003] (1) | 2,002 [2,001-2,003] (1) | 0.500 | * |

![psi-x_n.png](psi-x_n.png)

## seed-shrinker

Kernels: off = ablation:shrinker-loop (reference), on = base; ratio = on/off median.

| metric | unit | better | off | on | ratio | sig |
|---|---|---|---|---|---|---|
| x_n125 | insn | lower | 40,002 [40,001-40,003] (1) | 10,002 [10,001-10,003] (1) | 0.250 | * |
| x_n250 | insn | lower | 80,002 [80,001-80,003] (1) | 20,002 [20,001-20,003] (1) | 0.250 | * |

![seed-shrinker-x_n.png](seed-shrinker-x_n.png)

## Host time per boot

Wall-clock seconds on the host for one boot of the guest, the benchmark and power-off (TCG; not the benchmark clock). Median [min-max].

| benchmark | variant | base | patched |
|---|---|---|---|
| psi | default | 7 [7-7] | 7 [7-7] |

| benchmark | variant | off | on |
|---|---|---|---|
| seed-shrinker | default | 7 [7-7] | 7 [7-7] |

"""


def write_three_run(tmp, line="base=base p33=series:33 series=patched",
                    medians=(("base", 1000), ("p33", 900), ("series", 720))):
    """psi-edges with three (or more) kernels of one interleaved run: an n
    ladder x_n125, x_n250 (twice the value), host times"""
    (tmp / "meta.json").write_text(json.dumps(
        {"mode": "full", "accel": "tcg", "clock": "icount", "iterations": 3,
         "kernels": ["base", "series-33", "patched"], "host_cpus": 2,
         "pairs": {"psi-edges": line}}))
    for key, v in medians:
        d = tmp / "raw" / "psi-edges" / key / "default"
        d.mkdir(parents=True)
        for i in (1, 2, 3):
            (d / f"{i}.jsonl").write_text("".join(
                json.dumps({"metric": f"x_n{n}", "unit": "ns", "better": "lower",
                            "value": v * n / 125 + i}) + "\n" for n in (125, 250)))
            (d / f"{i}.wall").write_text(f"{v // 100}\n")
    (tmp / "raw" / "psi-edges" / "kernels").write_text(line + "\n")


def test_three_kernels_rows_and_report(tmp_path):
    """base, p33, series: per metric the rows p33/base and series/base (against
    the reference), then series/p33 (against the kernel before it)"""
    write_three_run(tmp_path)
    rows = run_report_rows(tmp_path)
    assert [(r["metric"], r["keys"]) for r in rows] == [
        ("x_n125", ["base", "p33"]), ("x_n125", ["base", "series"]), ("x_n125", ["p33", "series"]),
        ("x_n250", ["base", "p33"]), ("x_n250", ["base", "series"]), ("x_n250", ["p33", "series"])]
    # each row has the shape of a two-kernel row: its two kernels' stats
    r = rows[2]
    assert list(r) == ["benchmark", "metric", "unit", "better", "p33", "series",
                       "ratio", "significant", "keys"]
    assert r["p33"]["median"] == 902 and r["series"]["median"] == 722 and r["series"]["n"] == 3
    assert abs(r["ratio"] - 722 / 902) < 1e-12 and r["significant"] is True
    assert abs(rows[0]["ratio"] - 902 / 1002) < 1e-12 and abs(rows[1]["ratio"] - 722 / 1002) < 1e-12
    assert rows[4]["base"]["median"] == 2002 and abs(rows[4]["ratio"] - 1442 / 2002) < 1e-12
    md = (tmp_path / "REPORT.md").read_text()
    sec = md[md.index("## psi-edges"):md.index("## Host time")]
    assert ("Kernels: base = base (reference), p33 = series:33, series = patched; "
            "ratios of medians: p33/base, series/base, series/p33 (* significant).") in sec
    assert ("| metric | unit | better | base | p33 | series | p33/base | series/base | series/p33 |\n"
            "|---|---|---|---|---|---|---|---|---|\n"
            "| x_n125 | insn | lower | 1,002 [1,001-1,003] (1) | 902 [901-903] (1) "
            "| 722 [721-723] (1) | 0.900 * | 0.721 * | 0.800 * |\n") in sec
    assert "kernels booted in turn, the order rotated each iteration" in md
    # host times: a column per kernel; the plot: a line per kernel
    assert "| benchmark | variant | base | p33 | series |\n|---|---|---|---|---|\n" in md
    assert "| psi-edges | default | 10 [10-10] | 9 [9-9] | 7 [7-7] |" in md
    assert (tmp_path / "psi-edges-x_n.png").exists()


def test_four_kernels_each_against_the_reference_and_its_predecessor(tmp_path):
    write_three_run(tmp_path, "a=base b=series:1 c=series:2 d=patched",
                    (("a", 1000), ("b", 900), ("c", 800), ("d", 700)))
    rows = run_report_rows(tmp_path)
    assert [r["keys"] for r in rows if r["metric"] == "x_n125"] == [
        ["a", "b"], ["a", "c"], ["a", "d"], ["b", "c"], ["c", "d"]]
    md = (tmp_path / "REPORT.md").read_text()
    assert "| metric | unit | better | a | b | c | d | b/a | c/a | d/a | c/b | d/c |" in md


def test_a_three_kernel_run_is_not_merged_into_latest(tmp_path):
    """bench/bin/bench-merge.py refuses the rows of several pairs of kernels
    and says where such a run goes"""
    spec = importlib.util.spec_from_file_location("bench_merge", TOP / "bench" / "bin" / "bench-merge.py")
    bench_merge = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench_merge)
    run, latest = tmp_path / "run", tmp_path / "latest"
    run.mkdir()
    write_three_run(run)
    run_report_rows(run)
    for d in (run, latest):
        (d / "kernels").mkdir(parents=True, exist_ok=True)
        (d / "kernels" / "base.config").write_text("CONFIG_X=y\n")
    (latest / "meta.json").write_text((run / "meta.json").read_text())
    (latest / "summary.json").write_text("[]\n")
    (latest / "REPORT.md").write_text("# report\n")
    with pytest.raises(SystemExit, match="name different kernels.*a run of three or more kernels "
                       "is kept as its own directory under bench/runs"):
        bench_merge.main(["bench-merge.py", str(run), "psi-edges", "why"], latest=latest)
    assert (latest / "summary.json").read_text() == "[]\n"
