#!/usr/bin/env python3
"""Check the mails submit/prepare-submission.sh rendered, as a maintainer reads them.

usage: submit/check-mails.py [-h] [--no-strict-parent] [DIR...]

DIR is build/submit (the default: every topic in it) or a topic's directory
build/submit/TOPIC; the mails are its *.eml files. Prints one line per
check and mail,

    pass mails:TOPIC/FILE:CHECK
    fail mails:TOPIC/FILE:CHECK(where and what)

and exits 1 if any check failed (or no mail was found), 2 on a usage error.
Host-only: it reads the mails and nothing else.

The rule it enforces, as far as text can show it: every number in a
changelog or cover is this part against its own parent, from one run, with
the clock and the config stated in that mail; nothing names the harness, a
run, or a version that was never posted. Checked is the prose of a mail:
the body up to the first diff, without the diffstat, the b4 footer
(base-commit:, change-id:, prerequisite-patch-id:) and the signature.

Checks (each mail gets a line for every check that applies to it):
  harness      no harness path or word (PATTERNS below)
  run-tags     no run tag of the harness (the letter s and two digits, "session N")
  history      no internal history: unposted versions, other runs, n=1 notes
  own-parent   no "whole series" numbers: a part's numbers are its own
  clock        a mail that quotes instruction counts states the clock
               (-icount / "instructions under QEMU")
  config       ... and the config it was measured in (NR_CPUS=N, a defconfig
               or CONFIG_X=y named in the mail, not "as in the cover letter")
  merge-order  a cover (0/N mail, or the one mail of a one-patch topic, whose
               cover text is below the ---) says in what order to merge
  sender       From: is not a placeholder in a reserved domain, and a patch
               is signed off by its sender, unless the subject says
               [NOT FOR SENDING]
  placeholder  no text left to fill in before sending (a cover's "@census"
               paragraph, PLACEHOLDER), unless the subject says
               [NOT FOR SENDING]
  reply        a patch not for merging (NOT FOR MERGING in its subject
               prefix, an "extra" line of submit/topics) has no K/N in its
               subject and answers its topic's cover: In-Reply-To and
               References are the cover's Message-Id, To: and Cc: the
               cover's

Also, unless --no-strict-parent (docs/submission.md, "Numbers against their
own parent"), the old wording of numbers that are not this patch against
its parent in its own posting (STRICT_PARENT below). They read the
changelog, the prose before the first "---" line (all of a 0/N cover's
text), except cover-ref, which reads all of the prose:
  one-boot       no "one boot per kernel", "one boot each", "a single boot"
  separate-boots no runs "booted at different times" or "booted separately"
  parent-named   no "v7.3-rc7 with ... this work" (at most 12 words between):
                 the parent is the one in this posting, named as such
  cover-ref      a mail of a topic without a cover letter (a one-patch
                 topic) does not say "see the cover letter"
  base-parent    a patch whose parent is not the bare base (patch 2 and on
                 of a posting, or any patch of a posting that depends on
                 others: its mails carry prerequisite-patch-id lines) has
                 no numbers "against v7.3-rc7" or "v7.3-rc7 against"
A failure says what to run instead: bench/bench.sh --kernels
'pJ=topic:TOPIC:J pK=topic:TOPIC:K' (J = K-1) for patch K of the posting.
"""
import argparse
import email
import email.policy
import email.utils
import importlib.util
import os
import pathlib
import re
import sys

TOP = pathlib.Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("submission", TOP / "submit" / "submission.py")
submission = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(submission)

NOT_FOR_SENDING = "[NOT FOR SENDING]"
NOT_FOR_MERGING = re.compile(r"\[[^\]]*\bNOT FOR MERGING\b[^\]]*\]")


def _names(path, default):
    """the entries of a directory of this project, longest first (for an alternation)"""
    try:
        names = [p.name for p in path.iterdir() if not p.name.startswith((".", "_"))]
    except OSError:
        names = []
    return sorted(set(names) or set(default), key=lambda n: (-len(n), n))


def _alt(names):
    return "|".join(re.escape(n) for n in names)


# The project's scripts and benchmarks, by name: the kernel's own scripts/
# (scripts/checkpatch.pl, scripts/get_maintainer.pl) and "perf bench" are fine.
# A harness program named as scripts/NAME is caught wherever it lives now
# (README.md, "Layout"); the other folders of the harness by their paths.
HARNESS_SCRIPTS = sorted(set().union(*(
    _names(TOP / d, []) for d in ("scripts", "checks", "checks/heavy", "bench/bin", "hardware", "submit")))
    or {"profile-open.sh", "bench-psi-steps.sh", "guest"}, key=lambda n: (-len(n), n))
HARNESS_BENCHES = [n for n in _names(TOP / "bench", ["psi"])
                   if n not in ("latest", "include", "harness", "ablations", "README.md", "bin", "bench.sh")]

# (check, regex, flags, what a hit means). One list, so that it is easy to
# review; a hit of a check's pattern fails that check for the mail.
PATTERNS = [
    # harness: paths and words of this project, which no reader has
    ("harness", rf"\bscripts/(?:{_alt(HARNESS_SCRIPTS)})(?![\w.-])", 0,
     "a script of the harness"),
    ("harness", r"(?<![\w./-])bench/", 0, "the harness's results directory"),
    ("harness", r"(?<![\w./-])tests/", 0, "the harness's tests (tests/breaks/...)"),
    ("harness", r"(?<![\w./-])(?:checks|hardware|submit)/", 0,
     "the harness's checks, real-hardware tools or posting tools"),
    ("harness", r"(?<![\w./-])build/", 0, "the harness's build directory"),
    ("harness", r"(?<![\w./-])wip/", 0, "the harness's work-in-progress notes"),
    ("harness", r"\b(?:summary|meta|steps|psi-steps)\.json\b", 0, "a result file of the harness"),
    ("harness", r"\btcg-possible-cpus\.diff\b|\.harness-diffs\b", 0,
     "the harness-only kernel change"),
    ("harness", r"(?<!kselftest )(?<!kselftest_)\bharness\b", re.I,
     "the word harness (the kselftest harness is fine)"),
    ("harness", r"\bcgscale\b", re.I, "the name of the project"),
    ("harness", rf"\bbench\s+(?:{_alt(HARNESS_BENCHES)})\b", 0,
     "a benchmark of the harness by its name"),
    ("harness", r"\bconfig\s+[\"“]?(?:bench|test)\b[\"”]?|\bthe\s+(?:bench|test)\s+config\b", re.I,
     "a config of the harness (bench, test) by its name"),
    # run-tags: names of the harness's runs
    ("run-tags", r"\bs(?!16\b|32\b|64\b)[0-9]{2}\b", 0,
     "a run tag: the letter s and two digits (the kernel's s-prefixed integer types are fine)"),
    ("run-tags", r"\bsession\s+\d+\b", re.I, "a session number"),
    # history: versions nobody saw, numbers of other runs, n=1 notes
    ("history", r"\b(?:previous|earlier|older|first) versions?\b", re.I,
     "a version that was never posted (for a posted one, name it and give its Link:)"),
    ("history", r"\b(?:previous|earlier|later|older|another|other) (?:A/B )?runs?\b", re.I,
     "numbers of another run"),
    ("history", r"\bone boot each\b", re.I, "one boot per kernel, from the harness's notes"),
    ("history", r"\b(?:a|the) (?:first|second|third|other) boot\b", re.I,
     "a note on single boots"),
    # own-parent: a part's numbers are that part against its parent
    ("own-parent", r"\bwhole series\b|\bnot only this part\b", re.I,
     "numbers of the whole series, not of this part against its parent"),
    # config: "as in the cover letter" states nothing in this mail
    ("config", r"\bconfig(?:uration)? (?:as in|of) the cover letter\b", re.I,
     "the config is stated elsewhere, not in this mail"),
]

# The strict-parent checks (on unless --no-strict-parent): the old wording
# of numbers that are not this patch against its parent in its own posting
# (docs/submission.md, "Numbers against their own parent"). Same form as
# PATTERNS; matched on the prose with each run of white space one blank, so
# that a phrase wrapped at 72 columns is found. one-boot, separate-boots,
# parent-named and base-parent read the changelog (the prose before the
# first "---" line); cover-ref reads all of the prose, of a mail whose topic
# has no cover letter (a one-patch topic: prepare-submission.sh writes a
# 0000 cover only for two patches or more).
STRICT_PARENT = [
    ("one-boot", r"\bone\s+boot\s+(?:per\s+kernel|each)\b", re.I,
     "a measurement from one boot per kernel"),
    ("one-boot", r"\ba\s+single\s+boot\b(?![\w-])(?!\s+(?:param|parameter|option|argument|command)s?\b)",
     re.I, "a measurement from a single boot"),
    ("separate-boots", r"\bbooted\s+(?:at\s+different\s+times|separately)\b", re.I,
     "kernels booted apart, not alternately in one run"),
    ("parent-named", r"\bv\d+\.\d+(?:-rc\d+)?\s+with\s+(?:\S+\s+){0,12}?this\s+work\b", re.I,
     "a parent made of other parts of this work, not this patch's parent in its own posting"),
    ("cover-ref", r"\bsee\s+the\s+cover\s+letter\b", re.I,
     "refers to a cover letter, but this topic has one patch and no cover letter "
     "(its cover text is below the --- of this very mail)"),
    ("base-parent", r"\bagainst\s+v\d+\.\d+(?:-rc\d+)?(?![\w.'’-])(?!\s+(?:with|plus)\b)"
     r"|\bv\d+\.\d+(?:-rc\d+)?\s+(?:\([^()]{1,20}\)\s+)?against\b", re.I,
     "numbers against the bare base, which is not this patch's parent in its posting"),
]
STRICT_CHECKS = ("one-boot", "separate-boots", "parent-named", "cover-ref", "base-parent")
OWN_PARENT_DOC = 'docs/submission.md, "Numbers against their own parent"'

# A mail quotes instruction counts if it names instructions (or icount) and
# has a count-like number, or has a before -> after or [min-max] of counts.
COUNT_WORDS = r"\b(?:insn|instructions?)\b|icount"
COUNT_NUMBERS = [
    r"\b\d{1,3}(?:,\d{3})+\b",  # 7,300
    r"\b\d+(?:\.\d+)?\s+(?:guest\s+)?(?:insn|instructions)\b",  # 390 instructions
]
COUNT_TABLES = [
    r"\b\d{1,3}(?:,\d{3})+\s*(?:->|→)\s*\d{1,3}(?:,\d{3})+\b",  # 14,884 -> 14,787
    r"\[\d[\d,.]*-\d[\d,.]*\]",  # median [min-max]
]
# The clock sentence: the only clock the numbers have (add another clock's
# sentence here when numbers from real hardware come).
CLOCK = r"-?icount\b|\binstructions under QEMU\b"
# A config stated in the mail itself.
CONFIG = r"\bNR_CPUS=\d+|\b\w*defconfig\b|\bCONFIG_[A-Z0-9_]+=[ymn\d]"
# A merge-order sentence: merge and an order word in one sentence.
MERGE = r"\bmerg(?:e|es|ed|ing)\b"
ORDER = r"\b(?:order|before|after|first|then|independently|alone|any)\b"
# Text to be filled in before a mail may be sent (submit/submission.py's @census).
PLACEHOLDER = r"@census\b|\bPLACEHOLDER\b"
# Trailers and footer lines that are not prose.
FOOTER = re.compile(r"^(?:base-commit|change-id|prerequisite-patch-id|prerequisite-change-id): ")
FOOTER_PREREQ = re.compile(r"^prerequisite-patch-id: ", re.M)
DIFFSTAT = re.compile(r"^ (?:\S.*\S)\s+\|\s+(?:\d+ [+-]*|Bin .*)$|^ \d+ files? changed")


def prose(body):
    """-> [(line number in the body, line)] of the text a reader reads"""
    out = []
    for n, line in enumerate(body.split("\n"), 1):
        if line.startswith("diff --git ") or re.fullmatch(r"--\s*", line):
            break  # the patch, or the signature
        if FOOTER.match(line) or DIFFSTAT.match(line):
            continue
        out.append((n, line))
    return out


def load(path):
    msg = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
    try:
        body = msg.get_content()
    except (KeyError, LookupError):
        body = msg.get_payload(decode=True).decode("utf-8", "replace")
    return msg, body.replace("\r\n", "\n")


def not_for_merging(msg):
    """the mail is a patch not for merging, sent in reply to its topic's cover"""
    return bool(NOT_FOR_MERGING.search(" ".join(str(msg.get("Subject", "")).split())))


def reply(msg, cover):
    """-> None or why the patch not for merging MSG is not a proper reply to COVER"""
    subject = " ".join(str(msg.get("Subject", "")).split())
    if re.search(r"\b\d+/\d+\]", subject):
        return f"its subject is numbered as a patch of the posting: {subject!r}"
    if cover is None:
        return "its topic has no cover mail (0/N) to answer"
    want = str(cover.get("Message-Id", "")).strip()
    for h in ("In-Reply-To", "References"):
        got = str(msg.get(h, "")).strip()
        if got != want:
            return f"{h}: {got or '(none)'} is not the cover's Message-Id {want}"
    for h in ("To", "Cc"):
        mine = sorted(a.lower() for _n, a in email.utils.getaddresses([str(msg.get(h, ""))]))
        theirs = sorted(a.lower() for _n, a in email.utils.getaddresses([str(cover.get(h, ""))]))
        if mine != theirs:
            return f"its {h}: is not the cover's"
    return None


def is_cover(msg, alone):
    """the 0/N mail, or the only mail of its topic (a one-patch topic's cover is below its ---)"""
    return alone or bool(re.search(r"\b0+/\d+\]", str(msg.get("Subject", ""))))


def joined(lines):
    """-> (the prose as one line, each run of white space one blank; the body line
    number of each of its characters), so that a phrase broken across lines is found"""
    text, where = "", []
    for n, line in lines:
        words = " ".join(line.split())
        if words:
            text += words + " "
            where += [n] * (len(words) + 1)
    return text, where


def hits(lines, check, patterns=PATTERNS):
    """-> [(line number, matched text, what)] of the PATTERNS (or STRICT_PARENT) of CHECK"""
    text, where = joined(lines)
    out = []
    for name, rx, flags, what in patterns:
        if name != check:
            continue
        for m in re.finditer(rx, text, flags):
            out.append((where[m.start()], m.group(0), what))
    return sorted(out)


def describe(found):
    n, text, what = found[0]
    more = f"; {len(found)} hits in all" if len(found) > 1 else ""
    return f'body line {n}: "{text.strip()}": {what}{more}'


def changelog(lines):
    """-> the prose lines before the first "---" line: a patch's changelog, a 0/N cover's text"""
    out = []
    for n, line in lines:
        if re.fullmatch(r"---\s*", line):
            break
        out.append((n, line))
    return out


def position(msg, alone):
    """-> K of a [PATCH K/N] subject (1 for the one mail of a one-patch topic), 0 for a cover"""
    m = re.search(r"\b(\d+)/\d+\]", " ".join(str(msg.get("Subject", "")).split()))
    return int(m.group(1)) if m else 1 if alone else 0


def measure(topic, k):
    """-> what to do instead: measure patch K of TOPIC against its parent in its own posting"""
    name = topic or "NAME"
    if k > 0:
        pair, which = f"p{k - 1}=topic:{name}:{k - 1} p{k}=topic:{name}:{k}", "this patch"
    else:
        pair, which = f"pJ=topic:{name}:J pK=topic:{name}:K", "each patch K (J = K-1)"
    return (f"measure {which} against its parent in its own posting, with "
            f"bench/bench.sh --kernels '{pair}' ({OWN_PARENT_DOC})")


def strict_parent(lines, alone, topic, k, prereq=False):
    """-> [(check, None or the reason it failed)] of the strict-parent checks that
    apply; PREREQ: the topic depends on others (its mails name prerequisite patches)"""
    results = []
    for check in STRICT_CHECKS:
        if check == "cover-ref" and not alone:
            continue  # the topic has a cover letter to see
        if check == "base-parent" and (k == 0 or (k == 1 and not prereq)):
            continue  # a cover, or a first patch right on the base
        found = hits(lines if check == "cover-ref" else changelog(lines), check, STRICT_PARENT)
        if check == "cover-ref":
            todo = ("say it in this mail: name the parent of these numbers, and "
                    + measure(topic, k))
        else:
            todo = measure(topic, k)
        results.append((check, f"{describe(found)}; {todo}" if found else None))
    return results


def check_mail(msg, body, alone, strict=True, topic=None, prereq=False, cover=None):
    """-> [(check, None or the reason it failed)] for the checks that apply; with
    STRICT, the strict-parent checks too (TOPIC: the topic, for what to run instead;
    PREREQ: the topic depends on others; COVER: the topic's cover mail, which a patch
    not for merging answers)"""
    lines = prose(body)
    text = joined(lines)[0]
    results = []
    for check in ("harness", "run-tags", "history", "own-parent"):
        found = hits(lines, check)
        results.append((check, describe(found) if found else None))
    if strict:
        results += strict_parent(lines, alone, topic, position(msg, alone), prereq)

    counts = bool(re.search(COUNT_WORDS, text, re.I)
                  and any(re.search(rx, text, re.I) for rx in COUNT_NUMBERS)) or any(
        re.search(rx, text) for rx in COUNT_TABLES)
    if counts:
        results.append(("clock", None if re.search(CLOCK, text) else
                        "quotes instruction counts but names no clock "
                        "(-icount shift=0,sleep=off, or guest instructions under QEMU TCG)"))
        found = hits(lines, "config")
        why = describe(found) if found else None
        if not why and not re.search(CONFIG, text):
            why = "quotes instruction counts but states no config (e.g. x86_64 defconfig, NR_CPUS=512)"
        results.append(("config", why))

    if is_cover(msg, alone):
        sentences = re.split(r"(?<=[.!?])\s+", text)
        ok = any(re.search(MERGE, s, re.I) and re.search(ORDER, s, re.I) for s in sentences)
        results.append(("merge-order", None if ok else
                        "no sentence on the merge order (e.g. \"Merge after the seq_buf part; "
                        "the other parts are independent.\")"))

    subject = " ".join(str(msg.get("Subject", "")).split())
    marked = subject.startswith(NOT_FOR_SENDING) or f" {NOT_FOR_SENDING}" in subject
    name, addr = email.utils.parseaddr(str(msg.get("From", "")))
    sobs = [m.group(1) for _n, l in lines
            for m in [re.match(r"Signed-off-by:.*<([^<>]+)>\s*$", l)] if m]
    why = None
    if not addr:
        why = "no From: address"
    elif submission.reserved(addr):
        why = f"From: {addr} is a placeholder in a reserved domain"
    elif any(submission.reserved(a) for a in sobs):
        why = f"a Signed-off-by is a placeholder: {next(a for a in sobs if submission.reserved(a))}"
    elif re.search(r"^diff --git ", body, re.M) and addr.lower() not in (a.lower() for a in sobs):
        why = f"no Signed-off-by of the sender {addr}"
    if why and marked:
        results.append(("sender", None))  # a placeholder, and the subject says so
    else:
        results.append(("sender", why and why + " and the subject is not marked " + NOT_FOR_SENDING))

    if not_for_merging(msg):
        results.append(("reply", reply(msg, cover)))

    where = joined(lines)[1]
    m = re.search(PLACEHOLDER, text)
    results.append(("placeholder", None if not m or marked else
                    f'body line {where[m.start()]}: "{m.group(0)}": text to fill in before '
                    f"sending, and the subject is not marked {NOT_FOR_SENDING}"))
    return results


def mails(dirs):
    """-> [(topic, path, alone, prereq, cover)] of the *.eml under DIRS (a topic directory or
    one of topics); ALONE: the one mail of its posting (patches not for merging, which
    answer a cover, do not count); PREREQ: a mail of the topic names prerequisite patches
    (it depends on others); COVER: the path of the topic's 0/N mail, or None"""
    out = []
    for d in dirs:
        d = pathlib.Path(d)
        own = sorted(d.glob("*.eml"))
        groups = [(d, own)] if own else [(t, sorted(t.glob("*.eml"))) for t in sorted(d.iterdir())
                                          if t.is_dir()] if d.is_dir() else []
        for topic, files in groups:
            prereq = any(FOOTER_PREREQ.search(f.read_text(errors="replace")) for f in files)
            msgs = {f: load(f)[0] for f in files}
            posting = [f for f in files if not not_for_merging(msgs[f])]
            cover = next((f for f in posting if is_cover(msgs[f], False)), None)
            out += [(topic.name, f, f in posting and len(posting) == 1, prereq, cover)
                    for f in files]
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(
        prog="check-mails.py", description=__doc__.split("\n\n")[0],
        epilog="Checks: harness, run-tags, history, own-parent, clock, config, merge-order, "
               "sender, placeholder, reply, and (unless --no-strict-parent) one-boot, separate-boots, "
               "parent-named, cover-ref, base-parent; see the top of submit/check-mails.py.")
    build = pathlib.Path(os.environ.get("CGSCALE_BUILD") or TOP / "build")
    ap.add_argument("dirs", nargs="*", metavar="DIR", default=[str(build / "submit")],
                    help="build/submit or build/submit/TOPIC (default: build/submit)")
    ap.add_argument("--no-strict-parent", dest="strict_parent", action="store_false",
                    help="skip the checks of the old wording of numbers that are not this patch "
                         "against its parent in its own posting (one-boot, separate-boots, "
                         "parent-named, cover-ref, base-parent), e.g. to read mails rendered "
                         "before every changelog was measured against its own parent")
    a = ap.parse_args(argv)
    found = mails(a.dirs)
    if not found:
        print(f"fail mails:(no *.eml under {' '.join(a.dirs)}; run submit/prepare-submission.sh)")
        return 1
    failed = 0
    for topic, path, alone, prereq, cover in found:
        msg, body = load(path)
        cmsg = load(cover)[0] if cover else None
        for check, why in check_mail(msg, body, alone, a.strict_parent, topic, prereq, cmsg):
            name = f"mails:{topic}/{path.name}:{check}"
            print(f"fail {name}({why})" if why else f"pass {name}")
            failed += bool(why)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
