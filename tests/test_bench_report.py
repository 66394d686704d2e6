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
