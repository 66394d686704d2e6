#!/usr/bin/env bash
# Build one cgroup selftest with a diff applied, without touching a work tree.
#
#   build-cgroup-test-variant.sh DIFF PROG OUTDIR
#
# Copies tools/testing/selftests and tools/include of the work tree
# build/linux (or CGSCALE_SRC) to a scratch directory, applies DIFF there
# (patch -p1), and builds tools/testing/selftests/cgroup/PROG against the
# UAPI headers of build/obj/patched-test into OUTDIR/PROG, with the same
# OUTDIR layout as an installed kselftest/cgroup (plus its helpers).
# For harness-only diffs (tests/memcg-reclaim/trace.diff) and selftest
# fixes tried before they join the series.
set -euo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"

usage() {
	cat <<'EOF2'
usage: checks/heavy/build-cgroup-test-variant.sh DIFF PROG OUTDIR
Build the cgroup selftest PROG of the work tree with DIFF applied to a
scratch copy of tools/testing/selftests into OUTDIR/PROG.
EOF2
}
only_operands "$@"
[ $# -eq 3 ] || usage_error "want DIFF PROG OUTDIR, got $# arguments"
diff=$(realpath "$1") prog=$2 out=$3
[ -f "$diff" ] || die "build-cgroup-test-variant.sh: no diff at $1"
[ -d "$SRC/tools/testing/selftests/cgroup" ] || die "no work tree at $SRC; run scripts/make-worktree.sh first"
hdr=$BUILD/obj/patched-test/usr/include
[ -d "$hdr" ] || die "no UAPI headers in $hdr; build the test kernel and its selftests first (scripts/build-selftests.sh)"
mkdir -p "$out"
out=$(realpath "$out")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/tools/testing"
cp -a "$SRC/tools/testing/selftests" "$tmp/tools/testing/"
cp -a "$SRC/tools/include" "$tmp/tools/"
log=$LOGS/cgroup-test-variant-$(basename "$diff" .diff).log
step "building $prog with $(basename "$diff") (log: $log)"
{
	patch -d "$tmp" -p1 <"$diff" &&
	make -C "$tmp/tools/testing/selftests/cgroup" OUTPUT="$out" \
		KHDR_INCLUDES="-isystem $hdr" "$out/$prog"
} >"$log" 2>&1 || die "building $prog with $diff failed; log: $log"
info "built $out/$prog"
