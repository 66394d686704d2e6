#!/usr/bin/env python3
"""Guest kernel instructions per function, from a QEMU instruction trace.

usage: profile-insns.py count [--between FUNC] VMLINUX EXEC_LOG [PCS]
                                                   -> JSON {function: instructions}
       profile-insns.py diff A.json B.json N [TOP]    -> table of (B - A) / N

count also writes {pc: executions} to PCS if given (diff works on those
too: compare them with the disassembly, objdump -d VMLINUX). With
--between FUNC it counts only from the first instruction of FUNC in the
trace to its last: a benchmark that calls FUNC (for example reads a
pressure file: psi_cpu_show) right before and after its timed part leaves
just that part, and its two calls of FUNC, in the counts, without the
boot, so one boot is enough (bench/psi/pingpong.c: PSI_MARK).

The trace is what bench/bin/profile-insns.sh records: QEMU TCG with one guest
instruction per translation block (-singlestep), no block chaining and
"-d exec", so every executed instruction inside the -dfilter ranges is one
"Trace" line whose pc this maps to the vmlinux function holding it. Two
boots that differ only in the rounds of a benchmark give, with "diff", the
instructions per round in each function: under -icount the rest of the two
boots retires the same instructions.
"""
import bisect
import json
import re
import subprocess
import sys

TRACE = re.compile(r"^Trace \d+: 0x[0-9a-f]+ \[[0-9a-f]+/([0-9a-f]+)/")


def symbols(vmlinux):
    out = subprocess.run(["nm", "-n", "--defined-only", vmlinux], check=True,
                         capture_output=True, text=True).stdout
    addrs, names = [], []
    for line in out.splitlines():
        f = line.split()
        if len(f) == 3 and f[1] in "tTwW":
            addrs.append(int(f[0], 16))
            names.append(f[2])
    return addrs, names


def count(vmlinux, log, pcs_out=None, between=None):
    addrs, names = symbols(vmlinux)
    seq = []
    with open(log, errors="replace") as fh:
        for line in fh:
            m = TRACE.match(line)
            if m:
                seq.append(int(m.group(1), 16))
    if between:
        fn = {}
        inside = [i for i, pc in enumerate(seq)
                  if fn.setdefault(pc, names[bisect.bisect_right(addrs, pc) - 1]) == between]
        if len(inside) < 2:
            raise SystemExit(f"profile-insns.py: {between} is not in the trace twice; "
                             "did the benchmark call it before and after its timed part?")
        seq = seq[inside[0]:inside[-1] + 1]
    by_pc = {}
    for pc in seq:
        by_pc[pc] = by_pc.get(pc, 0) + 1
    if pcs_out:
        with open(pcs_out, "w") as fh:
            json.dump({f"{pc:x}": n for pc, n in sorted(by_pc.items())}, fh, indent=0)
    funcs = {}
    for pc, n in by_pc.items():
        i = bisect.bisect_right(addrs, pc) - 1
        name = names[i] if i >= 0 else hex(pc)
        funcs[name] = funcs.get(name, 0) + n
    return dict(sorted(funcs.items(), key=lambda kv: -kv[1]))


def diff(a, b, n, top=25):
    names = set(a) | set(b)
    rows = sorted(((b.get(k, 0) - a.get(k, 0)) / n, k) for k in names)
    rows.reverse()
    total = sum(r[0] for r in rows)
    print(f"{'function':40s} {'insns/round':>12s}")
    for v, k in rows[:top]:
        if abs(v) >= 0.05:
            print(f"{k:40s} {v:12.1f}")
    print(f"{'total':40s} {total:12.1f}")


def main(argv):
    for a in argv[1:]:
        if a in ("-h", "--help"):
            print(__doc__.strip())
            return 0
        if a.startswith("-") and a not in ("--between",):
            print(__doc__.strip(), file=sys.stderr)
            print(f"error: profile-insns.py: unknown option {a!r}", file=sys.stderr)
            return 2
    between = None
    if len(argv) > 3 and argv[1] == "count" and argv[2] == "--between":
        between = argv[3]
        argv = argv[:2] + argv[4:]
    if len(argv) in (4, 5) and argv[1] == "count":
        json.dump(count(argv[2], argv[3], argv[4] if len(argv) == 5 else None, between),
                  sys.stdout, indent=1)
        print()
        return 0
    if len(argv) in (5, 6) and argv[1] == "diff":
        a, b = (json.load(open(p)) for p in argv[2:4])
        diff(a, b, float(argv[4]), int(argv[5]) if len(argv) == 6 else 25)
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
