"""Tests for bench/bin/bench-merge.py: one benchmark's rows, report section and
plots are replaced and the replacement is recorded; runs that differ in
method or base config are refused."""
import importlib.util
import json
import pathlib

import pytest

TOP = pathlib.Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("bench_merge", TOP / "bench" / "bin" / "bench-merge.py")
bench_merge = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench_merge)

META = {"mode": "full", "accel": "tcg", "clock": "icount", "iterations": 5}


def run_dir(path, rows, report, meta=META, config="CONFIG_X=y\n"):
    (path / "kernels").mkdir(parents=True)
    (path / "kernels" / "base.config").write_text(config)
    (path / "meta.json").write_text(json.dumps(meta))
    (path / "summary.json").write_text(json.dumps(rows))
    (path / "REPORT.md").write_text(report)
    return path


def row(bench, metric, value):
    return {"benchmark": bench, "metric": metric, "base": {"median": value}}


def test_rows_section_and_plots_replaced(tmp_path):
    latest = run_dir(tmp_path / "latest", [row("a", "m", 1), row("psi", "old", 2), row("z", "m", 3)],
                     "# report\n\n## a\n\nA\n\n## psi\n\nold table\n\n## z\n\nZ\n")
    (latest / "psi-old.png").write_bytes(b"old")
    run = run_dir(tmp_path / "run", [row("psi", "new1", 5), row("psi", "new2", 6)],
                  "# report\n\n## psi\n\nnew table\n")
    (run / "psi-new.png").write_bytes(b"new")
    bench_merge.main(["bench-merge.py", str(run), "psi", "a reason"], latest=latest)
    rows = json.loads((latest / "summary.json").read_text())
    assert [r["metric"] for r in rows] == ["m", "new1", "new2", "m"]
    rep = (latest / "REPORT.md").read_text()
    assert "old table" not in rep and "new table" in rep
    assert rep.index("## a") < rep.index("## psi") < rep.index("## z")
    assert "Replaced from a later run of this benchmark alone (run): a reason." in rep
    assert not (latest / "psi-old.png").exists() and (latest / "psi-new.png").exists()
    meta = json.loads((latest / "meta.json").read_text())
    assert meta["replaced"] == [{"benchmark": "psi", "run": "run", "reason": "a reason",
                                 "patched_uname": ""}]


def test_different_method_or_config_refused(tmp_path):
    latest = run_dir(tmp_path / "latest", [row("psi", "m", 1)], "## psi\n\nx\n")
    other = run_dir(tmp_path / "run", [row("psi", "m", 2)], "## psi\n\ny\n",
                    meta={**META, "iterations": 3})
    with pytest.raises(SystemExit, match="iterations differs"):
        bench_merge.main(["bench-merge.py", str(other), "psi", "r"], latest=latest)
    other2 = run_dir(tmp_path / "run2", [row("psi", "m", 2)], "## psi\n\ny\n", config="CONFIG_X=n\n")
    with pytest.raises(SystemExit, match="different configs"):
        bench_merge.main(["bench-merge.py", str(other2), "psi", "r"], latest=latest)


def stats(median):
    return {"median": median, "min": median, "max": median, "stddev": 0.0, "n": 5}


def test_on_off_rows_merged_next_to_old_base_patched_rows(tmp_path):
    # bench/latest as it is today: base/patched rows without "keys"
    old = [{"benchmark": "psi", "metric": "m", "unit": "insn", "better": "lower",
            "base": stats(2), "patched": stats(1), "ratio": 0.5, "significant": True}]
    latest = run_dir(tmp_path / "latest", old, "# report\n\n## psi\n\nP\n\n## Host time per boot\n\nH\n",
                     meta={**META, "kernels": ["base", "patched"]})
    on_off = [{"benchmark": "seed-shrinker", "metric": "x_n125", "unit": "insn", "better": "lower",
               "off": stats(40), "on": stats(10), "ratio": 0.25, "significant": True,
               "keys": ["off", "on"]}]
    run = run_dir(tmp_path / "run", on_off + [{**old[0], "keys": ["base", "patched"]}],
                  "# report\n\n## psi\n\nP2\n\n## seed-shrinker\n\nKernels: off = ...\n\n| t |\n",
                  meta={**META, "kernels": ["ablation-shrinker-loop", "base"],
                        "pairs": {"seed-shrinker": "off=ablation:shrinker-loop on=base"}})
    (run / "kernels" / "ablation-shrinker-loop.config").write_text("CONFIG_X=y\n")
    (run / "kernels" / "ablation-shrinker-loop.ablation").write_text("shrinker-loop.diff 00\n")
    (run / "kernels" / "ablation-shrinker-loop.uname").write_text("Linux x\n")
    bench_merge.main(["bench-merge.py", str(run), "seed-shrinker", "new"], latest=latest)
    rows = json.loads((latest / "summary.json").read_text())
    assert rows == old + on_off  # the old rows untouched, the new ones appended
    rep = (latest / "REPORT.md").read_text()
    # a new section: after the others, before the host times
    assert rep.index("## psi\n\nP\n") < rep.index("## seed-shrinker") < rep.index("## Host time")
    assert rep.endswith("## Host time per boot\n\nH\n")
    assert "Replaced from a later run of this benchmark alone (run): new." in rep
    meta = json.loads((latest / "meta.json").read_text())
    assert meta["kernels"] == ["base", "patched", "ablation-shrinker-loop"]
    assert meta["replaced"] == [{"benchmark": "seed-shrinker", "run": "run", "reason": "new",
                                 "patched_uname": "",
                                 "kernels": "off=ablation:shrinker-loop on=base"}]
    assert (latest / "kernels" / "ablation-shrinker-loop.ablation").exists()
    assert (latest / "kernels" / "ablation-shrinker-loop.config").exists()
    # merging it again checks the ablation's config too
    (run / "kernels" / "ablation-shrinker-loop.config").write_text("CONFIG_X=n\n")
    with pytest.raises(SystemExit, match="the ablation-shrinker-loop kernels were built from different configs"):
        bench_merge.main(["bench-merge.py", str(run), "seed-shrinker", "again"], latest=latest)
    # and a base/patched benchmark of the same run still merges as before
    (run / "kernels" / "ablation-shrinker-loop.config").write_text("CONFIG_X=y\n")
    bench_merge.main(["bench-merge.py", str(run), "psi", "psi again"], latest=latest)
    rows = json.loads((latest / "summary.json").read_text())
    assert [(r["benchmark"], r.get("keys")) for r in rows] == [
        ("psi", ["base", "patched"]), ("seed-shrinker", ["off", "on"])]
    assert "kernels" not in json.loads((latest / "meta.json").read_text())["replaced"][-1]


def test_run_without_a_shared_reference_kernel_refused(tmp_path):
    latest = run_dir(tmp_path / "latest", [row("psi", "m", 1)], "## psi\n\nx\n")
    run = tmp_path / "run"
    run_dir(run, [row("psi", "m", 2)], "## psi\n\ny\n")
    (run / "kernels" / "base.config").rename(run / "kernels" / "patched.config")
    with pytest.raises(SystemExit, match="cannot check the configs"):
        bench_merge.main(["bench-merge.py", str(run), "psi", "r"], latest=latest)


def test_plots_of_a_longer_named_benchmark_kept(tmp_path):
    """psi-*.png also matches psi-edges-*.png: merging psi keeps psi-edges' plots"""
    latest = run_dir(tmp_path / "latest", [row("psi", "old", 2), row("psi-edges", "m", 3)],
                     "# report\n\n## psi\n\nold table\n\n## psi-edges\n\nE\n")
    (latest / "psi-old.png").write_bytes(b"old")
    (latest / "psi-edges-m.png").write_bytes(b"edges")
    run = run_dir(tmp_path / "run", [row("psi", "new", 5), row("psi-edges", "m", 9)],
                  "# report\n\n## psi\n\nnew table\n\n## psi-edges\n\nE2\n")
    (run / "psi-new.png").write_bytes(b"new")
    (run / "psi-edges-m.png").write_bytes(b"edges2")
    bench_merge.main(["bench-merge.py", str(run), "psi", "a reason"], latest=latest)
    assert not (latest / "psi-old.png").exists() and (latest / "psi-new.png").exists()
    assert (latest / "psi-edges-m.png").read_bytes() == b"edges"
    rows = json.loads((latest / "summary.json").read_text())
    assert [(r["benchmark"], r["metric"]) for r in rows] == [("psi", "new"), ("psi-edges", "m")]
