#!/usr/bin/env python3
"""Check text stat files captured by checks/guest/capture-stats.sh.

    check-stat-format.py CAPTURE [--base BASE_CAPTURE]

Two checks per captured file, each printed as a "pass|fail stat-format:..."
line:

  reference  the file, parsed with the printf formats of the unpatched
             kernel ("%s %llu\\n", " N%d=%llu", "cost.vrate=%u.%02u",
             "avg10=%lu.%02lu", ...) and printed again with those
             formats, gives the same bytes.
             A lost NUL (trailing garbage), a space- instead of zero-padded
             field, a leading zero or a missing separator all fail it.
  shape      with every run of digits replaced by "#", the file equals the
             same file of the base capture: the same keys in the same order,
             the same separators, the same number of lines. (Values differ
             between two boots; their formatting is what "reference" checks.)

Exit status: 0 if everything passed, 1 otherwise.
"""
import argparse
import pathlib
import re
import sys

FLAT_KEYED = re.compile(r"([A-Za-z0-9_.]+) (-?\d+)\n")
NUMA = re.compile(r"([A-Za-z0-9_.]+)((?: N\d+=\d+)+)\n")
NUMA_FIELD = re.compile(r" N(\d+)=(\d+)")
IO = re.compile(
    r"(?P<dev>\d+:\d+) "
    r"(?:rbytes=(?P<rbytes>\d+) wbytes=(?P<wbytes>\d+) rios=(?P<rios>\d+) "
    r"wios=(?P<wios>\d+) dbytes=(?P<dbytes>\d+) dios=(?P<dios>\d+))?"
    r"(?: cost\.vrate=(?P<vint>\d+)\.(?P<vfrac>\d+))?"
    r"(?: cost\.usage=(?P<usage>\d+))?"
    r"\n")
PRESSURE = re.compile(
    r"(some|full) avg10=(\d+)\.(\d+) avg60=(\d+)\.(\d+) avg300=(\d+)\.(\d+) total=(\d+)\n")


def render_flat_keyed(m):
    return "%s %d\n" % (m.group(1), int(m.group(2)))


def render_numa(m):
    fields = NUMA_FIELD.findall(m.group(2))
    return m.group(1) + "".join(" N%d=%d" % (int(n), int(v)) for n, v in fields) + "\n"


def render_io(m):
    g = m.groupdict()
    s = "%s " % g["dev"]
    if g["rbytes"] is not None:
        s += "rbytes=%d wbytes=%d rios=%d wios=%d dbytes=%d dios=%d" % tuple(
            int(g[k]) for k in ("rbytes", "wbytes", "rios", "wios", "dbytes", "dios"))
    if g["vint"] is not None:
        s += " cost.vrate=%d.%02d" % (int(g["vint"]), int(g["vfrac"]))
    if g["usage"] is not None:
        s += " cost.usage=%d" % int(g["usage"])
    return s + "\n"


def render_pressure(m):
    g = m.groups()
    return "%s avg10=%d.%02d avg60=%d.%02d avg300=%d.%02d total=%d\n" % (
        (g[0],) + tuple(int(x) for x in g[1:]))


FORMATS = {
    "memory.stat": (FLAT_KEYED, render_flat_keyed),
    "cpu.stat": (FLAT_KEYED, render_flat_keyed),
    "cpu.stat.local": (FLAT_KEYED, render_flat_keyed),
    "cgroup.stat": (FLAT_KEYED, render_flat_keyed),
    "memory.numa_stat": (NUMA, render_numa),
    "io.stat": (IO, render_io),
    "cpu.pressure": (PRESSURE, render_pressure),
    "memory.pressure": (PRESSURE, render_pressure),
    "io.pressure": (PRESSURE, render_pressure),
    "irq.pressure": (PRESSURE, render_pressure),
}


def stat_name(path):
    """memory.stat.bs1 -> memory.stat"""
    name = path.name
    return name[:-4] if name.endswith(".bs1") else name


def check_reference(path):
    """Return None if the file re-renders to itself, else what is wrong."""
    data = path.read_bytes()
    if b"\0" in data:
        return "contains a NUL byte at offset %d" % data.index(b"\0")
    try:
        text = data.decode("ascii")
    except UnicodeDecodeError as e:
        return "not ASCII: %s" % e
    if text and not text.endswith("\n"):
        return "does not end with a newline: ...%r" % text[-40:]
    regex, render = FORMATS[stat_name(path)]
    out = []
    for n, line in enumerate(text.splitlines(keepends=True), 1):
        m = regex.fullmatch(line)
        if not m:
            return "line %d does not parse: %r" % (n, line)
        again = render(m)
        if again != line:
            return "line %d is %r, the printf format gives %r" % (n, line, again)
        out.append(again)
    return None


def shape(text):
    return re.sub(r"\d+", "#", text)


def captures(top):
    return sorted(p for p in top.rglob("*") if p.is_file() and stat_name(p) in FORMATS)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("capture", type=pathlib.Path)
    ap.add_argument("--base", type=pathlib.Path, help="capture from the unpatched base")
    a = ap.parse_args()
    files = captures(a.capture)
    if not files:
        print("fail stat-format:capture (no stat files under %s)" % a.capture)
        return 1
    failed = 0
    for p in files:
        rel = p.relative_to(a.capture)
        why = check_reference(p)
        print("%s stat-format:reference:%s%s" % ("fail" if why else "pass", rel,
                                                 " (%s)" % why if why else ""))
        failed += bool(why)
        if a.base is None:
            continue
        b = a.base / rel
        if not b.exists():
            why = "no such file in the base capture %s" % a.base
        else:
            got, want = shape(p.read_text(errors="replace")), shape(b.read_text(errors="replace"))
            why = None
            if got != want:
                gl, wl = got.splitlines(), want.splitlines()
                for n, (x, y) in enumerate(zip(gl, wl), 1):
                    if x != y:
                        why = "line %d: %r, base has %r" % (n, x, y)
                        break
                else:
                    why = "%d lines, base has %d" % (len(gl), len(wl))
        print("%s stat-format:shape:%s%s" % ("fail" if why else "pass", rel,
                                             " (%s)" % why if why else ""))
        failed += bool(why)
    if a.base is not None:
        for b in captures(a.base):
            if not (a.capture / b.relative_to(a.base)).exists():
                print("fail stat-format:shape:%s (in the base capture only)" % b.relative_to(a.base))
                failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
