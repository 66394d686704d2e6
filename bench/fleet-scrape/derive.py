"""fleet-scrape: memory.stat_over_kfunc_tree_n<N> = the text route's
memory.stat cost per cgroup (open by path, read to EOF, close) / the kfunc
route's (kfunc_tree_n<N>), per iteration: how many cgroups the iterator
fetches for the cost of one memory.stat read."""

UNITS = {}
BETTER = {}


def derive(samples):
    out = {}
    for (metric, variant), kfunc in samples.items():
        if not metric.startswith("kfunc_tree_n"):
            continue
        n = metric[len("kfunc_tree_n"):]
        text = samples.get((f"memory.stat_per_cgroup_n{n}", variant))
        if not text:
            continue
        name = f"memory.stat_over_kfunc_tree_n{n}"
        UNITS[name] = "ratio"
        BETTER[name] = "-"  # neither: a cheaper memory.stat lowers it
        k = min(len(text), len(kfunc))
        out[(name, variant)] = [text[i] / kfunc[i] for i in range(k)]
    return out
