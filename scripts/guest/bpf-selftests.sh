#!/bin/bash
# Guest side of scripts/check-bpf-selftests.sh: bpf-selftests.sh BINDIR TESTS
# Runs BINDIR/test_progs -t TESTS from BINDIR (test_progs looks for its
# files next to itself) and exits with its status.
set -u
cd "$1" || exit 1
./test_progs -t "$2"
