"""The topic map submit/topics against the series in patches/, and the
per-topic cover letters (submit/submission.py). Needs neither b4 nor a
network: only the files of the repository."""
import importlib.util
import json
import pathlib
import re
import pytest

TOP = pathlib.Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("submission", TOP / "submit" / "submission.py")
sub = importlib.util.module_from_spec(spec)
spec.loader.exec_module(sub)

TOPICS = sub.parse_topics()
SERIES = sub.series()


def test_series_is_there():
    assert SERIES, "no patches in patches/"
    assert sorted(SERIES) == list(range(1, len(SERIES) + 1)), "patches/ numbers have a gap"


def test_every_patch_in_exactly_one_topic():
    seen = [n for t in TOPICS for n in t["patches"]]
    assert sorted(seen) == sorted(SERIES), "the topics' union is not the series"
    assert len(seen) == len(set(seen)), "a patch is in more than one topic"


def test_subjects_match_patches():
    for t in TOPICS:
        for n in t["patches"]:
            assert t["subjects"][n] == SERIES[n][1], (t["name"], n)


def test_order_within_topic():
    for t in TOPICS:
        assert t["patches"] == sorted(t["patches"]), t["name"]


def test_dependencies_exist_and_have_no_cycle():
    names = {t["name"] for t in TOPICS}
    assert len(names) == len(TOPICS), "a topic name is used twice"
    for t in TOPICS:
        for dep, why in t["depends"]:
            assert dep in names and dep != t["name"], (t["name"], dep)
            assert why
        sub.deps_of(TOPICS, t["name"])  # raises MapError on a cycle


def test_checker_is_clean_on_the_repository():
    assert sub.check(TOPICS, SERIES) == []


def test_checker_finds_broken_maps(tmp_path):
    (tmp_path / "0001-a.patch").write_text("Subject: [PATCH 1/3] a: one\n\n")
    (tmp_path / "0002-b.patch").write_text("Subject: [PATCH 2/3] b: two which is\n long\n\n")
    (tmp_path / "0003-c.patch").write_text("Subject: [PATCH 3/3] c: three\n\n")
    ser = sub.series(tmp_path)
    assert ser[2][1] == "b: two which is long"

    def errors(text):
        m = tmp_path / "topics"
        m.write_text(text)
        return sub.check(sub.parse_topics(m), ser)

    good = ("topic x\ntree T\ndepends -\npatch 1 a: one\npatch 3 c: three\n"
            "topic y\ntree U\ndepends x: needs it\npatch 2 b: two which is long\n")
    assert errors(good) == []
    assert any("patch 2" in e and "no topic" in e for e in errors(good.replace(
        "patch 2 b: two which is long\n", "patch 3 c: three\n")))
    assert any("in topics x and y" in e for e in errors(good.replace(
        "patch 2 b: two which is long\n", "patch 2 b: two which is long\npatch 3 c: three\n")))
    assert any("not 'b: two'" in e for e in errors(good.replace("b: two which is long", "b: two")))
    assert any("series order" in e for e in errors(good.replace(
        "patch 1 a: one\npatch 3 c: three\n", "patch 3 c: three\npatch 1 a: one\n")))
    assert any("unknown topic 'z'" in e for e in errors(good.replace("depends x:", "depends z:")))
    assert any("cycle" in e for e in errors(good.replace(
        "tree T\ndepends -", "tree T\ndepends y: loop")))


def test_every_cover_states_config_clock_emulation_base_and_merge_order():
    """issue 48: every cover says what the measured kernels were, the clock, that
    the numbers are instructions under emulation and what they cannot show,
    the base, and the merge order"""
    meta, rows = sub.load_bench()
    for t in TOPICS:
        text, used = sub.cover(TOPICS, t["name"], SERIES, meta, rows)
        assert used == [], t["name"]  # no row of summary.json: it is not this part against its parent
        assert not any(line.startswith("#") for line in text.splitlines())
        flat = " ".join(text.split())
        assert "The measured kernels: x86_64, allnoconfig plus SMP with NR_CPUS=512" in flat, t["name"]
        assert " ".join(sub.CLOCK.split()) in flat, t["name"]
        assert "instructions under emulation" in flat and "cannot show" in flat, t["name"]
        assert "Based on v7.3-rc7." in flat, t["name"]
        assert re.search(r"\bmerge(?:d|s)?\b[^.]*\b(?:after|before|any order)\b", flat), t["name"]
        for dep, _why in t["depends"]:
            assert "prerequisite-patch-id" in flat and dep in flat
            assert re.search(rf"Merge this part after [^.]*\b{re.escape(dep)}\b", flat), t["name"]
        # {p:N} was replaced by the topic's own numbering
        assert "{p:" not in text
        assert re.search(r"parts of a \d+-patch series", flat)
        # nothing of the harness, its runs or its history
        for bad in ("whole series", "not only this part", "later run", "harness",
                    "summary.json", "meta.json", "bench/", "tcg-possible-cpus"):
            assert bad not in flat, (t["name"], bad)


def test_merge_order_follows_the_depends_lines():
    topics = sub.parse_topics(sub.TOPICS)
    assert sub.merge_order(topics, "psi-read").startswith("Merge this part after psi-trims.")
    assert sub.merge_order(topics, "psi-trims").startswith(
        "This part merges before psi-read and psi-mirror")
    assert sub.merge_order(topics, "block").startswith("This part can be merged on its own")
    assert ("psi-mirror merges after psi-trims, psi-read and cgroup-selftests"
            in sub.merge_order(topics, "block"))


def test_bench_rows_are_refused_in_a_cover(tmp_path, monkeypatch):
    """summary.json compares the base with the series, not a part with its parent"""
    monkeypatch.setattr(sub, "COVERS", tmp_path)
    name = TOPICS[0]["name"]
    (tmp_path / f"{name}.txt").write_text("subject\n\n@method\n@bench psi .\n")
    meta, rows = sub.load_bench()
    try:
        sub.cover(TOPICS, name, SERIES, meta, rows)
    except sub.MapError as e:
        assert "not this part with its own parent" in str(e)
    else:
        raise AssertionError("@bench was accepted")


def test_steps_must_be_the_topic_s_own_patches(tmp_path, monkeypatch):
    monkeypatch.setattr(sub, "COVERS", tmp_path)
    meta, rows = sub.load_bench()
    other = next(t for t in TOPICS if t["name"] == "psi-read")
    (tmp_path / "psi-read.txt").write_text("subject\n\n@method\n@steps psi-steps.json\n")
    try:
        sub.cover(TOPICS, "psi-read", SERIES, meta, rows)
    except sub.MapError as e:
        assert "not topic psi-read's patches" in str(e)
    else:
        raise AssertionError(f"@steps of other patches accepted for {other['name']}")


def test_census_is_a_marked_placeholder(tmp_path, monkeypatch):
    """a cover's "@census" line (data still to come) renders as a marked placeholder"""
    monkeypatch.setattr(sub, "COVERS", tmp_path)
    (tmp_path / "psi-mirror.txt").write_text("subject\n\nThe premise:\n\n@census\n\n@method\n")
    meta, rows = sub.load_bench()
    text, _ = sub.cover(TOPICS, "psi-mirror", SERIES, meta, rows)
    assert "[@census PLACEHOLDER, not for sending:" in text


def test_psi_mirror_cover_has_its_census():
    """the psi-mirror cover states the measured premise, not a placeholder"""
    meta, rows = sub.load_bench()
    text, _ = sub.cover(TOPICS, "psi-mirror", SERIES, meta, rows)
    assert "PLACEHOLDER" not in text and "1.9%" in text


def test_cover_rejects_a_patch_of_another_topic(tmp_path, monkeypatch):
    monkeypatch.setattr(sub, "COVERS", tmp_path)
    name = TOPICS[0]["name"]
    other = next(n for t in TOPICS[1:] for n in t["patches"])
    (tmp_path / f"{name}.txt").write_text(f"subject\n\nsee patch {{p:{other}}}\n")
    meta, rows = sub.load_bench()
    try:
        sub.cover(TOPICS, name, SERIES, meta, rows)
    except sub.MapError as e:
        assert f"patch {other} is not in topic {name}" in str(e)
    else:
        raise AssertionError("a {p:N} outside the topic was accepted")


def test_summary_rows_have_what_covers_use():
    rows = json.loads((sub.BENCH / "summary.json").read_text())
    for r in rows:
        assert {"benchmark", "metric", "unit", "ratio", "significant"} <= set(r)


def test_psi_trims_cover_has_each_patch_s_own_change():
    meta, rows = sub.load_bench()
    text, _used = sub.cover(TOPICS, "psi-trims", SERIES, meta, rows)
    steps = json.loads((sub.BENCH / "psi-steps.json").read_text())
    psi = next(t for t in TOPICS if t["name"] == "psi-trims")
    local = {n: i for i, n in enumerate(psi["patches"], 1)}
    lines = text.splitlines()
    for s in steps[1:]:  # each step's row, under the patch's number in the topic
        n = int(s["step"].split("-")[0])
        row = next(l for l in lines if l.split()[:1] == [str(local[n])] and "(" in l)
        for d, e in s["effect"].items():
            assert f"{s['overhead'][d]['median']:,.0f} ({e['delta']:+,.0f}" in row
    assert "against its parent" in " ".join(text.split())


def test_table_heads_columns_with_the_row_s_kernels():
    s = {"median": 10, "min": 9, "max": 11}
    old = {"benchmark": "psi", "metric": "m", "unit": "insn", "base": s, "patched": s,
           "ratio": 1.0, "significant": False}
    on_off = {"benchmark": "seed-shrinker", "metric": "x", "unit": "insn", "off": s, "on": s,
              "ratio": 1.0, "significant": False, "keys": ["off", "on"]}
    heads = [l.split() for l in sub.table([old, on_off]) if l.strip().startswith("insn")]
    assert heads == [["insn", "base", "series", "ratio"], ["insn", "off", "on", "ratio"]]


def test_map_cc_names_the_people_get_maintainer_misses():
    """issue 48: VFS reviewers for the kernfs RCU walk, Steven Rostedt for
    seq_buf, and the authors of the postings the series redoes"""
    cc = {t["name"]: {a for _n, a, _why in t["cc"]} for t in TOPICS}
    assert {"viro@zeniv.linux.org.uk", "brauner@kernel.org", "linux-fsdevel@vger.kernel.org",
            "raven@themaw.net"} <= cc["kernfs"]
    assert "rostedt@goodmis.org" in cc["memcg"]
    assert "lukabai@tencent.com" in cc["psi-trims"]
    assert "wujianyue000@gmail.com" in cc["memcg"]
    assert "thomas.falcon@intel.com" in cc["cgroup-rstat"]
    topic_of = {n: t["name"] for t in TOPICS for n in t["patches"]}
    assert topic_of[23] == "cgroup-rstat" and {topic_of[n] for n in range(2, 8)} == {"psi-trims"}
    assert {topic_of[n] for n in (31, 32)} == {"kernfs"}


def test_the_split_of_issue_48():
    """psi in three (trims, read side, the mirror as an RFC), cgroup in three (the
    selftests; 19, 21, 29; 23 alone as an RFC), seq_buf with memcg, 15 first; psi
    does not depend on checkpatch"""
    by = {t["name"]: t for t in TOPICS}
    assert by["psi-trims"]["patches"] == list(range(2, 11)) and not by["psi-trims"]["depends"]
    assert by["psi-read"]["patches"] == [24, 26, 28]
    assert by["psi-mirror"]["patches"] == [33, 34, 35, 36, 38] and by["psi-mirror"]["prefix"] == ["RFC"]
    assert by["cgroup-selftests"]["patches"] == [11, 12, 13, 14, 22, 25, 27, 37, 41, 42]
    assert by["kernfs"]["patches"] == [30, 31, 32, 39, 40]
    assert by["cgroup"]["patches"] == [19, 21, 29]
    assert by["cgroup-rstat"]["patches"] == [23] and by["cgroup-rstat"]["prefix"] == ["RFC"]
    assert by["memcg"]["patches"] == [15, 16, 17, 18]
    assert by["checkpatch"]["checker"]
    assert not any(d == "checkpatch" for t in TOPICS for d, _w in t["depends"])
    for t in TOPICS:
        for name, addr, why in t["cc"]:
            assert why and not sub.reserved(addr), (t["name"], addr)


def test_map_cc_lines_are_checked(tmp_path):
    m = tmp_path / "topics"
    base = "topic x\ntree T\ndepends -\npatch 1 a: one\n"
    m.write_text(base + "cc Al Viro <viro@zeniv.linux.org.uk> VFS\ncc linux-fsdevel@vger.kernel.org list\n")
    assert sub.parse_topics(m)[0]["cc"] == [("Al Viro", "viro@zeniv.linux.org.uk", "VFS"),
                                            ("", "linux-fsdevel@vger.kernel.org", "list")]
    for bad, why in (("cc Al Viro <viro@zeniv.linux.org.uk>", "want 'cc NAME <ADDR> WHY'"),
                     ("cc Someone <someone@foo.example> guessed", "reserved domain"),
                     ("cc Someone <someone> why", "not a mail address"),
                     ("cc A <a@kernel.org> x\ncc B <A@kernel.org> y", "twice")):
        m.write_text(base + bad + "\n")
        try:
            sub.parse_topics(m)
        except sub.MapError as e:
            assert why in str(e), (bad, str(e))
        else:
            raise AssertionError(f"accepted {bad!r}")


def test_submission_py_help_and_unknown_option():
    import subprocess
    import sys
    script = TOP / "submit" / "submission.py"
    p = subprocess.run([sys.executable, script, "--help"], capture_output=True, text=True)
    assert p.returncode == 0 and "usage:" in p.stdout
    p = subprocess.run([sys.executable, script, "--bogus"], capture_output=True, text=True)
    assert p.returncode == 2 and "usage:" in p.stderr and not p.stdout


def test_nokeywords_lines(tmp_path):
    """issue 48: get_maintainer.pl's keyword hits are trimmed per topic, with a reason"""
    m = tmp_path / "topics"
    base = "topic x\ntree T\ndepends -\npatch 1 a: one\n"
    m.write_text(base)
    assert sub.parse_topics(m)[0]["nokeywords"] is None
    m.write_text(base + "nokeywords the llvm hit is a word in a changelog\n")
    assert sub.parse_topics(m)[0]["nokeywords"] == "the llvm hit is a word in a changelog"
    m.write_text(base + "nokeywords\n")
    with pytest.raises(sub.MapError, match="nokeywords WHY"):
        sub.parse_topics(m)
    by = {t["name"]: t for t in TOPICS}
    assert "clang" in by["psi-trims"]["nokeywords"]
    # the other topics keep their keyword hits (bpf@ for rstat is real)
    assert [t["name"] for t in TOPICS if t["nokeywords"]] == ["psi-trims"]
