"""Another author's lines survive the sender rewrite (docs/authorship.md).

A patch of patches/ may be someone else's: its From: names him and his
Signed-off-by: comes first, or it is ours with his Co-developed-by: and
Signed-off-by:. The sender rewrite (submit/submission.py rewrite,
submit/prepare-submission.sh --from) may change only the sender's own
lines: the From: and the Signed-off-by: of the placeholder, and the
address that opens the sender's bracketed note "[ADDR: changes]"
(Documentation/maintainer/modifying-patches.rst). In the rendered mail the
author's From: is the first body line when the sender differs, as git
format-patch and git send-email write it.

The end-to-end test runs prepare-submission.sh on a synthetic project in
a temporary git repository (stub checkpatch.pl and get_maintainer.pl, b4
from build/venv), whatever patches/ carries today."""
import email
import email.policy
import importlib.util
import os
import pathlib
import re
import shutil
import subprocess

import pytest

TOP = pathlib.Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("submission", TOP / "submit" / "submission.py")
sub = importlib.util.module_from_spec(spec)
spec.loader.exec_module(sub)

B4 = TOP / "build" / "venv" / "bin" / "b4"
P_NAME, P_ADDR = "Seed 0 maintainers", "maintainers@users.noreply.seed-0.example"
PLACEHOLDER = f"{P_NAME} <{P_ADDR}>"
HOLDERS = [(P_NAME, P_ADDR)]
LUKA = "Luka Bai <lukabai@tencent.com>"
JANE = "Jane Doe <jane@kernel.org>"
NOTE = (f"[{P_ADDR}: kept KERN_ERR; the NR_RUNNING\n"
        "test is in the next patch]")


def changelog(text):
    """the lines between the headers and the first --- of a patch or a mail"""
    return text.split("\n\n", 1)[1].split("\n---\n", 1)[0].split("\n")


def not_his_lines(old, new, author=LUKA):
    """What the rewrite of OLD to NEW did to lines that are not the sender's:
    [] if every line of the changelog that does not belong to the
    placeholder stayed, in its place and order, and the From: of AUTHOR
    stayed; otherwise the differences."""
    bad = []
    f_old, f_new = sub._from_header(old), sub._from_header(new)
    if f_old and not sub.reserved(f_old[1]) and f_old[:2] != f_new[:2]:
        bad.append(f"From: {f_old[:2]} became {f_new and f_new[:2]}")
    mine = lambda l: P_ADDR.lower() in l.lower()  # the placeholder's own lines
    a = [l for l in changelog(old) if not mine(l)]
    b = [l for l in changelog(new) if not mine(l) and "jane@kernel.org" not in l]
    if a != b:
        bad.append(f"the other lines of the changelog changed: {a} -> {b}")
    name = author.split(" <")[0]
    if [l for l in changelog(old) if name in l] != [l for l in changelog(new) if name in l]:
        bad.append(f"the lines naming {name} changed")
    return bad


def patch(author, tags, subject="psi: first change"):
    head = author.replace(" <", "\n <", 1) if author == PLACEHOLDER else author
    return (f"From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n"
            f"From: {head}\nDate: Tue, 12 May 2026 14:19:57 +0800\n"
            f"Subject: [PATCH 02/42] {subject}\n\nThe change.\n\n{tags}\n---\n"
            " psi.c | 2 +-\n\ndiff --git a/psi.c b/psi.c\n"
            f"+Signed-off-by: {PLACEHOLDER}\n")


HIS = patch(LUKA, f"Link: https://lore.kernel.org/r/1@tencent.com\nSigned-off-by: {LUKA}\n"
                  f"{NOTE}\nSigned-off-by: {PLACEHOLDER}")
JOINT = patch(PLACEHOLDER, f"Link: https://lore.kernel.org/r/2@tencent.com\n"
                           f"Co-developed-by: {LUKA}\nSigned-off-by: {LUKA}\n"
                           f"Signed-off-by: {PLACEHOLDER}")
IDEA = patch(PLACEHOLDER, f"Link: https://lore.kernel.org/r/3@tencent.com\n"
                          f"Suggested-by: {LUKA}\nCc: {LUKA}\nSigned-off-by: {PLACEHOLDER}")


def test_his_patch_keeps_his_from_and_sign_off():
    out = sub.rewrite_identity(HIS, sub.parse_identity(JANE), HOLDERS)
    assert not_his_lines(HIS, out) == []
    assert sub._from_header(out)[:2] == ("Luka Bai", "lukabai@tencent.com")
    assert changelog(out)[2:] == ["Link: https://lore.kernel.org/r/1@tencent.com",
                                  f"Signed-off-by: {LUKA}",
                                  "[jane@kernel.org: kept KERN_ERR; the NR_RUNNING",
                                  "test is in the next patch]",
                                  f"Signed-off-by: {JANE}"]
    assert P_ADDR not in out.split("\n---\n")[0]
    assert out.split("\n---\n", 1)[1] == HIS.split("\n---\n", 1)[1]  # the diff is not touched


@pytest.mark.parametrize("text", [JOINT, IDEA], ids=["co-developed", "suggested"])
def test_our_patch_keeps_his_tags(text):
    out = sub.rewrite_identity(text, sub.parse_identity(JANE), HOLDERS)
    assert not_his_lines(text, out) == []
    assert sub._from_header(out)[:2] == ("Jane Doe", "jane@kernel.org")
    assert changelog(out)[-1] == f"Signed-off-by: {JANE}"


def broken_rewrites():
    """rewrites that touch his lines: each must be caught"""
    s = sub.parse_identity(JANE)
    every_sob = lambda t: re.sub(r"^Signed-off-by: .*$", f"Signed-off-by: {JANE}",
                                 sub.rewrite_identity(t, s, HOLDERS), flags=re.M)
    every_from = lambda t: re.sub(r"^From: .*$", f"From: {JANE}",
                                  sub.rewrite_identity(t, s, HOLDERS), count=1, flags=re.M)
    reorder = lambda t: sub.rewrite_identity(t, s, HOLDERS).replace(
        f"Signed-off-by: {LUKA}\n[", f"[", 1).replace(
        f"Signed-off-by: {JANE}", f"Signed-off-by: {LUKA}\nSigned-off-by: {JANE}", 1)
    return [every_sob, every_from, reorder]


@pytest.mark.parametrize("broken", broken_rewrites(), ids=["every-sob", "every-from", "reorder"])
def test_a_rewrite_that_touches_his_lines_is_caught(broken):
    assert not_his_lines(HIS, broken(HIS)) != []


def test_the_series_keeps_his_lines():
    """patches/ as it is: every line naming Luka Bai (From:, Signed-off-by:,
    Co-developed-by:, Suggested-by:, Cc:) stays through the rewrite"""
    ser = sub.series()
    holders = sub.placeholders(ser)
    seen = 0
    for _n, (path, _subj) in sorted(ser.items()):
        old = path.read_text()
        if "Luka Bai" not in old.split("\n---\n", 1)[0]:
            continue
        seen += 1
        new = sub.rewrite_identity(old, sub.parse_identity(JANE), holders)
        f = sub._from_header(old)
        if not sub.reserved(f[1]):
            assert sub._from_header(new)[:2] == f[:2], path.name
        his = lambda t: [l for l in changelog(t) if "Luka Bai" in l]
        assert his(old) == his(new), path.name
        assert changelog(new)[-1] == f"Signed-off-by: {JANE}", path.name
        assert not any(a in new.split("\n---\n", 1)[0] for _n2, a in holders), path.name
    assert seen >= 6, "patches 2-7 no longer name Luka Bai"


# --- end to end: prepare-submission.sh on a synthetic project ------------

def git(cwd, *args, author=PLACEHOLDER):
    name, addr = author.split(" <")
    env = dict(os.environ, GIT_CONFIG_GLOBAL="/dev/null", GIT_CONFIG_NOSYSTEM="1",
               GIT_AUTHOR_NAME=name, GIT_AUTHOR_EMAIL=addr.rstrip(">"),
               GIT_COMMITTER_NAME=P_NAME, GIT_COMMITTER_EMAIL=P_ADDR,
               GIT_AUTHOR_DATE="2026-05-12T06:19:57Z", GIT_COMMITTER_DATE="2026-11-20T00:00:00Z")
    return subprocess.run(["git", "-C", str(cwd), *args], check=True, capture_output=True,
                          text=True, env=env).stdout


COMMITS = [  # file, content, author, message: ours first (the clone's identity without --from)
    ("a.c", "int a = 1;\n", PLACEHOLDER,
     f"a: ours alone\n\nMake a one.\n\nSigned-off-by: {PLACEHOLDER}\n"),
    ("b.c", "int b = 1;\n", LUKA,
     f"b: his patch\n\nMake b one.\n\nLink: https://lore.kernel.org/r/1@tencent.com\n"
     f"Signed-off-by: {LUKA}\n{NOTE}\nSigned-off-by: {PLACEHOLDER}\n"),
    ("c.c", "int c = 1;\n", PLACEHOLDER,
     f"c: joint rework\n\nMake c one.\n\nCo-developed-by: {LUKA}\nSigned-off-by: {LUKA}\n"
     f"Signed-off-by: {PLACEHOLDER}\n"),
    ("d.c", "int d = 1;\n", PLACEHOLDER,
     f"d: his idea\n\nMake d one.\n\nSuggested-by: {LUKA}\nSigned-off-by: {PLACEHOLDER}\n"),
]


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    if not B4.exists():
        pytest.skip("b4 is not installed in build/venv (scripts/install-deps.sh)")
    root = tmp_path_factory.mktemp("authorship")
    proj, src, build = root / "proj", root / "src", root / "build"
    (proj / "scripts").mkdir(parents=True)
    (proj / "submit" / "covers").mkdir(parents=True)
    for f in ("scripts/lib.sh", "scripts/harness_cli.py", "submit/prepare-submission.sh",
              "submit/submission.py", "submit/check-mails.py"):
        shutil.copy2(TOP / f, proj / f)
    (proj / "submit" / "topics").write_text(
        "topic one\ntree ONE, the tree\ndepends -\n"
        + "".join(f"patch {i} {c[3].split(chr(10))[0]}\n" for i, c in enumerate(COMMITS, 1)))
    (proj / "submit" / "covers" / "one.txt").write_text(
        "a-d: four changes\n\nFour changes. It merges in any order.\n")
    (proj / "bench" / "latest").mkdir(parents=True)
    (proj / "bench" / "latest" / "meta.json").write_text("{}")
    (proj / "bench" / "latest" / "summary.json").write_text("[]")
    build.mkdir()
    (build / "venv").symlink_to(TOP / "build" / "venv")
    src.mkdir()
    git(src, "init", "-q")
    (src / "scripts").mkdir()
    (src / "scripts" / "checkpatch.pl").write_text("#!/bin/sh\ncat >/dev/null\n")
    (src / "scripts" / "get_maintainer.pl").write_text(
        '#!/bin/sh\ncat >/dev/null\ncase "$*" in *--nom*) echo "lkml@vger.kernel.org" ;; '
        '*) echo "Maint Ainer <maint@kernel.org>" ;; esac\n')
    for f in ("checkpatch.pl", "get_maintainer.pl"):
        (src / "scripts" / f).chmod(0o755)
    for f, _t, _a, _m in COMMITS:
        (src / f).write_text("int x;\n")
    git(src, "add", "-A")
    git(src, "commit", "-q", "-m", "base")
    git(src, "tag", "base")
    for f, text, author, msg in COMMITS:
        (src / f).write_text(text)
        git(src, "commit", "-q", "-am", msg, author=author)
    git(src, "format-patch", "-q", "--zero-commit", "-n", "--cover-letter",
        "-o", str(proj / "patches"), "base..HEAD")
    env = dict(os.environ, CGSCALE_BUILD=str(build), CGSCALE_SRC=str(src))
    return proj, build / "submit", env


def render(project, *args):
    proj, out, env = project
    p = subprocess.run([str(proj / "submit" / "prepare-submission.sh"), *args],
                       capture_output=True, text=True, env=env, timeout=600)
    assert p.returncode == 0, p.stdout + p.stderr
    mails = sorted((out / "one").glob("*.eml"))
    assert len(mails) == 5, mails
    patches = sorted((proj / "patches").glob("000[1-9]-*.patch"))
    return [(pt.read_text(), m.read_text()) for pt, m in zip(patches, mails[1:])]


def body_of(mail):
    msg = email.message_from_string(mail, policy=email.policy.default)
    return str(msg["From"]), msg.get_content()


@pytest.mark.parametrize("args", [("--from", JANE), ()], ids=["from-sender", "not-for-sending"])
def test_rendered_mails_keep_his_authorship(project, args):
    sender = JANE if args else PLACEHOLDER
    for (pt, mail), (_f, _t, author, _m) in zip(render(project, *args), COMMITS):
        head_from, body = body_of(mail)
        assert email.utils.parseaddr(head_from)[1] == sender.split("<")[1].rstrip(">")
        lines = body.split("\n")
        if author == LUKA:
            assert lines[:2] == [f"From: {LUKA}", ""], lines[:3]
            body = "\n".join(lines[2:])
        else:
            assert not lines[0].startswith("From:"), lines[0]
        log = body.split("\n---\n", 1)[0].split("\n")
        want = changelog(pt)
        if args:  # the sender's own lines, and only they, name the sender
            want = [l.replace(PLACEHOLDER, JANE).replace(f"[{P_ADDR}:", "[jane@kernel.org:")
                    for l in want]
        assert log == want, (log, want)
        assert log[-1] == f"Signed-off-by: {sender}"
        assert [l for l in log if "Luka" in l] == [l for l in changelog(pt) if "Luka" in l]
