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
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/series.sh"

cfg=${1:-test}
tree=$SRC
[ -d "$SRC/.git" ] || die "no work tree; run scripts/make-worktree.sh first"
[ -z "$(sgit status --porcelain --untracked-files=no)" ] ||
	die "the work tree $SRC has uncommitted changes; commit or stash them first"
[ "$(sgit rev-parse --abbrev-ref HEAD)" = series ] || die "the work tree is not on branch 'series'"
trap 'sgit checkout -q series' EXIT
failed=0
for c in $(sgit rev-list --reverse base..series); do
	subject=$(sgit log -1 --format=%s "$c")
	git -C "$tree" checkout -q --detach "$c"
	step "building $(git -C "$tree" log -1 --format=%h "$c") $subject"
	if ! "$TOP/scripts/build-kernel.sh" "$cfg" "$tree" bisect >/dev/null; then
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
