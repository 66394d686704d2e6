"""No "... | grep -q" in a script that runs with pipefail.

grep -q exits at its first match; a writer that still has output then
dies of SIGPIPE, and under "set -o pipefail" the pipeline fails although
grep matched. It happens only when grep wins the race, so on a busy
machine: the test command of 2026-11-27 failed once that way
(prepare-submission.sh's "printf ... | grep -qx" topic check). Use a loop,
a here-string, a file argument, or "grep ... >/dev/null", which reads all
of its input.
"""
import re

from layout import TOP, shell_scripts  # noqa: E402
PIPE_GREP_Q = re.compile(r"\|\s*grep\s+(?:-[A-Za-z]*q[A-Za-z]*|--quiet)\b")


def scripts_with_pipefail():
    for path in shell_scripts():
        text = path.read_text()
        if "pipefail" in text:
            yield path, text


def test_there_are_scripts_to_check():
    assert len(list(scripts_with_pipefail())) > 10


def test_no_pipe_into_grep_q():
    bad = []
    for path, text in scripts_with_pipefail():
        for n, line in enumerate(text.splitlines(), 1):
            if line.lstrip().startswith("#"):
                continue
            if PIPE_GREP_Q.search(line):
                bad.append(f"{path.relative_to(TOP)}:{n}: {line.strip()}")
    assert bad == [], "\n".join(bad)


def test_the_pattern_catches_what_it_is_for():
    assert PIPE_GREP_Q.search("printf '%s\\n' \"${all[@]}\" | grep -qx -- \"$t\"")
    assert PIPE_GREP_Q.search("sed -n p f | grep -q TODO")
    assert PIPE_GREP_Q.search("cmd | grep --quiet x")
    assert not PIPE_GREP_Q.search("grep -qxF \"$n\" <<<\"$names\"")
    assert not PIPE_GREP_Q.search("cmd | grep . >/dev/null")
