"""Tests for bench/bin/profile-insns.py: trace lines of QEMU's "-d exec" map to
the vmlinux functions that hold their pc (via nm), and diff divides the
difference of two profiles by the rounds."""
import importlib.util
import json
import pathlib

TOP = pathlib.Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("profile_insns", TOP / "bench" / "bin" / "profile-insns.py")
pi = importlib.util.module_from_spec(spec)
spec.loader.exec_module(pi)


def test_count_maps_pcs_to_functions(tmp_path, monkeypatch):
    monkeypatch.setattr(pi, "symbols", lambda v: ([0xffffffff81000000, 0xffffffff81000100],
                                                   ["psi_a", "psi_b"]))
    log = tmp_path / "exec.log"
    log.write_text(
        "Trace 0: 0x7f00 [0000000000000000/ffffffff81000000/0000c2b0/ff020201] \n"
        "Trace 0: 0x7f01 [0000000000000000/ffffffff81000004/0000c2b0/ff020201] \n"
        "Trace 1: 0x7f02 [0000000000000000/ffffffff81000104/0000c2b0/ff020201] psi_b\n"
        "IN: not a trace line\n"
        "Trace 0: 0x7f00 [0000000000000000/ffffffff81000000/0000c2b0/ff020201] \n")
    pcs = tmp_path / "pcs.json"
    assert pi.count("vmlinux", log, pcs) == {"psi_a": 3, "psi_b": 1}
    assert json.loads(pcs.read_text()) == {"ffffffff81000000": 2, "ffffffff81000004": 1,
                                           "ffffffff81000104": 1}


def test_diff_per_round(capsys):
    pi.diff({"psi_a": 100, "psi_b": 50}, {"psi_a": 300, "psi_b": 50, "psi_c": 40}, 20)
    out = capsys.readouterr().out.splitlines()
    assert out[1].split() == ["psi_a", "10.0"]
    assert out[2].split() == ["psi_c", "2.0"]
    assert out[-1].split() == ["total", "12.0"]


def test_count_between_marks(tmp_path, monkeypatch):
    monkeypatch.setattr(pi, "symbols", lambda v: ([0x1000, 0x2000, 0x3000],
                                                   ["boot_fn", "psi_show", "psi_x"]))
    lines = ["1000", "3000", "2000", "2004", "3000", "3004", "1000", "2000", "3000", "1000"]
    log = tmp_path / "exec.log"
    log.write_text("".join(f"Trace 0: 0x7f00 [0000000000000000/{pc}/0/0] \n" for pc in lines))
    # from the first psi_show instruction to the last one: boot_fn once,
    # psi_x twice, psi_show three times
    assert pi.count("vmlinux", log, between="psi_show") == {"psi_show": 3, "psi_x": 2, "boot_fn": 1}
