#!/usr/bin/env python3
"""Summarize cgroup selftest results written by scripts/guest/run-selftests.sh.

usage: summarize-selftests.py OUTDIR DENYLIST [--host-results FILE]

Each kselftest result line ("ok N name", "not ok N name", "ok N # SKIP name")
is one test; a program that printed none counts as one test by its exit
status (0 pass, 4 skip, else fail); one that was not built (exit status
127, see run-selftests.sh) shows its log's first line, which names what is
missing. A program that timed out or crashed after some results adds a
failure of its own. Results named in DENYLIST
("program[:subtest]  reason") are known upstream failures: they are shown as
"xfail" and not counted as failures. A program that was run a second time
(NAME.retry.log, see run-selftests.sh --retry) decides its first run's
failed subtests: failed again is a failure; passed the second time is counted
as passed, marked "failed once, passed on retry" and listed at the end as
intermittent. Host-side check results
(--host-results: lines "pass|fail NAME") are counted too.
Prints a table and, last, "N passed, N failed, N skipped"; exits 1 when
anything failed.
"""
import pathlib
import re
import sys

RESULT = re.compile(r"^(not ok|ok) \d+ (# (SKIP|XFAIL)\s*)?(.*)$")


def load_denylist(path):
    deny = {}
    for line in pathlib.Path(path).read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key, _, reason = line.partition(" ")
        deny[key] = reason.strip() or "no reason given"
    return deny


def program_results(name, log, rc):
    """Yield (test, status) for one program."""
    seen = False
    for line in log.splitlines():
        m = RESULT.match(line)
        if not m:
            continue
        seen = True
        test = f"{name}:{m.group(4).strip()}"
        if m.group(3) == "SKIP":
            yield test, "skip"
        elif m.group(1) == "ok":
            yield test, "pass"
        else:
            yield test, "fail"
    if not seen:
        yield name, {0: "pass", 4: "skip"}.get(rc, "fail")
    elif rc == 124:
        yield f"{name}:<timeout>", "fail"
    elif rc not in (0, 1, 4):
        yield f"{name}:<exit {rc}>", "fail"


def main(argv):
    for a in argv[1:]:
        if a in ("-h", "--help"):
            print(__doc__.strip())
            return 0
        if a.startswith("-") and a not in ("--host-results",):
            print(__doc__.strip(), file=sys.stderr)
            print(f"error: summarize-selftests.py: unknown option {a!r}", file=sys.stderr)
            return 2
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    out, deny = pathlib.Path(argv[1]), load_denylist(argv[2])
    rows = []
    if "--host-results" in argv:
        host = pathlib.Path(argv[argv.index("--host-results") + 1])
        for line in host.read_text().splitlines():
            status, _, test = line.partition(" ")
            rows.append((f"host:{test}", status))
    retried, why = {}, {}
    for rcfile in sorted(out.glob("*.rc")):
        name = rcfile.stem
        if name.endswith(".retry"):
            continue
        rc = int(rcfile.read_text().strip() or 1)
        log = (out / f"{name}.log").read_text(errors="replace")
        rows.extend(program_results(name, log, rc))
        if rc == 127 and not any(RESULT.match(line) for line in log.splitlines()):
            why[name] = (log.strip().splitlines() or ["no log"])[0].removeprefix(f"{name}: ")
        again = out / f"{name}.retry.rc"
        if again.exists():
            log = (out / f"{name}.retry.log").read_text(errors="replace")
            rc = int(again.read_text().strip() or 1)
            retried.update(program_results(name, log, rc))
    counts = {"pass": 0, "fail": 0, "skip": 0, "xfail": 0}
    intermittent = []
    width = max((len(t) for t, _ in rows), default=10)
    for test, status in rows:
        prog = test.split(":", 1)[0]
        note = ""
        reason = deny.get(test) or deny.get(prog)
        if reason and status == "fail":
            status, note = "xfail", f"  (denylist: {reason})"
        elif reason and status == "pass":
            note = "  (on the denylist but passed)"
        elif status == "fail" and test in retried:
            if retried[test] == "pass":
                status, note = "pass", "  (failed once, passed on retry)"
                intermittent.append(test)
            else:
                note = f"  (retry: {retried[test]})"
        elif status == "fail" and test in why:
            note = f"  ({why[test]})"
        counts[status] += 1
        print(f"  {test:<{width}}  {status.upper():5}{note}")
    if counts["xfail"]:
        print(f"{counts['xfail']} known upstream failure(s) from the denylist not counted")
    if intermittent:
        print(f"{len(intermittent)} upstream subtest(s) failed once and passed on retry: "
              + ", ".join(intermittent))
    print(f"{counts['pass']} passed, {counts['fail']} failed, {counts['skip']} skipped")
    return 1 if counts["fail"] or not rows else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
