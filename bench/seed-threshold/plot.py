#!/usr/bin/env python3
"""Plot seed-threshold's quiet-memcg read cost, off against on, from a
summary.json: plot.py SUMMARY OUT.png. Bars are medians, whiskers min-max,
log scale (the two differ by up to 100x)."""
import json
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    summary, out = sys.argv[1], sys.argv[2]
    rows = {r["metric"]: r for r in json.load(open(summary))
            if r.get("benchmark") == "seed-threshold"}
    ks = [k for k in (1, 8) if f"quiet_read_insn_k{k}" in rows]
    if not ks:
        sys.exit(f"plot.py: no seed-threshold quiet_read_insn rows in {summary}")
    fig, ax = plt.subplots(figsize=(6, 4))
    width = 0.38
    for i, key in enumerate(("off", "on")):
        med = [rows[f"quiet_read_insn_k{k}"][key]["median"] for k in ks]
        lo = [m - rows[f"quiet_read_insn_k{k}"][key]["min"] for k, m in zip(ks, med)]
        hi = [rows[f"quiet_read_insn_k{k}"][key]["max"] - m for k, m in zip(ks, med)]
        xs = [j + (i - 0.5) * width for j in range(len(ks))]
        ax.bar(xs, med, width, yerr=[lo, hi], capsize=4,
               label="off (global threshold)" if key == "off" else "on (per-memcg, base)")
    ax.set_xticks(range(len(ks)), [f"K = {k} busy siblings" for k in ks])
    ax.set_yscale("log")
    ax.set_ylabel("guest instructions per read (icount)")
    ax.set_title("memory.stat read of a quiet memcg")
    ax.legend()
    fig.tight_layout()
    fig.savefig(out, dpi=100)


if __name__ == "__main__":
    main()
