#!/usr/bin/env python3
"""KCSAN reports of a kernel's guest logs, grouped, and the rule of
checks/heavy/check-kcsan.sh.

usage: kcsan-reports.py parse --kernel NAME --out JSON [--vmlinux VMLINUX]
                              [--src DIR]... [--map FILE] DMESG...
       kcsan-reports.py compare --base JSON --series JSON
                                (--patches DIR | --touched FILE)
                                [--base-src DIR --series-src DIR]
                                [--out SUMMARY]

parse: every "BUG: KCSAN: ..." report of the DMESG files (guest dmesg.txt,
as scripts/guest/exec.sh saves it), with its accesses ("read to 0x... of N
bytes by task N on cpu N:" and the stack below it). Each access's first
frame (the function KCSAN names in the title) is resolved to its source
file with addr2line on VMLINUX (-f -i: the function's own file and, when
the access was inlined from elsewhere, the innermost file:line); --src
DIR strips the tree's path from the file names (default: the files'
own common kernel prefix). --map FILE ("function path/file.c" lines)
replaces addr2line, for logs without their vmlinux and for tests. Reports
are grouped by the sorted pair "file:function / file:function" of their
accesses' first frames (one entry for a race of unknown origin). Writes
JSON with every report, the groups, counts per file, whether each log
starts at boot ("Linux version": the ring buffer did not wrap) and
whether KCSAN said it was enabled; prints a summary.

compare: the rule. Only a group of the series that base does not have
(same key) can fail it, and one whose frames could not be resolved to a
file always does (the rule cannot tell). With --base-src and --series-src
(the two kernel trees), the rule is about code: the group fails when a
function of its accesses' stacks (each stack up to its interrupt entry,
asm_*, below which is the interrupted context; and the functions the
first frames inlined the access from) is one the series adds or changes,
i.e. a function of a file the series touches whose definition differs
from base's or is new; or when a first frame is in a touched file and
its function cannot be found there. A group in a touched file whose
functions are all as on base is listed, and passes: KCSAN samples, so a
race of upstream code may show on one kernel and not the other. Without
the trees, the rule is about files: the group fails when one of its
frames is in a file the series touches. The touched files are those of
patches/*.patch, from their "diff --git" lines, or the list in
--touched. Prints the groups of both kernels with their counts, the
counts per file, and last "pass kcsan:rule(...)" or "fail
kcsan:rule(...)"; exits 1 on fail, 0 on pass, 2 on bad usage or
unreadable input.
"""
import argparse
import collections
import json
import os
import pathlib
import re
import subprocess
import sys

# "<3>[   12.345678] [  T123] " prefixes of dmesg and console lines
PREFIX = re.compile(r"^(<\d+>)?(\[\s*\d+\.\d+\]\s?)?(\[\s*[CT]\d+\]\s?)?")
TITLE = re.compile(r"^BUG: KCSAN: (?P<kind>data-race|assert: race) in (?P<what>.+?)\s*$")
ACCESS = re.compile(
    r"^(?P<unknown>race at unknown origin, with )?(?P<type>.+?) to 0x(?P<addr>[0-9a-f]+) "
    r"of (?P<size>\d+) bytes by (?P<who>task \d+|interrupt) on cpu (?P<cpu>\d+):\s*$")
FRAME = re.compile(
    r"^\s*(?P<func>[A-Za-z_.$][\w.$]*)\+0x(?P<off>[0-9a-f]+)/0x(?P<len>[0-9a-f]+)"
    r"(?: \[(?P<mod>[^\]]+)\])?\s*$")
VALUE = re.compile(r"^value changed: (?P<old>0x[0-9a-f]+) -> (?P<new>0x[0-9a-f]+)")
RULER = re.compile(r"^={20,}\s*$")
KCSAN_ON = re.compile(r"kcsan: (enabled early|strict mode configured|non-strict mode configured)")
BOOT = re.compile(r"Linux version \d")
# top-level directories of a kernel tree, for file names without --src
TOPDIRS = {"arch", "block", "certs", "crypto", "drivers", "fs", "include", "init", "io_uring",
           "ipc", "kernel", "lib", "mm", "net", "rust", "samples", "security", "sound", "usr",
           "virt", "tools"}


def strip(line):
    return PREFIX.sub("", line.rstrip("\n"))


def parse_log(lines, source="dmesg"):
    """Return (reports, info) for the lines of one log. A report is a dict:
    kind, title, line (1-based), source, unknown_origin, value_change and
    accesses (type, size, who, cpu, frames [{func, off, mod}])."""
    reports = []
    info = {"source": source, "starts_at_boot": False, "kcsan_enabled": False, "lines": 0}
    cur = None
    acc = None
    first = True
    for n, raw in enumerate(lines, 1):
        text = strip(raw)
        info["lines"] = n
        if first and text.strip():
            info["starts_at_boot"] = bool(BOOT.search(text))
            first = False
        if KCSAN_ON.search(text):
            info["kcsan_enabled"] = True
        m = TITLE.match(text)
        if m:
            cur = {"kind": m["kind"], "title": text[len("BUG: KCSAN: "):], "line": n,
                   "source": source, "unknown_origin": False, "value_change": None,
                   "accesses": []}
            reports.append(cur)
            acc = None
            continue
        if cur is None:
            continue
        m = ACCESS.match(text)
        if m:
            acc = {"type": m["type"], "size": int(m["size"]), "who": m["who"],
                   "cpu": int(m["cpu"]), "frames": []}
            cur["accesses"].append(acc)
            if m["unknown"]:
                cur["unknown_origin"] = True
            continue
        m = FRAME.match(text)
        if m and acc is not None:
            acc["frames"].append({"func": m["func"], "off": int(m["off"], 16),
                                  "len": int(m["len"], 16), "mod": m["mod"]})
            continue
        m = VALUE.match(text)
        if m:
            cur["value_change"] = f"{m['old']} -> {m['new']}"
            continue
        if text.startswith("Reported by Kernel Concurrency Sanitizer"):
            acc = None
            continue
        if RULER.match(text) and cur["accesses"]:
            cur = acc = None  # the closing ruler
    return reports, info


def rel_path(path, srcs):
    """A source path from DWARF made relative to the kernel tree."""
    path = os.path.normpath(path)
    for s in srcs:
        s = os.path.normpath(s)
        if path.startswith(s + os.sep):
            return path[len(s) + 1:]
    parts = [p for p in path.split(os.sep) if p not in ("", ".", "..")]
    for i, p in enumerate(parts):
        if p in TOPDIRS and i + 1 < len(parts):
            return "/".join(parts[i:])
    return "/".join(parts)


class Addr2line:
    """Resolve func+off of a vmlinux to [(function, file, line)], innermost
    inline first, outermost (the symbol's own function) last."""

    def __init__(self, vmlinux, srcs):
        self.vmlinux = vmlinux
        self.srcs = srcs
        self.syms = collections.defaultdict(list)
        out = subprocess.run(["nm", "-S", "--defined-only", vmlinux], capture_output=True,
                             text=True, check=True).stdout
        for line in out.splitlines():
            f = line.split()
            if len(f) == 4 and f[2] in "tTwW":
                self.syms[f[3]].append((int(f[0], 16), int(f[1], 16)))

    def resolve_many(self, frames):
        """frames: list of (func, off, len); returns {(func, off): chain}.
        Of several symbols of one name (static functions of different
        files), the one of the frame's length."""
        addrs = {}
        for func, off, length in frames:
            cands = self.syms.get(func)
            if not cands:
                continue
            base = next((a for a, sz in cands if sz == length), cands[0][0])
            # the first frame is the return address of the __tsan_* call:
            # one byte back is the access's own instruction
            addrs[(func, off)] = base + max(off - 1, 0)
        if not addrs:
            return {}
        inp = "".join(f"{a:#x}\n" for a in addrs.values())
        out = subprocess.run(["addr2line", "-a", "-f", "-i", "-e", self.vmlinux], input=inp,
                             capture_output=True, text=True, check=True).stdout.splitlines()
        chains = {}
        cur = None
        i = 0
        while i < len(out):
            line = out[i]
            if re.match(r"^0x[0-9a-f]+$", line):
                cur = int(line, 16)
                chains[cur] = []
                i += 1
                continue
            if cur is not None and i + 1 < len(out):
                func, loc = line, out[i + 1]
                file, _, lineno = loc.rpartition(":")
                lineno = lineno.split()[0] if lineno else "?"
                if file and file != "??":
                    chains[cur].append((func, rel_path(file, self.srcs), lineno))
                i += 2
                continue
            i += 1
        return {k: chains.get(a, []) for k, a in addrs.items()}


def map_resolver(path):
    table = {}
    for line in pathlib.Path(path).read_text().splitlines():
        f = line.split()
        if len(f) >= 2 and not line.startswith("#"):
            table[f[0]] = f[1]

    def resolve_many(frames):
        return {(func, off): [(func, table[func], "?")] for func, off, _ in frames
                if func in table}
    return resolve_many


def group_reports(reports, resolve_many):
    """Add each access's "site" (function, file, inner file:line) and each
    report's key; return the groups, most frequent first."""
    wanted = {(a["frames"][0]["func"], a["frames"][0]["off"], a["frames"][0]["len"])
              for r in reports for a in r["accesses"] if a["frames"]}
    chains = resolve_many(sorted(wanted)) if wanted else {}
    groups = collections.OrderedDict()
    for r in reports:
        sites = []
        for a in r["accesses"]:
            if not a["frames"]:
                continue
            fr = a["frames"][0]
            chain = chains.get((fr["func"], fr["off"]), [])
            if chain:
                outer, inner = chain[-1], chain[0]
                site = {"function": fr["func"], "file": outer[1],
                        "inner": f"{inner[1]}:{inner[2]}", "inlined_from": inner[0]
                        if inner[0] != fr["func"] else None}
            else:
                site = {"function": fr["func"], "file": None, "inner": None,
                        "inlined_from": None}
            a["site"] = site
            sites.append(site)
        if not sites:  # a title without parsed accesses: the title's names
            names = [w.split("+")[0] for w in r["title"].split(" in ", 1)[-1].split(" / ")]
            sites = [{"function": f, "file": None, "inner": None, "inlined_from": None}
                     for f in names]
        r["key"] = " / ".join(sorted(f"{s['file'] or '?'}:{s['function']}" for s in sites))
        r["files"] = sorted({f for s in sites for f in (s["file"],
                             (s["inner"] or "").rpartition(":")[0]) if f})
        r["resolved"] = all(s["file"] for s in sites)
        g = groups.get(r["key"])
        if g is None:
            g = groups[r["key"]] = {"key": r["key"], "count": 0, "kind": r["kind"],
                                    "title": r["title"], "files": r["files"],
                                    "resolved": r["resolved"], "first": f"{r['source']}:{r['line']}"}
        g["count"] += 1
    return sorted(groups.values(), key=lambda g: (-g["count"], g["key"]))


def per_file(groups):
    counts = collections.Counter()
    for g in groups:
        for f in g["files"]:
            counts[f] += g["count"]
    return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def touched_from_patches(d):
    files = set()
    for p in sorted(pathlib.Path(d).glob("*.patch")):
        for line in p.read_text(errors="replace").splitlines():
            m = re.match(r"^diff --git a/(\S+) b/(\S+)$", line)
            if m:
                files.update(m.groups())
    return files


# attribute macros that can come before a function's name in its header
ATTR_MACROS = {"__printf", "__scanf", "__attribute__", "__aligned", "__section",
               "__acquires", "__releases", "__must_hold", "__cond_acquires",
               "__cond_releases", "__alloc_size", "__diag_ignore", "__no_sanitize_or_inline"}
CALL = re.compile(r"([A-Za-z_]\w*)\s*\(")
# GCC's clones of a function keep its name before the dot
CLONE = re.compile(r"\..*$")


def c_functions(text):
    """{name: [definition text, ...]} of a C file in kernel style: a header
    from column 0, "{" alone on a line, the body up to a "}" alone on a
    line. The name is the first identifier followed by "(" at parenthesis
    depth 0 of the header, attribute macros aside."""
    lines = text.splitlines()
    funcs = collections.defaultdict(list)
    i = 0
    while i < len(lines):
        if lines[i].rstrip() != "{":
            i += 1
            continue
        j = i - 1
        while (j >= 0 and lines[j].strip() and not lines[j].startswith("#")
               and not lines[j].rstrip().endswith((";", "}", "*/"))):
            j -= 1
        header = " ".join(l.strip() for l in lines[j + 1:i])
        k = i + 1
        while k < len(lines) and lines[k].rstrip() != "}":
            k += 1
        name, depth, pos = None, 0, 0
        for m in CALL.finditer(header):
            depth += header.count("(", pos, m.start()) - header.count(")", pos, m.start())
            pos = m.start()
            if depth == 0 and m.group(1) not in ATTR_MACROS:
                name = m.group(1)
                break
        if name:
            funcs[name].append("\n".join(lines[j + 1:k + 1]))
        i = k + 1
    return funcs


def changed_functions(base_src, series_src, touched):
    """The functions the series adds or changes in the C files it touches,
    and {file: set of function names} of those files in the series tree."""
    changed, defined = set(), {}
    for f in sorted(touched):
        if not f.endswith((".c", ".h")):
            continue
        sp = pathlib.Path(series_src) / f
        if not sp.is_file():
            continue
        bp = pathlib.Path(base_src) / f
        new = c_functions(sp.read_text(errors="replace"))
        old = c_functions(bp.read_text(errors="replace")) if bp.is_file() else {}
        defined[f] = set(new)
        changed.update(n for n, defs in new.items() if old.get(n) != defs)
    return changed, defined


def stack_functions(report):
    """Function names of a report's access stacks, each up to its interrupt
    entry, with the functions the first frames inlined the access from."""
    names = set()
    for a in report["accesses"]:
        for fr in a["frames"]:
            if fr["func"].startswith("asm_"):
                break
            names.add(CLONE.sub("", fr["func"]))
        site = a.get("site") or {}
        if site.get("inlined_from"):
            names.add(CLONE.sub("", site["inlined_from"]))
    return names


def rule_functions(base, series, touched, changed, defined):
    """(bad, listed): the groups of SERIES that fail (not in BASE, and
    unresolved, through a function the series adds or changes, or with a
    first frame in a touched file where its function cannot be found), and
    the groups not in BASE that are in a touched file but pass."""
    base_keys = {g["key"] for g in base["groups"]}
    bad, listed = [], []
    for g in series["groups"]:
        if g["key"] in base_keys:
            continue
        if not g["resolved"]:
            bad.append((g, "frames not resolved to files"))
            continue
        reports = [r for r in series.get("reports", []) if r.get("key") == g["key"]]
        hit = set().union(*(stack_functions(r) for r in reports)) & changed if reports else set()
        unknown = sorted({f"{a['site']['file']}:{a['site']['function']}"
                          for r in reports for a in r["accesses"]
                          if a.get("site") and a["site"]["file"] in defined
                          and CLONE.sub("", a["site"]["function"]) not in defined[a["site"]["file"]]})
        if hit:
            bad.append((g, "through " + ", ".join(sorted(hit)) +
                        ", which the series adds or changes"))
        elif unknown:
            bad.append((g, "in " + ", ".join(unknown) +
                        ", a function not found in its touched file (the rule cannot tell)"))
        elif set(g["files"]) & touched:
            listed.append((g, "in " + ", ".join(sorted(set(g["files"]) & touched)) +
                           ", in functions the series does not change"))
    return bad, listed


def rule(base, series, touched):
    """Groups of SERIES that fail: in a touched file and not in BASE, or
    unresolved and not in BASE."""
    base_keys = {g["key"] for g in base["groups"]}
    bad = []
    for g in series["groups"]:
        if g["key"] in base_keys:
            continue
        if not g["resolved"]:
            bad.append((g, "frames not resolved to files"))
        elif set(g["files"]) & touched:
            bad.append((g, "in " + ", ".join(sorted(set(g["files"]) & touched))))
    return bad


def summary_lines(data):
    out = [f"{data['kernel']}: {data['total']} KCSAN report(s) in {len(data['groups'])} group(s)"]
    for log in data["logs"]:
        out.append(f"  log {log['source']}: {log['lines']} lines, "
                   f"{'starts at boot' if log['starts_at_boot'] else 'DOES NOT START AT BOOT'}, "
                   f"KCSAN {'enabled' if log['kcsan_enabled'] else 'NOT SEEN ENABLED'}")
    for g in data["groups"]:
        out.append(f"  {g['count']:5}  {g['key']}")
    if data["per_file"]:
        out.append("  per file: " + ", ".join(f"{f} {n}" for f, n in data["per_file"].items()))
    return out


def cmd_parse(a):
    reports, logs = [], []
    for path in a.logs:
        try:
            lines = pathlib.Path(path).read_text(errors="replace").splitlines()
        except OSError as e:
            print(f"kcsan-reports: cannot read {path}: {e}", file=sys.stderr)
            return 2
        r, info = parse_log(lines, source=path)
        reports += r
        logs.append(info)
    if a.map:
        resolve_many = map_resolver(a.map)
    elif a.vmlinux:
        try:
            resolve_many = Addr2line(a.vmlinux, a.src).resolve_many
        except (OSError, subprocess.CalledProcessError) as e:
            print(f"kcsan-reports: cannot read symbols of {a.vmlinux}: {e}", file=sys.stderr)
            return 2
    else:
        def resolve_many(frames):
            return {}
    groups = group_reports(reports, resolve_many)
    data = {"kernel": a.kernel, "vmlinux": a.vmlinux, "logs": logs, "total": len(reports),
            "groups": groups, "per_file": per_file(groups), "reports": reports}
    pathlib.Path(a.out).write_text(json.dumps(data, indent=1) + "\n")
    print("\n".join(summary_lines(data)))
    return 0


def cmd_compare(a):
    try:
        base = json.loads(pathlib.Path(a.base).read_text())
        series = json.loads(pathlib.Path(a.series).read_text())
        if a.touched:
            touched = {x.strip() for x in pathlib.Path(a.touched).read_text().splitlines()
                       if x.strip() and not x.startswith("#")}
        else:
            touched = touched_from_patches(a.patches)
    except (OSError, ValueError) as e:
        print(f"kcsan-reports: {e}", file=sys.stderr)
        return 2
    if not touched:
        print("kcsan-reports: no touched files (no patches?)", file=sys.stderr)
        return 2
    if bool(a.base_src) != bool(a.series_src):
        print("kcsan-reports: --base-src and --series-src go together", file=sys.stderr)
        return 2
    lines = summary_lines(base) + summary_lines(series)
    in_touched = [g for g in series["groups"] if set(g["files"]) & touched]
    if a.base_src:
        try:
            changed, defined = changed_functions(a.base_src, a.series_src, touched)
        except OSError as e:
            print(f"kcsan-reports: {e}", file=sys.stderr)
            return 2
        bad, listed = rule_functions(base, series, touched, changed, defined)
        lines.append(f"functions the series adds or changes: {len(changed)}, in "
                     f"{len(defined)} touched C files")
        lines.append(f"series groups in files the series touches: {len(in_touched)} "
                     f"({sum(g['count'] for g in in_touched)} reports); not on base and "
                     f"through code the series adds or changes: {len(bad)}")
        for g, why in listed:
            lines.append(f"  not on base, upstream code: {g['key']} ({g['count']}x, {why}; "
                         f"first at {g['first']})")
        what = "through code the series adds or changes"
    else:
        bad = rule(base, series, touched)
        lines.append(f"series groups in files the series touches: {len(in_touched)} "
                     f"({sum(g['count'] for g in in_touched)} reports); of them not on base: "
                     f"{len(bad)}")
        what = "in touched files"
    for g, why in bad:
        lines.append(f"  NOT ON BASE: {g['key']} ({g['count']}x, {why}; first at {g['first']})")
    if bad:
        lines.append(f"fail kcsan:rule({len(bad)} group(s) of the series {what} "
                     f"that base does not have)")
    else:
        lines.append(f"pass kcsan:rule(base {base['total']} reports in {len(base['groups'])} "
                     f"groups, series {series['total']} in {len(series['groups'])}; none new "
                     f"{what})")
    text = "\n".join(lines) + "\n"
    if a.out:
        pathlib.Path(a.out).write_text(text)
    sys.stdout.write(text)
    return 1 if bad else 0


def main(argv):
    p = argparse.ArgumentParser(
        prog="kcsan-reports.py", description=__doc__.split("\n\n", 2)[2],
        usage=__doc__.split("\n\n")[1].replace("usage: ", ""),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True, metavar="parse|compare")
    pp = sub.add_parser("parse", help="group the KCSAN reports of one kernel's logs")
    pp.add_argument("--kernel", required=True)
    pp.add_argument("--out", required=True)
    pp.add_argument("--vmlinux")
    pp.add_argument("--src", action="append", default=[])
    pp.add_argument("--map")
    pp.add_argument("logs", nargs="+", metavar="DMESG")
    pc = sub.add_parser("compare", help="the rule: base against the series")
    pc.add_argument("--base", required=True)
    pc.add_argument("--series", required=True)
    g = pc.add_mutually_exclusive_group(required=True)
    g.add_argument("--patches")
    g.add_argument("--touched")
    pc.add_argument("--base-src")
    pc.add_argument("--series-src")
    pc.add_argument("--out")
    a = p.parse_args(argv[1:])
    return cmd_parse(a) if a.cmd == "parse" else cmd_compare(a)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
