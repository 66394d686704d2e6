#!/usr/bin/env python3
"""Plot seed-rstat, off (rstat-unified ablation) against on (base, split
trees), from a summary.json: plot.py SUMMARY OUT.png. Left: the reader's
instructions per iteration of the 4-file loop and per read of each file
(log scale). Right: flush callbacks per subsystem, per loop iteration, per
cpu.stat read and per io.stat read. Bars are medians, whiskers min-max."""
import json
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

TIMES = [("loop_insn_per_iteration", "loop iteration"),
         ("cpu.stat_read_insn", "cpu.stat"),
         ("io.stat_read_insn", "io.stat"),
         ("memory.stat_read_insn", "memory.stat")]
PER = [("iteration", "per loop iteration"),
       ("cpu_stat_read", "per cpu.stat read"),
       ("io_stat_read", "per io.stat read")]
SUBSYS = ("memcg", "blkcg", "base")
LABEL = {"off": "off (one tree, rstat-unified)", "on": "on (split trees, base)"}


def bars(ax, rows, metrics, width=0.38):
    """off/on bars with min-max whiskers for the metrics present"""
    for i, key in enumerate(("off", "on")):
        med = [rows[m][key]["median"] for m in metrics]
        lo = [v - rows[m][key]["min"] for m, v in zip(metrics, med)]
        hi = [rows[m][key]["max"] - v for m, v in zip(metrics, med)]
        xs = [j + (i - 0.5) * width for j in range(len(metrics))]
        ax.bar(xs, med, width, yerr=[lo, hi], capsize=3, label=LABEL[key])


def main():
    summary, out = sys.argv[1], sys.argv[2]
    rows = {r["metric"]: r for r in json.load(open(summary))
            if r.get("benchmark") == "seed-rstat" and "off" in r and "on" in r}
    times = [(m, name) for m, name in TIMES if m in rows]
    counts = [(f"{s}_flush_callbacks_per_{p}", f"{s}\n{pname.split()[-2]}")
              for p, pname in PER for s in SUBSYS
              if f"{s}_flush_callbacks_per_{p}" in rows]
    if not times:
        sys.exit(f"plot.py: no seed-rstat off/on rows in {summary}")
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, 4.5),
                                   gridspec_kw={"width_ratios": [2, 3]})
    bars(ax1, rows, [m for m, _ in times])
    ax1.set_xticks(range(len(times)), [name for _, name in times])
    ax1.set_yscale("log")
    ax1.set_ylabel("reader's guest instructions (icount)")
    ax1.set_title("cost, children reclaiming")
    ax1.legend(fontsize="small")
    if counts:
        bars(ax2, rows, [m for m, _ in counts])
        ax2.set_xticks(range(len(counts)), [name for _, name in counts],
                       fontsize="small")
        ax2.set_ylabel("flush callbacks (kprobe hits)")
        ax2.set_title("callbacks per iteration / cpu.stat read / io.stat read")
    fig.tight_layout()
    fig.savefig(out, dpi=100)


if __name__ == "__main__":
    main()
