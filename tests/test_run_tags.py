"""No internal run tags in the repository's text files.

Facts are dated the way a kernel project dates them: by a day
(2026-11-25), a commit id of this repository, or the patch range a run
measured ("patches 1-32"). The names the project gave its working sessions
(the letter s and two digits, or "session" and a number) mean nothing to a
reader and are not used. This test reads every tracked text file (binary
files, such as the plots, are skipped) and fails with file:line for each
tag; ALLOW lists the few matches that are not tags, each with its reason.
"""
import fnmatch
import pathlib
import re
import subprocess

import pytest

TOP = pathlib.Path(__file__).resolve().parent.parent

TAG = re.compile(r"\bs[0-9]{2}\b|[Ss]ession [0-9]")

KERNEL_INT = r"\bs(?:16|32|64)\b"

# (path glob, part of the file, regex the tag must lie inside, reason).
# part: "body" = only after the file's first "diff --git" line (the code
# of a patch or diff, not its changelog or header); "any" = anywhere.
ALLOW = [
    ("patches/*.patch", "body", KERNEL_INT,
     "kernel integer types (a signed 64-bit delta) in the series' code"),
    ("tests/breaks/*.diff", "body", KERNEL_INT,
     "kernel integer types in the code a break changes"),
    ("tests/crosscheck/*.diff", "body", KERNEL_INT,
     "kernel integer types in the cross-check's code"),
]


def allowed(path, in_body, line, start, end):
    for glob, part, regex, _ in ALLOW:
        if not fnmatch.fnmatch(path, glob) or (part == "body" and not in_body):
            continue
        for m in re.finditer(regex, line):
            if m.start() <= start and end <= m.end():
                return True
    return False


def tags_in(path, text):
    """Yield (path, line number, line) for each tag not in ALLOW."""
    in_body = False
    for n, line in enumerate(text.splitlines(), 1):
        if line.startswith("diff --git "):
            in_body = True
        for m in TAG.finditer(line):
            if not allowed(path, in_body, line, m.start(), m.end()):
                yield path, n, line.strip()
                break


def tracked_text_files():
    try:
        out = subprocess.run(["git", "-C", str(TOP), "ls-files", "-z"],
                             capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git work tree")
    for name in out.decode().split("\0"):
        if not name:
            continue
        p = TOP / name
        if not p.is_file():
            continue                 # deleted in the work tree, not yet committed
        data = p.read_bytes()
        if b"\0" in data:
            continue                 # binary (git's own test)
        try:
            yield name, data.decode("utf-8")
        except UnicodeDecodeError:
            continue


def test_no_run_tags():
    found = [f"{p}:{n}: {line[:120]}"
             for name, text in tracked_text_files()
             for p, n, line in tags_in(name, text)]
    assert not found, ("internal run tags; name the day, the commit or the "
                       "patch range instead:\n" + "\n".join(found))


# The strings are put together so that this file holds no tag itself.
@pytest.mark.parametrize("text", [
    "measured in s" + "36",
    "(s" + "25: 14 min)",
    "bench/runs/s" + "33-psi-mirror-v2",
    "Ses" + "sion 29 ran it",
    "in ses" + "sion 34",
])
def test_tag_is_found(text):
    assert list(tags_in("docs/x.md", text)), text


@pytest.mark.parametrize("text", [
    "s390", "x86_64", "the s" + "390x build", "sessions", "2026-11-25",
    "patches 1-32", "commit 9d96760", "45 s", "s3", "s" + "123",
])
def test_not_a_tag(text):
    assert not list(tags_in("docs/x.md", text)), text


def test_allow_list_is_narrow():
    patch = ("Subject: psi\n\nMeasured in s" + "36.\n"
             "diff --git a/k.c b/k.c\n+\ts" + "64 delta;\n")
    found = list(tags_in("patches/0004-x.patch", patch))
    assert [n for _, n, _ in found] == [3], "a tag in a changelog must fail, a type in code not"
    readme = "`bench/runs/s" + "35-psi-mirror-v12`\n"
    assert len(list(tags_in("bench/README.md", readme))) == 1, "old folder names count as tags too"
    assert list(tags_in("docs/x.md", "\ts" + "64 delta;"))
