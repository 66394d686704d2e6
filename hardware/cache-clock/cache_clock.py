#!/usr/bin/env python3
"""Read cache-clock JSON lines; the calibration check.

  cache_clock.py show OUT.jsonl            one line per window
  cache_clock.py check OUT.jsonl GUEST.LOG NAME [--expect-fail]
      windows in order = the `calib` runs printed in GUEST.LOG; prints
      pass|fail cache-clock:NAME-<mode> lines; exit 1 on any fail
"""
import json
import re
import sys

SHARED_MIN, SHARED_MAX = 0.9, 1.1   # transfers on the shared line per write
PADDED_MAX = 0.05                   # transfers on the padded lines per write


def windows(path):
    out = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            rec = json.loads(line)
            if "window" in rec:
                out.append(rec)
    return out


def calib_runs(guest_log):
    runs = []
    pat = re.compile(r"calib mode=(\w+) n=(\d+) lines=(\S+)")
    with open(guest_log, errors="replace") as f:
        for line in f:
            m = pat.search(line)
            if m:
                runs.append({"mode": m.group(1), "n": int(m.group(2)),
                             "lines": [int(x, 16) for x in m.group(3).split(",")]})
    return runs


def line_transfers(win, vaddr, line=64):
    """Transfers on the line holding vaddr (matched by the virtual address
    the plugin recorded for the line; top_lines must be long enough)."""
    base = vaddr & ~(line - 1)
    return sum(l["transfers"] for l in win.get("top_lines", [])
               if int(l["vaddr"], 16) & ~(line - 1) == base)


def evaluate(win, run):
    """(ok, ratio, text) for one calib run and its window."""
    writes = 2 * run["n"]
    xfer = sum(line_transfers(win, v, win["model"]["line"]) for v in run["lines"])
    ratio = xfer / writes if writes else 0.0
    if run["mode"] == "shared":
        ok = SHARED_MIN <= ratio <= SHARED_MAX
    elif run["mode"] == "padded":
        ok = ratio <= PADDED_MAX
    else:           # spin: informative, turn length = insns / transfers
        ok = True
    turn = win["insns"] / xfer if xfer else None
    text = (f"{run['mode']} n={run['n']} writes={writes} line_transfers={xfer} "
            f"per_write={ratio:.3f} window_insns={win['insns']} "
            f"window_transfers={win['transfers']} user_transfers={win['user_transfers']}"
            + (f" insns_per_line_transfer={turn:.0f}" if turn else ""))
    return ok, ratio, text


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
    if argv[1] == "show":
        for w in windows(argv[2]):
            print(f"window {w['window']}: insns={w['insns']} mem={w['mem']} "
                  f"l1d_misses={w['l1d_misses']} l2_misses={w['l2_misses']} "
                  f"transfers={w['transfers']}")
        return 0
    if argv[1] == "check":
        out, log, name = argv[2], argv[3], argv[4]
        expect_fail = "--expect-fail" in argv
        wins, runs = windows(out), calib_runs(log)
        failed = 0
        if len(wins) != len(runs) or not runs:
            print(f"fail cache-clock:{name} ({len(wins)} windows, {len(runs)} calib runs)")
            return 1
        for w, r in zip(wins, runs):
            if r["mode"] == "spin":
                _, _, text = evaluate(w, r)
                print(f"info cache-clock:{name}-spin {text}")
                continue
            ok, _, text = evaluate(w, r)
            if expect_fail:
                ok = not ok if r["mode"] == "shared" else True
            print(f"{'pass' if ok else 'fail'} cache-clock:{name}-{r['mode']} {text}")
            failed += not ok
        return 1 if failed else 0
    print(__doc__.strip(), file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
