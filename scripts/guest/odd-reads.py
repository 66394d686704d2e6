#!/usr/bin/env python3
"""Read text stat files in odd ways and compare with one large read.

Runs inside the guest: odd-reads.py CGROUP_ROOT CGROUP... -- FILE...
Prints one result line per cgroup and file, for summarize-selftests.py:
  pass odd-reads:<cgroup>/<file>(exact|shape)
  fail odd-reads:<cgroup>/<file>(<what differed>)

Each file is read whole with one large read() (the reference), then
  - sequentially in chunks of 1, 7, 64, 511, 4095 and 4096 bytes;
  - with pread() at odd offsets, forwards and backwards;
  - with lseek() back and forth (SEEK_SET and SEEK_CUR) between reads.
seq_file restarts a show function when its buffer overflows and re-runs it
on every seek; a lost NUL or a doubled or missing line shows up here.

A file whose values change between the reads (the root's counters move all
the time) cannot be compared byte for byte. Each check is bracketed by two
reference reads and retried until both agree; if they never do, the check
compares shapes instead: digit runs masked, the same keys, separators and
line count. The result says which comparison was made.
"""
import os
import re
import sys

CHUNKS = (1, 7, 64, 511, 4095, 4096)
RETRIES = 20
DIGITS = re.compile(rb"\d+")


def read_chunked(path, n):
    fd = os.open(path, os.O_RDONLY)
    try:
        parts = []
        while True:
            b = os.read(fd, n)
            if not b:
                return b"".join(parts)
            parts.append(b)
    finally:
        os.close(fd)


def read_whole(path):
    return read_chunked(path, 1 << 20)


def odd_offsets(size):
    offs = {1, 3, 7, 63, 511, 2047, 4095, 4096, 4097, size // 3, size // 2, size - 1}
    return sorted(o for o in offs if 0 < o < size)


def read_pread(path, ref):
    """pread() 257 bytes at odd offsets, forwards then backwards; the
    result is laid over a copy of ref, so equal means every piece matched."""
    out = bytearray(ref)
    fd = os.open(path, os.O_RDONLY)
    try:
        offs = odd_offsets(len(ref))
        for off in offs + offs[::-1]:
            b = os.pread(fd, 257, off)
            if b != ref[off:off + 257]:
                return bytes(out[:off]) + b  # differs from ref at or after off
    finally:
        os.close(fd)
    return bytes(out)


def read_seeking(path, ref):
    """Read pieces with lseek() back and forth; rebuild the file from them."""
    size = len(ref)
    got = {}
    fd = os.open(path, os.O_RDONLY)
    try:
        plan = [(0, 100), (size // 2, 50), (10, 30), (size - 20, 64), (5, 4096)]
        for off, n in plan:
            if off < 0 or off >= size:
                continue
            if os.lseek(fd, off, os.SEEK_SET) != off:
                return b"lseek(%d, SEEK_SET) went elsewhere" % off
            got[off] = os.read(fd, n)
            # three bytes back from where the read stopped, then a short read
            back = off + len(got[off]) - 3
            if back < 0:
                continue
            if os.lseek(fd, -3, os.SEEK_CUR) != back:
                return b"lseek(-3, SEEK_CUR) after offset %d went elsewhere" % off
            got[back] = os.read(fd, 11)
    finally:
        os.close(fd)
    for off, b in got.items():
        if b != ref[off:off + len(b)] or (off + len(b) < size and len(b) == 0):
            return b"offset %d: %r" % (off, b[:40])
    return ref


def shape(b):
    return DIGITS.sub(b"N", b)


def check_once(path, how):
    """One bracketed attempt: (ref_before, result, ref_after)."""
    before = read_whole(path)
    if how[0] == "chunk":
        got = read_chunked(path, how[1])
    elif how[0] == "pread":
        got = read_pread(path, before)
    else:
        got = read_seeking(path, before)
    return before, got, read_whole(path)


def first_diff(a, b):
    n = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    return "byte %d: %r vs %r" % (n, a[n:n + 24], b[n:n + 24])


def check_file(path):
    """Return (ok, how) for one file over all odd reads."""
    hows = [("chunk", n) for n in CHUNKS] + [("pread",), ("lseek",)]
    exact = True
    for how in hows:
        name = "-".join(str(x) for x in how)
        for _ in range(RETRIES):
            before, got, after = check_once(path, how)
            if before == after:
                if got != before:
                    return False, "%s: %s" % (name, first_diff(before, got))
                break
        else:
            # never stable: only a chunked read can still be compared by shape
            exact = False
            if how[0] == "chunk" and shape(got) != shape(before):
                return False, "%s (shape): %s" % (name, first_diff(shape(before), shape(got)))
    return True, "exact" if exact else "shape"


def main(argv):
    if "--" not in argv or len(argv) < 4:
        print("usage: odd-reads.py CGROUP_ROOT CGROUP... -- FILE...", file=sys.stderr)
        return 2
    sep = argv.index("--")
    root, groups, files = argv[1], argv[2:sep], argv[sep + 1:]
    failed = 0
    for g in groups:
        for f in files:
            path = os.path.join(root, g if g != "root" else "", f)
            if not os.path.exists(path):
                continue
            try:
                ok, how = check_file(path)
            except OSError as e:
                ok, how = False, "%s: %s" % (e.__class__.__name__, e)
            print("%s odd-reads:%s/%s(%s)" % ("pass" if ok else "fail", g, f, how))
            failed += not ok
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
