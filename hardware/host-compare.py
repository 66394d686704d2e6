#!/usr/bin/env python3
"""Compare two kernels' hardware/host-bench.sh results: the A/B table with
medians, spread and the bootstrap significance mark of the emulator's
reports (bench/bin/bench-report.py), and a plot.

usage: host-compare.py [--plot FILE | --no-plot] [--md FILE] A B

A and B: a host-bench result file (JSON lines: a {"header": ...} line,
then rows {"bench", "metric", "unit", "better", "value", "run",
"cycles"?, "instructions"?}) or a directory of them (every *.json in it,
e.g. several boots of one kernel, with PSI on and off). A is the
reference: ratio = B median / A median.

Per (bench, metric) and side, the samples are the rows' values (one per
run and file); cycles and instructions per operation are compared the
same way where both sides have them. A metric NAME_psi_on with a
NAME_psi_off beside it (rows of a psi=1 and a psi=0 boot) gives
NAME_psi_overhead = on - off, paired in file and run order, as the
emulator's psi overhead rows.

Columns: median [min-max] (n); ratio; sig "*" = the 95% bootstrap CI of
the difference of medians excludes 0 and the medians differ by more than
0.1% (bench-report.py's significant()). Metrics that only one side has are
listed at the end. The Markdown goes to stdout (and to --md FILE); the plot
(B/A ratio of every metric's median, wall clock and cycles) to --plot FILE,
default compare-LABEL_A-vs-LABEL_B.png beside B, skipped with a note when
matplotlib is not installed. Exit status 1 when a side has no rows.
"""
import importlib.util
import json
import pathlib
import sys

TOP = pathlib.Path(__file__).resolve().parents[1]


def _report_module():
    spec = importlib.util.spec_from_file_location("bench_report", TOP / "bench" / "bin" / "bench-report.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


report = _report_module()
stats, significant, fmt = report.stats, report.significant, report.fmt

COUNTERS = ("cycles", "instructions")


class InputError(Exception):
    pass


def files_of(path):
    p = pathlib.Path(path)
    if p.is_dir():
        found = sorted(p.glob("*.json"))
        if not found:
            raise InputError(f"{p}: no *.json result files in it")
        return found
    if not p.is_file():
        raise InputError(f"{p}: no such file or directory")
    return [p]


def load_side(path):
    """-> {"headers": [...], "files": [...], "samples": {(bench, metric): {"value": [...],
    "cycles": [...], "instructions": [...]}}, "info": {(bench, metric): (unit, better)}}"""
    side = {"headers": [], "files": [], "samples": {}, "info": {}}
    for f in files_of(path):
        side["files"].append(f)
        rows = []
        for n, line in enumerate(f.read_text().splitlines(), 1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except json.JSONDecodeError as e:
                raise InputError(f"{f}:{n}: not JSON ({e})")
            if "header" in rec:
                side["headers"].append(rec["header"])
                continue
            if "metric" not in rec or "value" not in rec:
                raise InputError(f"{f}:{n}: a row without metric or value")
            rows.append(rec)
        rows.sort(key=lambda r: r.get("run", 0))
        for r in rows:
            key = (r.get("bench", "?"), r["metric"])
            s = side["samples"].setdefault(key, {"value": [], "cycles": [], "instructions": []})
            s["value"].append(r["value"])
            for c in COUNTERS:
                # per run, so that an overhead pairs counts of the same runs
                s[c].append(r.get(c))
            side["info"][key] = (r.get("unit", ""), r.get("better", "lower"))
    for s in side["samples"].values():
        for c in COUNTERS:
            if any(v is None for v in s[c]):
                s[c] = []
    derive_psi(side)
    return side


def derive_psi(side):
    for (bench, metric), on in list(side["samples"].items()):
        if not metric.endswith("_psi_on"):
            continue
        stem = metric[: -len("_psi_on")]
        off = side["samples"].get((bench, stem + "_psi_off"))
        if not off:
            continue
        new = {}
        for k in ("value",) + COUNTERS:
            n = min(len(on[k]), len(off[k]))
            new[k] = [on[k][i] - off[k][i] for i in range(n)]
        key = (bench, stem + "_psi_overhead")
        side["samples"][key] = new
        side["info"][key] = side["info"][(bench, metric)]


def side_label(side, default):
    labels = sorted({h.get("label", "") for h in side["headers"] if h.get("label")})
    return "+".join(labels) if labels else default


def header_summary(side):
    hs = side["headers"]
    if not hs:
        return "no header"
    kernels = sorted({h.get("kernel", "?") for h in hs})
    psi = sorted({h.get("psi", "?") for h in hs})
    runs = sorted({str(h.get("runs", "?")) for h in hs})
    return (f"kernel {', '.join(kernels)}; {len(side['files'])} file(s); PSI {'/'.join(psi)}; "
            f"runs per file {', '.join(runs)}")


def machine(side):
    return {(h.get("cpu_model"), h.get("cpus"), h.get("perf_version"), h.get("governor"),
             h.get("smt"), h.get("numa_nodes"), h.get("quick")) for h in side["headers"]}


def pmu_of(side):
    return bool(side["headers"]) and all(h.get("pmu") for h in side["headers"])


def compare(a, b):
    rows, only = [], []
    for key in sorted(set(a["samples"]) | set(b["samples"])):
        sa, sb = a["samples"].get(key), b["samples"].get(key)
        if not sa or not sb:
            only.append((key, "A" if sa else "B"))
        unit, better = (a["info"].get(key) or b["info"][key])
        row = {"bench": key[0], "metric": key[1], "unit": unit, "better": better}
        for k in ("value",) + COUNTERS:
            va = sa[k] if sa else []
            vb = sb[k] if sb else []
            cell = {"a": stats(va) if va else None, "b": stats(vb) if vb else None}
            if cell["a"] and cell["b"] and cell["a"]["median"]:
                cell["ratio"] = cell["b"]["median"] / cell["a"]["median"]
                cell["significant"] = significant(va, vb)
            else:
                cell["ratio"] = None
                cell["significant"] = False
            row[k] = cell
        rows.append(row)
    return rows, only


def cell_text(s):
    if not s:
        return "-"
    return f"{fmt(s['median'])} [{fmt(s['min'])}-{fmt(s['max'])}] ({s['n']})"


def markdown(a, b, la, lb, rows, only):
    md = [f"# Host A/B: {la} (A) against {lb} (B)", "",
          f"- A = {la}: {header_summary(a)}",
          f"- B = {lb}: {header_summary(b)}"]
    ma, mb = machine(a), machine(b)
    if ma:
        cpu, n, perf, gov, smt, nodes, quick = sorted(ma, key=str)[0]
        md.append(f"- machine: {cpu}, {n} CPUs, {nodes} NUMA node(s), SMT {smt}, governor {gov}; {perf}")
    if ma != mb:
        md.append("- **warning: A and B differ in machine, CPUs, perf, governor, SMT or --quick** "
                  f"(A: {sorted(ma, key=str)}, B: {sorted(mb, key=str)})")
    if any(h.get("quick") for h in a["headers"] + b["headers"]):
        md.append("- **warning: --quick runs (tiny parameters): the numbers mean nothing**")
    md.append("- clock: wall-clock ns (CLOCK_MONOTONIC; ops/s where the unit says so), "
              "not the emulator's instruction clock")
    for lab, side in (("A", a), ("B", b)):
        notes = sorted({h.get("cycles", "") for h in side["headers"] if h.get("cycles")})
        md.append(f"- {lab} {'; '.join(notes) if notes else 'cycles: unknown (no header)'}")
    md += ["", "Columns: median [min-max] (n); ratio = B/A median; sig * = the 95% bootstrap CI "
           "of the difference of medians excludes 0 and the medians differ by more than 0.1% "
           "(as in bench/bin/bench-report.py).", ""]
    md += ["## Wall clock", "",
           f"| bench | metric | unit | better | {la} | {lb} | ratio | sig |",
           "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        c = r["value"]
        ratio = "-" if c["ratio"] is None else f"{c['ratio']:.3f}"
        md.append(f"| {r['bench']} | {r['metric']} | {r['unit']} | {r['better']} | {cell_text(c['a'])} "
                  f"| {cell_text(c['b'])} | {ratio} | {'*' if c['significant'] else ''} |")
    md.append("")
    counted = [r for r in rows if r["cycles"]["a"] or r["cycles"]["b"]]
    if counted:
        md += ["## Cycles and instructions per operation (perf stat, user + kernel)", "",
               f"| bench | metric | cycles {la} | cycles {lb} | ratio | sig "
               f"| instructions {la} | instructions {lb} | ratio | sig |",
               "|---|---|---|---|---|---|---|---|---|---|"]
        for r in counted:
            cells = []
            for k in COUNTERS:
                c = r[k]
                ratio = "-" if c["ratio"] is None else f"{c['ratio']:.3f}"
                cells += [cell_text(c["a"]), cell_text(c["b"]), ratio, "*" if c["significant"] else ""]
            md.append(f"| {r['bench']} | {r['metric']} | " + " | ".join(cells) + " |")
        md.append("")
    else:
        md += ["No cycles: neither side has perf counts (cycles: not available; wall clock only).", ""]
    if only:
        md += ["## Metrics in one side only", ""]
        for (bench, metric), side in only:
            md.append(f"- {bench} {metric}: only in {side} ({la if side == 'A' else lb}), "
                      f"missing in {'B' if side == 'A' else 'A'}")
        md.append("")
    return md


def plot(rows, la, lb, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return "(no plot: matplotlib is not installed)"
    panels = [("value", "wall clock")]
    if any(r["cycles"]["ratio"] is not None for r in rows):
        panels.append(("cycles", "cycles per op"))
    shown = [r for r in rows if r["value"]["ratio"] is not None]
    if not shown:
        return "(no plot: no metric on both sides)"
    height = max(3.0, 0.28 * len(shown) + 1.5)
    fig, axes = plt.subplots(1, len(panels), figsize=(6 * len(panels), height), squeeze=False)
    names = [f"{r['bench']} {r['metric']}" for r in shown]
    for ax, (k, title) in zip(axes[0], panels):
        ratios, lo, hi, colors = [], [], [], []
        for r in shown:
            c = r[k]
            if c["ratio"] is None:
                ratios.append(float("nan"))
                lo.append(0)
                hi.append(0)
                colors.append("lightgray")
                continue
            ratios.append(c["ratio"])
            # B's spread relative to A's median
            lo.append(max(0.0, c["ratio"] - c["b"]["min"] / c["a"]["median"]))
            hi.append(max(0.0, c["b"]["max"] / c["a"]["median"] - c["ratio"]))
            colors.append("tab:blue" if c["significant"] else "tab:gray")
        y = range(len(shown))
        ax.barh(list(y), [x - 1 for x in ratios], left=1, xerr=[lo, hi], color=colors, capsize=2)
        ax.axvline(1, color="black", linewidth=0.8)
        ax.set_yticks(list(y))
        ax.set_yticklabels(names if k == "value" else [""] * len(names), fontsize=7)
        ax.invert_yaxis()
        ax.set_xlabel(f"{lb} / {la} median (blue: significant)")
        ax.set_title(title, fontsize=10)
        ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return str(path)


def main(argv):
    plot_path, md_path, no_plot, args = None, None, False, []
    it = iter(argv[1:])
    for a in it:
        if a in ("-h", "--help"):
            print(__doc__.strip())
            return 0
        if a in ("--plot", "--md"):
            v = next(it, None)
            if not v:
                print(__doc__.strip(), file=sys.stderr)
                print(f"error: host-compare.py: {a} needs a FILE", file=sys.stderr)
                return 2
            if a == "--plot":
                plot_path = pathlib.Path(v)
            else:
                md_path = pathlib.Path(v)
        elif a == "--no-plot":
            no_plot = True
        elif a.startswith("-"):
            print(__doc__.strip(), file=sys.stderr)
            print(f"error: host-compare.py: unknown option {a!r}", file=sys.stderr)
            return 2
        else:
            args.append(a)
    if len(args) != 2:
        print(__doc__.strip(), file=sys.stderr)
        print(f"error: host-compare.py: want two results, A and B (got {len(args)})", file=sys.stderr)
        return 2
    try:
        a, b = load_side(args[0]), load_side(args[1])
    except InputError as e:
        print(f"host-compare: {e}", file=sys.stderr)
        return 1
    for name, side in (("A", a), ("B", b)):
        if not side["samples"]:
            print(f"host-compare: {name} ({args[0 if name == 'A' else 1]}) has no rows", file=sys.stderr)
            return 1
    la, lb = side_label(a, "A"), side_label(b, "B")
    if la == lb:
        la, lb = f"{la} (A)", f"{lb} (B)"
    rows, only = compare(a, b)
    md = markdown(a, b, la, lb, rows, only)
    if not no_plot:
        if plot_path is None:
            bdir = pathlib.Path(args[1])
            bdir = bdir if bdir.is_dir() else bdir.parent
            safe = lambda s: "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in s)
            plot_path = bdir / f"compare-{safe(la)}-vs-{safe(lb)}.png"
        md += [f"Plot: {plot(rows, la, lb, plot_path)}", ""]
    text = "\n".join(md) + "\n"
    if md_path:
        md_path.write_text(text)
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
