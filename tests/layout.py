"""Where the harness's programs live (README.md, "Layout"), for the tests
that walk them: the folders whose executable files are commands with
-h/--help, and the paths the regrouping of 2026-12-02 moved away from
scripts/ and bench/host/ (tests/test_house.py), which nothing may name again."""
import pathlib

TOP = pathlib.Path(__file__).resolve().parent.parent

# folders of commands (each executable file answers --help), not recursive
COMMAND_DIRS = [
    "scripts", "scripts/guest",
    "checks", "checks/guest", "checks/heavy", "checks/heavy/guest",
    "bench", "bench/bin", "bench/bin/guest", "bench/native",
    "hardware", "hardware/guest",
    "submit", "field",
]


def command_files():
    for d in COMMAND_DIRS:
        for p in sorted((TOP / d).iterdir()):
            if p.is_file():
                yield p


def shell_scripts():
    """every tracked-looking *.sh of the harness and its benchmarks"""
    for d in ("scripts", "checks", "bench", "hardware", "submit", "field", "tests"):
        yield from sorted((TOP / d).rglob("*.sh"))

# paths that moved on 2026-12-02 (commit 9272917), which nothing may name again
MOVED = [
    "scripts/bench-bpf-tools.sh",
    "scripts/bench-kernels.py",
    "scripts/bench-merge.py",
    "scripts/bench-psi-steps.sh",
    "scripts/bench-report.py",
    "scripts/bench.sh",
    "scripts/build-bench-bpf.sh",
    "scripts/build-bpf-selftests.sh",
    "scripts/build-cgroup-test-variant.sh",
    "scripts/capture-base-stats.sh",
    "scripts/check-ablation-selftest.sh",
    "scripts/check-bisect.sh",
    "scripts/check-bpf-selftests.sh",
    "scripts/check-build-matrix.sh",
    "scripts/check-config-boots.sh",
    "scripts/check-crosscheck.sh",
    "scripts/check-denylist.sh",
    "scripts/check-host-bench.py",
    "scripts/check-kcsan.sh",
    "scripts/check-mails.py",
    "scripts/check-memcg-reclaim-load.sh",
    "scripts/check-psi-model.sh",
    "scripts/check-rstat-mttcg.sh",
    "scripts/check-stat-format.py",
    "scripts/compare-warnings.py",
    "scripts/guest/bench-many.sh",
    "scripts/guest/bench-one.sh",
    "scripts/guest/bpf-selftests.sh",
    "scripts/guest/capture-stats.sh",
    "scripts/guest/capture-v1-stats.sh",
    "scripts/guest/host-bench-smoke.sh",
    "scripts/guest/odd-reads.py",
    "scripts/guest/profile-open.sh",
    "scripts/guest/profile-read.sh",
    "scripts/guest/repeat-selftest.sh",
    "scripts/guest/stress-reader.py",
    "scripts/guest/stress.sh",
    "scripts/host-bench.sh",
    "scripts/host-compare.py",
    "scripts/kcsan-reports.py",
    "scripts/kunit-results.py",
    "scripts/package-kernels.sh",
    "scripts/pahole-psi-group-cpu.sh",
    "scripts/prepare-submission.sh",
    "scripts/profile-insns.py",
    "scripts/profile-insns.sh",
    "scripts/profile-open-report.py",
    "scripts/profile-open.sh",
    "scripts/profile-read.sh",
    "scripts/prove-selftests.sh",
    "scripts/psi-census.sh",
    "scripts/psi-steps-report.py",
    "scripts/stress.sh",
    "scripts/submission.py",
    "bench/host",
]
