"""bench/bin/bench-kernels.py: a benchmark's two to four kernels
(bench/NAME/kernels), the default without the file, and clear errors for bad
files."""
import importlib.util
import pathlib
import re
import subprocess
import sys

import pytest

TOP = pathlib.Path(__file__).resolve().parent.parent
SCRIPT = TOP / "bench" / "bin" / "bench-kernels.py"
spec = importlib.util.spec_from_file_location("bench_kernels", SCRIPT)
bk = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bk)


def tree(tmp, files):
    """a fake top: bench/NAME/kernels files and bench/ablations/*.diff"""
    for path, text in files.items():
        p = tmp / path
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    return tmp


def test_good_file_and_default(tmp_path):
    top = tree(tmp_path, {"bench/seed/kernels": "# on: the bitmap\noff=ablation:shrinker-loop on=base\n",
                          "bench/ablations/shrinker-loop.diff": "--- a/x\n",
                          "bench/psi/guest.sh": ""})
    assert bk.pair_of("seed", top) == [("off", "ablation:shrinker-loop"), ("on", "base")]
    assert bk.pair_of("psi", top) == [("base", "base"), ("patched", "patched")]
    assert bk.kernel_name("ablation:shrinker-loop") == "ablation-shrinker-loop"
    assert bk.line(bk.pair_of("seed", top)) == "off=ablation:shrinker-loop on=base"


def test_wip_kernel(tmp_path, capsys):
    top = tree(tmp_path, {"bench/psi/kernels": "series=patched mirror=wip:psi-mirror\n",
                          "wip/psi-mirror/0001-x.patch": "diff --git a/x b/x\n"})
    assert bk.pair_of("psi", top) == [("series", "patched"), ("mirror", "wip:psi-mirror")]
    assert bk.main(["bench-kernels.py", "pairs", "psi"], top=top) == 0
    assert capsys.readouterr().out.split() == [
        "psi", "series", "patched", "mirror", "wip-psi-mirror",
        "series=patched", "mirror=wip:psi-mirror"]


def test_pairs_command(tmp_path, capsys):
    top = tree(tmp_path, {"bench/seed/kernels": "off=ablation:shrinker-loop on=base\n",
                          "bench/ablations/shrinker-loop.diff": "--- a/x\n"})
    assert bk.main(["bench-kernels.py", "pairs", "psi", "seed"], top=top) == 0
    assert capsys.readouterr().out.splitlines() == [
        "psi base base patched patched base=base patched=patched",
        "seed off ablation-shrinker-loop on base off=ablation:shrinker-loop on=base"]


def test_the_repository_s_benchmarks_parse():
    # every bench/*/kernels of the repository, through the command bench.sh runs
    benches = sorted(p.parent.name for p in (TOP / "bench").glob("*/guest.sh"))
    p = subprocess.run([sys.executable, str(SCRIPT), "pairs", *benches],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert len(p.stdout.splitlines()) == len(benches)


@pytest.mark.parametrize("text, message", [
    ("", "want one line"),
    ("a=base b=patched\nc=base d=patched\n", "found 2 lines"),
    ("off=base\n", "want two to four words KEY=SPEC (reference first), found 1"),
    ("a=base b=patched c=series:1 d=series:2 e=series:3\n", "found 5"),
    ("a=base b=patched c=base\n", "two keys name the same kernel ('base')"),
    ("a=base b=patched a=ablation:x\n", "two keys are the same ('a')"),
    ("off=base on\n", "'on' is not KEY=SPEC"),
    ("Off=base on=patched\n", "key 'Off' does not match [a-z][a-z0-9_]*"),
    ("1x=base on=patched\n", "key '1x' does not match"),
    ("on-x=base on=patched\n", "key 'on-x' does not match"),
    ("ratio=base on=patched\n", "key 'ratio' is reserved"),
    ("on=base on=patched\n", "the two keys are the same"),
    ("a=base b=base\n", "both keys name the same kernel"),
    ("a=base b=mainline\n", "unknown kernel 'mainline'"),
    ("a=base b=ablation:\n", "unknown kernel 'ablation:'"),
    ("a=base b=ablation:../x\n", "unknown kernel 'ablation:../x'"),
    ("a=base b=ablation:nosuch\n", "no ablation diff bench/ablations/nosuch.diff"),
    ("a=patched b=wip:nosuch\n", "no patches in wip/nosuch"),
    ("a=patched b=wip:../x\n", "unknown kernel 'wip:../x'"),
])
def test_bad_files(tmp_path, capsys, text, message):
    top = tree(tmp_path, {"bench/b/kernels": text, "bench/ablations/x.diff": ""})
    with pytest.raises(bk.KernelsError) as e:
        bk.pair_of("b", top)
    assert str(e.value).startswith("bench/b/kernels: ") and message in str(e.value)
    # the command says so on stderr, names the file and fails
    assert bk.main(["bench-kernels.py", "pairs", "b"], top=top) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: bench/b/kernels: ") and message in err


def test_three_kernels_parse(tmp_path):
    patches = {f"patches/{i:04d}-p{i}.patch": "" for i in range(0, 6)}
    top = tree(tmp_path, dict(patches, **{"bench/psi-edges/kernels":
                                          "# v7.3-rc7, patches 1-3, all\n"
                                          "base=base p3=series:3 series=patched\n"}))
    want = [("base", "base"), ("p3", "series:3"), ("series", "patched")]
    assert bk.pair_of("psi-edges", top) == want
    assert bk.line(want) == "base=base p3=series:3 series=patched"
    four = bk.parse("base=base p2=series:2 p3=series:3 series=patched", "x", top)
    assert [k for k, _ in four] == ["base", "p2", "p3", "series"]


def test_pairs_command_for_three_kernels(tmp_path, capsys):
    """BENCH, then KEY KERNEL per kernel, then the line; two-kernel lines as before"""
    patches = {f"patches/{i:04d}-p{i}.patch": "" for i in range(0, 6)}
    top = tree(tmp_path, dict(patches, **{"bench/psi-edges/kernels":
                                          "base=base p3=series:3 series=patched\n"}))
    assert bk.main(["bench-kernels.py", "pairs", "psi-edges", "psi"], top=top) == 0
    assert capsys.readouterr().out.splitlines() == [
        "psi-edges base base p3 series-3 series patched base=base p3=series:3 series=patched",
        "psi base base patched patched base=base patched=patched"]
    assert bk.main(["bench-kernels.py", "pairs", "--kernels",
                    "base=base p3=series:3 p4=series:4 series=patched", "psi"], top=top) == 0
    assert capsys.readouterr().out.split() == [
        "psi", "base", "base", "p3", "series-3", "p4", "series-4", "series", "patched",
        "base=base", "p3=series:3", "p4=series:4", "series=patched"]


def test_five_kernels_refused(tmp_path, capsys):
    patches = {f"patches/{i:04d}-p{i}.patch": "" for i in range(0, 6)}
    top = tree(tmp_path, patches)
    five = "base=base p1=series:1 p2=series:2 p3=series:3 series=patched"
    with pytest.raises(bk.KernelsError) as e:
        bk.parse(five, "--kernels", top)
    assert str(e.value) == (f"--kernels: want two to four words KEY=SPEC (reference first), "
                            f"found 5: {five!r}")
    assert bk.main(["bench-kernels.py", "pairs", "--kernels", five, "psi"], top=top) == 1
    assert "found 5" in capsys.readouterr().err


def boot_order(i, keys):
    """bench/bench.sh's boot_order I KEY..., taken from the script and run alone"""
    text = (TOP / "bench" / "bench.sh").read_text()
    m = re.search(r"^boot_order\(\) \{\n.*?^\}\n", text, re.M | re.S)
    assert m, "no boot_order() in bench/bench.sh"
    assert '"$(boot_order "$i" ' in text  # the boot loop uses it
    p = subprocess.run(["bash", "-c", "set -euo pipefail\n" + m.group(0) + 'boot_order "$@"',
                        "bash", str(i), *keys], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    return p.stdout.split()


def test_bench_sh_rotates_the_boot_order():
    # two kernels: A B, B A, as always
    assert [boot_order(i, ["a", "b"]) for i in (1, 2, 3, 4)] == [
        ["a", "b"], ["b", "a"], ["a", "b"], ["b", "a"]]
    # three: rotated left by one each iteration, so each boots once in each place
    assert [boot_order(i, ["base", "p33", "series"]) for i in (1, 2, 3, 4)] == [
        ["base", "p33", "series"], ["p33", "series", "base"], ["series", "base", "p33"],
        ["base", "p33", "series"]]
    four = [boot_order(i, ["a", "b", "c", "d"]) for i in (1, 2, 3, 4)]
    assert four[1] == ["b", "c", "d", "a"]
    assert all(sorted(place) == ["a", "b", "c", "d"] for place in zip(*four))


def test_usage():
    p = subprocess.run([sys.executable, str(SCRIPT)], capture_output=True, text=True)
    assert p.returncode == 2 and "usage" in p.stderr


def test_series_level_kernels_and_the_kernels_option(tmp_path, capsys):
    patches = {f"patches/{i:04d}-p{i}.patch": "" for i in range(0, 6)}  # 0000 is the cover
    top = tree(tmp_path, dict(patches, **{"bench/psi/guest.sh": ""}))
    assert bk.parse("p3=series:3 p4=series:4", "x", top) == [("p3", "series:3"), ("p4", "series:4")]
    assert bk.kernel_name("series:3") == "series-3"
    assert bk.main(["bench-kernels.py", "pairs", "--kernels", "p3=series:3 all=patched",
                    "psi", "psi"], top=top) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == ["psi p3 series-3 all patched p3=series:3 all=patched"] * 2
    # the whole series is "patched"; 0 and beyond the end are no patch
    for bad in ("series:5", "series:0", "series:9"):
        with pytest.raises(bk.KernelsError) as e:
            bk.parse(f"a={bad} b=patched", "--kernels", top)
        assert "series:N wants N from 1 to 4" in str(e.value) or "unknown kernel" in str(e.value)
    assert bk.main(["bench-kernels.py", "pairs", "--kernels", "a=series:5 b=patched", "psi"],
                   top=top) == 1
    assert "--kernels: series:5: the series has 5 patches" in capsys.readouterr().err


def test_topic_kernels(tmp_path, capsys):
    """topic:NAME:K: a posting of submit/topics on the base, up to its Kth patch"""
    topics = ("topic memcg\ntree mm\ndepends -\npatch 1 a\npatch 2 b\n\n"
              "topic psi-read\ntree sched\ndepends memcg: why\npatch 3 c\n")
    top = tree(tmp_path, {"submit/topics": topics, "bench/psi/guest.sh": ""})
    assert bk.parse("p0=topic:psi-read:0 p1=topic:psi-read:1", "x", top) == [
        ("p0", "topic:psi-read:0"), ("p1", "topic:psi-read:1")]
    assert bk.kernel_name("topic:psi-read:1") == "topic-psi-read.1"
    assert bk.kernel_name("topic:memcg:all") == "topic-memcg.all"
    assert bk.main(["bench-kernels.py", "pairs", "--kernels", "base=base m=topic:memcg:all",
                    "psi"], top=top) == 0
    assert capsys.readouterr().out.splitlines() == [
        "psi base base m topic-memcg.all base=base m=topic:memcg:all"]
    for bad, message in (("topic:memcg:3", "topic memcg has 2 patches; K wants 0 to 2 or 'all'"),
                         ("topic:nope:1", "no topic 'nope' in submit/topics"),
                         ("topic:memcg", "unknown kernel"),
                         ("topic:memcg:01", "unknown kernel")):
        with pytest.raises(bk.KernelsError) as e:
            bk.parse(f"a={bad} b=base", "--kernels", top)
        assert message in str(e.value)


@pytest.mark.skipif(not (TOP / "build" / "linux" / ".git").exists(),
                    reason="needs the work tree build/linux (scripts/make-worktree.sh)")
def test_topic_diff_on_the_work_tree(tmp_path):
    """scripts/topic-diff.sh applies a posting and its dependencies to the base
    commit: block alone touches block/ only; psi-read:0 is the psi trims."""
    script = TOP / "scripts" / "topic-diff.sh"
    out = tmp_path / "block.diff"
    p = subprocess.run([str(script), "block", "all", str(out)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    text = out.read_text()
    files = [l.split()[2][2:] for l in text.splitlines() if l.startswith("diff --git")]
    assert files and all(f.startswith("block/") for f in files)
    assert "(patches: 0020)" in text
    out0 = tmp_path / "psi0.diff"
    p = subprocess.run([str(script), "psi-read", "0", str(out0)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    head = out0.read_text().splitlines()[1]
    assert head == "(patches: 0002 0003 0004 0005 0006 0007 0008 0009 0010)"
    for args, message in ((["block", "2", str(out)], "K must be 0 to 1 or 'all'"),
                          (["nope", "1", str(out)], "no topic 'nope'"),
                          (["block", "x", str(out)], "K must be a number of patches or 'all'")):
        p = subprocess.run([str(script)] + args, capture_output=True, text=True)
        assert p.returncode != 0 and message in p.stderr, p.stderr
