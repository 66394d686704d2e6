"""psi-kubepods: PSI overhead = cost with PSI on - cost with PSI off.

kubepods_cpu -> kubepods_overhead_cpu (the containers' own CPU time per
round), kubepods_wall -> kubepods_overhead_wall (the whole run per round),
and the same for the sparse node (kubepods_sparse_*).
"""

METRICS = {"kubepods_cpu": "kubepods_overhead_cpu",
           "kubepods_wall": "kubepods_overhead_wall",
           "kubepods_sparse_cpu": "kubepods_sparse_overhead_cpu",
           "kubepods_sparse_wall": "kubepods_sparse_overhead_wall"}


def derive(samples):
    """samples: {(metric, variant): [values by iteration]} -> same for new metrics."""
    out = {}
    for (metric, variant), on in samples.items():
        if variant != "psi-on" or metric not in METRICS:
            continue
        off = samples.get((metric, "psi-off"))
        if not off:
            continue
        n = min(len(on), len(off))
        out[(METRICS[metric], "")] = [on[i] - off[i] for i in range(n)]
    return out
