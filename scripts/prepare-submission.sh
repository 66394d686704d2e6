#!/usr/bin/env bash
# Make send-ready submissions of the series, one per maintainer tree, with b4:
# build/submit/<topic>/ gets the mails of the topic as "b4 send -o" writes
# them (nothing is sent), the "b4 prep --check" output, the base commit and
# the dependencies. The topics are submit/topics, their cover letters
# submit/covers/ plus bench/latest (scripts/submission.py). b4 works in its
# own clone of build/linux, build/submit-work/linux; build/linux is only read.
# Usage: scripts/prepare-submission.sh [TOPIC...]   (default: every topic)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

OUT=$BUILD/submit
WORK=$BUILD/submit-work
CLONE=$WORK/linux
LOG=$LOGS/submission
# checkpatch as scripts/check-series.sh runs it: --strict, and the "does
# MAINTAINERS need updating?" question answered there by get_maintainer.pl
CHECK_CMD="$CLONE/scripts/checkpatch.pl -q --terse --no-summary --mailback --showfile --strict --ignore FILE_PATH_CHANGES"

sub() { python3 "$TOP/scripts/submission.py" "$@"; }
sub_to() { local out=$1; shift; sub "$@" >"$out"; }
cgit() { git -C "$CLONE" "$@"; }
# b4 from the venv, with Debian's python3 first in PATH: checkpatch runs
# scripts/spdxcheck.py with python3, which needs python3-ply (apt, for
# /usr/bin/python3); the venv's or a pyenv python3 lacks it.
b4in() { (cd "$CLONE" && PATH=/usr/bin:$PATH "$VENV/bin/b4" "$@"); }
# Neither the user's git config nor b4's caches outside build/ take part.
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export XDG_CACHE_HOME=$WORK/xdg/cache XDG_CONFIG_HOME=$WORK/xdg/config XDG_DATA_HOME=$WORK/xdg/data

need_cmd git python3
[ -x "$VENV/bin/b4" ] || die "b4 is not installed in $VENV; run scripts/install-deps.sh"
[ -e "$SRC/.git" ] || die "no work tree at $SRC; run scripts/make-worktree.sh first"
git -C "$SRC" rev-parse -q --verify refs/tags/base >/dev/null ||
	die "$SRC has no tag 'base'; run scripts/make-worktree.sh --force"
mkdir -p "$LOG" "$WORK/covers"

step "checking the topic map submit/topics against patches/ (log: $LOG/topics.log)"
run_logged "the topic map check (every patch of patches/ must be in exactly one topic of submit/topics, in series order; fix submit/topics)" \
	"$LOG/topics.log" sub check
mapfile -t all < <(sub list)
topics=("$@")
[ "${#topics[@]}" -gt 0 ] || topics=("${all[@]}")
for t in "${topics[@]}"; do
	printf '%s\n' "${all[@]}" | grep -qx -- "$t" || die "no topic '$t' in submit/topics (topics: ${all[*]})"
	run_logged "the cover letter of topic $t (fix submit/covers/$t.txt, or bench/latest if a row is missing)" \
		"$LOG/$t/cover.log" sub_to "$WORK/covers/$t.txt" cover "$t"
done

if [ ! -d "$CLONE/.git" ]; then
	step "cloning $SRC to $CLONE and checking out tag base (log: $LOG/clone.log)"
	rm -rf "$CLONE"
	run_logged "git clone of $SRC" "$LOG/clone.log" git clone -q --no-checkout "$SRC" "$CLONE"
fi
[ "$(cgit rev-parse base)" = "$(git -C "$SRC" rev-parse base)" ] ||
	die "tag base of $CLONE differs from $SRC's; remove $WORK and run again"
# a fresh start in the clone: base checked out, no branches of earlier runs
cgit am --abort >/dev/null 2>&1 || true
run_logged "git checkout of tag base in $CLONE (remove $WORK and run again)" "$LOG/clone.log" \
	git -C "$CLONE" checkout -q -f --detach base
cgit for-each-ref --format='%(refname:short)' refs/heads/ | while read -r b; do cgit branch -q -D "$b"; done
# the mails come from the author of the series
cgit config user.name "$(git mailinfo /dev/null /dev/null <"$(sub patches "${all[0]}" | head -n 1)" | sed -n 's/^Author: //p')"
cgit config user.email "$(git mailinfo /dev/null /dev/null <"$(sub patches "${all[0]}" | head -n 1)" | sed -n 's/^Email: //p')"
cgit config sendemail.sendmailcmd false # even without -o, this clone cannot send
cgit config b4.prep-perpatch-check-cmd "$CHECK_CMD"

# apply_topic TOPIC: git am its patches onto the current branch
apply_topic() {
	local p
	while read -r p; do
		run_logged "git am of $(basename "$p") (it does not apply here: if it needs patches of another topic, name that topic in its 'depends' line in submit/topics)" \
			"$LOG/$1/am.log" git -C "$CLONE" am -q "$p"
	done < <(sub patches "$1")
}

for t in "${topics[@]}"; do
	dir=$OUT/$t
	l=$LOG/$t
	step "topic $t: $(sub tree "$t") (logs: $l/)"
	rm -rf "$dir"
	mkdir -p "$dir"
	mapfile -t deps < <(sub deps "$t")
	cgit checkout -q -b "deps/$t" base
	for d in "${deps[@]}"; do apply_topic "$d"; done
	run_logged "b4 prep -n $t (b4 could not start its branch in $CLONE; remove $WORK and run again)" \
		"$l/prep.log" b4in prep -n "$t" -f "deps/$t"
	apply_topic "$t"
	info "$(cgit rev-list --count "deps/$t..b4/$t") commits (cover + patches) on base$([ "${#deps[@]}" -eq 0 ] || echo " + ${deps[*]}")"
	GIT_EDITOR="cp $WORK/covers/$t.txt" run_logged "b4 prep --edit-cover" "$l/prep.log" b4in prep --edit-cover
	git -C "$SRC" rev-parse base >"$dir/base-commit"
	if [ "${#deps[@]}" -gt 0 ]; then
		# the mails name the real base and the patches of the dependencies
		{
			echo "base-commit: $(cgit rev-parse base)"
			cgit rev-list --reverse "base..deps/$t" | while read -r c; do
				echo "patch-id: $(cgit show "$c" | git patch-id --stable | cut -d' ' -f1)"
			done
		} >"$WORK/deps-$t"
		GIT_EDITOR="cp $WORK/deps-$t" run_logged "b4 prep --edit-deps" "$l/prep.log" b4in prep --edit-deps
		{
			echo "Topic $t applies on base-commit plus these patches, which go to their own trees and are not in these mails:"
			for d in "${deps[@]}"; do
				echo "  $d ($(sub tree "$d")):"
				sub patches "$d" | while read -r p; do echo "    $(basename "$p")"; done
			done
			echo "The mails carry a prerequisite-patch-id line for each of them."
		} >"$dir/depends-on"
	else
		echo "Topic $t depends on no other topic: it applies on base-commit alone." >"$dir/depends-on"
	fi
	run_logged "b4 prep --auto-to-cc (scripts/get_maintainer.pl of the clone)" "$l/auto-to-cc.log" b4in prep --auto-to-cc
	cgit show -s --format=%B "$(cgit rev-list --reverse "deps/$t..b4/$t" | head -n 1)" |
		grep -E '^(To|Cc): ' >"$dir/recipients" || die "b4 prep --auto-to-cc found no recipients for $t (log: $l/auto-to-cc.log)"
	run_logged "b4 prep --check" "$l/check.log" b4in prep -C --check
	sed 's/\x1b\[[0-9;]*m//g' "$l/check.log" >"$dir/check.txt"
	grep -q '^Success: [0-9]*, Warning: 0, Error: 0$' "$dir/check.txt" ||
		die "b4 prep --check of topic $t is not clean: see $dir/check.txt; fix the patch in $SRC, run scripts/export-series.sh and this script again"
	info "$(tail -n 1 "$dir/check.txt")"
	run_logged "b4 send -o (writes the mails, sends nothing)" "$l/send.log" b4in send --no-sign -o "$dir"
	grep -q '^DRYRUN: Would have sent' "$l/send.log" || die "b4 send did not report a dry run for $t (log: $l/send.log)"
	n=$(sub patches "$t" | wc -l)
	want=$((n > 1 ? n + 1 : 1)) # a single patch carries its cover below the ---
	got=$(find "$dir" -name '*.eml' | wc -l)
	[ "$got" -eq "$want" ] || die "b4 send -o wrote $got mails for topic $t, not $want (log: $l/send.log)"
	info "$got mails, $(grep -c '^To: ' "$dir/recipients") To, $(grep -c '^Cc: ' "$dir/recipients") Cc -> $dir"
done

if [ "$#" -eq 0 ]; then
	step "checking that the topics, applied in map order, give the tree of the series"
	cgit checkout -q -b all-topics base
	for t in "${all[@]}"; do apply_topic "$t"; done
	cgit checkout -q -b whole-series base
	while read -r p; do
		run_logged "git am of $(basename "$p") for the whole series" "$LOG/series-am.log" git -C "$CLONE" am -q "$p"
	done < <(find "$TOP/patches" -maxdepth 1 -name '[0-9][0-9][0-9][0-9]-*.patch' ! -name '0000-*' | sort)
	cgit diff --quiet all-topics whole-series ||
		die "the topics applied one after another differ from the series (git -C $CLONE diff all-topics whole-series)"
	info "same tree: $(cgit rev-parse 'all-topics^{tree}')"
fi
step "done: ${topics[*]} in $OUT/ (nothing was sent)"
