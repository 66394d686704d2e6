#!/usr/bin/env python3
"""Runs inside the guest during checks/stress.sh: read every stat and
pressure file of every cgroup under ROOT, again and again, for SECONDS, and
check each read.

usage: stress-reader.py ROOT SECONDS OUTFILE

Checks per read:
  - no NUL byte, and the text ends with a newline (or is empty);
  - every line parses in the file's format: "key value" (memory.stat,
    cpu.stat, cpu.stat.local, cgroup.stat), "key N0=v N1=v" (memory.numa_stat),
    "MAJ:MIN key=v ..." (io.stat; a device without I/O has no fields), "some|full avg10=.. avg60=.. avg300=..
    total=N" (*.pressure);
  - PSI totals and cpu.stat's usage_usec, user_usec and system_usec never go
    back. Values are keyed by the cgroup directory's inode, not its name:
    churned groups come back under the same name with new counters.
A file or group that vanished between the listing and the read (churn,
cgroup.pressure set to 0) is skipped, not an error. Writes a JSON line with
the counts to OUTFILE and one line per error (at most 50) to stdout.
"""
import json
import os
import re
import sys
import time

FLAT = {"memory.stat", "cpu.stat", "cpu.stat.local", "cgroup.stat"}
PRESSURE = {"cpu.pressure", "memory.pressure", "io.pressure", "irq.pressure"}
FILES = FLAT | PRESSURE | {"memory.numa_stat", "io.stat"}
MONOTONIC_CPU = ("usage_usec", "user_usec", "system_usec")
GONE = (2, 19, 95)  # ENOENT, ENODEV, EOPNOTSUPP

RE_FLAT = re.compile(r"^[a-z0-9_]+ -?\d+$")
RE_NUMA = re.compile(r"^[a-z0-9_]+( N\d+=\d+)+$")
RE_IO_DEV = re.compile(r"^\d+:\d+$")
RE_IO_FIELD = re.compile(r"^[a-z_.]+=(\d+(\.\d+)?|max)$")
RE_PSI = re.compile(r"^(some|full) avg10=(\d+\.\d\d) avg60=(\d+\.\d\d) avg300=(\d+\.\d\d) total=(\d+)$")


def check(name, text, seen, ino):
    if "\0" in text:
        return "NUL byte"
    if text and not text.endswith("\n"):
        return "no final newline"
    lines = text.splitlines()
    if name in FLAT:
        pat = RE_FLAT
    elif name == "memory.numa_stat":
        pat = RE_NUMA
    elif name == "io.stat":
        pat = None
    else:
        pat = RE_PSI
    for line in lines:
        if pat is None:
            # "MAJ:MIN" and "key=value" fields; v7.3 prints "MAJ:MIN " alone
            # for a device without I/O
            dev, *fields = line.split(" ")
            if not RE_IO_DEV.match(dev) or not all(RE_IO_FIELD.match(f) for f in fields if f):
                return f"unparsable line {line!r}"
            continue
        m = pat.match(line)
        if not m:
            return f"unparsable line {line!r}"
        if name in PRESSURE:
            for avg in m.group(2, 3, 4):
                if not 0 <= float(avg) <= 100:
                    return f"average out of range in {line!r}"
            key = (ino, name, m.group(1))
            total = int(m.group(5))
            if total < seen.get(key, 0):
                return f"{m.group(1)} total went back: {seen[key]} -> {total}"
            seen[key] = total
        elif name == "cpu.stat":
            k, v = line.split()
            if k in MONOTONIC_CPU:
                key = (ino, name, k)
                if int(v) < seen.get(key, 0):
                    return f"{k} went back: {seen[key]} -> {v}"
                seen[key] = int(v)
    return None


def main(argv):
    for a in argv[1:]:
        if a in ("-h", "--help"):
            print(__doc__.strip())
            return 0
        if a.startswith("-"):
            print(__doc__.strip(), file=sys.stderr)
            print(f"error: stress-reader.py: unknown option {a!r}", file=sys.stderr)
            return 2
    if len(argv) != 4:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    root, outfile = argv[1], argv[3]
    deadline = time.time() + float(argv[2])
    seen = {}
    counts = {"reads": 0, "errors": 0, "vanished": 0, "passes": 0}
    errors = []
    while time.time() < deadline:
        for d, _dirs, files in os.walk(root):
            try:
                ino = os.stat(d).st_ino
            except OSError:
                counts["vanished"] += 1
                continue
            for name in sorted(set(files) & FILES):
                try:
                    with open(os.path.join(d, name), "rb") as f:
                        data = f.read()
                except OSError as e:
                    if e.errno in GONE:
                        counts["vanished"] += 1
                        continue
                    data = None
                    err = f"read failed: {e}"
                counts["reads"] += 1
                if data is not None:
                    err = check(name, data.decode("ascii", "replace"), seen, ino)
                if err:
                    counts["errors"] += 1
                    if len(errors) < 50:
                        errors.append(f"{os.path.join(d, name)}: {err}")
                        print(f"reader error: {errors[-1]}", flush=True)
        counts["passes"] += 1
    with open(outfile, "w") as f:
        f.write(json.dumps(counts) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
