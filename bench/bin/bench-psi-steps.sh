#!/usr/bin/env bash
# Measure each PSI patch of the series on its own. Builds config "bench"
# (with the harness diffs of bench/harness, like bench/bench.sh) at the
# base and after each commit of the run of "psi:" commits at the start of
# base..series (the hot-path patches; a later read-side psi: patch does not
# touch the ping-pong and is measured by bench/cpu-scale), then boots every kernel
# ITER times with psi=1 and with psi=0 under the icount clock and runs the
# psi benchmark (bench/psi: pipe ping-pong between sibling cgroups at depth
# 1, 4 and 8). The order of the kernels rotates from one iteration to the
# next. bench/bin/psi-steps-report.py then writes DIR/steps.json and
# DIR/steps.md: the PSI overhead (psi=1 minus psi=0) at each step and each
# patch's own effect (its step minus the step before).
#
#   bench-psi-steps.sh [--iterations N] [--out DIR] [--no-build]
#
# A step whose kernel is already in DIR/bin is not built again (its name
# holds the commit), and an interrupted run resumes where it stopped: boots
# with results are skipped. DIR/steps.list names the steps of this series;
# results of steps no longer in it are left alone and not reported.
# Builds in the work tree itself, like check-bisect.sh (detached checkouts,
# objects in build/obj/psistep-bench), so the work tree must be clean; it is
# put back on branch "series" afterwards. Not part of the test command.
set -euo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"
. "$(dirname "$0")/../../scripts/series.sh"

usage() {
	cat <<'EOF'
usage: bench/bin/bench-psi-steps.sh [--iterations N] [--out DIR] [--no-build]
Measure each PSI patch on its own: build config "bench" at the base and
after each leading "psi:" commit of base..series (in the work tree, which
must be clean), boot each kernel N times (default 5) with psi=1 and psi=0
under the icount clock, run the psi ping-pong and write DIR/steps.json and
DIR/steps.md (default DIR: build/psi-steps). An interrupted run resumes.
  --iterations N  boots per kernel and psi setting
  --out DIR       results directory
  --no-build      use the kernels already in DIR/bin
EOF
}
iters=5 out= build=1
while [ $# -gt 0 ]; do
	case $1 in
	--iterations) iters=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--no-build) build=0; shift ;;
	-h|--help) usage; exit 0 ;;
	*) usage_error "unknown argument '$1'" ;;
	esac
done
[ -n "$out" ] || out=$BUILD/psi-steps
mkdir -p "$out/bin" "$out/raw/psi" "$out/kernels"
out=$(cd "$out" && pwd)

[ -e "$SRC/.git" ] || die "no work tree; run scripts/make-worktree.sh first"
harness=()
for d in "$TOP"/bench/harness/*.diff; do
	[ -f "$d" ] && harness+=(--with "$d")
done

# step names: 00-base, then NN-<abbrev> for each psi: commit, in order
steps=(00-base)
commits=(base)
n=0
for c in $(sgit rev-list --reverse base..series); do
	n=$((n + 1))
	case $(sgit log -1 --format=%s "$c") in
	psi:*) steps+=("$(printf '%02d' "$n")-$(sgit rev-parse --short=12 "$c")"); commits+=("$c") ;;
	*) [ "${#commits[@]}" -gt 1 ] && break ;;
	esac
done
[ "${#steps[@]}" -gt 1 ] || die "no psi: commits in base..series"

if [ "$build" -eq 1 ]; then
	[ -z "$(sgit status --porcelain --untracked-files=no)" ] ||
		die "the work tree $SRC has uncommitted changes; commit or stash them first"
	[ "$(sgit rev-parse --abbrev-ref HEAD)" = series ] ||
		die "the work tree is not on branch 'series'"
	"$TOP/scripts/get-base.sh"
	if [ ! -f "$out/bin/00-base.bzImage" ]; then
		step "building 00-base"
		"$TOP/scripts/build-kernel.sh" "${harness[@]}" bench "$BASE_TREE" base >/dev/null
		cp "$BUILD/obj/base-bench/arch/x86/boot/bzImage" "$out/bin/00-base.bzImage"
	fi
	trap 'sgit checkout -q series' EXIT
	for i in $(seq 1 $((${#steps[@]} - 1))); do
		[ -f "$out/bin/${steps[$i]}.bzImage" ] && continue
		sgit checkout -q --detach "${commits[$i]}"
		step "building ${steps[$i]} $(sgit log -1 --format=%s HEAD)"
		"$TOP/scripts/build-kernel.sh" "${harness[@]}" bench "$SRC" psistep >/dev/null
		cp "$BUILD/obj/psistep-bench/arch/x86/boot/bzImage" "$out/bin/${steps[$i]}.bzImage"
	done
	sgit checkout -q series
	trap - EXIT
fi
for i in "${!steps[@]}"; do
	s=${steps[$i]}
	[ -f "$out/bin/$s.bzImage" ] || die "no $out/bin/$s.bzImage (run without --no-build)"
	if [ "$s" = 00-base ]; then echo "base" ; else sgit log -1 --format=%s "${commits[$i]}"; fi \
		>"$out/kernels/$s.subject"
done

printf '%s\n' "${steps[@]}" >"$out/steps.list"

step "building the ping-pong"
mkdir -p "$out/bin/psi"
gcc -O2 -static -Wall -pthread -I "$TOP/bench/include" -o "$out/bin/psi/pingpong" \
	"$TOP/bench/psi/pingpong.c" || die "compiling bench/psi/pingpong.c failed"

t0=$(date +%s)
nsteps=${#steps[@]}
for it in $(seq 1 "$iters"); do
	for j in $(seq 0 $((nsteps - 1))); do
		s=${steps[$(((j + it - 1) % nsteps))]}
		for v in psi-on psi-off; do
			dir=$out/raw/psi/$s/$v
			[ -f "$dir/$it.jsonl" ] && continue	# resume an interrupted run
			mkdir -p "$dir"
			step "[$it/$iters] $s $v (icount clock, $(($(date +%s) - t0))s so far)"
			append=psi=1
			[ "$v" = psi-off ] && append=psi=0
			if ! "$TOP/scripts/run-guest.sh" --kernel "$out/bin/$s.bzImage" \
				--out "$dir/boot-$it" --timeout 900 --clock icount --append "$append" -- \
				"$TOP/bench/bin/guest/bench-one.sh" "$TOP/bench/psi" "$out/bin/psi" \
				"$dir/boot-$it/result.jsonl"; then
				die "psi ping-pong failed on $s ($v); logs: $dir/boot-$it"
			fi
			mv "$dir/boot-$it/result.jsonl" "$dir/$it.jsonl"
		done
	done
done
step "report"
"$VENV/bin/python" "$TOP/bench/bin/psi-steps-report.py" "$out"
info "results: $out/steps.md"
