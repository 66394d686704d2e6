#!/usr/bin/env python3
"""Report of scripts/bench-psi-steps.sh: each PSI patch's own effect.

usage: psi-steps-report.py RUNDIR

Reads RUNDIR/raw/psi/STEP/{psi-on,psi-off}/ITER.jsonl and
RUNDIR/kernels/STEP.subject. Per step and depth, the PSI overhead of one
iteration is its psi=1 round trip minus its psi=0 round trip (as in
bench/psi/derive.py). Writes RUNDIR/steps.json and RUNDIR/steps.md with the
median overhead (and min-max) at each step, and each patch's effect: its
median minus the previous step's, marked * when significant by the test of
scripts/bench-report.py (bootstrap CI of the difference of medians excludes
zero, and the medians differ by more than the clock's repeatability).
"""
import importlib.util
import json
import pathlib
import statistics
import sys

TOP = pathlib.Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("bench_report", TOP / "scripts" / "bench-report.py")
bench_report = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench_report)


def load_variant(d):
    """-> {metric: {iter: value}}"""
    out = {}
    for f in sorted(d.glob("*.jsonl")):
        for line in f.read_text().splitlines():
            if line.strip():
                rec = json.loads(line)
                out.setdefault(rec["metric"], {})[int(f.stem)] = rec["value"]
    return out


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    run = pathlib.Path(argv[1])
    steps = sorted(p.name for p in (run / "raw" / "psi").iterdir() if p.is_dir())
    if not steps:
        sys.exit(f"psi-steps-report: no steps under {run}/raw/psi")
    rows = []
    depths = None
    for s in steps:
        on = load_variant(run / "raw" / "psi" / s / "psi-on")
        off = load_variant(run / "raw" / "psi" / s / "psi-off")
        subj = (run / "kernels" / f"{s}.subject").read_text().strip()
        ds = sorted(int(m[len("round_trip_depth"):]) for m in on if m.startswith("round_trip_depth"))
        depths = depths or ds
        row = {"step": s, "subject": subj, "overhead": {}, "psi_off": {}}
        for d in ds:
            m = f"round_trip_depth{d}"
            its = sorted(set(on.get(m, {})) & set(off.get(m, {})))
            vals = [on[m][i] - off[m][i] for i in its]
            row["overhead"][d] = {**bench_report.stats(vals), "values": vals}
            offv = [off[m][i] for i in its]
            row["psi_off"][d] = bench_report.stats(offv)
        rows.append(row)
    for prev, row in zip(rows, rows[1:]):
        row["effect"] = {}
        for d in depths:
            a, b = prev["overhead"][d]["values"], row["overhead"][d]["values"]
            row["effect"][d] = {
                "delta": statistics.median(b) - statistics.median(a),
                "significant": bench_report.significant(a, b),
            }
    (run / "steps.json").write_text(json.dumps(rows, indent=1) + "\n")

    n = min(r["overhead"][depths[0]]["n"] for r in rows)
    lines = [
        "# psi: each patch's own effect on the PSI hot path",
        "",
        "Clock: QEMU TCG with `-icount shift=0,sleep=off`, so guest time counts retired",
        "instructions (repeatable to ~0.05% between boots, blind to cache misses).",
        "Config `bench`, one kernel per step: the base, then the series up to and",
        f"including each PSI patch. Every kernel booted {n} times with psi=1 and {n} times",
        "with psi=0, in rotating order. Pipe ping-pong between two tasks in sibling",
        "cgroups pinned to one CPU; PSI overhead = round trip with psi=1 minus psi=0 of",
        "the same iteration, in instructions per round trip: median (min-max).",
        "Effect = this step's median minus the previous step's; * = significant",
        "(bootstrap 95% CI of the difference excludes 0, and it exceeds 0.1%).",
        "",
        "| step | patch | " + " | ".join(f"depth {d}" for d in depths) + " | effect "
        + " / ".join(str(d) for d in depths) + " | psi=0 round trip |",
        "|---|---|" + "---|" * len(depths) + "---|---|",
    ]
    for r in rows:
        cells = []
        for d in depths:
            o = r["overhead"][d]
            cells.append(f"{o['median']:,.0f} ({o['min']:,.0f}-{o['max']:,.0f})")
        eff = "-"
        if "effect" in r:
            eff = " / ".join(f"{e['delta']:+,.0f}{'*' if e['significant'] else ''}"
                             for e in (r["effect"][d] for d in depths))
        off = " / ".join(f"{r['psi_off'][d]['median']:,.0f}" for d in depths)
        lines.append(f"| {r['step']} | {r['subject']} | " + " | ".join(cells) + f" | {eff} | {off} |")
    (run / "steps.md").write_text("\n".join(lines) + "\n")
    print((run / "steps.md").read_text(), end="")


if __name__ == "__main__":
    main(sys.argv)
