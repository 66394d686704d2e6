#!/usr/bin/env python3
"""The kernels a benchmark compares (bench/NAME/kernels): two to four.

usage: bench-kernels.py pairs [--kernels 'KEY=SPEC KEY=SPEC [KEY=SPEC...]'] BENCH...
prints one line per benchmark (bench/bench.sh reads it), errors naming the
file that is wrong (--kernels: one line of kernels for every BENCH, instead
of their files):
    BENCH REFKEY REFKERNEL KEY KERNEL [KEY KERNEL...] REFKEY=REFSPEC KEY=SPEC [KEY=SPEC...]
(keys and kernel names have no '=', the words of the line always have one).

A benchmark names its kernels in an optional file bench/NAME/kernels: one
line of two to four words KEY=SPEC (blank lines and lines starting with #
aside), e.g. "off=ablation:shrinker-loop on=base". The first is the
reference (the denominator of the ratio), the others are compared with it
(ratio = other/first; with three or four, bench/bin/bench-report.py also
compares each with the one before it, e.g. "base=base p33=series:33
series=patched": p33/base, series/base and series/p33). No two words have
the same KEY or the same SPEC. KEY names the kernel in the results
(raw/BENCH/KEY/..., summary.json) and matches [a-z][a-z0-9_]*; SPEC is one of
  base           the pinned base tree
  patched        the work tree (the series)
  ablation:NAME  the base tree plus bench/ablations/NAME.diff
  wip:NAME       the work tree plus the patches wip/NAME/*.patch (work in
                 progress on top of the series, see scripts/wip-diff.sh)
  series:N       the series up to and including its Nth patch (the work
                 tree with the later patches reverted, see
                 scripts/series-diff.sh): a part against its parent
  topic:NAME:K   the base tree plus the posting NAME of submit/topics
                 with its first K patches (0: only the postings it depends
                 on; all: every patch), see scripts/topic-diff.sh: a patch
                 against the parent it has in its own posting
all built from config "bench" with the harness diffs of bench/harness.
Without the file: "base=base patched=patched".
KERNEL is the kernel's build name: base, patched, ablation-NAME, wip-NAME, series-N or
topic-NAME.K (objects in
build/obj/KERNEL-bench, files kernels/KERNEL.* of a run).
"""
import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "scripts"))
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "submit"))
from harness_cli import help_or_refuse  # noqa: E402
import submission  # noqa: E402

TOP = pathlib.Path(__file__).resolve().parents[2]
DEFAULT = "base=base patched=patched"
KEY = re.compile(r"[a-z][a-z0-9_]*")
ABLATION = re.compile(r"ablation:([A-Za-z0-9][A-Za-z0-9._-]*)")
WIP = re.compile(r"wip:([A-Za-z0-9][A-Za-z0-9._-]*)")
SERIES = re.compile(r"series:([1-9][0-9]*)")
TOPIC = re.compile(r"topic:([a-z0-9_-]+):(all|0|[1-9][0-9]*)")
# fields of a summary.json row, which a key must not overwrite
RESERVED = {"benchmark", "metric", "unit", "better", "ratio", "significant", "keys"}


class KernelsError(Exception):
    pass


def kernel_name(spec):
    """'base' -> 'base', 'ablation:x' -> 'ablation-x', 'wip:x' -> 'wip-x'
    (build and file name); 'topic:x:2' -> 'topic-x.2'"""
    t = TOPIC.fullmatch(spec)
    if t:
        return f"topic-{t.group(1)}.{t.group(2)}"
    return spec.replace(":", "-", 1)


def parse(text, where="kernels", top=TOP):
    """The text of a kernels file -> [(refkey, refspec), (key, spec), ...]
    (two to four). Raises KernelsError naming `where` and what is wrong.
    With top, an ablation's diff must exist under top/bench/ablations."""
    lines = [l.strip() for l in text.splitlines()]
    lines = [l for l in lines if l and not l.startswith("#")]
    if len(lines) != 1:
        raise KernelsError(f"{where}: want one line 'KEY=SPEC KEY=SPEC [KEY=SPEC...]' "
                           f"(e.g. '{DEFAULT}'), found {len(lines)} lines")
    words = lines[0].split()
    if not 2 <= len(words) <= 4:
        raise KernelsError(f"{where}: want two to four words KEY=SPEC (reference first), "
                           f"found {len(words)}: {lines[0]!r}")
    pair = []
    for w in words:
        key, eq, spec = w.partition("=")
        if not eq:
            raise KernelsError(f"{where}: {w!r} is not KEY=SPEC")
        if not KEY.fullmatch(key):
            raise KernelsError(f"{where}: key {key!r} does not match [a-z][a-z0-9_]*")
        if key in RESERVED:
            raise KernelsError(f"{where}: key {key!r} is reserved (a field of summary.json rows)")
        if spec not in ("base", "patched"):
            m = ABLATION.fullmatch(spec)
            w = WIP.fullmatch(spec)
            n = SERIES.fullmatch(spec)
            t = TOPIC.fullmatch(spec)
            if not m and not w and not n and not t:
                raise KernelsError(f"{where}: unknown kernel {spec!r} (want base, patched, "
                                   "ablation:NAME, wip:NAME, series:N or topic:NAME:K)")
            if t and top is not None:
                own = topic_patches(top, t.group(1))
                if own is None:
                    raise KernelsError(f"{where}: {spec}: no topic {t.group(1)!r} in submit/topics")
                if t.group(2) != "all" and int(t.group(2)) > own:
                    raise KernelsError(f"{where}: {spec}: topic {t.group(1)} has {own} patches; "
                                       f"K wants 0 to {own} or 'all'")
            if n and top is not None:
                total = len([p for p in (top / "patches").glob("[0-9][0-9][0-9][0-9]-*.patch")
                             if not p.name.startswith("0000-")])
                if not 1 <= int(n.group(1)) < total:
                    raise KernelsError(f"{where}: {spec}: the series has {total} patches; "
                                       f"series:N wants N from 1 to {total - 1} "
                                       "(the whole series is 'patched')")
            if m and top is not None:
                diff = top / "bench" / "ablations" / f"{m.group(1)}.diff"
                if not diff.is_file():
                    raise KernelsError(f"{where}: {spec}: no ablation diff {rel(diff, top)}")
            if w and top is not None:
                d = top / "wip" / w.group(1)
                if not any(d.glob("*.patch")):
                    raise KernelsError(f"{where}: {spec}: no patches in {rel(d, top)}")
        pair.append((key, spec))
    keys = [k for k, _ in pair]
    specs = [s for _, s in pair]
    for i in range(1, len(pair)):
        if keys[i] in keys[:i]:
            two = "the two keys" if len(pair) == 2 else "two keys"
            raise KernelsError(f"{where}: {two} are the same ({keys[i]!r})")
    for i in range(1, len(pair)):
        if specs[i] in specs[:i]:
            two = "both keys" if len(pair) == 2 else "two keys"
            raise KernelsError(f"{where}: {two} name the same kernel ({specs[i]!r})")
    return pair


def topic_patches(top, name):
    """-> the number of patches of topic NAME in top/submit/topics, or None"""
    f = top / "submit" / "topics"
    if not f.is_file():
        return None
    for t in submission.parse_topics(f):
        if t["name"] == name:
            return len(t["patches"])
    return None


def rel(path, top):
    try:
        return path.relative_to(top)
    except ValueError:
        return path


def pair_of(bench, top=TOP):
    """A benchmark's kernels [(refkey, refspec), (key, spec), ...]: from
    bench/BENCH/kernels, or the default."""
    f = top / "bench" / bench / "kernels"
    if not f.exists():
        return parse(DEFAULT, "default", top)
    return parse(f.read_text(), str(rel(f, top)), top)


def line(pair):
    """[(key, spec), ...] -> 'KEY=SPEC KEY=SPEC ...'"""
    return " ".join(f"{k}={s}" for k, s in pair)


def main(argv, top=TOP):
    given = None
    if argv[2:3] == ["--kernels"]:  # pairs --kernels LINE BENCH...
        if len(argv) < 5:
            print(__doc__, file=sys.stderr)
            return 2
        given, argv = argv[3], argv[:2] + argv[4:]
    rc = help_or_refuse(argv, __doc__, "bench-kernels.py")
    if rc is not None:
        return rc
    if len(argv) < 3 or argv[1] != "pairs":
        print(__doc__, file=sys.stderr)
        return 2
    benches = argv[2:]
    out = []
    try:
        for bench in benches:
            p = parse(given, "--kernels", top) if given is not None else pair_of(bench, top)
            names = " ".join(f"{k} {kernel_name(s)}" for k, s in p)
            out.append(f"{bench} {names} {line(p)}")
    except (KernelsError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
