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
    "bench", "bench/bin", "bench/bin/guest",
    "hardware", "hardware/guest",
    "submit",
]


def command_files():
    for d in COMMAND_DIRS:
        for p in sorted((TOP / d).iterdir()):
            if p.is_file():
                yield p


def shell_scripts():
    """every tracked-looking *.sh of the harness and its benchmarks"""
    for d in ("scripts", "checks", "bench", "hardware", "submit", "tests"):
        yield from sorted((TOP / d).rglob("*.sh"))
