#!/usr/bin/env python3
"""Turn a bench run directory (bench/bench.sh) into summary.json, REPORT.md
and PNG plots.

usage: bench-report.py RUNDIR

Rows of summary.json: {benchmark, metric, unit, better, base: {median, min,
max, stddev, n}, patched: {...}, ratio: patched median / base median,
significant, keys: ["base", "patched"]}. A benchmark whose kernels
(raw/BENCH/kernels, see bench/bin/bench-kernels.py) have other keys has rows
with those in place of base and patched, e.g. {..., off: {...}, on: {...},
ratio: on/off, ..., keys: ["off", "on"]}: keys is [reference, compared] and
ratio = compared median / reference median. "significant" is true when the 95% bootstrap confidence
interval of the difference of medians (10000 resamples, fixed seed) excludes
zero and the medians differ by more than the clock's repeatability (0.1%).
A benchmark of three or four kernels K1 K2 K3 [K4] (K1 the reference) has,
per metric, one such row for each kernel against the reference ([K1, K2],
[K1, K3], ...), then one for each kernel against the one before it in the
line ([K2, K3], [K3, K4]); its REPORT.md table has a column per kernel and a
ratio column per row (K2/K1, K3/K1, ..., K3/K2, ...), "*" when significant.
bench/NAME/derive.py, if present, adds derived metrics (derive(samples));
its optional UNITS and BETTER dicts give their unit and better direction
(default: ns, lower). bench/NAME/plot.py, if present, is run as
"plot.py RUNDIR/summary.json RUNDIR/NAME-plot.png", and its plot is shown in
NAME's section of REPORT.md.
"""
import importlib.util
import json
import pathlib
import random
import re
import statistics
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "scripts"))
from harness_cli import help_or_refuse  # noqa: E402

TOP = pathlib.Path(__file__).resolve().parents[2]
NOISE = 0.001  # icount repeats to ~0.05% between boots
DEFAULT_KEYS = ["base", "patched"]


def _kernels_module():
    spec = importlib.util.spec_from_file_location("bench_kernels", TOP / "bench" / "bin" / "bench-kernels.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


bench_kernels = _kernels_module()


def pairs(run, benches):
    """-> {bench: [(refkey, refspec), (key, spec), ...]} from raw/BENCH/kernels
    (bench.sh writes it in full mode), else base=base patched=patched"""
    out = {}
    for bench in benches:
        f = run / "raw" / bench / "kernels"
        text = f.read_text() if f.exists() else bench_kernels.DEFAULT
        # the ablation diff need not exist any more: top=None
        out[bench] = bench_kernels.parse(text, str(f), top=None)
    return out


def row_keys(row):
    """[reference, compared] of a summary.json row (rows before "keys": base, patched)"""
    return row.get("keys") or DEFAULT_KEYS


def compared(keys):
    """The [reference, compared] pairs of a benchmark's keys: each against
    the first, then (three or more) each against the one before it"""
    out = [[keys[0], k] for k in keys[1:]]
    for a, b in zip(keys[1:], keys[2:]):
        if [a, b] not in out:
            out.append([a, b])
    return out


def load(run):
    """-> {bench: {kernel: {(metric, variant): {iter: value}}}}, {(bench, metric): (unit, better)}"""
    data, info = {}, {}
    for f in sorted(run.glob("raw/*/*/*/*.jsonl")):
        bench, kernel, variant = f.parts[-4], f.parts[-3], f.parts[-2]
        it = int(f.stem)
        for line in f.read_text().splitlines():
            if not line.strip():
                continue
            rec = json.loads(line)
            # "bare": the metric names its own variant (cpu.stat_readers8)
            key = (rec["metric"], "" if rec.get("bare") else variant)
            data.setdefault(bench, {}).setdefault(kernel, {}).setdefault(key, {})[it] = rec["value"]
            info[(bench, rec["metric"])] = (rec.get("unit", ""), rec.get("better", "lower"))
    return data, info


def derive(bench, samples):
    path = TOP / "bench" / bench / "derive.py"
    if not path.exists():
        return {}, {}, {}
    spec = importlib.util.spec_from_file_location(f"derive_{bench}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    derived = mod.derive(samples)
    return derived, getattr(mod, "UNITS", {}), getattr(mod, "BETTER", {})


def stats(values):
    return {
        "median": statistics.median(values),
        "min": min(values),
        "max": max(values),
        "stddev": statistics.stdev(values) if len(values) > 1 else 0.0,
        "n": len(values),
    }


def significant(a, b):
    if len(a) < 2 or len(b) < 2:
        return False
    ma, mb = statistics.median(a), statistics.median(b)
    if ma and abs(mb - ma) / abs(ma) <= NOISE:
        return False
    rng = random.Random(1)
    diffs = []
    for _ in range(10000):
        ra = [rng.choice(a) for _ in a]
        rb = [rng.choice(b) for _ in b]
        diffs.append(statistics.median(rb) - statistics.median(ra))
    diffs.sort()
    lo, hi = diffs[249], diffs[9749]
    return lo > 0 or hi < 0


def metric_name(metric, variant):
    if variant in ("", "default"):
        return metric
    return f"{metric}_{variant.replace('-', '_')}"


def fmt(x):
    if x is None:
        return "-"
    if abs(x) >= 100:
        return f"{x:,.0f}"
    return f"{x:.3g}"


def plots(run, rows, clock_unit):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return ["(no plots: matplotlib is not installed)"]
    made = []
    groups = {}
    for r in rows:
        m = re.match(r"^(.*?(?:depth|_n|_online|_possible))(\d+)(_.*)?$", r["metric"])
        if not m:
            continue
        key = (r["benchmark"], m.group(1), m.group(3) or "")
        groups.setdefault(key, []).append((int(m.group(2)), r))
    for (bench, stem, suffix), pts in sorted(groups.items()):
        if len({x for x, _ in pts}) < 2:
            continue
        pts.sort(key=lambda p: p[0])
        # every kernel of the rows (three or more: several rows per point)
        kernels = []
        for _, r in pts:
            kernels += [k for k in row_keys(r) if k not in kernels]
        fig, ax = plt.subplots(figsize=(6, 4))
        for kernel, style in zip(kernels, ("o-", "s-", "^-", "D-")):
            per_x = {}
            for x, r in pts:
                if r.get(kernel):
                    per_x.setdefault(x, r[kernel])
            if not per_x:
                continue
            xs = sorted(per_x)
            med = [per_x[x]["median"] for x in xs]
            lo = [per_x[x]["median"] - per_x[x]["min"] for x in xs]
            hi = [per_x[x]["max"] - per_x[x]["median"] for x in xs]
            ax.errorbar(xs, med, yerr=[lo, hi], fmt=style, capsize=3, label=kernel)
        cpus = re.search(r"_(online|possible)$", stem)
        ax.set_xlabel(f"{cpus.group(1)} CPUs" if cpus else (stem.rstrip("_") or "n"))
        ax.set_ylabel(f"{pts[0][1]['unit']} ({clock_unit.split(' (')[0]})")
        ax.set_title(f"{bench}: {stem}N{suffix}, median and min-max", fontsize=10)
        # cost vs CPUs: linear axes, so that a per-CPU slope is a straight line
        if pts[-1][0] >= 16 * pts[0][0] and not cpus:
            ax.set_xscale("log")
            ax.set_yscale("log")
        ax.legend()
        ax.grid(alpha=0.3)
        name = f"{bench}-{stem.rstrip('_')}{suffix}.png".replace("/", "_")
        fig.tight_layout()
        fig.savefig(run / name, dpi=100)
        plt.close(fig)
        made.append(name)
    # A benchmark's own plot: bench/BENCH/plot.py SUMMARY OUT.png
    for bench in sorted({r["benchmark"] for r in rows}):
        hook = TOP / "bench" / bench / "plot.py"
        if not hook.exists():
            continue
        name = f"{bench}-plot.png"
        p = subprocess.run([sys.executable, str(hook), str(run / "summary.json"), str(run / name)],
                           capture_output=True, text=True)
        if p.returncode == 0 and (run / name).exists():
            made.append(name)
        else:
            why = (p.stderr.strip().splitlines() or ["no output"])[-1]
            made.append(f"(bench/{bench}/plot.py failed: {why})")
    return made


def boot_times(run, keys_of):
    """Host seconds per boot (boot, benchmark, power-off), median per variant;
    one table per line of keys, a column per kernel."""
    times = {}
    for f in sorted(run.glob("raw/*/*/*/*.wall")):
        bench, kernel, variant = f.parts[-4], f.parts[-3], f.parts[-2]
        times.setdefault((bench, variant), {}).setdefault(kernel, []).append(
            int(f.read_text().split()[0]))
    if not times:
        return []
    md = ["## Host time per boot", "",
          "Wall-clock seconds on the host for one boot of the guest, the benchmark "
          "and power-off (TCG; not the benchmark clock). Median [min-max].", ""]
    by_keys = {}
    for (bench, variant), per in sorted(times.items()):
        by_keys.setdefault(tuple(keys_of.get(bench, DEFAULT_KEYS)), []).append((bench, variant, per))
    for keys, items in by_keys.items():
        md += [f"| benchmark | variant | {' | '.join(keys)} |", "|---|---|" + "---|" * len(keys)]
        for bench, variant, per in items:
            cells = [f"{statistics.median(per[k]):.0f} [{min(per[k])}-{max(per[k])}]"
                     if k in per else "-" for k in keys]
            md.append(f"| {bench} | {variant} | {' | '.join(cells)} |")
        md.append("")
    return md


def cell(s):
    """median [min-max] (stddev) of a row's kernel, or -"""
    return "-" if not s else f"{fmt(s['median'])} [{fmt(s['min'])}-{fmt(s['max'])}] ({fmt(s['stddev'])})"


def pair_table(kernels, groups):
    """REPORT.md lines of a benchmark of two kernels: a row per metric."""
    (ref, s1), (cmp, s2) = kernels
    md = []
    if [ref, cmp] != DEFAULT_KEYS:
        md += [f"Kernels: {ref} = {s1} (reference), {cmp} = {s2}; "
               f"ratio = {cmp}/{ref} median.", ""]
    md += [f"| metric | unit | better | {ref} | {cmp} | ratio | sig |",
           "|---|---|---|---|---|---|---|"]
    for (r,) in groups:
        ratio = "-" if r["ratio"] is None else f"{r['ratio']:.3f}"
        md.append(f"| {r['metric']} | {r['unit']} | {r['better']} | {cell(r[ref])} | {cell(r[cmp])} "
                  f"| {ratio} | {'*' if r['significant'] else ''} |")
    md.append("")
    return md


def many_kernels_table(kernels, groups):
    """REPORT.md lines of a benchmark of three or four kernels: a row per
    metric, a column per kernel and one per compared pair (ratio, * when
    significant)."""
    keys = [k for k, _ in kernels]
    ratios = [f"{cmp}/{ref}" for ref, cmp in compared(keys)]
    md = ["Kernels: " + ", ".join(f"{k} = {s}" + (" (reference)" if i == 0 else "")
                                  for i, (k, s) in enumerate(kernels))
          + f"; ratios of medians: {', '.join(ratios)} (* significant).", "",
          f"| metric | unit | better | {' | '.join(keys)} | {' | '.join(ratios)} |",
          "|---|---|---|" + "---|" * (len(keys) + len(ratios))]
    for group in groups:
        r0 = group[0]
        stats_of = {}
        for r in group:
            for k in row_keys(r):
                stats_of.setdefault(k, r[k])
        cells = [cell(stats_of.get(k)) for k in keys]
        cells += ["-" if r["ratio"] is None else
                  f"{r['ratio']:.3f}" + (" *" if r["significant"] else "") for r in group]
        md.append(f"| {r0['metric']} | {r0['unit']} | {r0['better']} | {' | '.join(cells)} |")
    md.append("")
    return md


def main(argv):
    rc = help_or_refuse(argv, __doc__, "bench-report.py")
    if rc is not None:
        return rc
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    run = pathlib.Path(argv[1])
    meta = json.loads((run / "meta.json").read_text())
    data, info = load(run)
    if not data:
        print(f"bench-report: no results under {run}/raw", file=sys.stderr)
        return 1
    try:
        pair = pairs(run, data)
    except bench_kernels.KernelsError as e:
        print(f"bench-report: {e}", file=sys.stderr)
        return 1
    keys_of = {b: [k for k, _spec in p] for b, p in pair.items()}
    for bench in data:
        stray = sorted(set(data[bench]) - set(keys_of[bench]))
        if stray:
            print(f"bench-report: raw/{bench}/{stray[0]} is not one of the kernels of "
                  f"{bench} ({bench_kernels.line(pair[bench])})", file=sys.stderr)
            return 1
    icount = meta["clock"] == "icount"
    clock_unit = "guest instructions (QEMU TCG -icount shift=0)" if icount else "wall-clock ns"
    rows = []
    tables = {}  # bench -> [the rows of one metric, ...]
    for bench in sorted(data):
        per_kernel = {}
        for kernel, samples in data[bench].items():
            flat = {k: [v[i] for i in sorted(v)] for k, v in samples.items()}
            derived, units, betters = derive(bench, flat)
            flat.update(derived)
            per_kernel[kernel] = flat
        keys = sorted({k for s in per_kernel.values() for k in s})
        for metric, variant in keys:
            unit, better = info.get((bench, metric),
                                    (units.get(metric, "ns"), betters.get(metric, "lower")))
            if icount:
                unit = {"ns": "insn", "ns/CPU": "insn/CPU"}.get(unit, unit)
            vals = {k: per_kernel.get(k, {}).get((metric, variant)) for k in keys_of[bench]}
            group = []
            for ref, cmp in compared(keys_of[bench]):
                row = {"benchmark": bench, "metric": metric_name(metric, variant),
                       "unit": unit, "better": better}
                for k in (ref, cmp):
                    row[k] = stats(vals[k]) if vals[k] else None
                if row[ref] and row[cmp] and row[ref]["median"]:
                    row["ratio"] = row[cmp]["median"] / row[ref]["median"]
                    row["significant"] = significant(vals[ref], vals[cmp])
                else:
                    row["ratio"] = None
                    row["significant"] = False
                row["keys"] = [ref, cmp]
                group.append(row)
            rows += group
            tables.setdefault(bench, []).append(group)
    (run / "summary.json").write_text(json.dumps(rows, indent=1) + "\n")

    pngs = plots(run, rows, clock_unit)
    md = [f"# cgscale benchmark report ({meta['mode']})", "",
          f"Clock: **{clock_unit}**" + (
              "; repeatable to about 0.05% between boots, blind to cache effects."
              if icount else "."),
          f"Accelerator: {meta['accel']}. Iterations per kernel: {meta['iterations']}, "
          + ("kernels booted alternately (A B, B A, ...). Kernels: "
             if max(len(k) for k in keys_of.values()) <= 2 else
             "kernels booted in turn, the order rotated each iteration "
             "(A B C, B C A, C A B, ...). Kernels: ")
          + ", ".join(meta["kernels"]) + " (configs and uname in kernels/).", "",
          "Columns: median [min-max] (stddev); ratio = patched/base median "
          "(a section that names other kernels says which ratio it shows); "
          "sig = 95% bootstrap CI of the median difference excludes 0 and the "
          "difference exceeds 0.1%.", ""]
    for bench in sorted({r["benchmark"] for r in rows}):
        md += [f"## {bench}", ""]
        if len(keys_of[bench]) > 2:
            md += many_kernels_table(pair[bench], tables[bench])
        else:
            md += pair_table(pair[bench], tables[bench])
        for p in pngs:
            if p.startswith(bench + "-"):
                md += [f"![{p}]({p})", ""]
        md += [p for p in pngs if not p.endswith(".png")]
    md += boot_times(run, keys_of)
    (run / "REPORT.md").write_text("\n".join(md) + "\n")
    print((run / "REPORT.md").read_text())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
