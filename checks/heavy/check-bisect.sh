#!/usr/bin/env bash
# Check that every patch of the series builds on its own: for each commit of
# base..series, check it out (detached) in the work tree and build the kernel
# (config CONFIG, default test) incrementally in build/obj/bisect-CONFIG, plus
# the cgroup selftests when the commit touches them. The work tree must be
# clean; it is put back on branch "series" afterwards. Using the work tree
# itself (not a second worktree) keeps the source paths the same, so ccache
# serves every file a commit did not change. A commit that changes a widely
# included header still rebuilds most of the tree. Not part of the test
# command; run it before posting.
#
#   check-bisect.sh [--from N] [CONFIG]
#
# --from N: only patches N.. of the series (the earlier ones built alone
# before and unchanged since); the first one is built on top of the tree
# the object directory holds, so its own build is the full check. A
# missing build/obj/bisect-CONFIG starts as a copy of build/obj/patched-CONFIG
# when that exists (build-kernel.sh --seed; same config, so only what the checked-out commit
# changes is rebuilt).
set -euo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"
. "$(dirname "$0")/../../scripts/series.sh"

usage() {
	cat <<'EOF'
usage: checks/heavy/check-bisect.sh [--from N] [CONFIG]
Build every patch of base..series on its own: check each commit out
(detached) in the work tree, which must be clean, and build config CONFIG
(default: test) incrementally in build/obj/bisect-CONFIG, plus the cgroup
selftests when the commit touches them; back on branch "series" afterwards.
Prints "pass|fail bisect:SUBJECT" per patch; exits 1 if any failed.
  --from N  only patches N.. of the series
EOF
}
from=1
case ${1:-} in
-h|--help) usage; exit 0 ;;
--from)
	[[ "${2:-}" =~ ^[1-9][0-9]*$ ]] || usage_error "--from wants a patch number, got '${2:-}'"
	from=$2
	shift 2 ;;
esac
only_operands "$@"
[ $# -le 1 ] || usage_error "want [--from N] [CONFIG], got $# operands"
cfg=${1:-test}
tree=$SRC
[ -e "$SRC/.git" ] || die "no work tree; run scripts/make-worktree.sh first"
[ -z "$(sgit status --porcelain --untracked-files=no)" ] ||
	die "the work tree $SRC has uncommitted changes; commit or stash them first"
[ "$(sgit rev-parse --abbrev-ref HEAD)" = series ] || die "the work tree is not on branch 'series'"
commits=$(sgit rev-list --reverse base..series | tail -n +"$from")
[ -n "$commits" ] || die "the series has fewer than $from patches"
trap 'sgit checkout -q series' EXIT
failed=0
for c in $commits; do
	subject=$(sgit log -1 --format=%s "$c")
	git -C "$tree" checkout -q --detach "$c"
	step "building $(git -C "$tree" log -1 --format=%h "$c") $subject"
	if ! "$TOP/scripts/build-kernel.sh" --seed patched "$cfg" "$tree" bisect >/dev/null; then
		echo "fail bisect:$subject"
		failed=1
		continue
	fi
	if git -C "$tree" diff --quiet "$c~1" "$c" -- tools/testing/selftests/cgroup; then
		echo "pass bisect:$subject"
	elif "$TOP/scripts/build-selftests.sh" "$tree" "$BUILD/obj/bisect-$cfg" >/dev/null; then
		echo "pass bisect:$subject (kernel and selftests)"
	else
		echo "fail bisect:$subject (selftests)"
		failed=1
	fi
done
exit "$failed"
