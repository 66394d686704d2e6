"""The sender of the per-tree postings (submit/submission.py sender/rewrite,
submit/prepare-submission.sh --from / --use-git-identity / NOT FOR SENDING).

The end-to-end tests run submit/prepare-submission.sh on a synthetic
project (three patches, two topics) and a synthetic kernel tree whose
checkpatch.pl and get_maintainer.pl are stubs, with b4 from build/venv:
no kernel tree, no network, a few seconds per run."""
import importlib.util
import os
import pathlib
import re
import shutil
import subprocess
import sys

import pytest

TOP = pathlib.Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("submission", TOP / "submit" / "submission.py")
sub = importlib.util.module_from_spec(spec)
spec.loader.exec_module(sub)
spec = importlib.util.spec_from_file_location("check_mails", TOP / "submit" / "check-mails.py")
cm = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cm)

PREPARE = TOP / "submit" / "prepare-submission.sh"
B4 = TOP / "build" / "venv" / "bin" / "b4"
P_NAME, P_ADDR = "Seed 0 maintainers", "maintainers@users.noreply.seed-0.example"
PLACEHOLDER = f"{P_NAME} <{P_ADDR}>"
JANE = "Jane Doe <jane@kernel.org>"
DCO = ("Jane Doe <jane@kernel.org> certifies the Developer's Certificate of Origin "
       "(Documentation/process/submitting-patches.rst) for every patch by sending these mails")


# --- the identity helpers of submission.py -------------------------------

@pytest.mark.parametrize("ident", [JANE, '"Jane Doe" <jane@kernel.org>', "Jean-Luc d'Ève <jl@eve.fr>"])
def test_sender_accepts_a_name_and_an_address(ident):
    name, addr = sub.parse_identity(ident)
    assert name and "@" in addr and not sub.reserved(addr)


@pytest.mark.parametrize("ident, why", [
    ("jane@kernel.org", "not \"Name <addr@domain>\""),
    ("<jane@kernel.org>", "no name"),
    ("Jane Doe <jane>", "not a mail address"),
    ("Jane Doe <jane@kernel>", "not a mail address"),
    ("Jane Doe <jane@kernel.org> extra", "not \"Name <addr@domain>\""),
    (PLACEHOLDER, "reserved domain"),
    ("Jane Doe <jane@foo.invalid>", "reserved domain"),
    ("Jane Doe <jane@foo.test>", "reserved domain"),
    ("Jane Doe <jane@localhost>", "not a mail address"),
    ("Jane Doe <jane@box.localhost>", "reserved domain"),
    ("Jane Doe <jane@example.com>", "reserved domain"),
])
def test_sender_refuses_what_is_nobody(ident, why):
    with pytest.raises(sub.IdentityError, match=why):
        sub.parse_identity(ident)


PATCH = f"""From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
From: {P_NAME}
 <{P_ADDR}>
Date: Sat, 21 Nov 2026 06:19:24 +0000
Subject: [PATCH 03/37] bar: third change

Make bar three. Signed-off-by: in prose stays.

Reviewed-by: Some One <some.one@kernel.org>
Signed-off-by: Luka Bai <lukabai@tencent.com>
Signed-off-by: {PLACEHOLDER}
Link: https://lore.kernel.org/r/1234@kernel.org
---
 bar.c | 2 +-

diff --git a/bar.c b/bar.c
+Signed-off-by: {PLACEHOLDER}
"""


def test_rewrite_touches_only_the_placeholder():
    out = sub.rewrite_identity(PATCH, sub.parse_identity(JANE), [(P_NAME, P_ADDR)])
    want = PATCH.replace(f"From: {P_NAME}\n <{P_ADDR}>", f"From: {JANE}").replace(
        f"Signed-off-by: {PLACEHOLDER}\nLink", f"Signed-off-by: {JANE}\nLink")
    assert out == want
    # the diff below the --- is not the changelog: its line stays
    assert out.count(P_ADDR) == 1 and f"+Signed-off-by: {PLACEHOLDER}" in out


def test_rewrite_signs_off_a_patch_from_someone_else():
    other = PATCH.replace(f"From: {P_NAME}\n <{P_ADDR}>", "From: Luka Bai <lukabai@tencent.com>")
    other = other.replace(f"Signed-off-by: {PLACEHOLDER}\n", "")
    out = sub.rewrite_identity(other, sub.parse_identity(JANE), [(P_NAME, P_ADDR)])
    assert "From: Luka Bai <lukabai@tencent.com>" in out
    assert (f"Signed-off-by: Luka Bai <lukabai@tencent.com>\nLink: https://lore.kernel.org/r/1234"
            f"@kernel.org\nSigned-off-by: {JANE}\n---") in out
    # already signed off by the sender: nothing twice
    again = sub.rewrite_identity(out, sub.parse_identity(JANE), [(P_NAME, P_ADDR)])
    assert again == out


def test_placeholder_of_the_series():
    holders = sub.placeholders(sub.series())
    assert holders, "patches/ has no placeholder identity any more: drop NOT FOR SENDING?"
    assert all(sub.reserved(a) for _n, a in holders)


def test_rewrite_of_the_series(tmp_path):
    p = subprocess.run([sys.executable, TOP / "submit" / "submission.py", "rewrite", JANE, tmp_path],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    ser = sub.series()
    holders = sub.placeholders(ser)
    for _n, (path, _subj) in ser.items():
        old, new = path.read_text(), (tmp_path / path.name).read_text()
        assert not any(a in new for _h, a in holders), path.name
        assert f"Signed-off-by: {JANE}\n" in new
        # only the From: (folded in patches/) if it is the placeholder's (a patch of
        # someone else keeps his, docs/authorship.md), the Signed-off-by lines and
        # the address of the placeholder's bracketed note changed
        ours = sub.reserved(sub._from_header(old)[1])
        assert (f"From: {JANE}\n" in new) == ours, path.name
        old = re.sub(r"^(From: .*)\n[ \t]+", r"\1 ", old, count=1, flags=re.M)
        assert old.split("\n---\n", 1)[1] == new.split("\n---\n", 1)[1], path.name
        a, b = old.split("\n---\n")[0].splitlines(), new.split("\n---\n")[0].splitlines()
        assert len(a) == len(b), path.name
        changed = [(x, y) for x, y in zip(a, b) if x != y]
        notes = [y for _x, y in changed if y.startswith("[jane@kernel.org: ")]
        assert [y for _x, y in changed if y not in notes] == \
            [f"From: {JANE}"] * ours + [f"Signed-off-by: {JANE}"], path.name
        assert all(any(a in x for _h, a in holders) for x, _y in changed), path.name


# --- the options of prepare-submission.sh, before it does anything -------

def prepare(*args, env=None, cwd=None):
    return subprocess.run([str(PREPARE), *args], capture_output=True, text=True, env=env, cwd=cwd,
                          timeout=600)


def isolated(tmp_path):
    """an environment in which prepare-submission.sh could touch only tmp_path"""
    return dict(os.environ, CGSCALE_BUILD=str(tmp_path / "build"), CGSCALE_SRC=str(tmp_path / "none"))


def test_help():
    p = prepare("--help")
    assert p.returncode == 0 and p.stdout.startswith("usage:") and "--from" in p.stdout
    assert "NOT FOR SENDING" in p.stdout and "--use-git-identity" in p.stdout


@pytest.mark.parametrize("args, why", [
    (["--bogus"], "unknown option '--bogus'"),
    (["--from"], "--from needs"),
    (["--from", JANE, "--use-git-identity"], "not both"),
    (["--from", "Jane <jane@foo.example>"], "reserved domain"),
    (["--from=Jane Doe <jane@foo.invalid>"], "reserved domain"),
    (["--from", "Jane <jane@localhost>"], "not a mail address"),
    (["--from", "jane@kernel.org"], "not \"Name <addr@domain>\""),
])
def test_bad_options_exit_2_before_doing_anything(tmp_path, args, why):
    p = prepare(*args, env=isolated(tmp_path))
    assert p.returncode == 2, p.stderr
    assert why in p.stderr and "nothing was done" in p.stderr and not p.stdout
    assert not (tmp_path / "build").exists()


def test_use_git_identity_refuses_a_placeholder_git_identity(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    (home / ".gitconfig").write_text(f"[user]\n\tname = {P_NAME}\n\temail = {P_ADDR}\n")
    env = dict(isolated(tmp_path), HOME=str(home), GIT_CONFIG_NOSYSTEM="1")
    env.pop("GIT_CONFIG_GLOBAL", None)
    p = prepare("--use-git-identity", env=env, cwd=tmp_path)
    assert p.returncode == 2 and "reserved domain" in p.stderr
    (home / ".gitconfig").write_text("")
    p = prepare("--use-git-identity", env=env, cwd=tmp_path)
    assert p.returncode == 2 and "not both set" in p.stderr


# --- both paths, end to end, on a synthetic project ----------------------

def git(cwd, *args):
    env = dict(os.environ, GIT_CONFIG_GLOBAL="/dev/null", GIT_CONFIG_NOSYSTEM="1",
               GIT_AUTHOR_NAME=P_NAME, GIT_AUTHOR_EMAIL=P_ADDR,
               GIT_COMMITTER_NAME=P_NAME, GIT_COMMITTER_EMAIL=P_ADDR,
               GIT_AUTHOR_DATE="2026-11-20T00:00:00Z", GIT_COMMITTER_DATE="2026-11-20T00:00:00Z")
    return subprocess.run(["git", "-C", str(cwd), *args], check=True, capture_output=True,
                          text=True, env=env).stdout


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    """a project with the real scripts and a 3-patch series in 2 topics, a kernel
    tree with stub checkpatch.pl and get_maintainer.pl, and build/ with b4"""
    if not B4.exists():
        pytest.skip("b4 is not installed in build/venv (scripts/install-deps.sh)")
    root = tmp_path_factory.mktemp("synthetic")
    proj, src, build = root / "proj", root / "src", root / "build"
    (proj / "scripts").mkdir(parents=True)
    (proj / "submit" / "covers").mkdir(parents=True)
    for f in ("scripts/lib.sh", "scripts/harness_cli.py", "submit/prepare-submission.sh",
              "submit/submission.py", "submit/check-mails.py"):
        shutil.copy2(TOP / f, proj / f)
    (proj / "submit" / "topics").write_text(
        "topic one\ntree ONE, the first tree\ndepends -\npatch 1 foo: first change\n\n"
        "topic two\ntree TWO, the second tree\ndepends one: it builds on foo's first change\n"
        "cc Real Person <real.person@kernel.org> wrote the code before\n"
        "cc list@lists.linux.dev the list of the code\n"
        "patch 2 foo: second change\npatch 3 bar: third change\n")
    (proj / "submit" / "covers" / "one.txt").write_text(
        "foo: first change\n\nThe first change. It merges in any order.\n")
    (proj / "submit" / "covers" / "two.txt").write_text(
        "foo, bar: two changes\n\nTwo changes. Merge them after part one.\n")
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
    (src / "foo.c").write_text("int foo;\n")
    (src / "bar.c").write_text("int bar;\n")
    git(src, "add", "-A")
    git(src, "commit", "-q", "-m", "base")
    git(src, "tag", "base")
    sob = f"Signed-off-by: {PLACEHOLDER}"
    for f, text, msg in (
            ("foo.c", "int foo = 1;\n", f"foo: first change\n\nMake foo one.\n\n{sob}\n"),
            ("foo.c", "int foo = 2;\n", f"foo: second change\n\nMake foo two.\n\n{sob}\n"),
            ("bar.c", "int bar = 3;\n", "bar: third change\n\nMake bar three.\n\n"
             f"Reviewed-by: Some One <some.one@kernel.org>\n{sob}\n"
             "Link: https://lore.kernel.org/r/1234@kernel.org\n")):
        (src / f).write_text(text)
        git(src, "commit", "-q", "-am", msg)
    git(src, "format-patch", "-q", "--zero-commit", "-n", "--cover-letter",
        "-o", str(proj / "patches"), "base..HEAD")
    env = dict(os.environ, CGSCALE_BUILD=str(build), CGSCALE_SRC=str(src))
    return proj, build / "submit", env


def run_prepare(project, *args):
    proj, out, env = project
    p = subprocess.run([str(proj / "submit" / "prepare-submission.sh"), *args],
                       capture_output=True, text=True, env=env, timeout=600)
    assert p.returncode == 0, p.stdout + p.stderr
    mails = {f"{d.name}/{f.name}": f.read_text() for d in sorted(out.iterdir()) if d.is_dir()
             for f in sorted(d.glob("*.eml"))}
    assert sorted(mails) == ["one/0001-foo-first-change.eml", "two/0000-foo-bar-two-changes.eml",
                             "two/0001-foo-second-change.eml", "two/0002-bar-third-change.eml"]
    return p.stdout, mails, out


def check(mail, alone):
    msg = cm.email.message_from_string(mail, policy=cm.email.policy.default)
    return dict(cm.check_mail(msg, msg.get_content(), alone))


def test_without_a_sender_the_mails_are_not_for_sending(project):
    stdout, mails, out = run_prepare(project)
    assert "mode: NOT FOR SENDING" in stdout and PLACEHOLDER in stdout
    assert "certifies" not in stdout
    assert (out / "NOT-FOR-SENDING").exists() and (out / "one" / "NOT-FOR-SENDING").exists()
    note = (out / "NOT-FOR-SENDING").read_text()
    assert "--from" in note and PLACEHOLDER in note and "one two" in note
    for name, mail in mails.items():
        head = mail.split("\n\n", 1)[0]
        assert f"From: {PLACEHOLDER}" in head
        assert "Subject: [NOT FOR SENDING][PATCH" in head, name
        assert check(mail, name.startswith("one/"))["sender"] is None  # placeholder, but marked
        # take the mark away and the mail check fails it
        unmarked = mail.replace("[NOT FOR SENDING]", "", 1)
        assert "reserved domain" in check(unmarked, name.startswith("one/"))["sender"]
    # the cc lines of the map, before get_maintainer.pl's
    rec = (out / "two" / "recipients").read_text().splitlines()
    assert rec[:3] == ["To: Maint Ainer <maint@kernel.org>", "Cc: Real Person <real.person@kernel.org>",
                       "Cc: list@lists.linux.dev"]
    assert "Real Person <real.person@kernel.org>" in mails["two/0002-bar-third-change.eml"]
    assert "Real Person" not in (out / "one" / "recipients").read_text()


def test_with_from_the_sender_signs_every_mail(project):
    stdout, mails, out = run_prepare(project, "--from", JANE)
    assert "mode: for sending, from Jane Doe <jane@kernel.org>" in stdout
    assert stdout.count(DCO) == 2  # when it starts and in the summary
    assert not (out / "NOT-FOR-SENDING").exists() and not list(out.glob("*/NOT-FOR-SENDING"))
    for name, mail in mails.items():
        assert P_ADDR not in mail, name
        head, body = mail.split("\n\n", 1)
        assert f"From: {JANE}" in head and "NOT FOR SENDING" not in head
        assert check(mail, name.startswith("one/"))["sender"] is None
        if not name.startswith("two/0000"):
            assert body.count(f"Signed-off-by: {JANE}\n") == 1, name
    # the other tags of patch 3 stay, in their order
    assert ("Reviewed-by: Some One <some.one@kernel.org>\nSigned-off-by: Jane Doe <jane@kernel.org>\n"
            "Link: https://lore.kernel.org/r/1234@kernel.org\n") in mails["two/0002-bar-third-change.eml"]
    # a later run without a sender marks the mails again
    stdout, mails, out = run_prepare(project, "one")
    assert "Subject: [NOT FOR SENDING][PATCH" in mails["one/0001-foo-first-change.eml"]
    assert "mode: NOT FOR SENDING" in stdout
    assert (out / "NOT-FOR-SENDING").read_text().startswith("NOT FOR SENDING: the mails of one ")
