#!/bin/bash
# Guest side of checks/heavy/check-bpf-selftests.sh: bpf-selftests.sh BINDIR TESTS
# Runs BINDIR/test_progs -t TESTS from BINDIR (test_progs looks for its
# files next to itself) and exits with its status.

usage() {
	cat <<'EOF'
usage: checks/heavy/guest/bpf-selftests.sh BINDIR TESTS
Runs inside the guest (checks/heavy/check-bpf-selftests.sh): run
BINDIR/test_progs -t TESTS from BINDIR and exit with its status.
EOF
}
case ${1:-} in
-h|--help) usage; exit 0 ;;
-*) usage >&2; echo "error: bpf-selftests.sh: unknown option '$1'" >&2; exit 2 ;;
esac
[ $# -eq 2 ] || { usage >&2; echo "error: bpf-selftests.sh: want BINDIR TESTS, got $# arguments" >&2; exit 2; }
set -u
cd "$1" || exit 1
./test_progs -t "$2"
