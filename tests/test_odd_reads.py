"""Tests for checks/guest/odd-reads.py: a stable file passes byte for byte,
a reader that doubles, drops or garbles bytes in one of the odd ways fails,
and a file whose values keep changing is compared by shape and says so."""
import importlib.util
import pathlib

TOP = pathlib.Path(__file__).resolve().parent.parent
SCRIPT = TOP / "checks" / "guest" / "odd-reads.py"

spec = importlib.util.spec_from_file_location("odd_reads", SCRIPT)
odd_reads = importlib.util.module_from_spec(spec)
spec.loader.exec_module(odd_reads)

STAT = b"".join(b"key_%03d %d\n" % (i, i * 4096) for i in range(600))  # > 4 KiB


def stat_file(tmp_path):
    p = tmp_path / "memory.stat"
    p.write_bytes(STAT)
    return str(p)


def test_stable_file_passes_exact(tmp_path):
    assert len(STAT) > 8192
    assert odd_reads.check_file(stat_file(tmp_path)) == (True, "exact")


def test_doubled_line_in_chunked_read_fails(tmp_path, monkeypatch):
    real = odd_reads.read_chunked

    def doubling(path, n):
        b = real(path, n)
        if n == 511:  # a restart that repeats the line it was in
            i = b.index(b"\n", 4096) + 1
            j = b.index(b"\n", i) + 1
            b = b[:j] + b[i:j] + b[j:]
        return b

    monkeypatch.setattr(odd_reads, "read_chunked", doubling)
    ok, how = odd_reads.check_file(stat_file(tmp_path))
    assert not ok and how.startswith("chunk-511: byte ")


def test_trailing_garbage_fails(tmp_path, monkeypatch):
    real = odd_reads.read_chunked
    monkeypatch.setattr(odd_reads, "read_chunked",
                        lambda path, n: real(path, n) + (b"\0\x7f" if n == 4096 else b""))
    ok, how = odd_reads.check_file(stat_file(tmp_path))
    assert not ok and how.startswith("chunk-4096: ")


def test_wrong_pread_fails(tmp_path, monkeypatch):
    real = odd_reads.os.pread
    monkeypatch.setattr(odd_reads.os, "pread",
                        lambda fd, n, off: real(fd, n, off + 1) if off == 4097 else real(fd, n, off))
    ok, how = odd_reads.check_file(stat_file(tmp_path))
    assert not ok and how.startswith("pread: ")


def test_wrong_seek_fails(tmp_path, monkeypatch):
    real = odd_reads.os.lseek
    monkeypatch.setattr(odd_reads.os, "lseek",
                        lambda fd, off, how: real(fd, off + 2 if how == odd_reads.os.SEEK_CUR else off, how))
    ok, how = odd_reads.check_file(stat_file(tmp_path))
    assert not ok and how.startswith("lseek: ")


def test_changing_file_is_compared_by_shape(tmp_path, monkeypatch):
    count = [0]

    def moving(path):
        count[0] += 1
        return b"usage_usec %d\nuser_usec 5\n" % (1000 + count[0])

    monkeypatch.setattr(odd_reads, "read_whole", moving)
    monkeypatch.setattr(odd_reads, "read_chunked", lambda path, n: moving(path))
    assert odd_reads.check_file(stat_file(tmp_path)) == (True, "shape")

    monkeypatch.setattr(odd_reads, "read_chunked", lambda path, n: moving(path) * 2)
    ok, how = odd_reads.check_file(stat_file(tmp_path))
    assert not ok and "(shape)" in how


def test_main_prints_result_lines(tmp_path, capsys):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "cpu.stat").write_bytes(b"usage_usec 1\n")
    (tmp_path / "cpu.stat").write_bytes(b"usage_usec 2\n")
    rc = odd_reads.main(["odd-reads.py", str(tmp_path), "root", "a", "--", "cpu.stat", "io.stat"])
    assert rc == 0
    assert capsys.readouterr().out.splitlines() == [
        "pass odd-reads:root/cpu.stat(exact)",
        "pass odd-reads:a/cpu.stat(exact)",
    ]
