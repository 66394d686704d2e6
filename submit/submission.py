#!/usr/bin/env python3
"""The topic map of the series (submit/topics) and the per-topic cover letters.

usage: submission.py check            the map against patches/; errors, exit 1
       submission.py list             topic names, in map order
       submission.py patches TOPIC    its patch files, in series order
       submission.py deps TOPIC       topics to apply first (transitively), in map order
       submission.py tree TOPIC       its tree
       submission.py prefix TOPIC     its subject prefixes after PATCH (e.g. RFC), or nothing
       submission.py checkers         topics whose patches the check of every topic runs
                                      checkpatch with (their "checker" line)
       submission.py cc TOPIC         the extra Cc: of the map, "Name <addr>" per line
       submission.py nokeywords TOPIC its "nokeywords" reason, or nothing: get_maintainer.pl
                                      then runs with --nokeywords for the topic
       submission.py extras TOPIC     its patches not for merging ("extra" lines): the diff
                                      and its changelog, two absolute paths per line,
                                      tab-separated
       submission.py extra-mail COVER PATCH N
                                      the mail of patch not for merging N (1, 2, ...):
                                      PATCH (git format-patch output) as a reply to the
                                      cover mail COVER, to its To: and Cc:, dated as it;
                                      its subject marked [NOT FOR SENDING] if the cover's is
       submission.py cover TOPIC      its cover letter: subject, blank line, body
       submission.py unused           summary.json rows that no cover shows
       submission.py placeholder      the placeholder identity of patches/ ("Name <addr>")
       submission.py sender IDENT     IDENT checked as a sender ("Name <addr@domain>",
                                      no reserved domain): printed, or an error and exit 2
       submission.py rewrite IDENT DIR
                                      copies of patches/ in DIR, From: and the placeholder's
                                      Signed-off-by: rewritten to IDENT, all else kept
       submission.py -h|--help        this text

The placeholder identity is the From: of patches/ whose address is in a
reserved domain (RFC 2606/6761: .example, .invalid, .test, .localhost,
example.com/.net/.org): it is nobody, so no mail from it may leave.

A cover letter source, submit/covers/TOPIC.txt, is the subject line, a blank
line and the body. In the body, {p:N} becomes the topic's own number of the
series' patch N; a line "@method" becomes the paragraph on the measured
kernels and the clock: a short config line read from
bench/latest/kernels/base.config, the clock sentence, and what numbers
under emulation cannot show. A line "@steps FILE" becomes the table of
bench/latest/FILE, a steps.json of bench/bin/bench-psi-steps.sh: the PSI
overhead after each patch and each patch's own change, the patches by
their number in the topic. It is refused unless the steps are exactly
this topic's patches on the base, with nothing between them that changes
the kernel: the numbers of a cover are this part against its own parent.
A line "@bench ..." is refused for the same reason: the rows of
bench/latest/summary.json compare the base with the series (or a prefix
of it), not one part with its parent. A line "@census" becomes a marked
placeholder paragraph (the data on PSI's premise that is still being
measured); submit/check-mails.py fails a mail with it unless the mail is
marked NOT FOR SENDING.
Then come the base ("based on v7.3-rc7"), the dependencies, the list of all
topics and the merge order, all from the map. Nothing in a cover is a
number copied from a run.
"""
import importlib.util
import json
import pathlib
import re
import sys

TOP = pathlib.Path(__file__).resolve().parents[1]
TOPICS = TOP / "submit" / "topics"
COVERS = TOP / "submit" / "covers"
PATCHES = TOP / "patches"
BENCH = TOP / "bench" / "latest"

class MapError(Exception):
    pass


def _headers(text):
    """-> ([(name, raw value with its folded lines)], the body) of a mail's text"""
    head, _, body = text.partition("\n\n")
    out = []
    for line in head.splitlines():
        if line[:1] in (" ", "\t") and out:
            out[-1][1] += "\n" + line
        elif ":" in line:
            name, _, value = line.partition(":")
            out.append([name, value.strip() if not value.startswith(" ") else value[1:]])
    return out, body


def extra_mail(cover_text, patch_text, n):
    """-> the mail of a patch not for merging: PATCH_TEXT (git format-patch output, the
    subject prefixed as it should be sent) as reply N to the cover mail COVER_TEXT"""
    if patch_text.startswith("From ") and "\n" in patch_text:
        patch_text = patch_text.split("\n", 1)[1]  # the mbox separator line
    cover, _ = _headers(cover_text)
    patch, body = _headers(patch_text)
    get = lambda hs, k: next((v for h, v in hs if h.lower() == k.lower()), None)
    msgid = get(cover, "Message-Id")
    if not msgid or not re.fullmatch(r"<[^<>@\s]+@[^<>@\s]+>", msgid):
        raise MapError(f"the cover mail has no usable Message-Id: {msgid!r}")
    subject = " ".join((get(patch, "Subject") or "").split())
    if not subject:
        raise MapError("the patch has no Subject:")
    if " ".join((get(cover, "Subject") or "").split()).startswith("[NOT FOR SENDING]"):
        subject = "[NOT FOR SENDING]" + subject
    local, _, domain = msgid[1:-1].partition("@")
    hs = [("From", get(patch, "From")), ("Date", get(cover, "Date")), ("Subject", subject)]
    hs += [(h, v) for h, v in patch if h.lower() in ("mime-version", "content-type",
                                                    "content-transfer-encoding")]
    hs += [("Message-Id", f"<{local}-not-for-merging-{n}@{domain}>"),
           ("References", msgid), ("In-Reply-To", msgid)]
    hs += [(h, v) for h, v in cover if h.lower() in ("to", "cc")]
    if any(v is None for _h, v in hs):
        raise MapError(f"the cover or the patch lacks {[h for h, v in hs if v is None]}")
    return "".join(f"{h}: {v}\n" for h, v in hs) + "\n" + body


def rel(path):
    try:
        return path.relative_to(TOP)
    except ValueError:
        return path


def parse_topics(path=TOPICS):
    """-> [{name, patches: [int], subjects: {N: subject}, tree, depends: [(name, why)],
    cc: [(name, addr, why)]}] in file order"""
    topics, cur = [], None
    for lineno, raw in enumerate(path.read_text().splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        key, _, val = line.partition(" ")
        val = val.strip()
        where = f"{path.name}:{lineno}"
        if key == "topic":
            if not re.fullmatch(r"[a-z0-9_-]+", val):
                raise MapError(f"{where}: bad topic name {val!r}")
            cur = {"name": val, "patches": [], "subjects": {}, "tree": None, "depends": None,
                   "cc": [], "prefix": [], "checker": None, "nokeywords": None, "extra": [],
                   "line": lineno}
            topics.append(cur)
            continue
        if cur is None:
            raise MapError(f"{where}: {key!r} before the first 'topic' line")
        if key == "patch":
            m = re.fullmatch(r"(\d+) (.+)", val)
            if not m:
                raise MapError(f"{where}: want 'patch N SUBJECT': {val!r}")
            n = int(m.group(1))
            if n in cur["subjects"]:
                raise MapError(f"{where}: patch {n} twice in topic {cur['name']}")
            cur["patches"].append(n)
            cur["subjects"][n] = m.group(2)
        elif key == "tree":
            cur["tree"] = val
        elif key == "prefix":
            if not re.fullmatch(r"[A-Za-z0-9_.-]+(?: [A-Za-z0-9_.-]+)*", val):
                raise MapError(f"{where}: want 'prefix WORD...': {val!r}")
            cur["prefix"] = val.split()
        elif key == "checker":
            if not val:
                raise MapError(f"{where}: write 'checker WHY'")
            cur["checker"] = val
        elif key == "extra":
            paths = val.split()
            if len(paths) != 2:
                raise MapError(f"{where}: want 'extra DIFF CHANGELOG': {val!r}")
            diff, log = (TOP / x for x in paths)
            for x in (diff, log):
                if not x.is_file():
                    raise MapError(f"{where}: no file {rel(x)}")
            subject = log.read_text().split("\n", 1)[0].strip()
            if not subject or "\n\n" not in log.read_text():
                raise MapError(f"{where}: {rel(log)} is not a subject line, a blank line and a body")
            cur["extra"].append((diff, log))
        elif key == "nokeywords":
            if not val:
                raise MapError(f"{where}: write 'nokeywords WHY'")
            cur["nokeywords"] = val
        elif key == "cc":
            m = re.fullmatch(r"(?:(?P<name>[^<>]*?)\s*<(?P<addr>[^<>\s]+)>|(?P<bare>[^<>\s]+@[^<>\s]+))"
                             r"\s+(?P<why>\S.*)", val)
            if not m:
                raise MapError(f"{where}: want 'cc NAME <ADDR> WHY' or 'cc ADDR WHY': {val!r}")
            name, addr = (m.group("name") or "").strip(), m.group("addr") or m.group("bare")
            try:
                check_address(addr)
            except IdentityError as e:
                raise MapError(f"{where}: {e}") from None
            if addr.lower() in (a.lower() for _n, a, _w in cur["cc"]):
                raise MapError(f"{where}: {addr} twice in topic {cur['name']}")
            cur["cc"].append((name, addr, m.group("why")))
        elif key == "depends":
            cur["depends"] = cur["depends"] or []
            if val != "-":
                name, _, why = val.partition(":")
                if not why.strip():
                    raise MapError(f"{where}: write 'depends TOPIC: why' or 'depends -'")
                cur["depends"].append((name.strip(), why.strip()))
        else:
            raise MapError(f"{where}: unknown key {key!r}")
    for t in topics:
        for key in ("tree", "depends"):
            if t[key] is None:
                raise MapError(f"{path.name}:{t['line']}: topic {t['name']} has no '{key}' line")
        if not t["patches"]:
            raise MapError(f"{path.name}:{t['line']}: topic {t['name']} has no 'patch' line")
    return topics


class IdentityError(Exception):
    pass


# Domains that are nobody's (RFC 2606, RFC 6761): mail to them bounces, and
# a Signed-off-by with one certifies nothing.
RESERVED_TLDS = ("example", "invalid", "test", "localhost")
RESERVED_DOMAINS = ("example.com", "example.net", "example.org", "localhost")


def reserved(addr):
    """True if the mail address ADDR is in a reserved domain"""
    domain = addr.rpartition("@")[2].lower().rstrip(".")
    return (domain in RESERVED_DOMAINS or domain.rpartition(".")[2] in RESERVED_TLDS
            or any(domain.endswith("." + d) for d in RESERVED_DOMAINS))


def check_address(addr):
    """raise IdentityError unless ADDR looks like local@domain.tld outside the reserved domains"""
    if not re.fullmatch(r"[^@\s<>(),;:\"]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+\.?", addr):
        raise IdentityError(f"{addr!r} is not a mail address (want local@domain.tld)")
    if reserved(addr):
        raise IdentityError(f"{addr} is in a reserved domain (.example, .invalid, .test, "
                            "localhost, example.com/.net/.org): replies to it bounce, and a "
                            "Signed-off-by with it certifies nothing")


def parse_identity(text):
    """"Name <addr@domain>" -> (name, addr), or IdentityError saying what is wrong"""
    m = re.fullmatch(r"\s*([^<>]*?)\s*<([^<>]*)>\s*", text or "")
    if not m:
        raise IdentityError(f"{text!r} is not \"Name <addr@domain>\"")
    name, addr = m.group(1).strip().strip('"').strip(), m.group(2).strip()
    if not re.search(r"\w", name) or "@" in name:
        raise IdentityError(f"{text!r} has no name before the <address> "
                            "(a Signed-off-by needs the real name of a person)")
    check_address(addr)
    return name, addr


def fmt_identity(name, addr):
    return f"{name} <{addr}>" if name else addr


def _from_header(text):
    """-> (name, addr, start, end) of the From: header of a patch mail (unfolded), or None"""
    head = text.split("\n\n", 1)[0]
    m = re.search(r"^From: (.*(?:\n[ \t].*)*)", head, re.M)
    if not m:
        return None
    value = re.sub(r"\s*\n[ \t]+", " ", m.group(1)).strip()
    im = re.fullmatch(r"(.*?)\s*<([^<>]+)>", value)
    name, addr = (im.group(1).strip().strip('"'), im.group(2)) if im else ("", value)
    return name, addr, m.start(), m.end()


def placeholders(ser):
    """-> the From: identities of the patches (name, addr) whose address is reserved"""
    out = []
    for _n, (path, _subj) in sorted(ser.items()):
        f = _from_header(path.read_text(errors="replace"))
        if f and reserved(f[1]) and f[:2] not in out:
            out.append(f[:2])
    return out


TRAILER = re.compile(r"^[A-Za-z0-9-]+: \S")


def rewrite_identity(text, sender, holders):
    """A patch mail with the placeholder identities HOLDERS replaced by SENDER
    (name, addr): the From: header if it is one of them, each
    Signed-off-by: line of the changelog that names one of them, and the
    address that opens a bracketed note of theirs, "[addr: what changed]"
    between another author's Signed-off-by and theirs
    (Documentation/maintainer/modifying-patches.rst). Every other
    line, tag and Signed-off-by stays. If the changelog then has no
    Signed-off-by of SENDER (a patch from someone else), SENDER's is added as
    the last tag: whoever sends a patch signs it off."""
    name, addr = sender
    who = {a.lower() for _n, a in holders}
    f = _from_header(text)
    if f and f[1].lower() in who:
        text = text[:f[2]] + f"From: {fmt_identity(name, addr)}" + text[f[3]:]
    head, sep, rest = text.partition("\n\n")
    body, cut, tail = rest.partition("\n---\n")  # the changelog ends at the first ---
    lines = body.split("\n")
    mine = f"Signed-off-by: {fmt_identity(name, addr)}"
    out = []
    for line in lines:
        m = re.fullmatch(r"Signed-off-by:\s*(.*?)\s*<([^<>]+)>\s*", line)
        if m and m.group(2).lower() in who:
            line = mine
        n = re.match(r"\[([^\[\]:\s]+@[^\[\]:\s]+):", line)  # the sender's note "[addr: changes]"
        if n and n.group(1).lower() in who:
            line = f"[{addr}:" + line[n.end():]
        if line == mine and mine in out:
            continue  # the sender had signed off already
        out.append(line)
    if mine not in out:
        end = len(out)
        while end and not out[end - 1].strip():
            end -= 1
        start = end
        while start and out[start - 1].strip():
            start -= 1
        block = out[start:end]  # the last paragraph: the tags, if all its lines are tags
        if block and all(TRAILER.match(l) or l[:1] in " \t" for l in block):
            out.insert(end, mine)
        else:
            out[end:end] = ["", mine]
    return head + sep + "\n".join(out) + cut + tail


def series(patches_dir=PATCHES):
    """-> {N: (path, subject)} of patches/NNNN-*.patch without the cover letter"""
    out = {}
    for p in sorted(patches_dir.glob("[0-9][0-9][0-9][0-9]-*.patch")):
        n = int(p.name[:4])
        if n == 0:
            continue
        m = re.search(r"^Subject: (.*(?:\n[ \t].*)*)", p.read_text(errors="replace"), re.M)
        subj = re.sub(r"\s*\n[ \t]+", " ", m.group(1)) if m else ""
        out[n] = (p, re.sub(r"^\[PATCH[^]]*\]\s*", "", subj))
    return out


def check(topics, ser):
    """-> list of errors: every patch of patches/ in exactly one topic, with its
    subject, in series order within the topic; dependencies exist, no cycle"""
    errs, owner = [], {}
    names = [t["name"] for t in topics]
    for name in set(names):
        if names.count(name) > 1:
            errs.append(f"topic {name} is defined {names.count(name)} times")
    for t in topics:
        if t["patches"] != sorted(t["patches"]):
            errs.append(f"topic {t['name']}: patches not in series order: {t['patches']}")
        for n in t["patches"]:
            if n not in ser:
                errs.append(f"topic {t['name']}: patch {n} is not in patches/")
            elif t["subjects"][n] != ser[n][1]:
                errs.append(f"topic {t['name']}: patch {n} is {ser[n][1]!r} in patches/, "
                            f"not {t['subjects'][n]!r}")
            if n in owner:
                errs.append(f"patch {n} is in topics {owner[n]} and {t['name']}")
            owner.setdefault(n, t["name"])
        for dep, _why in t["depends"]:
            if dep not in names:
                errs.append(f"topic {t['name']} depends on unknown topic {dep!r}")
            elif dep == t["name"]:
                errs.append(f"topic {t['name']} depends on itself")
    for n in sorted(set(ser) - set(owner)):
        errs.append(f"patch {n} ({ser[n][0].name}) is in no topic")
    if not errs:
        try:
            for t in topics:
                deps_of(topics, t["name"])
        except MapError as e:
            errs.append(str(e))
    return errs


def topic(topics, name):
    for t in topics:
        if t["name"] == name:
            return t
    raise MapError(f"no topic {name!r} in {rel(TOPICS)} "
                   f"(topics: {', '.join(t['name'] for t in topics)})")


def deps_of(topics, name, _seen=()):
    """-> names of the topics to apply before NAME, transitively, in map order"""
    if name in _seen:
        raise MapError(f"dependency cycle: {' -> '.join(_seen + (name,))}")
    need = set()
    for dep, _why in topic(topics, name)["depends"]:
        need.add(dep)
        need.update(deps_of(topics, dep, _seen + (name,)))
    return [t["name"] for t in topics if t["name"] in need]


def numbers(ns):
    """[2, 3, 4, 10] -> 'patches 2-4, 10'"""
    runs = []
    for n in ns:
        if runs and n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    text = ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)
    return ("patch " if len(ns) == 1 else "patches ") + text


def load_bench(bench=BENCH):
    meta = json.loads((bench / "meta.json").read_text())
    rows = json.loads((bench / "summary.json").read_text())
    return meta, rows


def _fmt():
    spec = importlib.util.spec_from_file_location("bench_report", TOP / "bench" / "bin" / "bench-report.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.fmt


def natural(metric):
    return [int(x) if x.isdigit() else x for x in re.split(r"(\d+)", metric)]


def select(rows, bench, regexes):
    mine = [r for r in rows if r["benchmark"] == bench]
    if not mine:
        raise MapError(f"no rows of benchmark {bench!r} in summary.json")
    out = []
    for rx in regexes:
        hit = [r for r in mine if re.search(rx, r["metric"]) and r not in out]
        if not hit:
            raise MapError(f"@bench {bench}: no metric matches {rx!r}")
        out += sorted(hit, key=lambda r: natural(r["metric"]))
    return out


def table(rows):
    """rows -> lines: one table per unit (and pair of kernels), median and
    [min-max] per kernel; base/patched rows head their columns base, series"""
    fmt = _fmt()
    lines = []
    for r in rows:
        ref, cmp = r.get("keys") or ["base", "patched"]
        if not lines or lines[-1][0] != (r["unit"], ref, cmp):
            head = ["base", "series"] if [ref, cmp] == ["base", "patched"] else [ref, cmp]
            lines.append(((r["unit"], ref, cmp), [[r["unit"], *head, "ratio"]]))
        b, p = r[ref], r[cmp]
        ratio = "-" if r["ratio"] is None else f"{r['ratio']:.3f}" + (" *" if r["significant"] else "")
        lines[-1][1].append([r["metric"], fmt(b["median"]), fmt(p["median"]), ratio])
        lines[-1][1].append(["", f"[{fmt(b['min'])}-{fmt(b['max'])}]",
                             f"[{fmt(p['min'])}-{fmt(p['max'])}]", ""])
    out = []
    for _unit, tab in lines:
        w = [max(len(l[i]) for l in tab) for i in range(4)]
        out += ([""] if out else []) + [
            "  " + "  ".join(c.ljust(w[i]) for i, c in enumerate(l)).rstrip() for l in tab]
    return out


def steps_table(path, local_number, t, ser):
    """a steps.json -> lines: overhead per depth after each step, and the change.
    Refused unless the steps are the base and then exactly the patches of topic T,
    with nothing before them that changes the kernel: this part against its parent."""
    if not path.exists():
        raise MapError(f"@steps: no {rel(path)}")
    steps = json.loads(path.read_text())
    nums = [int(x["step"].split("-")[0]) for x in steps]
    if nums[:1] != [0] or nums[1:] != t["patches"] or t["depends"]:
        raise MapError(f"@steps {rel(path)}: its steps (patches {nums[1:]}) are not topic "
                       f"{t['name']}'s patches {t['patches']} on the base")
    for n in range(1, max(nums) + 1):
        if n not in t["patches"] and n in ser and not all(NOT_KERNEL.match(f)
                                                           for f in touched(ser[n][0])):
            raise MapError(f"@steps {rel(path)}: the kernels include patch {n} of another "
                           "topic, which changes the kernel: not this part against its parent")
    depths = sorted(steps[0]["overhead"], key=int)
    n = min(s["overhead"][d]["n"] for s in steps for d in depths)
    tab = [["after patch"] + [f"depth {d}" for d in depths]]
    for s in steps:
        num = s["step"].split("-")[0]
        label = "base" if int(num) == 0 else local_number(int(num))
        cells = []
        for d in depths:
            c = f"{s['overhead'][d]['median']:,.0f}"
            if "effect" in s:
                e = s["effect"][d]
                c += f" ({e['delta']:+,.0f}{'*' if e['significant'] else ''})"
            cells.append(c)
        tab.append([label] + cells)
    w = [max(len(l[i]) for l in tab) for i in range(len(tab[0]))]
    out = wrap(f"PSI overhead per round trip (instructions, median of {n} boots) after "
               "each patch, and in brackets that patch's own change against its parent; "
               "* = the 95% bootstrap CI of the change excludes 0 and it is above 0.1%. "
               "Each patch was built and measured on its own, the kernels booted in "
               "rotating order:") + [""]
    return out + ["  " + "  ".join(c.rjust(w[i]) if i else c.ljust(w[i])
                                   for i, c in enumerate(l)).rstrip() for l in tab]


BASE = "v7.3-rc7"  # the mainline tag the series is on (tag base: Debian's import of it)


def config_line(bench=BENCH):
    """-> a short line on the measured kernels, read from their config"""
    kdir = bench / "kernels"
    cfg = {k: (kdir / f"{k}.config").read_text() for k in ("base", "patched")}
    if [l for l in cfg["base"].splitlines() if not l.startswith("#")] != \
            [l for l in cfg["patched"].splitlines() if not l.startswith("#")]:
        raise MapError("bench/latest/kernels: base and patched were built from different "
                       "configs; the covers say they share one")
    c = cfg["base"]

    def val(name):
        m = re.search(rf"^CONFIG_{name}=(.*)$", c, re.M)
        return m and m.group(1).strip('"')

    arch = re.search(r"^# Linux/(\S+)", c, re.M)
    parts = [arch.group(1) if arch else "?", "allnoconfig plus SMP"]
    if val("NR_CPUS"):
        parts[-1] += f" with NR_CPUS={val('NR_CPUS')}"
    have = [n for n, k in (("NUMA", "NUMA"), ("cgroup v2 with memcg", "MEMCG"),
                           ("blk-cgroup", "BLK_CGROUP"), ("CFS bandwidth", "CFS_BANDWIDTH"),
                           ("PSI", "PSI"), ("swap", "SWAP"), ("ftrace", "FTRACE"),
                           ("kprobes", "KPROBES"), ("BPF", "BPF_SYSCALL")) if val(k) == "y"]
    parts += have
    preempt = next((p for p in ("PREEMPT_LAZY", "PREEMPT_RT", "PREEMPT", "PREEMPT_VOLUNTARY",
                                "PREEMPT_NONE") if val(p) == "y"), None)
    if preempt:
        parts.append(f"CONFIG_{preempt}=y")
    if val("HZ"):
        parts.append(f"HZ={val('HZ')}")
    debug = [k for k in ("LOCKDEP", "PROVE_LOCKING", "KASAN", "KCSAN", "DEBUG_PREEMPT",
                         "DEBUG_ATOMIC_SLEEP", "GCOV_KERNEL") if val(k) == "y"]
    parts.append("debug checks " + " ".join(debug) if debug else
                 "no lockdep, KASAN or other debug checks")
    cc = val("CC_VERSION_TEXT")
    if cc:
        parts.append(re.sub(r"\s*\(.*?\)", "", cc))
    return "The measured kernels: " + ", ".join(parts) + "; both kernels of a comparison alike."


CLOCK = ("They ran in a 2-vCPU QEMU TCG guest with -icount shift=0,sleep=off, so guest "
         "time is retired instructions: repeatable to about 0.05% between boots, blind "
         "to cache misses and contention.")
EMULATION = ("Every number here is instructions under emulation, not cycles or time on a "
             "real machine. It cannot show cache misses, cache lines moving between CPUs, "
             "the price of a barrier or an atomic, lock contention, NUMA distance or SMT, "
             "and under -icount the vCPUs take turns, so nothing ran truly in parallel. "
             "Until runs on real hardware exist, the cost on real machines, the hot path's "
             "above all, is argued, not measured.")


def method(meta, bench=BENCH):
    """-> the paragraph on the measured kernels and the clock of a cover"""
    if meta.get("clock") != "icount" or meta.get("accel") != "tcg":
        raise MapError(f"bench/latest was measured with clock={meta.get('clock')} "
                       f"accel={meta.get('accel')}; the covers only describe icount under TCG")
    return wrap(config_line(bench)) + [""] + wrap(CLOCK + " " + EMULATION)


def touched(path):
    """-> the files a patch of patches/ changes"""
    return re.findall(r"^diff --git a/(\S+) b/", path.read_text(errors="replace"), re.M)


# files whose change does not change the kernel a benchmark boots
NOT_KERNEL = re.compile(r"^(?:scripts/checkpatch\.pl|scripts/spelling\.txt|tools/|Documentation/)")


def wrap(text, width=72):
    out, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            out.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return out + ([line] if line else [])


def merge_order(topics, name):
    """-> the merge-order sentences of the cover of NAME, from the depends lines"""
    def both(names):
        names = list(names)
        return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]

    after = [f"{x['name']} merges after {both(d for d, _w in x['depends'])}"
             for x in topics if x["depends"]]
    t = topic(topics, name)
    later = [y["name"] for y in topics if any(d == name for d, _w in y["depends"])]
    if t["depends"]:
        mine = f"Merge this part after {both(d for d, _w in t['depends'])}."
    elif later:
        mine = f"This part merges before {both(later)}, which build on it."
    else:
        mine = "This part can be merged on its own, in any order with the others."
    if not after:
        return mine + " The parts are independent and can be merged in any order."
    return (mine + " Of the parts, " + both(after) + "; the parts are otherwise "
            "independent and can be merged in any order.")


CENSUS = ("[@census PLACEHOLDER, not for sending: how many active children the "
          "ancestors of a task's group have on production hosts, the premise of the "
          "mirror, is being measured; the data goes here.]")


def cover(topics, name, ser, meta, rows):
    t = topic(topics, name)
    src = COVERS / f"{name}.txt"
    if not src.exists():
        raise MapError(f"no cover letter source {rel(src)}")
    subject, blank, *body = src.read_text().rstrip("\n").split("\n")
    if not subject.strip() or blank.strip():
        raise MapError(f"{rel(src)}: want a subject line, a blank line, the body")
    local = {n: i for i, n in enumerate(t["patches"], 1)}

    def local_number(n):
        if n not in local:
            raise MapError(f"{rel(src)}: patch {n} is not in topic {name}")
        return str(local[n])

    def patchref(m):
        return local_number(int(m.group(1)))

    out, used, have_method = [], [], False
    for line in body:
        if line.strip() == "@method":
            have_method = True
            out += method(meta)
        elif line.startswith("@bench"):
            raise MapError(f"{rel(src)}: @bench is refused: the rows of summary.json compare "
                           "the base with the series (or a prefix of it), not this part with "
                           "its own parent; quote the patches' own numbers in their changelogs")
        elif line.startswith("@steps"):
            words = line.split()
            if len(words) != 2:
                raise MapError(f"{rel(src)}: want '@steps FILE': {line!r}")
            if not have_method:
                raise MapError(f"{rel(src)}: an @method line must come before @steps")
            out += ([""] if out and out[-1].strip() else []) + steps_table(
                BENCH / words[1], local_number, t, ser)
        elif line.strip() == "@census":
            out += wrap(CENSUS)
        else:
            out.append(re.sub(r"\{p:(\d+)\}", patchref, line))
    text = "\n".join(out).strip("\n").split("\n")
    total = len(ser)
    text += [""] + wrap(f"Based on {BASE}. This is one of {len(topics)} parts of a "
                        f"{total}-patch series, split by tree:") + [""]
    w = max(len(x["name"]) for x in topics)
    for x in topics:
        mark = "  (this)" if x["name"] == name else ""
        text.append(f"  {x['name'].ljust(w)}  {numbers(x['patches'])}{mark}")
        text += ["  " + " " * w + "  " + l for l in wrap(x["tree"], 66 - w)]
    # the last paragraph is prose: b4 prep --auto-to-cc adds its To:/Cc:
    # trailers after it, and would take "word: ..." lines there for trailers
    deps = []
    for dep, why in t["depends"]:
        d = topic(topics, dep)
        subj = ("; ".join(f'"{ser[n][1]}"' for n in d["patches"]) if len(d["patches"]) <= 3
                else f"the {len(d['patches'])} patches of part {dep}, \"{ser[d['patches'][0]][1]}\" "
                     f"to \"{ser[d['patches'][-1]][1]}\"")
        deps.append(f"Depends on {subj} (part {dep} above, sent separately), because "
                    f"{why}. It is not in this posting; the prerequisite-patch-id lines "
                    "below name it.")
    text += [""] + (sum((wrap(d) + [""] for d in deps), [])[:-1] if deps else
                    wrap(f"No dependencies: this part applies to {BASE} on its own."))
    text += [""] + wrap(merge_order(topics, name))
    for line in text:
        if line.startswith("#"):
            raise MapError(f"cover of {name}: a line starts with '#', which b4 would drop: {line!r}")
        if re.match(r"\s*\w\S+:\s+\S", line):  # b4's trailer pattern
            raise MapError(f"cover of {name}: a line looks like a mail trailer to b4: {line!r} "
                           "(reword it in submit/covers/ or submit/topics)")
    return subject.strip() + "\n\n" + "\n".join(text) + "\n", used


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    cmd, args = argv[1], argv[2:]
    if cmd in ("-h", "--help"):
        print(__doc__)
        return 0
    if cmd.startswith("-"):
        print(__doc__, file=sys.stderr)
        print(f"submission.py: unknown option {cmd!r}", file=sys.stderr)
        return 2
    if cmd == "sender" and len(args) == 1:
        try:
            print(fmt_identity(*parse_identity(args[0])))
        except IdentityError as e:
            print(f"submission.py: not a sender: {e}", file=sys.stderr)
            return 2
        return 0
    try:
        topics = parse_topics()
        ser = series()
        if cmd == "check":
            errs = check(topics, ser)
            for e in errs:
                print(f"submit/topics: {e}", file=sys.stderr)
            return 1 if errs else 0
        errs = check(topics, ser)
        if errs:
            raise MapError(errs[0] + " (run submit/submission.py check)")
        if cmd == "list":
            lines = [t["name"] for t in topics]
        elif cmd == "patches" and len(args) == 1:
            lines = [str(ser[n][0]) for n in topic(topics, args[0])["patches"]]
        elif cmd == "deps" and len(args) == 1:
            lines = deps_of(topics, args[0])
        elif cmd == "tree" and len(args) == 1:
            lines = [topic(topics, args[0])["tree"]]
        elif cmd == "prefix" and len(args) == 1:
            lines = topic(topics, args[0])["prefix"]
        elif cmd == "checkers" and not args:
            lines = [t["name"] for t in topics if t["checker"]]
        elif cmd == "cc" and len(args) == 1:
            # quoted where a name has a comma or the like: the script joins them with ","
            lines = [fmt_identity(f'"{n}"' if re.search(r'[,;:()\[\]@"]', n) else n, a)
                     for n, a, _why in topic(topics, args[0])["cc"]]
        elif cmd == "extra-mail" and len(args) == 3:
            cover_text = pathlib.Path(args[0]).read_text()
            patch_text = pathlib.Path(args[1]).read_text()
            sys.stdout.write(extra_mail(cover_text, patch_text, int(args[2])))
            return 0
        elif cmd == "extras" and len(args) == 1:
            lines = [f"{d}\t{c}" for d, c in topic(topics, args[0])["extra"]]
        elif cmd == "nokeywords" and len(args) == 1:
            why = topic(topics, args[0])["nokeywords"]
            lines = [why] if why else []
        elif cmd == "placeholder" and not args:
            lines = [fmt_identity(n, a) for n, a in placeholders(ser)]
        elif cmd == "rewrite" and len(args) == 2:
            try:
                sender = parse_identity(args[0])
            except IdentityError as e:
                print(f"submission.py: not a sender: {e}", file=sys.stderr)
                return 2
            holders = placeholders(ser)
            out = pathlib.Path(args[1])
            out.mkdir(parents=True, exist_ok=True)
            lines = []
            for _n, (path, _subj) in sorted(ser.items()):
                dst = out / path.name
                dst.write_text(rewrite_identity(path.read_text(), sender, holders))
                lines.append(str(dst))
        elif cmd == "cover" and len(args) == 1:
            meta, rows = load_bench()
            lines = cover(topics, args[0], ser, meta, rows)[0].splitlines()
        elif cmd == "unused":
            meta, rows = load_bench()
            used = []
            for t in topics:
                used += cover(topics, t["name"], ser, meta, rows)[1]
            lines = [f"{r['benchmark']} {r['metric']}" for r in rows if r not in used]
        else:
            print(__doc__, file=sys.stderr)
            return 2
        for line in lines:
            print(line)
    except (MapError, OSError, ValueError, KeyError) as e:
        print(f"submission.py: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
