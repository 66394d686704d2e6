"""submit/check-mails.py on small synthetic mails: each check fails a bad
mail and passes a good one. Host-only: no b4, no kernel tree."""
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
PLACEHOLDER = "Seed 0 maintainers <maintainers@users.noreply.seed-0.example>"
CLOCK = ("Measured as guest instructions under QEMU TCG with -icount shift=0,sleep=off, "
         "x86_64 defconfig with NR_CPUS=512, this patch against its parent, 5 boots each.")
TABLE = "  cpu.stat   7,300 [7,290-7,310]   2,839 [2,830-2,850]"
# Run tags and kernel types are put together, so that this file holds none
# (tests/test_run_tags.py).
TAG = "s" + "31"
INTS = ["s" + n for n in ("64", "32", "16")]


def mail(body, subject="[PATCH 2/3] foo: make it cheaper", sender=SENDER, patch=True, sob=None):
    sob = sender if sob is None else sob
    text = (f"From: {sender}\nSubject: {subject}\nDate: Fri, 27 Nov 2026 06:47:09 +0000\n"
            "MIME-Version: 1.0\nContent-Type: text/plain; charset=\"utf-8\"\n"
            "Content-Transfer-Encoding: 7bit\n\n" + body.rstrip("\n") + "\n")
    if patch:
        text += (f"\nSigned-off-by: {sob}\n---\n foo.c | 2 +-\n 1 file changed, 1 insertion(+), "
                 "1 deletion(-)\n\ndiff --git a/foo.c b/foo.c\n--- a/foo.c\n+++ b/foo.c\n"
                 "@@ -1 +1 @@\n-int foo;\n+int foo = 1; /* bench/ bench/bin/profile-open.sh " + TAG + " */\n")
    text += "\n---\nbase-commit: 0123456789abcdef\nchange-id: 20261127-foo-1234\n\nBest regards,\n-- \n"
    text += f"{sender}\n"
    return text


def results(text, alone=False):
    """the checks of this file; the strict-parent ones, on by default, have
    tests/test_check_mails_strict_parent.py"""
    msg = cm.email.message_from_string(text, policy=cm.email.policy.default)
    return dict(cm.check_mail(msg, msg.get_content(), alone, strict=False))


GOOD = "Make foo cheaper.\n\n" + CLOCK + "\n\n" + TABLE + "\n"


def test_a_good_patch_passes_every_check_that_applies():
    r = results(mail(GOOD))
    assert r == {"harness": None, "run-tags": None, "history": None, "own-parent": None,
                 "clock": None, "config": None, "sender": None, "placeholder": None}


def test_the_diff_and_the_footer_are_not_prose():
    # the diff of mail() names bench/, a harness script and a run tag; only prose counts
    assert results(mail("Make foo cheaper."))["harness"] is None


@pytest.mark.parametrize("check, bad", [
    ("harness", "Measured with bench/bin/profile-open.sh, 20,000 operations per mode."),
    ("harness", "Booted with scripts/run-guest.sh under TCG."),
    ("harness", "Cross-checked by checks/heavy/check-crosscheck.sh."),
    ("harness", "Timed on the host (hardware/host-bench.sh)."),
    ("harness", "The rows come from\nbench/latest/summary.json."),
    ("harness", "It was shown to fail with tests/breaks/seq_buf-no-nul.diff."),
    ("harness", "The log is in build/test-runs/latest."),
    ("harness", "The harness-only change tcg-possible-cpus.diff was built into both."),
    ("harness", "Measured with bench psi, 2 vCPUs."),
    ("harness", 'Measured in config "bench" (x86_64, NR_CPUS=512).'),
    ("harness", "Measured on the bench\nconfig, 2 vCPUs."),
    ("harness", "Built with config test."),
    ("run-tags", f"The psi rows come from run {TAG}, made because of a review."),
    ("run-tags", "As measured in ses" + "sion 12."),
    ("history", "Measured with the previous version of this patch, which read the bitmaps."),
    ("history", "The previous patches' row is from an earlier\nrun on the same machine."),
    ("history", "The cost grew with depth in a first version that tested every group."),
    ("history", "An earlier version of this idea was dropped."),
    ("history", "The middle column comes from the previous A/B run."),
    ("history", "Measured as in the previous patch (-icount shift=0, one boot each)."),
    ("history", "The lone rows are from a second boot of this patch."),
    ("own-parent", "Base v7.3-rc7 against the whole series: 7,300 -> 2,839."),
    ("own-parent", "The series (all of it, not only this part) against base."),
    ("config", "Booted alternately, config as in the cover letter."),
])
def test_each_pattern_fails_its_check(check, bad):
    r = results(mail(GOOD + "\n" + bad + "\n"))
    assert r[check] is not None, (check, bad)
    others = {k: v for k, v in r.items() if k != check and v}
    assert not others, others


@pytest.mark.parametrize("fine", [
    "checkpatch.pl is scripts/checkpatch.pl, get_maintainer is scripts/get_maintainer.pl.",
    "The test uses the kselftest harness and kselftest_harness.h.",
    "Add CONFIG_PSI=y to the cgroup selftest config.",
    f"An {INTS[0]} counter, an {INTS[1]} delta and an {INTS[2]} field.",
    "perf bench sched pipe in nested cgroups; tools/perf/bench/ has it.",
    "lib/tests/seq_buf_kunit.c and tools/testing/selftests/cgroup/ test it.",
    "With the previous patch, a walk that finds every component stays in RCU mode.",
])
def test_kernel_words_are_not_harness_words(fine):
    r = results(mail(GOOD + "\n" + fine + "\n"))
    assert not any(r.values()), r


def test_clock_is_needed_where_instructions_are_quoted():
    no_clock = "Make foo cheaper: 7,300 instructions per read before, 2,839 after (x86_64 defconfig)."
    r = results(mail(no_clock))
    assert r["clock"] and "names no clock" in r["clock"]
    assert results(mail(no_clock + " Guest instructions under QEMU TCG."))["clock"] is None
    assert results(mail(no_clock + " Counted with -icount shift=0."))["clock"] is None
    # a before -> after of counts is a quote too, whatever the words around it
    assert results(mail("depth 8: 14,884 -> 14,787 (x86_64 defconfig)"))["clock"]
    # no count, no clock line
    assert "clock" not in results(mail("Make foo cheaper; no numbers here."))


def test_config_is_needed_where_instructions_are_quoted():
    r = results(mail("Under QEMU TCG -icount shift=0: 7,300 instructions before, 2,839 after."))
    assert r["config"] and "states no config" in r["config"]
    assert results(mail(GOOD))["config"] is None


@pytest.mark.parametrize("sentence", [
    "Merge order: after the seq_buf part; the other parts are independent.",
    "It can be merged in any order with the other parts.",
    "Please merge this before the memcg part, which calls its helpers.",
])
def test_a_cover_needs_a_merge_order_sentence(sentence):
    cover = "foo: the cover\n\n" + CLOCK + "\n"
    bad = results(mail(cover, subject="[PATCH 0/3] foo: cheaper", patch=False))
    assert bad["merge-order"] and "merge order" in bad["merge-order"]
    good = results(mail(cover + sentence, subject="[PATCH 0/3] foo: cheaper", patch=False))
    assert good["merge-order"] is None


def test_merge_order_applies_to_covers_only():
    assert "merge-order" not in results(mail(GOOD))
    # the one mail of a one-patch topic carries the cover below its ---
    assert results(mail(GOOD), alone=True)["merge-order"]
    assert results(mail(GOOD + "\nIt merges independently of the other parts."),
                   alone=True)["merge-order"] is None


def test_sender_placeholder_fails_unless_not_for_sending():
    r = results(mail(GOOD, sender=PLACEHOLDER))
    assert r["sender"] and "reserved domain" in r["sender"] and "NOT FOR SENDING" in r["sender"]
    marked = mail(GOOD, sender=PLACEHOLDER, subject="[NOT FOR SENDING][PATCH 2/3] foo: make it cheaper")
    assert results(marked)["sender"] is None
    # a real From: with the placeholder's Signed-off-by left in
    r = results(mail(GOOD, sob=PLACEHOLDER))
    assert r["sender"] and "Signed-off-by is a placeholder" in r["sender"]
    # a patch not signed off by its sender
    r = results(mail(GOOD, sob="Some One <some.one@kernel.org>"))
    assert r["sender"] and "no Signed-off-by of the sender" in r["sender"]
    # a cover has no Signed-off-by to check
    assert results(mail(GOOD + "Merged in any order.", subject="[PATCH 0/2] x",
                        patch=False))["sender"] is None


def run(*args):
    return subprocess.run([sys.executable, str(SCRIPT), *map(str, args)],
                          capture_output=True, text=True)


def test_command_prints_a_line_per_check_and_mail_and_fails(tmp_path):
    good, bad = tmp_path / "good", tmp_path / "bad"
    good.mkdir()
    bad.mkdir()
    (good / "0001-foo.eml").write_text(mail(GOOD + "\nMerge it in any order."))
    (bad / "0000-cover.eml").write_text(mail(f"Numbers from run {TAG}.\n" + CLOCK,
                                             subject="[PATCH 0/1] x", patch=False))
    (bad / "0001-foo.eml").write_text(mail(GOOD))
    p = run(good)
    assert p.returncode == 0, p.stdout
    assert "pass mails:good/0001-foo.eml:merge-order" in p.stdout.splitlines()
    assert all(l.startswith("pass mails:good/0001-foo.eml:") for l in p.stdout.splitlines())
    p = run(tmp_path)  # a directory of topics
    assert p.returncode == 1
    lines = p.stdout.splitlines()
    assert (f"fail mails:bad/0000-cover.eml:run-tags(body line 1: \"{TAG}\": a run tag: the letter s "
            "and two digits (the kernel's s-prefixed integer types are fine))") in lines
    assert any(l.startswith("fail mails:bad/0000-cover.eml:merge-order(") for l in lines)
    assert "pass mails:bad/0001-foo.eml:history" in lines
    assert all(l.startswith(("pass mails:", "fail mails:")) for l in lines)


def test_command_without_mails_fails(tmp_path):
    p = run(tmp_path)
    assert p.returncode == 1 and p.stdout.startswith("fail mails:(no *.eml")


def test_command_help_and_unknown_option():
    p = run("--help")
    assert p.returncode == 0 and "usage:" in p.stdout
    p = run("--bogus")
    assert p.returncode == 2 and "usage:" in p.stderr and not p.stdout


def test_patterns_are_one_commented_list():
    checks = {c for c, _rx, _f, _what in cm.PATTERNS}
    assert checks == {"harness", "run-tags", "history", "own-parent", "config"}
    for _c, rx, flags, what in cm.PATTERNS:
        cm.re.compile(rx, flags)
        assert what


def test_placeholder_fails_unless_not_for_sending():
    """a cover's @census paragraph (submit/submission.py) must be filled in before sending"""
    text = GOOD + "Merge it after part one.\n\n[@census PLACEHOLDER, not for sending: data.]\n"
    r = results(mail(text, subject="[PATCH 0/2] foo: cheaper", patch=False))
    assert r["placeholder"] and "@census" in r["placeholder"] and "NOT FOR SENDING" in r["placeholder"]
    marked = mail(text, subject="[NOT FOR SENDING][PATCH RFC 0/2] foo: cheaper", patch=False)
    assert results(marked)["placeholder"] is None
    assert results(mail(GOOD))["placeholder"] is None
