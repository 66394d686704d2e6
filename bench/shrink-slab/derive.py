"""shrink-slab: scaling exponent k of drop_caches time ~ N^k, fitted per
iteration by least squares on log(time) against log(N)."""
import math
import re

UNITS = {"exponent_first": "exponent", "exponent_next": "exponent"}


def derive(samples):
    out = {}
    for kind in ("first", "next"):
        pts = {}
        for (metric, variant), vals in samples.items():
            m = re.fullmatch(rf"drop_caches_{kind}_n(\d+)", metric)
            if m:
                pts[int(m.group(1))] = vals
        if len(pts) < 2:
            continue
        iters = min(len(v) for v in pts.values())
        exps = []
        for i in range(iters):
            xs = [math.log(n) for n in sorted(pts)]
            ys = [math.log(pts[n][i]) for n in sorted(pts)]
            mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
            sxx = sum((x - mx) ** 2 for x in xs)
            exps.append(sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx)
        out[(f"exponent_{kind}", "")] = exps
    return out
