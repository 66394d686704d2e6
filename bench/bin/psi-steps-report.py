#!/usr/bin/env python3
"""Report of bench/bin/bench-psi-steps.sh: each PSI patch's own effect.

usage: psi-steps-report.py RUNDIR
       psi-steps-report.py RUNDIR --changelog STEP


Reads the steps named in RUNDIR/steps.list, their
RUNDIR/raw/psi/STEP/{psi-on,psi-off}/ITER.jsonl and RUNDIR/kernels/STEP.subject. Per step and depth, the PSI overhead of one
iteration is its psi=1 round trip minus its psi=0 round trip (as in
bench/psi/derive.py). Writes RUNDIR/steps.json and RUNDIR/steps.md with the
median overhead (and min-max) at each step, and each patch's effect: its
median minus the previous step's, marked * when significant by the test of
bench/bin/bench-report.py (bootstrap CI of the difference of medians excludes
zero, and the medians differ by more than the clock's repeatability).
With --changelog, print the "Measured" paragraph and table for the patch of
STEP (a name from steps.list, or its number: 4 for 04-...), as it goes into
that patch's changelog, instead.
"""
import importlib.util
import json
import pathlib
import statistics
import sys

TOP = pathlib.Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("bench_report", TOP / "bench" / "bin" / "bench-report.py")
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


def changelog(rows, depths, want):
    names = [r["step"] for r in rows]
    if want.isdigit():
        want = next((n for n in names if n.split("-")[0] == f"{int(want):02d}"), want)
    if want not in names[1:]:
        sys.exit(f"psi-steps-report: no step {want} after the base in {names}")
    i = names.index(want)
    prev, row = rows[i - 1], rows[i]
    n = min(r["overhead"][d]["n"] for r in (prev, row) for d in depths)

    def line(label, vals):
        return f"\t{label:<26}" + "".join(f"{v:>10}" for v in vals)

    out = [
        "Measured on its own: the series up to this patch against the series",
        "up to the one before, both built from the same config, on QEMU TCG",
        "with -icount shift=0,sleep=off, so guest time counts retired",
        "instructions (repeatable to ~0.05%, blind to cache effects). Pipe",
        "ping-pong between two tasks in sibling cgroups pinned to one CPU; PSI",
        "overhead = round trip with psi=1 minus psi=0 in the same iteration,",
        f"instructions per round trip, median of {n} boots per kernel and",
        "setting, kernels booted in rotating order:",
        "",
        line("", [f"depth {d}" for d in depths]),
        line("overhead before", [f"{prev['overhead'][d]['median']:,.0f}" for d in depths]),
        line("overhead with this patch", [f"{row['overhead'][d]['median']:,.0f}" for d in depths]),
        line("change", [f"{row['effect'][d]['delta']:+,.0f}" + ("*" if row["effect"][d]["significant"] else "")
                        for d in depths]),
        line("psi=0 round trip before", [f"{prev['psi_off'][d]['median']:,.0f}" for d in depths]),
        line("psi=0 with this patch", [f"{row['psi_off'][d]['median']:,.0f}" for d in depths]),
        "",
    ]
    sig = [d for d in depths if row["effect"][d]["significant"]]
    if len(sig) < len(depths):
        out.append("* = significant (bootstrap 95% CI of the difference excludes 0, and")
        out.append("the difference exceeds 0.1%); the others are not.")
    else:
        out.append("* = significant (bootstrap 95% CI of the difference excludes 0, and")
        out.append("the difference exceeds 0.1%).")
    print("\n".join(out))


def main(argv):
    for a in argv[1:]:
        if a in ("-h", "--help"):
            print(__doc__.strip())
            return 0
        if a.startswith("-") and a not in ("--changelog",):
            print(__doc__.strip(), file=sys.stderr)
            print(f"error: psi-steps-report.py: unknown option {a!r}", file=sys.stderr)
            return 2
    if len(argv) not in (2, 4) or (len(argv) == 4 and argv[2] != "--changelog"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    run = pathlib.Path(argv[1])
    steps = (run / "steps.list").read_text().split()
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
    if len(argv) == 4:
        changelog(rows, depths, argv[3])
        return
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
    sys.exit(main(sys.argv))
