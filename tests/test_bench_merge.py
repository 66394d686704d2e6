"""Tests for scripts/bench-merge.py: one benchmark's rows, report section and
plots are replaced and the replacement is recorded; runs that differ in
method or base config are refused."""
import importlib.util
import json
import pathlib

import pytest

TOP = pathlib.Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("bench_merge", TOP / "scripts" / "bench-merge.py")
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
