#!/usr/bin/env python3
"""Replace one benchmark's results in bench/latest with those of a newer run.

usage: bench-merge.py RUNDIR BENCHMARK REASON

For a change of the series that touches only what BENCHMARK measures, a run of
that benchmark alone (bench/bench.sh ... BENCHMARK) replaces its rows of
bench/latest/summary.json, its section of REPORT.md and its plots. The run
must have the same mode, clock, accelerator and iteration count as
bench/latest, and each kernel both have that is not the work tree's (base,
ablation-NAME; kernels/*.config) built from the same config. bench/latest/
meta.json keeps a list "replaced" of {benchmark, run, reason, patched_uname}
(plus "kernels", the pair line, for a benchmark that does not compare base
with patched), and REPORT.md says under the section's heading where it comes
from, so no table mixes two runs without saying so.

Rows may be base/patched rows (without "keys": rows made before it existed)
or rows of another pair of kernels, e.g. off/on, with "keys": [reference,
compared] (bench/bin/bench-report.py); a run of three or more kernels, whose
rows name several pairs, is refused. A kernel of the run that bench/latest
does not have yet (an ablation) gets its files copied to bench/latest/kernels
and its name added to meta.json's "kernels".
"""
import json
import pathlib
import re
import shutil
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "scripts"))
from harness_cli import help_or_refuse  # noqa: E402

TOP = pathlib.Path(__file__).resolve().parents[2]
LATEST = TOP / "bench" / "latest"
DEFAULT_KEYS = ["base", "patched"]


def row_keys(row):
    """[reference, compared] of a summary.json row (rows before "keys": base, patched)"""
    return row.get("keys") or DEFAULT_KEYS


def section(report, bench):
    """-> (start, end) of '## BENCH' up to the next '## ' heading"""
    m = re.search(rf"^## {re.escape(bench)}\n", report, re.M)
    if not m:
        return None
    n = re.search(r"^## ", report[m.end():], re.M)
    return m.start(), (m.end() + n.start()) if n else len(report)


def main(argv, latest=LATEST):
    rc = help_or_refuse(argv, __doc__, "bench-merge.py")
    if rc is not None:
        return rc
    if len(argv) != 4:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    run, bench, reason = pathlib.Path(argv[1]), argv[2], argv[3]
    meta_l = json.loads((latest / "meta.json").read_text())
    meta_r = json.loads((run / "meta.json").read_text())
    for k in ("mode", "clock", "accel", "iterations"):
        if meta_l.get(k) != meta_r.get(k):
            sys.exit(f"bench-merge: {k} differs: bench/latest {meta_l.get(k)!r}, {run} {meta_r.get(k)!r}")
    # the work tree's kernel (patched) changes between runs; the others must not
    shared = sorted(p.name for p in (run / "kernels").glob("*.config")
                    if p.name != "patched.config" and (latest / "kernels" / p.name).exists())
    if not shared:
        sys.exit(f"bench-merge: {run}/kernels has no kernel config other than patched's that "
                 "bench/latest/kernels has too (base.config); cannot check the configs")
    for name in shared:
        if (latest / "kernels" / name).read_text() != (run / "kernels" / name).read_text():
            sys.exit(f"bench-merge: the {name[:-len('.config')]} kernels were built from "
                     "different configs")
    rows_r = [r for r in json.loads((run / "summary.json").read_text()) if r["benchmark"] == bench]
    if not rows_r:
        sys.exit(f"bench-merge: no rows of {bench} in {run}/summary.json")
    keys = {tuple(row_keys(r)) for r in rows_r}
    if len(keys) != 1:
        sys.exit(f"bench-merge: the rows of {bench} in {run}/summary.json name different "
                 f"kernels: {sorted(keys)}; a run of three or more kernels is kept as its "
                 "own directory under bench/runs, not merged into bench/latest")
    keys = list(keys.pop())
    rows_l = json.loads((latest / "summary.json").read_text())
    first = next((i for i, r in enumerate(rows_l) if r["benchmark"] == bench), len(rows_l))
    rows_l = [r for r in rows_l if r["benchmark"] != bench]
    rows_l[first:first] = rows_r
    (latest / "summary.json").write_text(json.dumps(rows_l, indent=1) + "\n")

    rep_l, rep_r = (latest / "REPORT.md").read_text(), (run / "REPORT.md").read_text()
    sr = section(rep_r, bench)
    if not sr:
        sys.exit(f"bench-merge: no '## {bench}' section in {run}/REPORT.md")
    new = rep_r[sr[0]:sr[1]]
    uname = (run / "kernels" / "patched.uname").read_text().strip() if (run / "kernels" / "patched.uname").exists() else ""
    note = (f"Replaced from a later run of this benchmark alone ({run.name}): {reason}. "
            "The other sections come from the run this report was made for.\n\n")
    new = new.replace("\n\n", "\n\n" + note, 1)
    sl = section(rep_l, bench)
    if sl:
        rep_l = rep_l[:sl[0]] + new + rep_l[sl[1]:]
    elif re.search(r"^## Host time per boot\n", rep_l, re.M):
        # a new benchmark: its section goes before the closing host-time one
        at = re.search(r"^## Host time per boot\n", rep_l, re.M).start()
        rep_l = rep_l[:at] + new.rstrip("\n") + "\n\n" + rep_l[at:]
    else:
        rep_l = rep_l.rstrip("\n") + "\n\n" + new
    (latest / "REPORT.md").write_text(rep_l)

    # psi-*.png also matches the plots of psi-edges and psi-kubepods: a plot
    # of a benchmark whose name extends this one's is not this one's
    longer = {r["benchmark"] for r in rows_l} | {r["benchmark"] for r in
                                                 json.loads((run / "summary.json").read_text())}
    longer = [b for b in longer if b.startswith(f"{bench}-")]

    def own(p):
        return not any(p.name.startswith(f"{b}-") for b in longer)

    for p in latest.glob(f"{bench}-*.png"):
        if own(p):
            p.unlink()
    for p in run.glob(f"{bench}-*.png"):
        if own(p):
            shutil.copy(p, latest / p.name)
    # kernels bench/latest does not have yet (an ablation): their files
    for k in meta_r.get("kernels", []):
        if k in meta_l.get("kernels", []) or not (run / "kernels" / f"{k}.config").exists():
            continue
        for p in (run / "kernels").glob(f"{k}.*"):
            if p.suffix in (".config", ".harness-diffs", ".uname", ".ablation"):
                shutil.copy(p, latest / "kernels" / p.name)
        meta_l.setdefault("kernels", []).append(k)
    entry = {"benchmark": bench, "run": run.name, "reason": reason, "patched_uname": uname}
    if keys != DEFAULT_KEYS:
        entry["kernels"] = meta_r.get("pairs", {}).get(bench, " ".join(keys))
    meta_l.setdefault("replaced", [])
    meta_l["replaced"] = [x for x in meta_l["replaced"] if x["benchmark"] != bench] + [entry]
    (latest / "meta.json").write_text(json.dumps(meta_l) + "\n")
    print(f"bench/latest: {len(rows_r)} rows of {bench} replaced from {run}")


if __name__ == "__main__":
    sys.exit(main(sys.argv))
