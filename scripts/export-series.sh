#!/usr/bin/env bash
# Export the work tree's series (base..series) to patches/ (or DIR).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/series.sh"

usage() {
	cat <<'EOF'
usage: scripts/export-series.sh [DIR]
Export the series of the work tree (base..series of build/linux, which must
be clean and on branch "series") as format-patch files with a cover letter
into DIR (default: patches/), replacing the patch files there.
EOF
}
only_operands "$@"
[ $# -le 1 ] || usage_error "want [DIR], got $# arguments"
out=${1:-$TOP/patches}
[ -e "$SRC/.git" ] || die "no work tree at $SRC; run scripts/make-worktree.sh first"
[ -z "$(sgit status --porcelain --untracked-files=no)" ] ||
	die "the work tree $SRC has uncommitted changes; commit them first"
[ "$(sgit rev-parse --abbrev-ref HEAD)" = series ] ||
	die "the work tree is not on branch 'series'"
mkdir -p "$out"
find "$out" -maxdepth 1 -name '[0-9][0-9][0-9][0-9]-*.patch' -delete
export_series "$out"
info "exported $(series_patches "$out" | wc -l) patches to $out"
