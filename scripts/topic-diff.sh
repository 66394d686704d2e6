#!/usr/bin/env bash
# One posting of the series (a topic of submit/topics) on v7.3-rc7, as a
# diff on the base tree: topic-diff.sh NAME K OUT writes the changes of the
# topics NAME depends on and of NAME's first K patches (all of them if K is
# "all"; 0: the dependencies alone), applied in series order to the work
# tree's base commit, to OUT. bench/bench.sh builds kernel spec
# topic:NAME:K with it (build-kernel.sh --ablation on the base tree): a
# patch measured against the parent it has in its own posting, which is
# what a reader of that posting's tree would apply it to, not against the
# series' earlier patches that go to other trees.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/series.sh"

usage() {
	cat <<'EOF2'
usage: scripts/topic-diff.sh NAME K OUT
The topic NAME of submit/topics on v7.3-rc7: its dependencies' patches and
its own first K patches (K: a number, 0 for the dependencies alone, or
"all"), applied in series order to the base commit of the work tree
build/linux (or CGSCALE_SRC), as one diff on the base tree, written to
OUT. bench/bench.sh builds kernel spec topic:NAME:K with it.
EOF2
}
only_operands "$@"
[ $# -eq 3 ] || usage_error "want NAME K OUT, got $# arguments"
name=$1 k=$2 out=$3
case $k in
all) ;;
'' | *[!0-9]*) usage_error "K must be a number of patches or 'all', got '$k'" ;;
esac
[ -e "$SRC/.git" ] || die "topic-diff.sh: no work tree at $SRC; run scripts/make-worktree.sh first"
own=$("$TOP/submit/submission.py" patches "$name") ||
	die "topic-diff.sh: no topic '$name' (submit/submission.py list names them)"
n_own=$(grep -c . <<<"$own")
if [ "$k" = all ]; then
	k=$n_own
elif [ "$k" -gt "$n_own" ]; then
	die "topic-diff.sh: topic $name has $n_own patches; K must be 0 to $n_own or 'all'"
fi
deps=$("$TOP/submit/submission.py" deps "$name")
files=()
for d in $deps; do
	while read -r p; do files+=("$p"); done < <("$TOP/submit/submission.py" patches "$d")
done
[ "$k" -eq 0 ] || while read -r p; do files+=("$p"); done < <(head -n "$k" <<<"$own")
# series order: all are patches/NNNN-*.patch
mapfile -t files < <(printf '%s\n' ${files[@]+"${files[@]}"} | sort)
idx=$(mktemp "${TMPDIR:-/tmp}/topic-diff-index.XXXXXX")
trap 'rm -f "$idx"' EXIT
GIT_INDEX_FILE=$idx sgit read-tree base
for p in ${files[@]+"${files[@]}"}; do
	GIT_INDEX_FILE=$idx sgit apply --cached "$p" ||
		die "topic-diff.sh: ${p#"$TOP"/} does not apply to base plus the patches before it (${files[*]##*/})"
done
tree=$(GIT_INDEX_FILE=$idx sgit write-tree)
{
	echo "Topic $name on v7.3-rc7: $k of its $n_own patches, after the topics it depends on (${deps:-none})"
	echo "(patches: $(printf '%s ' ${files[@]+"${files[@]##*/}"} | sed 's/-[^ ]*//g; s/ $//'))"
	echo
	sgit diff --no-color --full-index base "$tree"
} >"$out"
