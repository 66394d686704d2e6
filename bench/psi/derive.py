"""psi: PSI overhead = cost with PSI on - cost with PSI off, per iteration.

round_trip_depthD -> overhead_depthD (sibling ping-pong),
messaging_depthD -> messaging_overhead_depthD (many pairs in many leaves),
lone_round_trip_depthD -> lone_overhead_depthD (one task alone in its groups),
apart_round_trip_depthD -> apart_overhead_depthD (two tasks, each alone in its
groups, one of them in a top-level group).
"""

PREFIXES = {"round_trip_depth": "overhead_depth",
            "messaging_depth": "messaging_overhead_depth",
            "lone_round_trip_depth": "lone_overhead_depth",
            "apart_round_trip_depth": "apart_overhead_depth"}


def derive(samples):
    """samples: {(metric, variant): [values by iteration]} -> same for new metrics."""
    out = {}
    for (metric, variant), on in samples.items():
        if variant != "psi-on":
            continue
        prefix = next((p for p in PREFIXES if metric.startswith(p)), None)
        if prefix is None:
            continue
        off = samples.get((metric, "psi-off"))
        if not off:
            continue
        depth = metric[len(prefix):]
        n = min(len(on), len(off))
        out[(f"{PREFIXES[prefix]}{depth}", "")] = [on[i] - off[i] for i in range(n)]
    return out
