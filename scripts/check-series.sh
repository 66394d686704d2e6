#!/usr/bin/env bash
# Host checks on the series in patches/, against the work tree:
#   - it applies on the pinned base (make-worktree.sh did that with git am);
#   - exporting the work tree reproduces patches/ byte for byte;
#   - every patch passes checkpatch.pl --strict, has a Signed-off-by: and
#     adds no whitespace errors;
#   - every break of tests/breaks applies to the work tree.
# Writes "pass|fail CHECK" lines to RESULTS (default: stdout only) and exits 1
# when any check failed.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/series.sh"

usage() {
	cat <<'EOF'
usage: scripts/check-series.sh [RESULTS]
Host checks on the series in patches/ against the work tree: exporting the
work tree reproduces patches/ byte for byte, and every patch passes
checkpatch.pl --strict, has its new files in MAINTAINERS, no TODO in its
changelog, a Signed-off-by: and no whitespace error, and every break of
tests/breaks applies to the work tree. Writes "pass|fail
CHECK" lines to RESULTS (default: none) and exits 1 if any check failed.
EOF
}
only_operands "$@"
[ $# -le 1 ] || usage_error "want [RESULTS], got $# arguments"
results=${1:-/dev/null}
: >"$results"
failed=0
record() { # STATUS NAME
	echo "$1 $2" >>"$results"
	printf '    %-4s %s\n' "$1" "$2"
	[ "$1" = pass ] || failed=1
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export_series "$tmp"
if diff -r -x series -x README.md "$TOP/patches" "$tmp" >"$LOGS/roundtrip.diff" 2>&1; then
	record pass series-roundtrip
else
	head -n 40 "$LOGS/roundtrip.diff"
	record fail series-roundtrip
	info "export of the work tree differs from patches/ (diff: $LOGS/roundtrip.diff)"
fi

mkdir -p "$LOGS/checkpatch"
while IFS= read -r p; do
	name=$(basename "$p" .patch)
	log=$LOGS/checkpatch/$name.log
	if (cd "$SRC" && ./scripts/checkpatch.pl --strict --no-tree --quiet \
		--ignore FILE_PATH_CHANGES "$p") >"$log" 2>&1 && [ ! -s "$log" ]; then
		record pass "checkpatch:$name"
	else
		sed 's/^/        /' "$log" | head -n 20
		record fail "checkpatch:$name"
	fi
	# checkpatch asks "does MAINTAINERS need updating?" for every added
	# file; answer it: each new file must be covered by a MAINTAINERS entry.
	new=$(sed -n 's/^ create mode [0-7]* //p' "$p")
	uncovered=
	for f in $new; do
		(cd "$SRC" && ./scripts/get_maintainer.pl --nogit --nogit-fallback \
			--norolestats --nol -f "$f" 2>/dev/null) | grep . >/dev/null || uncovered="$uncovered $f"
	done
	if [ -z "$uncovered" ]; then
		record pass "maintainers:$name"
	else
		info "not covered by MAINTAINERS:$uncovered"
		record fail "maintainers:$name"
	fi
	# a changelog still waiting for its numbers is not done
	if sed -n '/^Subject:/,/^---$/p' "$p" | grep 'TODO' >/dev/null; then
		sed -n '/^Subject:/,/^---$/p' "$p" | grep -n 'TODO' | sed 's/^/        /'
		record fail "changelog-complete:$name"
	else
		record pass "changelog-complete:$name"
	fi
	if grep -q '^Signed-off-by: .\+ <.\+@.\+>' "$p"; then
		record pass "signed-off-by:$name"
	else
		record fail "signed-off-by:$name"
	fi
done < <(series_patches "$TOP/patches")

if [ "$(sgit rev-list --count base..series)" -gt 0 ]; then
	if sgit diff --check base series >"$LOGS/whitespace.log" 2>&1; then
		record pass whitespace
	else
		head -n 20 "$LOGS/whitespace.log"
		record fail whitespace
	fi
fi
# checks/heavy/prove-selftests.sh applies each break to the work tree; a change
# of the series that moves a break's context makes that proof impossible
# to run, and nothing else would say so until someone runs it.
for d in "$TOP"/tests/breaks/*.diff; do
	name=$(basename "$d" .diff)
	if sgit apply --check "$d" >"$LOGS/break-$name.log" 2>&1; then
		record pass "break-applies:$name"
	else
		sed 's/^/        /' "$LOGS/break-$name.log" | head -n 5
		record fail "break-applies:$name"
	fi
done
exit "$failed"
