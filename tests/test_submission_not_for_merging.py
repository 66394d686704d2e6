"""Patches not for merging (the "extra" lines of submit/topics): the map
parses them, submit/submission.py makes each a reply to its topic's cover,
and submit/check-mails.py checks that reply. Host-only: no b4, no kernel
tree. The psi-mirror posting's cross-check is the one such patch; the
repository's copy of it must be postable as it stands."""
import importlib.util
import pathlib
import re
import subprocess
import sys

import pytest

TOP = pathlib.Path(__file__).resolve().parent.parent


def _load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


sub = _load("submission", TOP / "submit" / "submission.py")
cm = _load("check_mails", TOP / "submit" / "check-mails.py")

SENDER = "Jane Doe <jane@kernel.org>"
COVER_ID = "<20261128-psi-mirror-v1-0-87ab54db65ef@kernel.org>"
COVER = (f"From: {SENDER}\nDate: Sat, 28 Nov 2026 05:25:45 +0000\n"
         "Subject: [PATCH RFC 0/2] psi: a task change whose cost does not grow\n"
         " with cgroup depth\n"
         "MIME-Version: 1.0\nContent-Type: text/plain; charset=\"utf-8\"\n"
         "Content-Transfer-Encoding: 7bit\n"
         f"Message-Id: {COVER_ID}\n"
         "To: Johannes Weiner <hannes@cmpxchg.org>, \n Peter Zijlstra <peterz@infradead.org>\n"
         "Cc: linux-kernel@vger.kernel.org, cgroups@vger.kernel.org\n"
         "X-Mailer: b4 0.16.0\n\n"
         "Merge after psi-read; the other parts are independent.\n")
PATCH = (f"From 0123456789abcdef0123456789abcdef01234567 Mon Sep 17 00:00:00 2001\n"
         f"From: {SENDER}\nDate: Sat, 28 Nov 2026 07:00:00 +0000\n"
         "Subject: [PATCH RFC NOT FOR MERGING] psi: cross-check the mirror against the\n"
         " reference accounting\n\n"
         "Not for merging: a debugging aid.\n\n"
         f"Signed-off-by: {SENDER}\n---\n kernel/sched/psi.c | 1 +\n 1 file changed\n\n"
         "diff --git a/kernel/sched/psi.c b/kernel/sched/psi.c\n--- a/kernel/sched/psi.c\n"
         "+++ b/kernel/sched/psi.c\n@@ -1 +1,2 @@\n int x;\n+int y;\n-- \n2.39.5\n")


def parse(text):
    return cm.email.message_from_string(text, policy=cm.email.policy.default)


def checks(text, cover=COVER):
    msg = parse(text)
    return dict(cm.check_mail(msg, msg.get_content(), False, True, "psi-mirror", True,
                              parse(cover) if cover else None))


def test_extra_mail_answers_the_cover():
    text = sub.extra_mail(COVER, PATCH, 1)
    msg = parse(text)
    assert not text.startswith("From 0123"), "the mbox separator line must go"
    assert msg["In-Reply-To"] == COVER_ID and msg["References"] == COVER_ID
    assert msg["Message-Id"] == "<20261128-psi-mirror-v1-0-87ab54db65ef-not-for-merging-1@kernel.org>"
    assert msg["Date"] == "Sat, 28 Nov 2026 05:25:45 +0000"
    assert "hannes@cmpxchg.org" in str(msg["To"]) and "peterz@infradead.org" in str(msg["To"])
    assert "cgroups@vger.kernel.org" in str(msg["Cc"])
    assert " ".join(str(msg["Subject"]).split()) == (
        "[PATCH RFC NOT FOR MERGING] psi: cross-check the mirror against the reference accounting")
    assert "+int y;" in msg.get_content()
    r = checks(text)
    assert r["reply"] is None and r["sender"] is None and r["harness"] is None
    assert "merge-order" not in r, "a reply is not a cover"
    assert "base-parent" not in r, "a reply has no position in the posting"


def test_extra_mail_of_a_not_for_sending_cover_is_marked_too():
    cover = COVER.replace("Subject: [PATCH RFC 0/2]", "Subject: [NOT FOR SENDING][PATCH RFC 0/2]")
    msg = parse(sub.extra_mail(cover, PATCH, 2))
    assert str(msg["Subject"]).startswith("[NOT FOR SENDING][PATCH RFC NOT FOR MERGING] psi:")
    assert msg["Message-Id"].endswith("-not-for-merging-2@kernel.org>")


def test_extra_mail_refuses_a_cover_without_message_id():
    with pytest.raises(sub.MapError):
        sub.extra_mail(COVER.replace(f"Message-Id: {COVER_ID}\n", ""), PATCH, 1)


@pytest.mark.parametrize("change, why", [
    (lambda t: t.replace(f"In-Reply-To: {COVER_ID}", "In-Reply-To: <other@kernel.org>"),
     "In-Reply-To"),
    (lambda t: t.replace(f"References: {COVER_ID}\n", ""), "References"),
    (lambda t: t.replace("[PATCH RFC NOT FOR MERGING]", "[PATCH RFC NOT FOR MERGING 3/2]"),
     "numbered"),
    (lambda t: t.replace(" Peter Zijlstra <peterz@infradead.org>", " Ingo Molnar <mingo@redhat.com>"),
     "To"),
    (lambda t: t.replace("cgroups@vger.kernel.org", "linux-mm@kvack.org"), "Cc"),
])
def test_reply_check_fails_a_reply_that_misses_the_cover(change, why):
    text = change(sub.extra_mail(COVER, PATCH, 1))
    assert why in (checks(text)["reply"] or ""), text


def test_reply_check_needs_a_cover():
    assert "no cover" in checks(sub.extra_mail(COVER, PATCH, 1), cover=None)["reply"]


def test_a_patch_of_the_posting_gets_no_reply_check():
    assert "reply" not in checks(COVER)


def test_a_reply_does_not_make_a_one_patch_topic_look_like_more(tmp_path):
    """a topic of one patch and a reply: the patch is still 'alone' (its cover text
    is below its ---) and the reply has no cover to answer"""
    d = tmp_path / "one"
    d.mkdir()
    one = COVER.replace("[PATCH RFC 0/2]", "[PATCH RFC]")
    (d / "0001-one.eml").write_text(one)
    (d / "nfm1-x.eml").write_text(sub.extra_mail(COVER, PATCH, 1))
    found = {p.name: (alone, cover) for _t, p, alone, _pre, cover in cm.mails([d])}
    assert found["0001-one.eml"] == (True, None)
    assert found["nfm1-x.eml"] == (False, None)


def test_map_parses_extra_lines_and_refuses_bad_ones(tmp_path, monkeypatch):
    diff = tmp_path / "x.diff"
    diff.write_text("diff --git a/f b/f\n")
    log = tmp_path / "x.changelog"
    log.write_text("psi: x\n\nBody.\n")
    monkeypatch.setattr(sub, "TOP", tmp_path)
    base = "topic t\ntree T\ndepends -\npatch 1 foo: bar\n"
    m = tmp_path / "topics"
    m.write_text(base + "extra x.diff x.changelog\n")
    assert sub.parse_topics(m)[0]["extra"] == [(diff, log)]
    for bad in ("extra x.diff\n", "extra x.diff missing.changelog\n", "extra x.diff x.diff\n"):
        m.write_text(base + bad)
        with pytest.raises(sub.MapError):
            sub.parse_topics(m)


def test_psi_mirror_carries_the_cross_check():
    t = next(t for t in sub.parse_topics() if t["name"] == "psi-mirror")
    assert [(sub.rel(d), sub.rel(c)) for d, c in t["extra"]] == [
        (pathlib.Path("tests/crosscheck/psi-shadow.diff"),
         pathlib.Path("tests/crosscheck/psi-shadow.changelog"))]


def test_the_posted_cross_check_does_not_name_the_project():
    """what is sent: the diff from its first "diff --git" line, and the changelog"""
    text = (TOP / "tests/crosscheck/psi-shadow.diff").read_text()
    posted = text[text.index("diff --git"):]
    added = "\n".join(l for l in posted.splitlines() if l.startswith("+"))
    log = (TOP / "tests/crosscheck/psi-shadow.changelog").read_text()
    for words in (added, log):
        assert not re.search(r"cgscale|harness|\bseries\b|upstream|unpatched|tests/", words, re.I)
    assert '"psi cross-check: %s' in added
    msg = parse(f"From: {SENDER}\nSubject: [PATCH RFC NOT FOR MERGING] {log.splitlines()[0]}\n\n"
                + log.split("\n\n", 1)[1] + f"\nSigned-off-by: {SENDER}\n---\n" + posted)
    r = dict(cm.check_mail(msg, msg.get_content(), False, True, "psi-mirror", True, None))
    assert {k: v for k, v in r.items() if k != "reply"} == {k: None for k in r if k != "reply"}


def test_check_crosscheck_counts_the_posted_prefix():
    text = (TOP / "checks/heavy/check-crosscheck.sh").read_text()
    assert "psi cross-check:" in text and "cgscale cross-check" in text
