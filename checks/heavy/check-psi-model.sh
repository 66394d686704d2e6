#!/usr/bin/env bash
# The differential PSI model (tests/psi-model), outside CI; no kernel build.
# Builds the model with the mirror universe extracted from the psi.c of the
# tree under test (default: the series work tree, CGSCALE_SRC) and the
# reference universe from the base's psi.c, replays the regression traces
# of tests/psi-model/traces, runs the directed chain case (the links
# psi_chain_times() follows), then runs N random cgroup trees (3/5 normal,
# 1/5 deep chains, 1/5 with a lone task; 20,000 events each), comparing
# every group's times, state and task counts on every CPU after every
# event.
#
#   check-psi-model.sh [--tree DIR] [--trees N] [--seed S] [--events N]
#                      [--breaks [DIR]] [--out DIR]
#
# --breaks also applies each break diff of tests/psi-model/breaks (or of
# DIR, e.g. a wip/ topic's model breaks with --tree on its work tree) to a
# copy of the tree's psi.c, builds it and runs random trees until the model
# fails, up to N trees: every break must be caught.
# Results in build/psi-model/TREENAME/ (or --out); prints "pass psi-model:
# ..." or "fail psi-model: ..." lines and exits 1 on a failure. Compiles and
# runs under nice -n 19, one at a time.
set -euo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"

usage() {
	cat <<'EOF'
usage: checks/heavy/check-psi-model.sh [--tree DIR] [--trees N] [--seed S]
                                       [--events N] [--breaks [DIR]] [--out DIR]
The differential PSI model of tests/psi-model (userspace, no kernel build):
the mirror accounting of the tree's kernel/sched/psi.c against the base's
plain accounting, compared after every event. Replays the regression
traces of tests/psi-model/traces, then runs N random cgroup trees. Prints
"pass|fail psi-model: ..." lines; exits 1 on a failure.
  --tree DIR     the kernel tree under test (default: build/linux, or
                 CGSCALE_SRC), e.g. build/linux-wip
  --trees N      random trees (default 750: about 1 min on one core)
  --seed S       first seed (default 1); trees S.., deep S+100000..,
                 lone-task S+200000..
  --events N     events generated per tree (default 20000)
  --breaks [DIR] also apply each break diff of tests/psi-model/breaks (or
                 DIR) to a copy of the tree's psi.c and run up to N trees
                 until the model fails: each break must be caught
  --out DIR      results and builds (default build/psi-model/TREENAME)
EOF
}
tree=$SRC trees=750 seed=1 events=20000 breaks= out=
while [ $# -gt 0 ]; do
	case $1 in
	--tree) [ $# -ge 2 ] || usage_error "--tree needs a directory"; tree=$2; shift 2 ;;
	--trees) [ $# -ge 2 ] || usage_error "--trees needs a number"; trees=$2; shift 2 ;;
	--seed) [ $# -ge 2 ] || usage_error "--seed needs a number"; seed=$2; shift 2 ;;
	--events) [ $# -ge 2 ] || usage_error "--events needs a number"; events=$2; shift 2 ;;
	--breaks)
		breaks=$TOP/tests/psi-model/breaks
		if [ $# -ge 2 ] && [ "${2#-}" = "$2" ]; then breaks=$2; shift; fi
		shift ;;
	--out) [ $# -ge 2 ] || usage_error "--out needs a directory"; out=$2; shift 2 ;;
	-h|--help) usage; exit 0 ;;
	*) usage_error "unknown argument '$1'" ;;
	esac
done
for n in "$trees" "$seed" "$events"; do
	case $n in ''|*[!0-9]*) usage_error "not a number: '$n'" ;; esac
done
[ "$trees" -ge 1 ] || usage_error "--trees must be at least 1"

model_src=$TOP/tests/psi-model
[ -f "$tree/kernel/sched/psi.c" ] ||
	die "no kernel/sched/psi.c in $tree; make the series work tree with scripts/make-worktree.sh, or name another with --tree"
tree=$(realpath "$tree")
if [ -n "$breaks" ]; then
	[ -d "$breaks" ] || die "no break directory $breaks (see: ls tests/psi-model/breaks)"
	breaks=$(realpath "$breaks")
	compgen -G "$breaks/*.diff" >/dev/null || die "no break diffs (*.diff) in $breaks"
fi
need_cmd gcc python3 patch
[ -f "$BASE_TREE/kernel/sched/psi.c" ] || "$TOP/scripts/get-base.sh"
out=${out:-$BUILD/psi-model/$(basename "$tree")}
mkdir -p "$out"
out=$(realpath "$out")
# The base's psi.c from the work tree's base commit where there is one:
# a kernel build (scripts/build-kernel.sh --with/--ablation, e.g. a topic
# kernel of an A/B run) patches the unpacked base tree in place while it
# builds, and the model must not read it then.
base_psi=$out/base-psi.c
if [ -e "$SRC/.git" ] && git -C "$SRC" rev-parse -q --verify base >/dev/null; then
	git -C "$SRC" show base:kernel/sched/psi.c >"$base_psi"
else
	cp "$BASE_TREE/kernel/sched/psi.c" "$base_psi"
fi
start=$(date +%s)

elapsed() { local s=$(($(date +%s) - $1)); echo "$((s / 60)) min $((s % 60)) s"; }
rel() { case $1 in "$TOP"/*) echo "${1#"$TOP"/}" ;; *) echo "$1" ;; esac; }
desc=$(rel "$tree")
if rev=$(git -C "$tree" rev-parse --short HEAD 2>/dev/null); then
	git -C "$tree" diff --quiet HEAD -- kernel/sched/psi.c include/linux/psi_types.h 2>/dev/null ||
		rev="$rev, psi.c or psi_types.h changed"
	desc="$desc at $rev"
fi
failed=0

# build DIR PSI_C: the model of PSI_C (and the tree's psi_types.h) in DIR
build() {
	mkdir -p "$1"
	nice -n 19 "$model_src/build.sh" "$1" "$2" "$tree/include/linux/psi_types.h" \
		"$base_psi" >"$1/build.log" 2>&1
}

# run MODEL KIND N SEED LOG: N random trees of KIND (normal, deep,
# lone) from SEED; sets ran_trees, ran_events, ran_applied (0 trees if the
# model failed) and fail_line (the model's FAIL line, or empty)
run() {
	local model=$1 kind=$2 n=$3 s=$4 log=$5 opts=() ok
	case $kind in deep) opts=(-D) ;; lone) opts=(-T 1) ;; esac
	fail_line= ran_trees=0 ran_events=0 ran_applied=0
	[ "$n" -gt 0 ] || return 0
	if nice -n 19 "$model" -s "$s" -r "$n" -n "$events" -q "${opts[@]}" \
		-o "${log%.log}.fail.trace" >"$log" 2>&1; then
		ok=$(grep '^OK: ' "$log") || { fail_line="no OK line in $log"; return 0; }
		# OK: N trees, E events generated, A applied, 0 mismatches
		read -r ran_trees ran_events ran_applied < <(
			sed -E 's/^OK: ([0-9]+) trees, ([0-9]+) events generated, ([0-9]+) applied.*/\1 \2 \3/' <<<"$ok")
	else
		fail_line=$(grep -m1 '^FAIL' "$log" || tail -n 1 "$log")
		fail_line=${fail_line:-"the model exited with no output; see $log"}
	fi
}

# caught_by KIND FAIL_LINE: "event I (EVENT) of KIND tree seed S (T tasks): MSG"
# from the model's "FAIL seed S tasks T at event I (EVENT): MSG"
caught_by() {
	local d
	d=$(sed -E 's/^FAIL seed ([0-9]+) tasks ([0-9]+) at event ([0-9]+) (\([^)]*\)): /event \3 \4 of '"$1"' tree seed \1 (\2 tasks): /' <<<"$2")
	[ ${#d} -le 200 ] || d="${d:0:197}..."
	echo "$d"
}

# replay MODEL TRACE: the model's last line for TRACE; status 0 if it passed
replay() {
	local r
	r=$(nice -n 19 "$1" -t "$2" 2>&1 | tail -n 1)
	echo "$r"
	case $r in "replay: "*" events OK") return 0 ;; *) return 1 ;; esac
}

kinds=(normal deep lone)
declare -A count=([deep]=$((trees / 5)) [lone]=$((trees / 5)))
count[normal]=$((trees - 2 * (trees / 5)))
declare -A seeds=([normal]=$seed [deep]=$((seed + 100000)) [lone]=$((seed + 200000)))

step "building the model: mirror from $desc, reference from the base ($(rel "$out")/model)"
build "$out" "$tree/kernel/sched/psi.c" || {
	tail -n 20 "$out/build.log" >&2
	die "building the model failed; log: $out/build.log (does tests/psi-model/extract.py still find every function it names in $tree/kernel/sched/psi.c?)"
}
model=$out/model

step "replaying the regression traces of tests/psi-model/traces"
ntr=0 bad=()
for t in "$model_src"/traces/*.trace; do
	[ -f "$t" ] || continue
	ntr=$((ntr + 1))
	r=$(replay "$model" "$t") || bad+=("$(basename "$t" .trace): $r")
done
if [ ${#bad[@]} -eq 0 ]; then
	echo "pass psi-model: traces ($ntr replayed, 0 mismatches; $desc)"
else
	for b in "${bad[@]}"; do echo "fail psi-model: trace $b"; done
	failed=1
fi

step "the directed case: a lone task's first wake-up at the bottom of a new 16-deep chain"
if nice -n 19 "$model" -d >"$out/directed.log" 2>&1 && grep -q '^directed: OK' "$out/directed.log"; then
	links=$(sed -n 's/^directed: wakeup at depth 16: psi_chain_times //p' "$out/directed.log")
	echo "pass psi-model: directed chain, 0 mismatches (the first wake-up 16 groups down: psi_chain_times $links)"
else
	echo "fail psi-model: directed chain: $(grep -m1 FAIL "$out/directed.log" || tail -n 1 "$out/directed.log")"
	failed=1
fi

step "running $trees random trees (${count[normal]} normal, ${count[deep]} deep, ${count[lone]} lone-task; $events events each)"
t0=$(date +%s)
tot_trees=0 tot_events=0 tot_applied=0 mism=0
for k in "${kinds[@]}"; do
	run "$model" "$k" "${count[$k]}" "${seeds[$k]}" "$out/run-$k.log"
	if [ -n "$fail_line" ]; then
		echo "fail psi-model: a check failed at $(caught_by "$k" "$fail_line") (trace: $(rel "$out")/run-$k.fail.trace)"
		mism=$((mism + 1))
		failed=1
	fi
	tot_trees=$((tot_trees + ran_trees))
	tot_events=$((tot_events + ran_events))
	tot_applied=$((tot_applied + ran_applied))
done
summary="$tot_trees trees, $tot_events events ($tot_applied applied)"
where="seed $seed; $desc; $(elapsed "$t0")"
if [ $mism -eq 0 ]; then
	echo "pass psi-model: $summary, 0 mismatches ($where)"
else
	echo "fail psi-model: $mism of the 3 runs (normal, deep, lone-task) stopped at a mismatch; the others $summary ($where)"
fi

if [ -n "$breaks" ]; then
	for d in "$breaks"/*.diff; do
		name=$(basename "$d" .diff)
		bdir=$out/breaks/$name
		rm -rf "$bdir"
		mkdir -p "$bdir"
		step "break $name: apply, build, run until the model fails"
		t0=$(date +%s)
		cp "$tree/kernel/sched/psi.c" "$bdir/psi.c"
		if ! patch -s -F0 --no-backup-if-mismatch "$bdir/psi.c" <"$d" >"$bdir/patch.log" 2>&1; then
			echo "fail psi-model: break $name does not apply to the psi.c of $desc ($(rel "$bdir")/patch.log)"
			failed=1
			continue
		fi
		if ! build "$bdir" "$bdir/psi.c"; then
			echo "fail psi-model: break $name: the model does not build ($(rel "$bdir")/build.log)"
			failed=1
			continue
		fi
		caught= ran=0 applied=0
		for k in "${kinds[@]}"; do
			run "$bdir/model" "$k" "${count[$k]}" "${seeds[$k]}" "$bdir/run-$k.log"
			ran=$((ran + ran_trees))
			applied=$((applied + ran_applied))
			if [ -n "$fail_line" ]; then
				caught=$(caught_by "$k" "$fail_line")
				f=$(sed -nE 's/^FAIL seed ([0-9]+) .*/\1/p' <<<"$fail_line")
				[ -z "$f" ] || ran=$((ran + f - ${seeds[$k]}))
				break
			fi
		done
		# its regression trace, if there is one: does it fail too?
		tr=
		for t in "$breaks/$name.trace" "$model_src/traces/$name.trace"; do
			[ -f "$t" ] || continue
			if r=$(replay "$bdir/model" "$t"); then
				tr="; its trace passes"
			else
				r=${r%%): *}
				tr="; its trace fails ${r#FAIL })"
			fi
			break
		done
		if [ -n "$caught" ]; then
			echo "pass psi-model: break $name caught by $caught, after $ran clean trees$tr ($(elapsed "$t0"))"
		else
			echo "fail psi-model: break $name not caught in $ran trees ($applied applied events)$tr ($(elapsed "$t0"))"
			failed=1
		fi
	done
fi
info "results: $(rel "$out"); $(elapsed "$start") in all"
exit "$failed"
