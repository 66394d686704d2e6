#!/usr/bin/env bash
# Make send-ready submissions of the series, one per maintainer tree, with b4:
# build/submit/<topic>/ gets the mails of the topic as "b4 send -o" writes
# them (nothing is sent), the "b4 prep --check" output, the base commit and
# the dependencies. The topics are submit/topics, their cover letters
# submit/covers/ plus bench/latest (submit/submission.py). b4 works in its
# own clone of build/linux, build/submit-work/linux; build/linux is only read.
# A topic's patches not for merging (its "extra" lines) become one more mail
# each, nfmN-*.eml, in reply to the cover.
# The sender is an input (--from or --use-git-identity); without one the
# mails keep the placeholder identity of patches/ and are marked NOT FOR
# SENDING. Usage: see usage() below.
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"

usage() {
	cat <<'EOF'
usage: submit/prepare-submission.sh [--from "Name <addr>" | --use-git-identity] [TOPIC...]
       submit/prepare-submission.sh -h|--help

Cuts patches/ into one b4 posting per maintainer tree (submit/topics) in
build/submit/TOPIC/: the mails as "b4 send -o" writes them, check.txt,
recipients, base-commit, depends-on. Nothing is sent. Default: every topic,
then a check that the topics add up to the series.

  --from "Name <addr>"   the sender: From: and the placeholder's Signed-off-by
                         of every mail become this identity, who thereby
                         certifies the Developer's Certificate of Origin
                         (Documentation/process/submitting-patches.rst) for
                         every patch. A reserved domain (.example, .invalid,
                         .test, localhost) is refused.
  --use-git-identity     the same with your git user.name and user.email
  -h, --help             this text

Without --from or --use-git-identity everything is built and checked, but
the mails keep the placeholder identity of patches/, their subjects start
with "[NOT FOR SENDING]", and build/submit/NOT-FOR-SENDING says so.
EOF
}
# usage_error MSG (lib.sh): the usage and the error on stderr, exit 2

sender=
use_git=0
topics=()
while [ "$#" -gt 0 ]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	--from) [ "$#" -ge 2 ] || usage_error "--from needs \"Name <addr>\"; nothing was done"; sender=$2; shift 2 ;;
	--from=*) sender=${1#--from=}; shift ;;
	--use-git-identity) use_git=1; shift ;;
	--) shift; topics+=("$@"); break ;;
	-*) usage_error "unknown option '$1'; nothing was done" ;;
	*) topics+=("$1"); shift ;;
	esac
done
if [ "$use_git" = 1 ]; then
	[ -z "$sender" ] || usage_error "give --from or --use-git-identity, not both; nothing was done"
	# read before GIT_CONFIG_GLOBAL=/dev/null below hides the user's config
	gname=$(git -C "$TOP" config user.name || true)
	gmail=$(git -C "$TOP" config user.email || true)
	if [ -z "$gname" ] || [ -z "$gmail" ]; then
		usage_error "--use-git-identity: git config user.name and user.email are not both set; nothing was done"
	fi
	sender="$gname <$gmail>"
fi
if [ -n "$sender" ]; then
	# "Name <addr@domain>" outside the reserved domains, or exit 2 with the reason
	sender=$(python3 "$TOP/submit/submission.py" sender "$sender") || {
		printf 'error: the sender must be a real person, who certifies the DCO by sending; nothing was done\n' >&2
		exit 2
	}
fi

OUT=$BUILD/submit
WORK=$BUILD/submit-work
CLONE=$WORK/linux
LOG=$LOGS/submission
CHECKER=$WORK/checker
# checkpatch as scripts/check-series.sh runs it: --strict, and the "does
# MAINTAINERS need updating?" question answered there by get_maintainer.pl.
# With the fixes of the map's checker topics (submit/topics, "checker"
# lines), if it has any: see below.
CHECK_ARGS="-q --terse --no-summary --mailback --showfile --strict --ignore FILE_PATH_CHANGES"
CHECK_CMD="$CLONE/scripts/checkpatch.pl $CHECK_ARGS"
# The cover letter as b4 writes it, without the base-commit: line: tag base
# is Debian's import of v7.3-rc7, whose commit id no tree can resolve, and
# the mainline commit id of v7.3-rc7 could not be established, so every
# cover says "Based on v7.3-rc7" instead (submit/submission.py).
COVER_TEMPLATE=$WORK/cover-template
DCO="certifies the Developer's Certificate of Origin (Documentation/process/submitting-patches.rst) for every patch by sending these mails"

sub() { python3 "$TOP/submit/submission.py" "$@"; }
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
placeholder=$(sub placeholder | head -n 1)
if [ -n "$sender" ]; then
	step "sender: $sender"
	info "$sender $DCO"
else
	step "sender: none given, so the mails are NOT FOR SENDING"
	info "they keep the placeholder ${placeholder:-identity of patches/} and their subjects start with [NOT FOR SENDING];"
	info "for mails that can be sent, run again with --from \"Name <addr>\" or --use-git-identity"
fi
mapfile -t all < <(sub list)
# is_topic NAME: NAME is a topic of the map. Not "printf | grep -q": under
# pipefail, grep's early exit can kill printf with SIGPIPE and fail the test
# on a busy machine.
is_topic() {
	local x
	for x in "${all[@]}"; do [ "$x" = "$1" ] && return 0; done
	return 1
}
whole=0
[ "${#topics[@]}" -gt 0 ] || { topics=("${all[@]}"); whole=1; }
for t in "${topics[@]}"; do
	is_topic "$t" || die "no topic '$t' in submit/topics (topics: ${all[*]})"
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

# The mails come from the sender, with copies of patches/ whose From: and
# placeholder Signed-off-by name the sender (submission.py rewrite), or else
# from the author of the series, the placeholder, and are marked NOT FOR SENDING.
PATCHDIR=
if [ -n "$sender" ]; then
	PATCHDIR=$WORK/patches-from
	rm -rf "$PATCHDIR"
	run_logged "rewriting From: and Signed-off-by of patches/ to $sender" "$LOG/rewrite.log" \
		sub rewrite "$sender" "$PATCHDIR"
	if [ -n "$placeholder" ] && grep -qiF -- "${placeholder#*<}" "$PATCHDIR"/*.patch; then
		die "the rewritten patches in $PATCHDIR still name the placeholder $placeholder"
	fi
	cgit config user.name "${sender% <*}"
	semail=${sender##*<}
	cgit config user.email "${semail%>}"
else
	cgit config user.name "$(git mailinfo /dev/null /dev/null <"$(sub patches "${all[0]}" | head -n 1)" | sed -n 's/^Author: //p')"
	cgit config user.email "$(git mailinfo /dev/null /dev/null <"$(sub patches "${all[0]}" | head -n 1)" | sed -n 's/^Email: //p')"
fi
cgit config sendemail.sendmailcmd false # even without -o, this clone cannot send
cat >"$COVER_TEMPLATE" <<'EOF'
${cover}

---
${shortlog}

${diffstat}
---
change-id: ${change_id}
${prerequisites}
Best regards,
-- 
${signature}
EOF
cgit config b4.prep-cover-template "$COVER_TEMPLATE"

# topic_patches TOPIC: the files to apply (the sender's copies with --from)
topic_patches() {
	local p
	while read -r p; do
		if [ -n "$PATCHDIR" ]; then echo "$PATCHDIR/$(basename "$p")"; else echo "$p"; fi
	done < <(sub patches "$1")
}

# apply_topic TOPIC: git am its patches onto the current branch
apply_topic() {
	local p
	while read -r p; do
		run_logged "git am of $(basename "$p") (it does not apply here: if it needs patches of another topic, name that topic in its 'depends' line in submit/topics)" \
			"$LOG/$1/am.log" git -C "$CLONE" am -q "$p"
	done < <(topic_patches "$1")
}

# The check runs checkpatch with the fixes of the checker topics applied
# (the checkpatch topic: a patch of another topic draws a false positive
# without it, and does not depend on it otherwise): their scripts/ and
# Documentation/dev-tools/ in $CHECKER, on base plus those patches.
mapfile -t checkers < <(sub checkers)
if [ "${#checkers[@]}" -gt 0 ]; then
	rm -rf "$CHECKER"
	mkdir -p "$CHECKER"
	git -C "$CLONE" archive base scripts Documentation/dev-tools | tar -x -C "$CHECKER"
	for c in "${checkers[@]}"; do
		while read -r p; do
			run_logged "git apply of $(basename "$p") to the checker's copy of scripts/ (a checker topic may only change scripts/ and Documentation/dev-tools/)" \
				"$LOG/checker.log" env GIT_CEILING_DIRECTORIES="$WORK" git -C "$CHECKER" apply "$p"
		done < <(topic_patches "$c")
	done
	# (outside a repository, so that git apply does not skip the paths as
	# outside its subdirectory of the project's repository)
	git -C "$CLONE" show base:scripts/checkpatch.pl | cmp -s - "$CHECKER/scripts/checkpatch.pl" &&
		die "the checker topics (${checkers[*]}) did not change $CHECKER/scripts/checkpatch.pl"
	CHECK_CMD="$CHECKER/scripts/checkpatch.pl $CHECK_ARGS"
	info "checkpatch for every topic: base with ${checkers[*]} applied ($CHECKER)"
fi
cgit config b4.prep-perpatch-check-cmd "$CHECK_CMD"

# directories of topics the map no longer has (a renamed or merged topic)
for d in "$OUT"/*/; do
	[ -d "$d" ] || continue
	is_topic "$(basename "$d")" || { info "removing $d: no such topic in submit/topics"; rm -rf "$d"; }
done

for t in "${topics[@]}"; do
	dir=$OUT/$t
	l=$LOG/$t
	step "topic $t: $(sub tree "$t") (logs: $l/)"
	rm -rf "$dir"
	mkdir -p "$dir"
	mapfile -t deps < <(sub deps "$t")
	cgit checkout -q -b "deps/$t" base
	for d in "${deps[@]}"; do apply_topic "$d"; done
	presubject=()
	[ -n "$sender" ] || presubject=(--set-presubject "[NOT FOR SENDING]")
	run_logged "b4 prep -n $t (b4 could not start its branch in $CLONE; remove $WORK and run again)" \
		"$l/prep.log" b4in prep -n "$t" -f "deps/$t" "${presubject[@]}"
	mapfile -t prefix < <(sub prefix "$t")
	if [ "${#prefix[@]}" -gt 0 ]; then
		run_logged "b4 prep --set-prefixes ${prefix[*]}" "$l/prep.log" b4in prep --set-prefixes "${prefix[@]}"
	fi
	apply_topic "$t"
	info "$(cgit rev-list --count "deps/$t..b4/$t") commits (cover + patches) on base$([ "${#deps[@]}" -eq 0 ] || echo " + ${deps[*]}")"
	GIT_EDITOR="cp $WORK/covers/$t.txt" run_logged "b4 prep --edit-cover" "$l/prep.log" b4in prep --edit-cover
	cat >"$dir/base-commit" <<EOF
v7.3-rc7 (the covers say "Based on v7.3-rc7"; the mails have no base-commit: line)
The local tag base is $(git -C "$SRC" rev-parse base), Debian's import of v7.3-rc7,
which no other tree has; the mainline commit id of v7.3-rc7 could not be
established from the material at hand. Rebase onto the maintainer's tree
before sending, and b4 gives a real base-commit.
EOF
	if [ "${#deps[@]}" -gt 0 ]; then
		# the mails name the patches of the dependencies
		{
			cgit rev-list --reverse "base..deps/$t" | while read -r c; do
				echo "patch-id: $(cgit show "$c" | git patch-id --stable | cut -d' ' -f1)"
			done
		} >"$WORK/deps-$t"
		GIT_EDITOR="cp $WORK/deps-$t" run_logged "b4 prep --edit-deps" "$l/prep.log" b4in prep --edit-deps
		{
			echo "Topic $t applies on v7.3-rc7 plus these patches, which go to their own trees and are not in these mails:"
			for d in "${deps[@]}"; do
				echo "  $d ($(sub tree "$d")):"
				sub patches "$d" | while read -r p; do echo "    $(basename "$p")"; done
			done
			echo "The mails carry a prerequisite-patch-id line for each of them."
		} >"$dir/depends-on"
	else
		echo "Topic $t depends on no other topic: it applies on v7.3-rc7 alone." >"$dir/depends-on"
	fi
	# the cc lines of the map (people get_maintainer.pl does not name) come
	# first, b4 adds get_maintainer.pl's after them
	mapfile -t cc < <(sub cc "$t")
	if [ "${#cc[@]}" -gt 0 ]; then
		cgit config b4.send-series-cc "$(IFS=,; echo "${cc[*]}")"
	else
		cgit config --unset-all b4.send-series-cc || true
	fi
	# b4's own get_maintainer.pl commands, with --nokeywords where the map
	# says the topic's keyword hits are noise (a word in a changelog)
	if [ -n "$(sub nokeywords "$t")" ]; then
		getm="$CLONE/scripts/get_maintainer.pl --nogit --nogit-fallback --nogit-chief-penguins --norolestats --nokeywords"
		cgit config b4.send-auto-to-cmd "$getm --nol"
		cgit config b4.send-auto-cc-cmd "$getm --nom"
	else
		cgit config --unset-all b4.send-auto-to-cmd || true
		cgit config --unset-all b4.send-auto-cc-cmd || true
	fi
	run_logged "b4 prep --auto-to-cc (the cc lines of submit/topics, then scripts/get_maintainer.pl of the clone)" \
		"$l/auto-to-cc.log" b4in prep --auto-to-cc
	cgit show -s --format=%B "$(cgit rev-list --reverse "deps/$t..b4/$t" | head -n 1)" |
		grep -E '^(To|Cc): ' >"$dir/recipients" || die "b4 prep --auto-to-cc found no recipients for $t (log: $l/auto-to-cc.log)"
	for c in "${cc[@]}"; do
		a=${c##*<}
		grep -qiF -- "${a%>}" "$dir/recipients" ||
			die "the cc line '$c' of topic $t in submit/topics is not among its recipients (log: $l/auto-to-cc.log)"
	done
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
	# The patches not for merging of the map's "extra" lines: each applied
	# on top of the topic, committed with its changelog and signed off by
	# the sender (or the placeholder), checked by checkpatch, and written as
	# one more mail in reply to the cover, to the cover's recipients
	mapfile -t extras < <(sub extras "$t")
	if [ "${#extras[@]}" -gt 0 ]; then
		cover_eml=$(find "$dir" -maxdepth 1 -name '0000-*.eml' | head -n 1)
		[ -n "$cover_eml" ] || die "topic $t has an extra line in submit/topics but no cover mail to reply to (a one-patch topic has none): drop the line or add a patch"
		i=0
		for e in "${extras[@]}"; do
			i=$((i + 1))
			ediff=${e%%$'\t'*}
			elog=${e#*$'\t'}
			cgit checkout -q -f -B "extra/$t-$i" "b4/$t"
			run_logged "git apply of ${ediff#"$TOP"/} on top of topic $t (it no longer applies: regenerate it against the series, see its header)" \
				"$l/extra.log" git -C "$CLONE" apply --index "$ediff"
			run_logged "git commit of ${ediff#"$TOP"/} with ${elog#"$TOP"/}" "$l/extra.log" \
				git -C "$CLONE" commit -q -s -F "$elog"
			pre=PATCH
			for x in $(sub prefix "$t"); do pre="$pre $x"; done
			run_logged "git format-patch of ${ediff#"$TOP"/}" "$l/extra.log" \
				sh -c 'git -C "$1" format-patch -1 --stdout --no-numbered --subject-prefix="$2" >"$3"' - \
				"$CLONE" "$pre NOT FOR MERGING" "$WORK/extra-$t-$i.patch"
			slug=$(git -C "$CLONE" log -1 --format=%f)
			mail=$dir/nfm$i-$slug.eml
			run_logged "the reply to the cover of $t for ${ediff#"$TOP"/}" "$l/extra.log" \
				sub_to "$mail" extra-mail "$cover_eml" "$WORK/extra-$t-$i.patch" "$i"
			(cd "$CLONE" && $CHECK_CMD "$WORK/extra-$t-$i.patch") >"$l/extra-check-$i.txt" 2>&1 || true
			[ ! -s "$l/extra-check-$i.txt" ] ||
				die "checkpatch finds fault with ${ediff#"$TOP"/} (changelog ${elog#"$TOP"/}): see $l/extra-check-$i.txt"
			info "not for merging: $(basename "$mail"), in reply to $(basename "$cover_eml"), checkpatch clean"
		done
	fi
	if [ -n "$sender" ]; then
		if [ -n "$placeholder" ] && grep -qiF -- "${placeholder#*<}" "$dir"/*.eml; then
			die "mails of topic $t still name the placeholder $placeholder: $(grep -liF -- "${placeholder#*<}" "$dir"/*.eml | head -n 3 | tr '\n' ' ')"
		fi
	else
		for m in "$dir"/*.eml; do
			grep -q '^Subject: \[NOT FOR SENDING\]' "$m" || die "$m is not marked [NOT FOR SENDING] in its subject"
		done
		cat >"$dir/NOT-FOR-SENDING" <<EOF
The mails of topic $t are from and signed off by the placeholder
${placeholder:-identity of patches/}, which is nobody: it cannot certify the
Developer's Certificate of Origin, and replies to it bounce. Their subjects
start with [NOT FOR SENDING]. For mails that can be sent, run
  submit/prepare-submission.sh --from "Your Name <you@your.domain>" $t
(or --use-git-identity); the sender $DCO.
EOF
	fi
	info "$(find "$dir" -name '*.eml' | wc -l) mails, $(grep -c '^To: ' "$dir/recipients") To, $(grep -c '^Cc: ' "$dir/recipients") Cc$([ "${#cc[@]}" -eq 0 ] || echo " (${#cc[@]} from submit/topics)") -> $dir"
done

if [ "$whole" = 1 ]; then
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

# build/submit/NOT-FOR-SENDING names every topic whose mails are marked (of
# this run or an earlier one); it goes when no topic is
marked=()
for d in "$OUT"/*/; do
	[ -e "$d/NOT-FOR-SENDING" ] && marked+=("$(basename "$d")")
done
if [ "${#marked[@]}" -gt 0 ]; then
	cat >"$OUT/NOT-FOR-SENDING" <<EOF
NOT FOR SENDING: the mails of ${marked[*]} in this directory are
from and signed off by the placeholder ${placeholder:-identity of patches/},
which is nobody: a Signed-off-by must be a real person who certifies the
Developer's Certificate of Origin, and replies to a reserved domain bounce.
Their subjects start with [NOT FOR SENDING]. For mails that can be sent, run
  submit/prepare-submission.sh --from "Your Name <you@your.domain>"
(or --use-git-identity); the sender $DCO.
EOF
else
	rm -f "$OUT/NOT-FOR-SENDING"
fi
step "done: ${topics[*]} in $OUT/ (nothing was sent)"
if [ -n "$sender" ]; then
	info "mode: for sending, from $sender"
	info "$sender $DCO"
	[ "${#marked[@]}" -eq 0 ] || info "still NOT FOR SENDING from an earlier run: ${marked[*]} (see $OUT/NOT-FOR-SENDING)"
else
	info "mode: NOT FOR SENDING: from and signed off by the placeholder ${placeholder:-identity of patches/}; see $OUT/NOT-FOR-SENDING"
fi
