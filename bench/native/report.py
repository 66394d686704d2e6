#!/usr/bin/env python3
"""Report of a bench/native/psi.sh run: summary.json, REPORT.md, psi.png.

usage: bench/native/report.py [-h] DIR

DIR holds raw.jsonl (one line per kernel and repetition: workload, depth,
kernel, rep, rounds, calls_per_round, ns_per_round), meta.json and
cflags.txt. For each workload: the median ns per round of base and series,
the range, the ratio of the medians and the mark of the A/B reports (*:
the bootstrap 95% CI of the difference of medians excludes 0 and the
difference is above 0.1%; bench/bin/bench-report.py).
"""
import json
import pathlib
import sys

TOP = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(TOP / "scripts"))
from harness_cli import help_or_refuse, load_module  # noqa: E402

report = load_module(TOP / "bench" / "bin" / "bench-report.py", "bench_report")
stats, significant, fmt = report.stats, report.significant, report.fmt

ORDER = ["pingpong", "lone", "kubepods"]
WHAT = {
    "pingpong": "pipe ping-pong of two tasks in one leaf, per round trip (2 wake-ups, 2 switches)",
    "lone": "a task alone in its groups wakes, runs, sleeps (1 wake-up, 2 switches)",
    "kubepods": "dense kubepods-shaped tree, 3 tasks per CPU in their own pods (6 wake-ups, 6 switches)",
}


def load(d):
    rows = [json.loads(line) for line in (d / "raw.jsonl").read_text().splitlines() if line.strip()]
    if not rows:
        raise SystemExit(f"report.py: no rows in {d / 'raw.jsonl'}")
    groups = {}
    for r in rows:
        g = groups.setdefault((r["workload"], r["depth"]),
                              {"calls": r["calls_per_round"], "base": [], "series": [], "reps": {}})
        g[r["kernel"]].append(r["ns_per_round"])
        g["reps"].setdefault(r["rep"], {})[r["kernel"]] = r["ns_per_round"]
    return groups


def summarize(groups):
    out = []
    for (w, depth), g in sorted(groups.items(), key=lambda kv: (ORDER.index(kv[0][0]), kv[0][1])):
        b, s = stats(g["base"]), stats(g["series"])
        paired = [v["series"] / v["base"] for v in g["reps"].values() if "base" in v and "series" in v]
        out.append({
            "workload": w, "depth": depth, "calls_per_round": g["calls"],
            "base": b, "series": s,
            "ratio": s["median"] / b["median"] if b["median"] else None,
            "paired_ratio": stats(paired) if paired else None,
            "significant": significant(g["base"], g["series"]),
        })
    return out


def plot(d, rows):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    pp = [r for r in rows if r["workload"] == "pingpong"]
    if not pp:
        return None
    fig, ax = plt.subplots(figsize=(6, 3.5))
    for k, m in (("base", "o-"), ("series", "s-")):
        x = [r["depth"] for r in pp]
        y = [r[k]["median"] for r in pp]
        lo = [r[k]["median"] - r[k]["min"] for r in pp]
        hi = [r[k]["max"] - r[k]["median"] for r in pp]
        ax.errorbar(x, y, yerr=[lo, hi], fmt=m, capsize=3, label=k)
    ax.set_xlabel("cgroup depth")
    ax.set_ylabel("ns per round trip (median, min-max)")
    ax.set_title("PSI accounting per ping-pong round trip, native")
    ax.legend()
    fig.tight_layout()
    fig.savefig(d / "psi.png", dpi=100)
    plt.close(fig)
    return "psi.png"


def paired_cell(p):
    return "-" if not p else f"{p['median']:.3f} ({p['min']:.3f}-{p['max']:.3f})"


def main(argv):
    rc = help_or_refuse(argv, __doc__, "bench/native/report.py")
    if rc is not None:
        return rc
    if len(argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        print("error: bench/native/report.py: it takes one directory", file=sys.stderr)
        return 2
    d = pathlib.Path(argv[1])
    meta = json.loads((d / "meta.json").read_text())
    flags = (d / "cflags.txt").read_text().split()
    rows = summarize(load(d))
    (d / "summary.json").write_text(json.dumps({"meta": meta, "cflags": flags, "rows": rows}, indent=1) + "\n")
    png = plot(d, rows)
    lines = [
        "# PSI accounting timed natively: base against the series",
        "",
        f"Series: {meta['series']}; CPU: {meta['cpu_model']}, pinned to CPU {meta['cpu']}; "
        f"gcc {meta['gcc']}; {meta['reps']} repetitions of {meta['rounds']:,} rounds per workload, "
        f"base and series alternating; load average at the start {meta['load']}.",
        "",
        "**Clock: CLOCK_MONOTONIC (the constant TSC) on the host CPU, real caches and branch "
        "predictors.** psi.c's functions of both trees, copied verbatim by tests/psi-model, "
        "compiled with the kernel's code-generation flags (`cflags.txt`), without "
        "`CONFIG_DEBUG_MISC`, with IRQ time accounting. Not in it: rq locks, per-CPU segments, "
        "seqcounts, interrupts, other CPUs writing the same lines, more than 2 possible CPUs, the "
        "kernel's memory layout (bench/native/README.md).",
        "",
        "Median ns per round (min-max); * = the bootstrap 95% CI of the difference of the medians "
        "excludes 0 and the difference is above 0.1%. Paired: series/base within each repetition "
        "(the two run back to back), median (min-max): robust to the host's drift between "
        "repetitions.",
        "",
        "| workload | depth | calls a round | base | series | ratio | paired |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        b, s = r["base"], r["series"]
        lines.append(
            f"| {r['workload']} | {r['depth']} | {r['calls_per_round']} | {fmt(b['median'])} "
            f"({fmt(b['min'])}-{fmt(b['max'])}) | {fmt(s['median'])} ({fmt(s['min'])}-{fmt(s['max'])}) | "
            f"{r['ratio']:.3f}{' *' if r['significant'] else ''} | {paired_cell(r['paired_ratio'])} |")
    lines += ["", "Workloads:", ""] + [f"- {w}: {WHAT[w]}" for w in ORDER]
    if png:
        lines += ["", f"![ping-pong]({png})"]
    (d / "REPORT.md").write_text("\n".join(lines) + "\n")
    head = next(i for i, ln in enumerate(lines) if ln.startswith("| workload |"))
    print("\n".join(lines[head:head + len(rows) + 2]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
