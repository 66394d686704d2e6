#!/usr/bin/env python3
"""Read text stat files in odd ways and compare with one large read.

usage: odd-reads.py CGROUP_ROOT CGROUP... -- FILE...

Runs inside the guest (checks/guest/capture-stats.sh, capture-v1-stats.sh).
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
reference reads and retried until both agree. If they never do, a chunked
read is compared by shape instead (digit runs masked: the same keys,
separators and line count), and the pread() and lseek() checks of that file
are not made; the result then says "shape" instead of "exact".
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


def pread_mismatch(path, ref):
    """pread() 257 bytes at odd offsets, forwards then backwards; return
    where the first piece differs from ref, or None."""
    fd = os.open(path, os.O_RDONLY)
    try:
        offs = odd_offsets(len(ref))
        for off in offs + offs[::-1]:
            b = os.pread(fd, 257, off)
            if b != ref[off:off + 257]:
                return "offset %d: %s" % (off, first_diff(ref[off:off + 257], b))
    finally:
        os.close(fd)
    return None


def lseek_mismatch(path, ref):
    """Read pieces with lseek() back and forth; return where the first
    seek or piece differs from ref, or None."""
    size = len(ref)
    fd = os.open(path, os.O_RDONLY)
    try:
        for off, n in [(0, 100), (size // 2, 50), (10, 30), (size - 20, 64), (5, 4096)]:
            if off < 0 or off >= size:
                continue
            if os.lseek(fd, off, os.SEEK_SET) != off:
                return "lseek(%d, SEEK_SET) went elsewhere" % off
            b = os.read(fd, n)
            if not b or b != ref[off:off + len(b)]:
                return "offset %d: %s" % (off, first_diff(ref[off:off + n], b))
            # three bytes back from where the read stopped, then a short read
            back = off + len(b) - 3
            if back < 0:
                continue
            if os.lseek(fd, -3, os.SEEK_CUR) != back:
                return "lseek(-3, SEEK_CUR) after offset %d went elsewhere" % off
            b = os.read(fd, 11)
            if b != ref[back:back + 11]:
                return "offset %d: %s" % (back, first_diff(ref[back:back + 11], b))
    finally:
        os.close(fd)
    return None


def shape(b):
    return DIGITS.sub(b"N", b)


def first_diff(a, b):
    n = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    return "byte %d: %r vs %r" % (n, a[n:n + 24], b[n:n + 24])


def check_once(path, how):
    """One attempt bracketed by two large reads: (stable, mismatch, shape
    mismatch). mismatch is None when the odd read gave the same bytes."""
    before = read_whole(path)
    if how[0] == "chunk":
        got = read_chunked(path, how[1])
        bad = None if got == before else first_diff(before, got)
        bad_shape = None if shape(got) == shape(before) else first_diff(shape(before), shape(got))
    else:
        bad = (pread_mismatch if how[0] == "pread" else lseek_mismatch)(path, before)
        bad_shape = None  # offsets mean nothing once the values move
    return before == read_whole(path), bad, bad_shape


def check_file(path):
    """Return (ok, how) for one file over all odd reads."""
    hows = [("chunk", n) for n in CHUNKS] + [("pread",), ("lseek",)]
    exact = True
    for how in hows:
        name = "-".join(str(x) for x in how)
        for _ in range(RETRIES):
            stable, bad, bad_shape = check_once(path, how)
            if stable:
                if bad:
                    return False, "%s: %s" % (name, bad)
                break
        else:
            exact = False
            if bad_shape:
                return False, "%s (shape): %s" % (name, bad_shape)
    return True, "exact" if exact else "shape"


def main(argv):
    for a in argv[1:]:
        if a in ("-h", "--help"):
            print(__doc__.strip())
            return 0
        if a.startswith("-") and a not in ("--",):
            print(__doc__.strip(), file=sys.stderr)
            print(f"error: odd-reads.py: unknown option {a!r}", file=sys.stderr)
            return 2
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
