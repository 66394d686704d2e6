#!/usr/bin/env bash
# The series cut after its Nth patch, as a diff on the work tree:
# series-diff.sh N OUT writes "git diff series PATCH_N" of the work tree
# $SRC to OUT, i.e. the reverse of patches N+1 to the last. Applied and
# reverted as a whole by scripts/build-kernel.sh --ablation, which the
# kernel spec series:N of bench/bench.sh uses (see bench-kernels.py):
# a part of the series measured against its own parent, from the same
# work tree, config and harness diffs as every other bench kernel.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/series.sh"

usage() {
	cat <<'EOF'
usage: scripts/series-diff.sh N OUT
The series up to and including its Nth patch, as one diff on the work tree
build/linux (or CGSCALE_SRC): "git diff series PATCH_N", which reverts
patches N+1 to the last. Writes it to OUT. bench/bench.sh builds kernel
spec series:N with it.
EOF
}
only_operands "$@"
[ $# -eq 2 ] || usage_error "want N OUT, got $# arguments"
n=$1
out=$2
case $n in
'' | *[!0-9]*) usage_error "N must be a patch number, got '$n'" ;;
esac
[ -e "$SRC/.git" ] || die "series-diff.sh: no work tree at $SRC; run scripts/make-worktree.sh first"
total=$(sgit rev-list --count base..series)
[ "$n" -ge 1 ] && [ "$n" -lt "$total" ] ||
	die "series-diff.sh: the series has patches 1 to $total; N must be 1 to $((total - 1)) (the whole series is kernel spec patched)"
commit=$(sgit rev-parse "series~$((total - n))")
{
	echo "The series as of its patch $n: $(sgit log -1 --format=%s "$commit")"
	echo "(reverts patches $((n + 1)) to $total of the work tree's branch series)"
	echo
	sgit diff --no-color --full-index series "$commit"
} >"$out"
