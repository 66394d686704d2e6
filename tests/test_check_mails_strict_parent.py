"""submit/check-mails.py's strict-parent checks on small synthetic mails:
each (one-boot, separate-boots, parent-named, cover-ref, base-parent) fails
a mail with the old wording of numbers that are not this patch against its
parent in its own posting (docs/submission.md, "Numbers against their own
parent"), also wrapped across lines, and passes a clean one; they run by
default, and not with --no-strict-parent. Host-only: no b4, no kernel tree."""
import importlib.util
import pathlib
import subprocess
import sys

import pytest

TOP = pathlib.Path(__file__).resolve().parent.parent
SCRIPT = TOP / "submit" / "check-mails.py"
spec = importlib.util.spec_from_file_location("check_mails", SCRIPT)
cm = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cm)

SENDER = "Jane Doe <jane@kernel.org>"
STRICT = {"one-boot", "separate-boots", "parent-named", "cover-ref", "base-parent"}
CLOCK = ("Measured as guest instructions under QEMU TCG with -icount shift=0,sleep=off,\n"
         "x86_64 defconfig with NR_CPUS=512, this patch against its parent in this\n"
         "posting, 5 boots per kernel, booted alternately.")
GOOD = "Make foo cheaper.\n\n" + CLOCK + "\n\n  cpu.stat   7,300 [7,290-7,310]   2,839 [2,830-2,850]\n"
BELOW = ("The cover of this one-patch posting. It merges in any order.\n\n"
         "Based on v7.3-rc7.\n")


def mail(changelog, subject="[PATCH 2/3] foo: make it cheaper", patch=True, below=""):
    """a mail as b4 renders it: the changelog, its Signed-off-by, the ---, the
    diffstat, what is below the --- (a one-patch topic's cover), the diff"""
    text = (f"From: {SENDER}\nSubject: {subject}\nDate: Fri, 27 Nov 2026 06:47:09 +0000\n"
            "MIME-Version: 1.0\nContent-Type: text/plain; charset=\"utf-8\"\n"
            "Content-Transfer-Encoding: 7bit\n\n" + changelog.rstrip("\n") + "\n")
    if patch:
        text += (f"\nSigned-off-by: {SENDER}\n---\n foo.c | 2 +-\n 1 file changed, 1 insertion(+), "
                 "1 deletion(-)\n\n" + below + "\ndiff --git a/foo.c b/foo.c\n--- a/foo.c\n"
                 "+++ b/foo.c\n@@ -1 +1 @@\n-int foo;\n"
                 "+int foo = 1; /* one boot per kernel, see the cover letter */\n")
    text += "\n---\nchange-id: 20261127-foo-1234\n\nBest regards,\n-- \n" + SENDER + "\n"
    return text


def results(text, alone=False, strict=True, topic="foo", prereq=False):
    msg = cm.email.message_from_string(text, policy=cm.email.policy.default)
    return dict(cm.check_mail(msg, msg.get_content(), alone, strict, topic, prereq))


def test_a_clean_patch_passes_the_strict_checks():
    r = results(mail(GOOD))
    assert {k: v for k, v in r.items() if k in STRICT} == {
        "one-boot": None, "separate-boots": None, "parent-named": None, "base-parent": None}
    assert not any(r.values()), r
    # cover-ref applies to the mails of a topic without a cover letter only
    r = results(mail(GOOD, subject="[PATCH] foo: make it cheaper", below=BELOW), alone=True)
    assert r["cover-ref"] is None and not any(r.values()), r


def test_the_strict_checks_are_on_by_default_and_can_be_skipped():
    bad = mail(GOOD + "\nOne boot per kernel, booted separately, v7.3-rc7 with this patch and\n"
               "the parts of this work before it (see the cover letter).\n")
    for alone in (False, True):
        r = results(bad, alone=alone, strict=False)
        assert not STRICT & set(r), r
    msg = cm.email.message_from_string(bad, policy=cm.email.policy.default)
    r = dict(cm.check_mail(msg, msg.get_content(), True))
    assert r["one-boot"] and r["separate-boots"] and r["parent-named"] and r["cover-ref"], r


@pytest.mark.parametrize("check, bad", [
    ("one-boot", "Medians of one boot per kernel."),
    ("one-boot", "Medians of one boot\nper kernel."),
    ("one-boot", "The two kernels, One Boot Per\nKernel, alternately."),
    ("one-boot", "Numbers from a single\nboot of each kernel."),
    ("separate-boots", "The two kernels were booted at different times, so the rows differ."),
    ("separate-boots", "The two kernels were booted at\ndifferent times."),
    ("separate-boots", "It was booted\nseparately from the other two rows."),
    ("parent-named", "Against v7.3-rc7 with this patch and the parts of this work before it."),
    ("parent-named", "Against v7.3-rc7 with this patch and other parts of\nthis work applied."),
    ("parent-named", "on v7.3-rc7 with the other patches of this work\napplied."),
    ("parent-named", "  v7.3-rc7 with all of this work            43,330 [43,288-43,735]"),
    ("parent-named", "Against v7.3-rc7\nwith one two three four five six seven eight nine ten eleven\n"
                     "twelve this work."),  # 12 words between: still the old wording
    ("base-parent", "Against v7.3-rc7 (5 boots each), a pair costs 82,378."),
    ("base-parent", "Median of 5 boots per kernel, booted alternately,\nv7.3-rc7 (\"base\") against "
                    "v7.3-rc7 plus this patch."),
    ("base-parent", "The cost, measured against\nv7.3-rc7: 3,628 instructions."),
    ("base-parent", "Booted alternately, v7.3-rc7 against the kernel with this patch."),
])
def test_each_strict_pattern_fails_its_check(check, bad):
    r = results(mail(GOOD + "\n" + bad + "\n"))
    assert r[check] is not None, (check, bad)
    others = {k: v for k, v in r.items() if k != check and v}
    assert not others, others


def test_one_boot_each_fails_one_boot_and_history():
    r = results(mail(GOOD + "\nMeasured as in the other patch, one boot each.\n"))
    assert r["one-boot"] and '"one boot each"' in r["one-boot"]
    assert r["history"]  # the older pattern of the same words


@pytest.mark.parametrize("fine", [
    "Five boots per kernel, booted alternately, medians.",
    "It reads a single boot-time parameter.",
    "Add a single boot parameter, psi=, for it.",
    "Each CPU needs one boot of the loop at most.",
    "Booted alternately: the kernels took turns.",
    "Against v7.3-rc7 with the psi trims applied, the parent of this patch.",
    "Against v7.3-rc7 with one two three four five six seven eight nine ten eleven twelve\n"
    "thirteen this work.",  # more than 12 words between: not one phrase
    "v7.3-rc7 with this workqueue change.",
    "It does not see the cover of the book.",
    "Against v7.3-rc7 plus the psi trims, which is this patch's parent.",
    "Under TCG, v7.3 does not count QEMU's absent CPUs as hotpluggable.",
    "It guards against v7.3's own fallback.",
])
def test_correct_wording_passes_the_strict_checks(fine):
    r = results(mail(GOOD + "\n" + fine + "\n"))
    assert not any(r.values()), r


def test_base_parent_applies_where_the_parent_is_not_the_bare_base():
    text = GOOD + "\nAgainst v7.3-rc7 (5 boots each), a pair costs 82,378.\n"
    # patch 2 of a posting: its parent is patch 1
    r = results(mail(text))
    assert r["base-parent"] and '"Against v7.3-rc7"' in r["base-parent"]
    assert "'p1=topic:foo:1 p2=topic:foo:2'" in r["base-parent"]
    # patch 1 of a posting that depends on no other: its parent is the base
    first = mail(text, subject="[PATCH 1/3] foo: a")
    assert "base-parent" not in results(first) and not any(results(first).values())
    one = mail(text, subject="[PATCH] foo: a", below=BELOW)
    assert "base-parent" not in results(one, alone=True)
    # ... but of a posting that depends on others, its parent is theirs
    assert results(first, prereq=True)["base-parent"]
    assert results(one, alone=True, prereq=True)["base-parent"]
    # a cover may set the posting against the base
    cover = mail(text + "Merge it in any order.\n", subject="[PATCH 0/3] foo", patch=False)
    assert "base-parent" not in results(cover, prereq=True)
    assert not any(results(cover, prereq=True).values())


def test_cover_ref_fails_a_mail_of_a_topic_without_a_cover_letter():
    bad = mail(GOOD + "\nThe parent is the series (see the cover\nletter).\n",
               subject="[PATCH] foo: make it cheaper", below=BELOW)
    r = results(bad, alone=True)
    assert r["cover-ref"] and '"see the cover letter"' in r["cover-ref"]
    assert "no cover letter" in r["cover-ref"]
    assert "bench/bench.sh --kernels 'p0=topic:foo:0 p1=topic:foo:1'" in r["cover-ref"]
    others = {k: v for k, v in r.items() if k != "cover-ref" and v}
    assert not others, others
    # also in the cover text below the ---: there is no cover letter to see
    r = results(mail(GOOD, subject="[PATCH] foo", below=BELOW + "\nSee the cover letter.\n"),
                alone=True)
    assert r["cover-ref"]
    # a topic with a cover letter may point at it
    r = results(mail(GOOD + "\nThe config (see the cover letter) is below.\n"))
    assert "cover-ref" not in r and not any(r.values()), r


def test_the_changelog_is_the_prose_before_the_dashes():
    # the diff (mail() writes the old wording into it) and the text below
    # the --- are not the changelog; the 0/N cover's text is
    r = results(mail(GOOD, below="Numbers of one boot per kernel, booted separately.\n"))
    assert not any(r.values()), r
    cover = mail(GOOD + "\nThe rows are v7.3-rc7 with all of this work.\nMerge in any order.\n",
                 subject="[PATCH 0/3] foo: cheaper", patch=False)
    r = results(cover)
    assert r["parent-named"] and "each patch K (J = K-1)" in r["parent-named"]
    assert "'pJ=topic:foo:J pK=topic:foo:K'" in r["parent-named"]


def test_the_reason_names_the_phrase_and_what_to_run():
    r = results(mail(GOOD + "\nAgainst v7.3-rc7 with this patch and the parts of\n"
                     "this work before it, one boot per kernel.\n",
                     subject="[NOT FOR SENDING][PATCH RFC 3/4] foo: x"), topic="memcg")
    want = ("bench/bench.sh --kernels 'p2=topic:memcg:2 p3=topic:memcg:3' "
            '(docs/submission.md, "Numbers against their own parent")')
    assert '"v7.3-rc7 with this patch and the parts of this work"' in r["parent-named"]
    assert '"one boot per kernel"' in r["one-boot"]
    for check in ("parent-named", "one-boot"):
        assert r[check].startswith("body line ") and r[check].endswith(want), r[check]
        assert "measure this patch against its parent in its own posting" in r[check]


def test_strict_patterns_are_one_commented_list():
    assert {c for c, _rx, _f, _what in cm.STRICT_PARENT} == STRICT == set(cm.STRICT_CHECKS)
    for _c, rx, flags, what in cm.STRICT_PARENT:
        cm.re.compile(rx, flags)
        assert what


def run(*args):
    return subprocess.run([sys.executable, str(SCRIPT), *map(str, args)],
                          capture_output=True, text=True)


def test_command_runs_the_strict_checks_unless_told_not_to(tmp_path):
    many, one, dep = tmp_path / "many", tmp_path / "one", tmp_path / "dep"
    many.mkdir()
    one.mkdir()
    (many / "0000-cover.eml").write_text(
        mail("foo: cheaper\n\n" + CLOCK + "\nMerge it in any order.\n",
             subject="[PATCH 0/2] foo: cheaper", patch=False))
    (many / "0001-foo.eml").write_text(mail(GOOD, subject="[PATCH 1/2] foo: a"))
    (many / "0002-foo.eml").write_text(
        mail(GOOD + "\nThe two kernels were booted at\ndifferent times.\n",
             subject="[PATCH 2/2] foo: b"))
    (one / "0001-bar.eml").write_text(
        mail(GOOD + "\nAgainst the series (see the cover letter).\n",
             subject="[PATCH] bar: c", below=BELOW))

    p = run("--no-strict-parent", tmp_path)
    assert p.returncode == 0, p.stdout
    assert not any(f":{c}" in p.stdout for c in STRICT), p.stdout

    p = run(tmp_path)
    assert p.returncode == 1, p.stdout
    lines = p.stdout.splitlines()
    assert all(l.startswith(("pass mails:", "fail mails:")) for l in lines)
    fails = [l for l in lines if l.startswith("fail ")]
    assert len(fails) == 2, fails
    assert ("fail mails:many/0002-foo.eml:separate-boots(body line 9: \"booted at different "
            "times\": kernels booted apart, not alternately in one run; measure this patch "
            "against its parent in its own posting, with bench/bench.sh --kernels "
            "'p1=topic:many:1 p2=topic:many:2' (docs/submission.md, \"Numbers against their "
            "own parent\"))") in lines
    assert any(l.startswith("fail mails:one/0001-bar.eml:cover-ref(body line 9: "
                            "\"see the cover letter\"") and "'p0=topic:one:0 p1=topic:one:1'" in l
               for l in lines), lines
    for c in ("one-boot", "separate-boots", "parent-named"):
        assert f"pass mails:many/0000-cover.eml:{c}" in lines
        assert f"pass mails:many/0001-foo.eml:{c}" in lines
    assert "pass mails:one/0001-bar.eml:one-boot" in lines
    # cover-ref: a line for the mail of the topic without a cover letter only
    assert [l.split("(")[0] for l in lines if ":cover-ref" in l] == [
        "fail mails:one/0001-bar.eml:cover-ref"]
    # base-parent: patch 2 of a posting; patch 1 sits on the base
    assert "pass mails:many/0002-foo.eml:base-parent" in lines
    assert not [l for l in lines if l.startswith(("pass mails:many/0001", "pass mails:one/"))
                and ":base-parent" in l]
    # the other checks are the same with and without the strict ones
    lenient = run("--no-strict-parent", tmp_path).stdout.splitlines()
    check = lambda l: cm.re.match(r"(?:pass|fail) mails:[^:]+:([\w-]+)", l).group(1)
    assert [l for l in lines if check(l) not in STRICT] == lenient

    # a posting that depends on others (its cover names prerequisite patches):
    # its first patch's parent is not the bare base either
    dep.mkdir()
    (dep / "0000-cover.eml").write_text(
        mail("dep: cheaper\n\n" + CLOCK + "\nMerge it after foo.\n",
             subject="[PATCH 0/2] dep: cheaper", patch=False)
        + "prerequisite-patch-id: 0123456789abcdef0123456789abcdef01234567\n")
    (dep / "0001-dep.eml").write_text(
        mail(GOOD + "\nv7.3-rc7 against v7.3-rc7 with this patch.\n", subject="[PATCH 1/2] dep: a"))
    (dep / "0002-dep.eml").write_text(mail(GOOD, subject="[PATCH 2/2] dep: b"))
    lines = run(dep).stdout.splitlines()
    assert [l.split("(")[0] for l in lines if l.startswith("fail ")] == [
        "fail mails:dep/0001-dep.eml:base-parent"], lines
    assert "pass mails:dep/0002-dep.eml:base-parent" in lines


def test_help_names_the_flag_that_skips_the_strict_checks():
    p = run("--help")
    assert p.returncode == 0
    text = " ".join(p.stdout.split())
    assert "--no-strict-parent" in text and "base-parent" in text
