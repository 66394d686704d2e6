"""cpu-scale: the per-CPU slope of each file's read cost, fitted per iteration.

FILE_slope_online: least-squares slope of cost vs N over the onlineN
variants; FILE_slope_possible: the same over possibleN plus online2 (two
online CPUs are two possible ones). Unit: instructions (or ns) per CPU.
online2's samples are also reported as possible2, so that both curves
start at N = 2.
"""
import re

UNITS = {}


def slope(points):
    n = len(points)
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    return sum((x - mx) * (y - my) for x, y in points) / sxx if sxx else 0.0


def derive(samples):
    out = {}
    curves = {}
    for (metric, variant), vals in samples.items():
        m = re.fullmatch(r"(online|possible)(\d+)", variant)
        if not m:
            continue
        kind, n = m.group(1), int(m.group(2))
        curves.setdefault((metric, kind), {})[n] = vals
        if kind == "online" and n == 2:
            curves.setdefault((metric, "possible"), {})[2] = vals
            out[(metric, "possible2")] = list(vals)
    for (metric, kind), by_n in curves.items():
        if len(by_n) < 2:
            continue
        iters = min(len(v) for v in by_n.values())
        name = f"{metric}_slope_{kind}"
        out[(name, "")] = [slope([(n, v[i]) for n, v in sorted(by_n.items())])
                           for i in range(iters)]
        UNITS[name] = "ns/CPU"
    return out
