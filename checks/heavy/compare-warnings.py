#!/usr/bin/env python3
"""Compiler warnings that a patched build adds over a base build.

    compare-warnings.py --files FILELIST BASE_LOG PATCHED_LOG

Reads the build logs of the same objects built from the base tree and from
the patched tree (gcc, clang or sparse output), keeps the warnings located in
the files listed in FILELIST (one source path per line, as in the tree), and
keys each by file and message, without line and column (the series moves
lines). A warning is new if the patched log has it more often than the base
log. Prints "base N patched M new K", then each new warning; exits 1 if
there is any.
"""
import argparse
import collections
import re
import sys

WARNING = re.compile(r"^(?P<path>[^:\s]+):\d+:(?:\d+:)? warning: (?P<msg>.*)$")


def warnings(log, files):
    """Counter of (file, message) for warnings in FILES."""
    found = collections.Counter()
    for line in log.splitlines():
        m = WARNING.match(line)
        if not m:
            continue
        path = m.group("path")
        for f in files:
            if path == f or path.endswith("/" + f):
                found[(f, m.group("msg"))] += 1
                break
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--files", required=True, help="file with the touched source paths")
    ap.add_argument("base_log")
    ap.add_argument("patched_log")
    args = ap.parse_args()
    with open(args.files) as fh:
        files = [line.strip() for line in fh if line.strip()]
    logs = []
    for path in (args.base_log, args.patched_log):
        with open(path, errors="replace") as fh:
            logs.append(fh.read())
    base, patched = (warnings(log, files) for log in logs)
    new = patched - base
    print(f"base {sum(base.values())} patched {sum(patched.values())} new {sum(new.values())}")
    for (f, msg), n in sorted(new.items()):
        print(f"{f}: {msg}" + (f" (x{n})" if n > 1 else ""))
    return 1 if new else 0


if __name__ == "__main__":
    sys.exit(main())
