#!/usr/bin/env bash
# A/B benchmarks: base against patched, same config, runs interleaved.
#
#   bench.sh [--smoke] [--iterations N] [--out DIR] [--no-build]
#            [--variants NAME,NAME...] [BENCH...]
#
# Full mode builds base (the pinned base tree) and patched (the work tree)
# from config "bench", each with the harness-only diffs of bench/harness/
# (inert unless a variant asks for them, see their headers), and boots each
# kernel once per benchmark, variant and
# iteration, alternating A B / B A. Smoke mode runs the patched test kernel
# once with tiny parameters (bench/*/smoke.env) to keep the suite working.
# bench/B/variants lists boot variants, one a line: NAME, then optionally
# smp=SPEC (QEMU -smp, e.g. 8 or 2,maxcpus=256), then kernel arguments;
# bench/B/smoke.variants, if present, replaces it in smoke mode.
# Results: DIR/raw/BENCH/KERNEL/VARIANT/ITER.jsonl (ITER.wall: host seconds
# of that boot), DIR/kernels/*, then
# scripts/bench-report.py writes DIR/summary.json, REPORT.md and plots.
# Clock: QEMU TCG with -icount shift=0,sleep=off (guest ns = retired
# instructions) unless KVM works, then wall time.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

smoke=0
build=1
only_variants=
iters=5
out=
benches=()
while [ $# -gt 0 ]; do
	case $1 in
	--smoke) smoke=1; iters=1; shift ;;
	--iterations) iters=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--no-build) build=0; shift ;;
	--variants) only_variants=",$2,"; shift 2 ;;
	-*) die "bench.sh: unknown option $1" ;;
	*) benches+=("$1"); shift ;;
	esac
done
if [ "${#benches[@]}" -eq 0 ]; then
	for d in "$TOP"/bench/*/guest.sh; do benches+=("$(basename "$(dirname "$d")")"); done
fi
for b in "${benches[@]}"; do
	[ -x "$TOP/bench/$b/guest.sh" ] || die "no benchmark '$b' (bench/$b/guest.sh)"
done
mode=full
[ "$smoke" -eq 1 ] && mode=smoke
[ -n "$out" ] || out=$TOP/results/$(date +%Y%m%d-%H%M%S)-$mode
mkdir -p "$out/kernels" "$out/raw"
out=$(cd "$out" && pwd)

"$TOP/scripts/install-deps.sh"
declare -A image
if [ "$smoke" -eq 1 ]; then
	kernels=(patched)
	image[patched]=$BUILD/obj/patched-test
	if [ "$build" -eq 1 ]; then
		"$TOP/scripts/make-worktree.sh"
		"$TOP/scripts/build-kernel.sh" test
	fi
else
	kernels=(base patched)
	# harness-only diffs built into both bench kernels alike (see their headers)
	harness=()
	for d in "$TOP"/bench/harness/*.diff; do
		[ -f "$d" ] && harness+=(--with "$d")
	done
	image[base]=$BUILD/obj/base-bench
	image[patched]=$BUILD/obj/patched-bench
	if [ "$build" -eq 1 ]; then
		"$TOP/scripts/make-worktree.sh"
		"$TOP/scripts/get-base.sh"
		"$TOP/scripts/build-kernel.sh" "${harness[@]}" bench "$BASE_TREE" base
		"$TOP/scripts/build-kernel.sh" "${harness[@]}" bench "$SRC" patched
	fi
fi
for k in "${kernels[@]}"; do
	for f in arch/x86/boot/bzImage vmlinux .config; do
		[ -f "${image[$k]}/$f" ] || die "no ${image[$k]}/$f (run without --no-build to build it)"
	done
	cp "${image[$k]}/.config" "$out/kernels/$k.config"
	cp "${image[$k]}/.harness-diffs" "$out/kernels/$k.harness-diffs" 2>/dev/null ||
		: >"$out/kernels/$k.harness-diffs"
	# boot a copy: a kernel rebuilt in build/obj during the run does not
	# end up in half of its boots
	mkdir -p "$out/bin"
	cp "${image[$k]}/arch/x86/boot/bzImage" "$out/bin/$k.bzImage"
done
[ "$build" -eq 1 ] || info "--no-build: using the kernels in $BUILD/obj as built (${kernels[*]})"
if [ "${#kernels[@]}" -eq 2 ] && ! cmp -s "$out/kernels/base.harness-diffs" "$out/kernels/patched.harness-diffs"; then
	die "base and patched were built with different harness diffs ($out/kernels/*.harness-diffs); rebuild them (run without --no-build)"
fi

accel=$("$TOP/scripts/probe-kvm.sh" "${image[${kernels[0]}]}/arch/x86/boot/bzImage")
clock=wall
[ "$accel" = tcg ] && clock=icount
printf '{"mode": "%s", "accel": "%s", "clock": "%s", "iterations": %d, "kernels": ["%s"], "host_cpus": %d}\n' \
	"$mode" "$accel" "$clock" "$iters" "$(IFS=,; echo "${kernels[*]}" | sed 's/,/", "/g')" "$(nproc)" \
	>"$out/meta.json"

step "building guest programs"
bin=$out/bin
for b in "${benches[@]}"; do
	mkdir -p "$bin/$b"
	if [ -x "$TOP/bench/$b/build.sh" ]; then
		# its own build (e.g. BPF object + skeleton); CO-RE, so the vmlinux
		# of one kernel does for all
		"$TOP/bench/$b/build.sh" "$bin/$b" "${image[${kernels[-1]}]}/vmlinux" ||
			die "bench/$b/build.sh failed"
		continue
	fi
	for c in "$TOP/bench/$b"/*.c; do
		[ -f "$c" ] || continue
		gcc -O2 -static -Wall -pthread -I "$TOP/bench/include" -o "$bin/$b/$(basename "$c" .c)" "$c" ||
			die "compiling $c failed"
	done
done

t0=$(date +%s)
for i in $(seq 1 "$iters"); do
	order=("${kernels[@]}")
	# A B, then B A: neither kernel always boots first
	if [ $((i % 2)) -eq 0 ] && [ "${#kernels[@]}" -eq 2 ]; then
		order=("${kernels[1]}" "${kernels[0]}")
	fi
	for b in "${benches[@]}"; do
		envfile=
		[ "$smoke" -eq 1 ] && [ -f "$TOP/bench/$b/smoke.env" ] && envfile=$TOP/bench/$b/smoke.env
		vfile=$TOP/bench/$b/variants
		[ "$smoke" -eq 1 ] && [ -f "$TOP/bench/$b/smoke.variants" ] && vfile=$TOP/bench/$b/smoke.variants
		variants=$(grep -v '^#' "$vfile" 2>/dev/null | awk 'NF' || true)
		[ -n "$variants" ] || variants="default"
		if [ -n "$only_variants" ]; then
			variants=$(awk -v only="$only_variants" 'index(only, "," $1 ",")' <<<"$variants")
			[ -n "$variants" ] || continue
		fi
		while read -r v append; do
			smp=
			case $append in
			smp=*) smp=${append%% *}; smp=${smp#smp=}
			       case $append in *" "*) append=${append#* } ;; *) append= ;; esac ;;
			esac
			for k in "${order[@]}"; do
				dir=$out/raw/$b/$k/$v
				mkdir -p "$dir"
				step "[$i/$iters] $b $v on $k ($clock clock, $(($(date +%s) - t0))s so far)"
				args=(--kernel "$out/bin/$k.bzImage" --out "$dir/boot-$i"
					--timeout "${CGSCALE_BENCH_TIMEOUT:-900}")
				[ "$clock" = icount ] && args+=(--clock icount)
				[ -n "$append" ] && args+=(--append "$append")
				[ -n "$smp" ] && args+=(--cpus "$smp")
				booted=$(date +%s)
				if ! "$TOP/scripts/run-guest.sh" "${args[@]}" -- \
					"$TOP/scripts/guest/bench-one.sh" "$TOP/bench/$b" "$bin/$b" \
					"$dir/boot-$i/result.jsonl" $envfile; then
					die "benchmark $b ($v) failed on $k; logs: $dir/boot-$i"
				fi
				mv "$dir/boot-$i/result.jsonl" "$dir/$i.jsonl"
				# host seconds for boot + benchmark + power-off
				echo $(($(date +%s) - booted)) >"$dir/$i.wall"
				mv "$dir/boot-$i/result.jsonl.uname" "$out/kernels/$k.uname"
			done
		done <<<"$variants"
	done
done
step "report"
"$VENV/bin/python" "$TOP/scripts/bench-report.py" "$out"
info "results: $out (report: $out/REPORT.md)"
