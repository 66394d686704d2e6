#!/usr/bin/env python3
"""Result lines of a hardware/host-bench.sh run, for the test command's smoke.

usage: check-host-bench.py RESULT.json OUTPUT

RESULT.json: the file host-bench.sh wrote (--out); OUTPUT: what it printed
(a guest's guest.log). Prints one "pass|fail host-bench:NAME" line per check:
  header           the header line: kernel, CPUs, PSI, the benchmarks
  cycles-line      no PMU (QEMU TCG): the output and the header say
                   "cycles: not available (no PMU); wall clock only" and no
                   row has cycles; with a PMU: every row has cycles and
                   instructions per operation
  rows-BENCH       per benchmark of the header: at least one row, each with
                   a positive wall-clock value, a unit, better and run
  compare          hardware/host-compare.py of the file against itself: exit
                   0, a table row with ratio 1.000 for every metric
Exit status: 0 if every check passed, 1 otherwise.
"""
import json
import math
import pathlib
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "scripts"))
from harness_cli import help_or_refuse  # noqa: E402

TOP = pathlib.Path(__file__).resolve().parents[1]
NO_PMU = "cycles: not available (no PMU); wall clock only"
WITH_PMU = "cycles: perf stat -e cycles,instructions"


def checks(result, output):
    """-> [(ok, name, detail)]"""
    out = []

    def add(ok, name, detail=""):
        out.append((ok, name, detail))

    try:
        lines = [json.loads(x) for x in result.read_text().splitlines() if x.strip()]
    except (OSError, json.JSONDecodeError) as e:
        add(False, "header", f"{result}: {e}")
        return out
    header = lines[0].get("header") if lines and isinstance(lines[0], dict) else None
    rows = lines[1:] if header else lines
    text = output.read_text(errors="replace") if output.exists() else ""
    if not header:
        add(False, "header", f"no header line in {result}")
        header = {}
    else:
        missing = [k for k in ("kernel", "cpus", "psi", "pmu", "cycles", "benches") if k not in header]
        add(not missing, "header", f"missing {', '.join(missing)}" if missing else "")
    if header.get("pmu") is False:
        problems = []
        if NO_PMU not in text:
            problems.append(f"the output does not say '{NO_PMU}'")
        if header.get("cycles") != NO_PMU:
            problems.append(f"the header says {header.get('cycles')!r}")
        if any("cycles" in r for r in rows):
            problems.append("rows with cycles")
        add(not problems, "cycles-line", "; ".join(problems))
    elif header.get("pmu") is True:
        bare = [r.get("metric") for r in rows if "cycles" not in r or "instructions" not in r]
        problems = [f"rows without cycles: {', '.join(map(str, bare))}"] if bare else []
        if WITH_PMU not in text:
            problems.append(f"the output does not say '{WITH_PMU} ...'")
        add(not problems, "cycles-line", "; ".join(problems))
    else:
        add(False, "cycles-line", "the header does not say whether there is a PMU")
    for bench in header.get("benches", []):
        mine = [r for r in rows if r.get("bench") == bench]
        bad = [r.get("metric", "?") for r in mine
               if not (isinstance(r.get("value"), (int, float)) and math.isfinite(r["value"])
                       and r["value"] > 0 and r.get("unit") and r.get("better") in ("lower", "higher")
                       and isinstance(r.get("run"), int))]
        if not mine:
            add(False, f"rows-{bench}", "no rows")
        else:
            add(not bad, f"rows-{bench}", f"bad rows: {', '.join(bad)}" if bad else "")
    metrics = sorted({r["metric"] for r in rows if "metric" in r})
    if metrics:
        p = subprocess.run([sys.executable, str(TOP / "hardware" / "host-compare.py"), "--no-plot",
                            str(result), str(result)], capture_output=True, text=True, timeout=120)
        table = [x for x in p.stdout.splitlines() if x.startswith("| ")]
        lacking = [m for m in metrics
                   if not any(f"| {m} |" in x and "| 1.000 |" in x for x in table)]
        if p.returncode != 0:
            add(False, "compare", f"exit {p.returncode}: {p.stderr.strip()[:200]}")
        else:
            add(not lacking, "compare", f"no row for {', '.join(lacking)}" if lacking else "")
    else:
        add(False, "compare", "no rows to compare")
    return out


def main(argv):
    r = help_or_refuse(argv, __doc__, "check-host-bench.py")
    if r is not None:
        return r
    if len(argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        print(f"error: check-host-bench.py: want RESULT.json OUTPUT (got {len(argv) - 1} arguments)",
              file=sys.stderr)
        return 2
    failed = 0
    for ok, name, detail in checks(pathlib.Path(argv[1]), pathlib.Path(argv[2])):
        print(f"{'pass' if ok else 'fail'} host-bench:{name}{f'({detail})' if detail else ''}")
        failed += not ok
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
