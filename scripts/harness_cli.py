"""Option handling shared by the harness's Python scripts (imported, not run)."""

import importlib.util
import sys


def help_or_refuse(argv, doc, prog):
    """Answer -h/--help with DOC (return 0); refuse any other option with
    DOC and an error on stderr (return 2); None when ARGV has neither."""
    for a in argv[1:]:
        if a in ("-h", "--help"):
            print(doc.strip())
            return 0
        if a.startswith("-"):
            print(doc.strip(), file=sys.stderr)
            print(f"error: {prog}: unknown option {a!r}", file=sys.stderr)
            return 2
    return None


def load_module(path, name):
    """the Python file PATH (a script with dashes in its name) as module NAME"""
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod
