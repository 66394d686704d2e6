"""scripts/bench-report.py on a synthetic run: medians, ratio, derived PSI
overhead, significance, and the Markdown naming the clock."""
import json
import pathlib
import subprocess
import sys

TOP = pathlib.Path(__file__).resolve().parent.parent
REPORT = TOP / "scripts" / "bench-report.py"


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
