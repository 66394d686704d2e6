#!/usr/bin/env python3
"""Scan kernel logs (guest dmesg, console) for splats.

usage: check-splats.py LOG...

Exit 0 when clean, 1 when a splat was found (each is printed with the lines
that follow it), 2 on bad usage. A splat is anything a kernel maintainer
would not accept in a test run: WARNING, BUG, Oops, lockdep and RCU-lockdep
reports, KASAN/UBSAN/KFENCE/KCSAN, RCU stalls, soft/hard lockups, hung tasks,
panics and PSI's own error messages.

CGSCALE_SPLATS_ALLOW=kcsan (the environment, so that it reaches the calls
in scripts/run-guest.sh and checks/stress.sh too): "BUG: KCSAN:" reports
are not counted; every other splat still is. They are listed as "allowed"
on stderr. checks/heavy/check-kcsan.sh sets it: it collects and judges the KCSAN
reports itself (checks/heavy/kcsan-reports.py).
"""
import os
import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from harness_cli import help_or_refuse  # noqa: E402

# Each entry: (kind, regex). Matched against a log line with any
# "[   12.345678] " timestamp and "<N>" level prefix removed.
PATTERNS = [
    ("kcsan", r"^BUG: KCSAN: "),
    ("warning", r"^WARNING: "),
    ("bug", r"^(watchdog: )?BUG: "),
    ("bug", r"^kernel BUG at "),
    ("oops", r"^Oops(: | - )"),
    ("oops", r"general protection fault"),
    ("panic", r"^Kernel panic - not syncing"),
    ("lockdep", r"possible (circular|recursive) locking dependency"),
    ("lockdep", r"^inconsistent lock state"),
    ("lockdep", r"^INFO: possible irq lock inversion dependency"),
    ("lockdep", r"^INFO: trying to register non-static key"),
    ("lockdep", r"suspicious RCU usage"),
    ("lockdep", r"^BUG: (sleeping function|scheduling while atomic)"),
    ("sanitizer", r"^(BUG|WARNING): (KASAN|KFENCE|KCSAN)"),
    ("sanitizer", r"UBSAN: "),
    ("rcu-stall", r"rcu: INFO: rcu_\w+ (detected|self-detected) stall"),
    ("rcu-stall", r"rcu_\w+ (detected|self-detected) stalls? on CPU"),
    ("hung-task", r"^INFO: task .+ blocked for more than \d+ seconds"),
    ("lockup", r"(soft|hard) lockup"),
    ("psi", r"^psi: (task underflow|inconsistent task state|trigger leak)"),
    ("psi", r"^psi: .*(underflow|inconsistent|leak)"),
]
COMPILED = [(kind, re.compile(rx)) for kind, rx in PATTERNS]
PREFIX = re.compile(r"^(<\d+>)?(\[\s*\d+\.\d+\]\s?)?(\[\s*[CT]\d+\]\s?)?")
CONTEXT = 12


def scan(lines):
    """Return a list of (line_number, kind, text) for every splat start."""
    found = []
    for n, raw in enumerate(lines, 1):
        text = PREFIX.sub("", raw.rstrip("\n"))
        for kind, rx in COMPILED:
            if rx.search(text):
                found.append((n, kind, text))
                break
    return found


# kinds that CGSCALE_SPLATS_ALLOW may name
ALLOWABLE = {"kcsan"}


def allowed_kinds(env):
    """The kinds named in CGSCALE_SPLATS_ALLOW (comma-separated); None if
    it names one that cannot be allowed."""
    kinds = {k.strip() for k in env.get("CGSCALE_SPLATS_ALLOW", "").split(",") if k.strip()}
    return kinds if kinds <= ALLOWABLE else None


def main(argv):
    rc = help_or_refuse(argv, __doc__, "check-splats.py")
    if rc is not None:
        return rc
    if len(argv) < 2:
        print("usage: check-splats.py LOG...", file=sys.stderr)
        return 2
    allow = allowed_kinds(os.environ)
    if allow is None:
        print(f"check-splats: CGSCALE_SPLATS_ALLOW may only name {sorted(ALLOWABLE)}, "
              f"got {os.environ['CGSCALE_SPLATS_ALLOW']!r}", file=sys.stderr)
        return 2
    bad = 0
    allowed = 0
    for path in argv[1:]:
        try:
            with open(path, errors="replace") as f:
                lines = f.readlines()
        except OSError as e:
            print(f"check-splats: cannot read {path}: {e}", file=sys.stderr)
            return 2
        hits = scan(lines)
        allowed += sum(1 for _, kind, _ in hits if kind in allow)
        hits = [h for h in hits if h[1] not in allow]
        shown_until = 0
        for n, kind, text in hits:
            bad += 1
            if n <= shown_until:
                continue
            print(f"SPLAT ({kind}) in {path}:{n}:")
            for line in lines[n - 1 : n - 1 + CONTEXT]:
                print("    " + line.rstrip("\n"))
            shown_until = n - 1 + CONTEXT
    if allowed:
        print(f"check-splats: {allowed} allowed report(s) not counted "
              f"(CGSCALE_SPLATS_ALLOW={','.join(sorted(allow))})", file=sys.stderr)
    if bad:
        print(f"check-splats: {bad} splat line(s) found", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
