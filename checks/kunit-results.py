#!/usr/bin/env python3
"""Turn the KTAP that built-in KUnit suites print at boot into result lines.

usage: kunit-results.py DMESG SUITE...

Prints "pass|fail kunit:SUITE.CASE" for every test case of each SUITE
found in the kernel log DMESG, and "fail kunit:SUITE (...)" for a SUITE
that did not report at all (not built in, or the kernel log lost it).
Exit status: 0 if every case of every suite passed, 1 otherwise.
"""
import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "scripts"))
from harness_cli import help_or_refuse  # noqa: E402

RESULT = re.compile(r"^\s*(ok|not ok) \d+ (\S+)(?:\s+#\s*(\S+))?")
SUBTEST = re.compile(r"^\s*# Subtest: (\S+)")
STAMP = re.compile(r"^\[[ \d.]+\] ")


def parse(lines):
    """{suite: [(case, ok, directive)]} from KTAP lines (timestamps allowed)."""
    suites, stack = {}, []
    for raw in lines:
        line = STAMP.sub("", raw.rstrip("\n"))
        depth = len(line) - len(line.lstrip(" "))
        m = SUBTEST.match(line)
        if m:
            stack = [s for s in stack if s[1] < depth] + [(m.group(1), depth)]
            suites.setdefault(m.group(1), [])
            continue
        m = RESULT.match(line)
        if not m or not stack:
            continue
        suite, sdepth = stack[-1]
        if depth >= sdepth:
            suites[suite].append((m.group(2), m.group(1) == "ok", m.group(3)))
        else:
            stack.pop()
    return suites


def main():
    rc = help_or_refuse(sys.argv, __doc__, "kunit-results.py")
    if rc is not None:
        return rc
    if len(sys.argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    with open(sys.argv[1], errors="replace") as f:
        suites = parse(f)
    failed = 0
    for suite in sys.argv[2:]:
        cases = suites.get(suite)
        if not cases:
            print("fail kunit:%s (no KTAP results in %s: is its KUnit config built in?)"
                  % (suite, sys.argv[1]))
            failed += 1
            continue
        for case, ok, directive in cases:
            if directive and directive.upper() == "SKIP":
                print("skip kunit:%s.%s" % (suite, case))
                continue
            print("%s kunit:%s.%s" % ("pass" if ok else "fail", suite, case))
            failed += not ok
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
