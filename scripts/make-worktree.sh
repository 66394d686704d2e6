#!/usr/bin/env bash
# Create the kernel work tree $BUILD/linux: one base commit (tag "base") and
# the series from patches/ applied with git am on branch "series".
#
# An existing work tree is left alone when its series already matches
# patches/. When it differs, nothing is touched unless --force is given; then
# the old branch and any uncommitted change are saved first (branch
# backup/<date>, git stash), so nothing is lost.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/series.sh"

usage() {
	cat <<'EOF'
usage: scripts/make-worktree.sh [--force]
Create the kernel work tree build/linux (or CGSCALE_SRC): the pinned base
as commit "base" and the series of patches/ applied with git am on branch
"series". A work tree whose series matches patches/ is left alone; one
that differs is left alone too unless --force is given.
  --force  rebuild a differing work tree; its old branch is kept as
           backup/DATE and uncommitted changes are stashed first
EOF
}
force=0
case ${1:-} in
-h|--help) usage; exit 0 ;;
--force) force=1; shift ;;
esac
only_operands "$@"
[ $# -eq 0 ] || usage_error "unknown argument '$1'"

series_matches() {
	local tmp
	tmp=$(mktemp -d)
	export_series "$tmp"
	if diff -r "$TOP/patches" "$tmp" -x series -x README.md >/dev/null 2>&1; then
		rm -rf "$tmp"
		return 0
	fi
	rm -rf "$tmp"
	return 1
}

apply_series() {
	local desc p
	sgit checkout -q -B series base
	desc=$(cover_description "$TOP/patches")
	[ -n "$desc" ] && sgit config branch.series.description "$desc"
	mapfile -t p < <(series_patches "$TOP/patches")
	[ "${#p[@]}" -gt 0 ] || { info "patches/ holds no patches"; return 0; }
	step "applying ${#p[@]} patches with git am"
	if ! sgit am -q --whitespace=error-all "${p[@]}" >"$LOGS/git-am.log" 2>&1; then
		cat "$LOGS/git-am.log" >&2
		sgit am --abort >/dev/null 2>&1 || true
		die "the series does not apply on base (log: $LOGS/git-am.log)"
	fi
}

mkdir -p "$LOGS"
# $SRC/.git is a directory, or a file when $SRC is a linked work tree
# (git worktree add, e.g. CGSCALE_SRC=build/linux-edit)
if [ -e "$SRC" ] && [ ! -e "$SRC/.git" ]; then
	rmdir "$SRC" 2>/dev/null ||
		die "$SRC exists but is not a git work tree; move it away (or point CGSCALE_SRC elsewhere) and run this again"
fi
if [ ! -e "$SRC/.git" ]; then
	"$TOP/scripts/get-base.sh"
	step "creating the work tree $SRC"
	rm -rf "$SRC.tmp"
	cp -a "$BASE_TREE" "$SRC.tmp"
	rm -f "$SRC.tmp/.cgscale-unpacked"
	# Debian's packaging rule "/*" (ignore everything at the top level) would
	# hide every new file from git; it is the only change to the tree.
	sed -i '/^\/\*$/d' "$SRC.tmp/.gitignore"
	git -C "$SRC.tmp" init -q -b series
	# git's automatic gc would otherwise repack the base's 80,000 loose
	# objects in the background after a later command, and prune them
	# while prepare-submission.sh clones this repository (the clone then
	# fails to copy an object): run it in the foreground instead
	git -C "$SRC.tmp" config gc.autoDetach false
	git -C "$SRC.tmp" add -f -A
	env "${BASE_COMMIT_ENV[@]}" git -C "$SRC.tmp" commit -q \
		-m "Linux 7.3-rc7 ($BASE_PKG $BASE_VERSION)" \
		-m "Debian's linux-source-7.3 package, version $BASE_VERSION, with its
top-level '/*' rule dropped from .gitignore."
	git -C "$SRC.tmp" tag base
	mv "$SRC.tmp" "$SRC"
	apply_series
	info "work tree ready: $SRC ($(sgit rev-list --count base..series) patches on base $(sgit rev-parse --short base))"
	exit 0
fi

# work trees made before the setting above get it too
sgit config gc.autoDetach false
if series_matches && [ -z "$(sgit status --porcelain)" ]; then
	# A linked work tree (git worktree add) holds work on top of the
	# series, and branch series is checked out in the main one: keep HEAD.
	if [ -f "$SRC/.git" ]; then
		info "linked work tree $SRC: series up to date with patches/, HEAD left at $(sgit log --oneline -1 HEAD)"
		exit 0
	fi
	sgit checkout -q series
	info "work tree up to date with patches/: $SRC"
	exit 0
fi
if [ "$force" -eq 0 ]; then
	die "the work tree $SRC differs from patches/ (other commits or uncommitted changes).
       Export your work first (make export), or rerun with --force (FORCE=1 from make):
       the old branch is then kept as backup/<date> and local changes are stashed."
fi
stamp=$(date +%Y%m%d-%H%M%S)
if [ -n "$(sgit status --porcelain)" ]; then
	sgit stash push -q -u -m "make-worktree --force $stamp"
	info "uncommitted changes stashed (git -C $SRC stash list)"
fi
sgit branch -q -f "backup/$stamp" series 2>/dev/null || true
info "old series kept as branch backup/$stamp"
apply_series
info "work tree reset to patches/: $SRC"
