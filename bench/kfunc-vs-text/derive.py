"""kfunc-vs-text: text_over_kfunc = text cost / kfunc cost per sample, per
iteration (how many kfunc samples one text sample costs)."""

UNITS = {}
BETTER = {}


def derive(samples):
    out = {}
    for (metric, variant), text in samples.items():
        if not metric.startswith("text_per_sample"):
            continue
        suffix = metric[len("text_per_sample"):]
        kfunc = samples.get(("kfunc_per_sample" + suffix, variant))
        if not kfunc:
            continue
        name = "text_over_kfunc" + suffix
        UNITS[name] = "ratio"
        BETTER[name] = "-"  # neither: a cheaper memory.stat lowers it
        n = min(len(text), len(kfunc))
        out[(name, variant)] = [text[i] / kfunc[i] for i in range(n)]
    return out
