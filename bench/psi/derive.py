"""psi: PSI overhead = cost with PSI on - cost with PSI off, per iteration."""


def derive(samples):
    """samples: {(metric, variant): [values by iteration]} -> same for new metrics."""
    out = {}
    for (metric, variant), on in samples.items():
        if variant != "psi-on" or not metric.startswith("round_trip_depth"):
            continue
        off = samples.get((metric, "psi-off"))
        if not off:
            continue
        depth = metric[len("round_trip_depth"):]
        n = min(len(on), len(off))
        out[(f"overhead_depth{depth}", "")] = [on[i] - off[i] for i in range(n)]
    return out
