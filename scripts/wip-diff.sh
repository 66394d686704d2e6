#!/usr/bin/env bash
# One diff for a work-in-progress patch set: wip-diff.sh NAME OUT
# Applies wip/NAME/*.patch (in name order, each with patch -p1) to copies of
# the files they touch, taken from the work tree $SRC, and writes the
# difference as one unified diff to OUT, one section per file. Applied and
# reverted as a whole by scripts/build-kernel.sh --ablation, which the
# kernel spec wip:NAME of bench/bench.sh uses (see bench-kernels.py).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

usage() {
	cat <<'EOF'
usage: scripts/wip-diff.sh NAME OUT
One diff for the work-in-progress patch set wip/NAME: apply its patches in
name order to copies of the files they touch, taken from the work tree
build/linux (or CGSCALE_SRC), and write the difference as one unified diff
to OUT. bench/bench.sh builds kernel spec wip:NAME with it.
EOF
}
only_operands "$@"
[ $# -eq 2 ] || usage_error "want NAME OUT, got $# arguments"
name=${1:?usage: wip-diff.sh NAME OUT}
out=${2:?usage: wip-diff.sh NAME OUT}
dir=$TOP/wip/$name
shopt -s nullglob
patches=("$dir"/*.patch)
[ "${#patches[@]}" -gt 0 ] || die "wip-diff.sh: no patches in wip/$name"
[ -e "$SRC/.git" ] || die "no work tree at $SRC; run scripts/make-worktree.sh first"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/a" "$tmp/b"
sed -n 's|^diff --git a/\([^ ]*\) b/.*|\1|p' "${patches[@]}" | sort -u |
while read -r f; do
	if [ -f "$SRC/$f" ]; then
		mkdir -p "$tmp/a/$(dirname "$f")" "$tmp/b/$(dirname "$f")"
		cp "$SRC/$f" "$tmp/a/$f"
		cp "$SRC/$f" "$tmp/b/$f"
	fi
done
for p in "${patches[@]}"; do
	patch -p1 -s -d "$tmp/b" --forward --no-backup-if-mismatch <"$p" >"$tmp/patch.log" 2>&1 ||
		die "wip/$name/$(basename "$p") does not apply to $SRC with the patches before it: $(head -n 3 "$tmp/patch.log")"
done
(cd "$tmp" && diff -ruN a b) >"$tmp/diff" || [ $? -eq 1 ] || die "wip-diff.sh: diff failed"
# no time stamps: the same patches give the same diff (and checksum)
sed -E 's/^(---|\+\+\+) ([^\t]*)\t.*/\1 \2/' "$tmp/diff" >"$out"
