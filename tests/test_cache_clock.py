"""hardware/cache-clock/cache_clock.py, the checker of the cache-clock
plugin's calibration, on synthetic plugin output: reading windows, the
transfers of one line matched by virtual address, the pass/fail rules of
the shared and padded runs, the writes=off inversion, and the count
mismatch between windows and calib runs."""
import importlib.util
import json
import pathlib
import subprocess
import sys

TOP = pathlib.Path(__file__).resolve().parent.parent
SCRIPT = TOP / "hardware" / "cache-clock" / "cache_clock.py"
spec = importlib.util.spec_from_file_location("cache_clock", SCRIPT)
cc = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cc)

MODEL = {"l1d": 49152, "l1d_assoc": 12, "l2": 2097152, "l2_assoc": 16,
         "line": 64}


def win(n, lines, insns=1000, transfers=None):
    tl = [{"paddr": hex(0x1000 + i * 64), "vaddr": hex(v), "transfers": t,
           "insn": "0x0", "sym": None, "insn_sym": None}
          for i, (v, t) in enumerate(lines)]
    return {"window": n, "insns": insns, "mem": 10, "l1d_misses": 1,
            "l2_misses": 1, "user_transfers": 0, "model": MODEL,
            "transfers": sum(t for _, t in lines) if transfers is None else transfers,
            "top_lines": tl, "top_insns": []}


def write(tmp, wins, log):
    out = tmp / "o.jsonl"
    out.write_text("".join(json.dumps(w) + "\n" for w in wins)
                   + '{"summary":true,"windows":%d}\n' % len(wins))
    g = tmp / "guest.log"
    g.write_text(log)
    return out, g


def run(*args):
    p = subprocess.run([sys.executable, str(SCRIPT), *map(str, args)],
                       capture_output=True, text=True, timeout=30)
    return p.returncode, p.stdout


def test_windows_skip_summary(tmp_path):
    out, _ = write(tmp_path, [win(0, []), win(1, [])], "")
    assert [w["window"] for w in cc.windows(out)] == [0, 1]


def test_line_transfers_matches_line_not_address():
    w = win(0, [(0x4bc418, 7), (0x4bc440, 5), (0xff11000000001000, 100)])
    assert cc.line_transfers(w, 0x4bc400) == 7
    assert cc.line_transfers(w, 0x4bc43f) == 7
    assert cc.line_transfers(w, 0x4bc440) == 5
    assert cc.line_transfers(w, 0x4bc480) == 0


def test_calib_runs_parses_guest_log(tmp_path):
    _, g = write(tmp_path, [], "x\ncalib mode=shared n=10 lines=0x4bc400\n"
                 "calib mode=padded n=10 lines=0x4bc380,0x4bc3c0\n")
    runs = cc.calib_runs(g)
    assert runs[0] == {"mode": "shared", "n": 10, "lines": [0x4bc400]}
    assert runs[1]["lines"] == [0x4bc380, 0x4bc3c0]


LOG = ("calib mode=shared n=1000 lines=0x4bc400\n"
       "calib mode=padded n=1000 lines=0x4bc380,0x4bc3c0\n"
       "calib mode=spin n=100000 lines=0x4bc400\n")


def test_check_pass(tmp_path):
    out, g = write(tmp_path, [win(0, [(0x4bc400, 1999), (0xff11000000001000, 2000)]),
                              win(1, [(0x4bc380, 1), (0x4bc3c0, 2)]),
                              win(2, [(0x4bc400, 1)])], LOG)
    rc, text = run("check", out, g, "calib")
    assert rc == 0, text
    assert "pass cache-clock:calib-shared" in text
    assert "pass cache-clock:calib-padded" in text
    assert "info cache-clock:calib-spin" in text


def test_check_fail_shared_too_few_and_padded_too_many(tmp_path):
    out, g = write(tmp_path, [win(0, [(0x4bc400, 1500)]),
                              win(1, [(0x4bc380, 200)]),
                              win(2, [])], LOG)
    rc, text = run("check", out, g, "calib")
    assert rc == 1
    assert "fail cache-clock:calib-shared" in text
    assert "fail cache-clock:calib-padded" in text


def test_check_shared_too_many_fails(tmp_path):
    out, g = write(tmp_path, [win(0, [(0x4bc400, 4000)]), win(1, []), win(2, [])], LOG)
    rc, text = run("check", out, g, "calib")
    assert rc == 1 and "fail cache-clock:calib-shared" in text


def test_expect_fail_inverts_shared(tmp_path):
    out, g = write(tmp_path, [win(0, []), win(1, []), win(2, [])], LOG)
    rc, text = run("check", out, g, "writes-off", "--expect-fail")
    assert rc == 0 and "pass cache-clock:writes-off-shared" in text
    out, g = write(tmp_path, [win(0, [(0x4bc400, 2000)]), win(1, []), win(2, [])], LOG)
    rc, text = run("check", out, g, "writes-off", "--expect-fail")
    assert rc == 1 and "fail cache-clock:writes-off-shared" in text


def test_window_count_mismatch_fails(tmp_path):
    out, g = write(tmp_path, [win(0, [])], LOG)
    rc, text = run("check", out, g, "calib")
    assert rc == 1 and text.startswith("fail cache-clock:calib ")


def test_help():
    rc, text = run("--help")
    assert rc == 0 and "check OUT.jsonl" in text
