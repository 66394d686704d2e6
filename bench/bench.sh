#!/usr/bin/env bash
# A/B benchmarks: two to four kernels per benchmark, same config, runs
# interleaved.
#
#   bench.sh [--smoke] [--iterations N] [--out DIR] [--no-build]
#            [--variants NAME,NAME...] [--kernels 'KEY=SPEC KEY=SPEC [KEY=SPEC...]']
#            [BENCH...]
#
# Each benchmark compares two to four kernels, named in bench/B/kernels by
# one line "KEY=SPEC KEY=SPEC [KEY=SPEC...]", the reference first (ratio =
# other/first); without the file "base=base patched=patched". SPEC: base
# (the pinned base tree), patched (the work tree), ablation:NAME (the base tree plus
# bench/ablations/NAME.diff), wip:NAME (the work tree plus the patches
# wip/NAME/*.patch, as one diff made by scripts/wip-diff.sh) or series:N
# (the series up to its Nth patch: the work tree with the later patches
# reverted, one diff made by scripts/series-diff.sh) or topic:NAME:K (the
# base tree plus a posting of submit/topics up to its Kth patch, after the
# postings it depends on: scripts/topic-diff.sh); --kernels gives one
# line of kernels for all the chosen benchmarks instead of their files;
# bench/bin/bench-kernels.py parses the files.
# Full mode builds the kernels the chosen benchmarks need, from config
# "bench", each with the harness-only diffs of bench/harness/ (inert unless
# a variant asks for them, see their headers), into build/obj/KERNEL-bench
# (KERNEL: base, patched, ablation-NAME, wip-NAME, series-N, topic-NAME.K), and boots each benchmark's
# kernels once per variant and iteration, in an order rotated left by one
# each iteration: A B, B A for two kernels; A B C, B C A, C A B for three
# (boot_order). Smoke mode
# runs the patched test kernel alone, under key "patched", once with tiny
# parameters (bench/*/smoke.env) to keep the suite working, also for
# benchmarks with a kernels file.
# bench/B/variants lists boot variants, one a line: NAME, then optionally
# smp=SPEC (QEMU -smp, e.g. 8 or 2,maxcpus=256), then kernel arguments;
# bench/B/smoke.variants, if present, replaces it in smoke mode.
# Results: DIR/raw/BENCH/KEY/VARIANT/ITER.jsonl (ITER.wall: host seconds
# of that boot; smoke mode boots once per distinct vCPU count and kernel
# command line and runs those benchmarks in turn, without ITER.wall),
# DIR/raw/BENCH/kernels (the line of its kernels, full mode),
# DIR/kernels/KERNEL.{config,harness-diffs,uname[,ablation]}, DIR/meta.json,
# then bench/bin/bench-report.py writes DIR/summary.json, REPORT.md and plots.
# Clock: QEMU TCG with -icount shift=0,sleep=off (guest ns = retired
# instructions) unless KVM works, then wall time.
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"

usage() {
	cat <<'EOF'
usage: bench/bench.sh [--smoke] [--iterations N] [--out DIR] [--no-build]
                      [--variants NAME,NAME...]
                      [--kernels 'K=SPEC K=SPEC [K=SPEC...]'] [BENCH...]
A/B benchmarks (default: all of bench/*/guest.sh); each benchmark compares
the two to four kernels of bench/BENCH/kernels (default "base=base
patched=patched"), the first the reference, boots interleaved.
  --smoke            the patched test kernel alone, once, tiny parameters
  --iterations N     boots per kernel and variant (default 5)
  --out DIR          results directory
  --no-build         use the kernels already built in build/obj
  --variants LIST    only these boot variants (bench/BENCH/variants)
  --kernels LINE     compare these two to four kernels in every chosen
                     benchmark, e.g. 'p33=series:33 p34=series:34' (a part of
                     the series against its parent) or 'base=base
                     p33=series:33 series=patched'; see bench/bin/bench-kernels.py
Results: results/DATE-MODE/ (or DIR): raw/, kernels/, summary.json, REPORT.md.
EOF
}

smoke=0
build=1
only_variants=
kernels_line=
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
	--kernels) [ -n "${2:-}" ] || usage_error "--kernels needs 'KEY=SPEC KEY=SPEC [KEY=SPEC...]'"
		kernels_line=$2; shift 2 ;;
	-h|--help) usage; exit 0 ;;
	-*) usage_error "unknown option '$1'" ;;
	*) benches+=("$1"); shift ;;
	esac
done
if [ "${#benches[@]}" -eq 0 ]; then
	for d in "$TOP"/bench/*/guest.sh; do benches+=("$(basename "$(dirname "$d")")"); done
fi
for b in "${benches[@]}"; do
	[ -x "$TOP/bench/$b/guest.sh" ] || die "no benchmark '$b' (bench/$b/guest.sh)"
done
# Each benchmark's kernels (checked in smoke mode too, which does not use
# them): "BENCH KEY KERNEL KEY KERNEL [KEY KERNEL...] KEY=SPEC KEY=SPEC..."
# (keys and kernel names have no '=', the words of the line have one):
# its keys in order, KEY -> kernel per benchmark, and the union of the
# kernels, in order.
pairs=$("$TOP/bench/bin/bench-kernels.py" pairs ${kernels_line:+--kernels "$kernels_line"} \
	"${benches[@]}") || exit 1
declare -A keys_of kernel_of line_of
all_kernels=()
while read -r b rest; do
	read -r -a words <<<"$rest"
	key_kernel=() line=
	for w in "${words[@]}"; do
		case $w in
		*=*) line+="${line:+ }$w" ;;
		*) key_kernel+=("$w") ;;
		esac
	done
	keys_of[$b]=
	for ((j = 0; j < ${#key_kernel[@]}; j += 2)); do
		k=${key_kernel[j]} n=${key_kernel[j + 1]}
		keys_of[$b]+="${keys_of[$b]:+ }$k"
		kernel_of[$b/$k]=$n
		case " ${all_kernels[*]} " in *" $n "*) ;; *) all_kernels+=("$n") ;; esac
	done
	line_of[$b]=$line
done <<<"$pairs"
mode=full
[ "$smoke" -eq 1 ] && mode=smoke
[ -n "$out" ] || out=$TOP/results/$(date +%Y%m%d-%H%M%S)-$mode
mkdir -p "$out/kernels" "$out/raw"
out=$(cd "$out" && pwd)

"$TOP/scripts/install-deps.sh"
declare -A image
if [ "$smoke" -eq 1 ]; then
	# one kernel for every benchmark, under key "patched"
	kernels=(patched)
	image[patched]=$BUILD/obj/patched-test
	for b in "${benches[@]}"; do
		keys_of[$b]=patched
		kernel_of[$b/patched]=patched
	done
	if [ "$build" -eq 1 ]; then
		"$TOP/scripts/make-worktree.sh"
		"$TOP/scripts/build-kernel.sh" test
	fi
else
	kernels=("${all_kernels[@]}")
	# harness-only diffs built into all bench kernels alike (see their headers)
	harness=()
	for d in "$TOP"/bench/harness/*.diff; do
		[ -f "$d" ] && harness+=(--with "$d")
	done
	for k in "${kernels[@]}"; do
		image[$k]=$BUILD/obj/$k-bench
	done
	if [ "$build" -eq 1 ]; then
		step "kernels to build: ${kernels[*]}"
		case " ${kernels[*]} " in *" patched "*|*" wip-"*|*" series-"*) "$TOP/scripts/make-worktree.sh" ;; esac
		case " ${kernels[*]} " in *" topic-"*) "$TOP/scripts/make-worktree.sh" ;; esac
		case " ${kernels[*]} " in *" base "*|*" ablation-"*|*" topic-"*) "$TOP/scripts/get-base.sh" ;; esac
		for k in "${kernels[@]}"; do
			case $k in
			base) "$TOP/scripts/build-kernel.sh" "${harness[@]}" bench "$BASE_TREE" base ;;
			patched) "$TOP/scripts/build-kernel.sh" "${harness[@]}" bench "$SRC" patched ;;
			wip-*)
				"$TOP/scripts/wip-diff.sh" "${k#wip-}" "$BUILD/$k.diff"
				"$TOP/scripts/build-kernel.sh" "${harness[@]}" \
					--ablation "$BUILD/$k.diff" bench "$SRC" "$k" ;;
			series-*)
				"$TOP/scripts/series-diff.sh" "${k#series-}" "$BUILD/$k.diff"
				"$TOP/scripts/build-kernel.sh" "${harness[@]}" --seed patched \
					--ablation "$BUILD/$k.diff" bench "$SRC" "$k" ;;
			ablation-*)
				"$TOP/scripts/build-kernel.sh" "${harness[@]}" \
					--ablation "$TOP/bench/ablations/${k#ablation-}.diff" bench "$BASE_TREE" "$k" ;;
			topic-*)
				t=${k#topic-}
				"$TOP/scripts/topic-diff.sh" "${t%.*}" "${t##*.}" "$BUILD/$k.diff"
				"$TOP/scripts/build-kernel.sh" "${harness[@]}" --seed base \
					--ablation "$BUILD/$k.diff" bench "$BASE_TREE" "$k" ;;
			*) die "bench.sh: no way to build kernel '$k'" ;;
			esac
		done
	fi
fi
mkdir -p "$out/bin"
for k in "${kernels[@]}"; do
	for f in arch/x86/boot/bzImage vmlinux .config; do
		[ -f "${image[$k]}/$f" ] || die "no ${image[$k]}/$f (run without --no-build to build it)"
	done
	case $k in
	ablation-*)
		# built with this very diff (--no-build may find an older build)
		diff=$TOP/bench/ablations/${k#ablation-}.diff
		want="$(basename "$diff") $(sha256sum <"$diff" | cut -d' ' -f1)"
		[ "$(cat "${image[$k]}/.ablation" 2>/dev/null)" = "$want" ] ||
			die "${image[$k]} was not built with the current ${diff#"$TOP"/} (${image[$k]}/.ablation); rebuild it (run without --no-build)"
		cp "${image[$k]}/.ablation" "$out/kernels/$k.ablation" ;;
	wip-* | series-* | topic-*)
		# built with these very patches on this work tree
		case $k in
		wip-*) "$TOP/scripts/wip-diff.sh" "${k#wip-}" "$BUILD/$k.diff" ;;
		series-*) "$TOP/scripts/series-diff.sh" "${k#series-}" "$BUILD/$k.diff" ;;
		topic-*) t=${k#topic-}; "$TOP/scripts/topic-diff.sh" "${t%.*}" "${t##*.}" "$BUILD/$k.diff" ;;
		esac
		want="$k.diff $(sha256sum <"$BUILD/$k.diff" | cut -d' ' -f1)"
		[ "$(cat "${image[$k]}/.ablation" 2>/dev/null)" = "$want" ] ||
			die "${image[$k]} was not built with the current $k.diff of $SRC (${image[$k]}/.ablation); rebuild it (run without --no-build)"
		cp "$BUILD/$k.diff" "$out/kernels/$k.diff"
		cp "${image[$k]}/.ablation" "$out/kernels/$k.ablation" ;;
	*)
		[ ! -s "${image[$k]}/.ablation" ] ||
			die "${image[$k]} was built with an ablation ($(cat "${image[$k]}/.ablation")); rebuild it (run without --no-build)" ;;
	esac
	cp "${image[$k]}/.config" "$out/kernels/$k.config"
	cp "${image[$k]}/.harness-diffs" "$out/kernels/$k.harness-diffs" 2>/dev/null ||
		: >"$out/kernels/$k.harness-diffs"
	# boot a copy: a kernel rebuilt in build/obj during the run does not
	# end up in half of its boots
	cp "${image[$k]}/arch/x86/boot/bzImage" "$out/bin/$k.bzImage"
done
[ "$build" -eq 1 ] || info "--no-build: using the kernels in $BUILD/obj as built (${kernels[*]})"
pairs_json=
if [ "$smoke" -eq 0 ]; then
	for b in "${benches[@]}"; do
		# every kernel built with the reference's harness diffs
		read -r k1 others <<<"${keys_of[$b]}"
		n1=${kernel_of[$b/$k1]}
		ratios=
		for k2 in $others; do
			n2=${kernel_of[$b/$k2]}
			if ! cmp -s "$out/kernels/$n1.harness-diffs" "$out/kernels/$n2.harness-diffs"; then
				die "$b: $k1 ($n1) and $k2 ($n2) were built with different harness diffs ($out/kernels/{$n1,$n2}.harness-diffs); rebuild them (run without --no-build)"
			fi
			ratios+="${ratios:+, }$k2/$k1"
		done
		mkdir -p "$out/raw/$b"
		echo "${line_of[$b]}" >"$out/raw/$b/kernels"
		case $ratios in
		*,*) info "$b: ${line_of[$b]} (ratios = $ratios)" ;;
		*) info "$b: ${line_of[$b]} (ratio = $ratios)" ;;
		esac
		pairs_json+="${pairs_json:+, }\"$b\": \"${line_of[$b]}\""
	done
	pairs_json=", \"pairs\": {$pairs_json}"
fi

accel=$("$TOP/scripts/probe-kvm.sh" "${image[${kernels[0]}]}/arch/x86/boot/bzImage")
clock=wall
[ "$accel" = tcg ] && clock=icount
printf '{"mode": "%s", "accel": "%s", "clock": "%s", "iterations": %d, "kernels": ["%s"], "host_cpus": %d%s}\n' \
	"$mode" "$accel" "$clock" "$iters" "$(IFS=,; echo "${kernels[*]}" | sed 's/,/", "/g')" "$(nproc)" \
	"$pairs_json" >"$out/meta.json"

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

# Boot variants of benchmark B: "NAME [smp=SPEC] [KERNEL_ARG...]" lines.
variants_of() {
	local b=$1 vfile=$TOP/bench/$1/variants variants
	[ "$smoke" -eq 1 ] && [ -f "$TOP/bench/$b/smoke.variants" ] && vfile=$TOP/bench/$b/smoke.variants
	variants=$(grep -v '^#' "$vfile" 2>/dev/null | awk 'NF' || true)
	[ -n "$variants" ] || variants="default"
	if [ -n "$only_variants" ]; then
		variants=$(awk -v only="$only_variants" 'index(only, "," $1 ",")' <<<"$variants")
	fi
	printf '%s\n' "$variants"
}

# split_variant REST: the rest of a variant line after its NAME into smp
# (QEMU -smp, from a leading "smp=SPEC"; empty if none) and append (the
# kernel arguments).
split_variant() {
	smp= append=$1
	case $append in
	smp=*) smp=${append%% *}; smp=${smp#smp=}
	       case $append in *" "*) append=${append#* } ;; *) append= ;; esac ;;
	esac
}

# boot_order I KEY...: the N keys in their order of iteration I (1-based),
# rotated left by (I-1) mod N, so that no kernel always boots first or
# last: A B, B A, ... for two kernels; A B C, B C A, C A B, ... for three.
boot_order() {
	local i=$1 j
	shift
	local -a keys=("$@") order=()
	for ((j = 0; j < ${#keys[@]}; j++)); do
		order+=("${keys[(i - 1 + j) % ${#keys[@]}]}")
	done
	echo "${order[*]}"
}

t0=$(date +%s)
if [ "$smoke" -eq 1 ]; then
	# Smoke checks that every benchmark works, not its numbers: the
	# benchmarks whose variants boot with the same vCPUs and kernel
	# command line run one after the other in one boot
	# (bench/bin/guest/bench-many.sh): on 2026-11-27, 5 boots instead of
	# 15. Logs: DIR/smoke-boots/N/.
	declare -A group_list
	groups=()
	for b in "${benches[@]}"; do
		envfile=
		[ -f "$TOP/bench/$b/smoke.env" ] && envfile=$TOP/bench/$b/smoke.env
		while read -r v append; do
			[ -n "$v" ] || continue
			split_variant "$append"
			g="${smp:-2}|$append"
			if [ -z "${group_list[$g]+set}" ]; then
				groups+=("$g")
				group_list[$g]=
			fi
			group_list[$g]+="$b $v $envfile"$'\n'
		done < <(variants_of "$b")
	done
	n=0
	for g in "${groups[@]}"; do
		n=$((n + 1))
		smp=${g%%|*} append=${g#*|}
		gdir=$out/smoke-boots/$n
		mkdir -p "$gdir"
		: >"$gdir/list"
		names=
		while read -r b v envfile; do
			[ -n "$b" ] || continue
			echo "$TOP/bench/$b $bin/$b $gdir/$b-$v.jsonl $envfile" >>"$gdir/list"
			names="$names $b($v)"
		done <<<"${group_list[$g]}"
		step "[smoke boot $n/${#groups[@]}]$names: -smp $smp${append:+, $append} ($clock clock, $(($(date +%s) - t0))s so far)"
		args=(--kernel "$out/bin/patched.bzImage" --out "$gdir"
			--timeout "${CGSCALE_BENCH_TIMEOUT:-900}" --cpus "$smp")
		[ "$clock" = icount ] && args+=(--clock icount)
		[ -n "$append" ] && args+=(--append "$append")
		if ! "$TOP/scripts/run-guest.sh" "${args[@]}" -- \
			"$TOP/bench/bin/guest/bench-many.sh" "$gdir/list"; then
			grep -E '^(ok|FAIL) ' "$gdir/guest.log" 2>/dev/null | sed 's/^/    /' || true
			die "smoke boot $n ($names ) failed; logs: $gdir"
		fi
		while read -r b v envfile; do
			[ -n "$b" ] || continue
			dir=$out/raw/$b/patched/$v
			mkdir -p "$dir"
			mv "$gdir/$b-$v.jsonl" "$dir/1.jsonl"
			mv "$gdir/$b-$v.jsonl.uname" "$out/kernels/patched.uname"
		done <<<"${group_list[$g]}"
	done
	iters=0	# the loop below is the full mode's
fi
for i in $(seq 1 "$iters"); do
	for b in "${benches[@]}"; do
		# this benchmark's keys, rotated: no kernel always boots first
		read -r -a order <<<"$(boot_order "$i" ${keys_of[$b]})"
		envfile=
		variants=$(variants_of "$b")
		[ -n "$variants" ] || continue
		while read -r v append; do
			split_variant "$append"
			for key in "${order[@]}"; do
				k=${kernel_of[$b/$key]}
				dir=$out/raw/$b/$key/$v
				mkdir -p "$dir"
				on=$key
				[ "$k" = "$key" ] || on="$k ($key)"
				step "[$i/$iters] $b $v on $on ($clock clock, $(($(date +%s) - t0))s so far)"
				args=(--kernel "$out/bin/$k.bzImage" --out "$dir/boot-$i"
					--timeout "${CGSCALE_BENCH_TIMEOUT:-900}")
				[ "$clock" = icount ] && args+=(--clock icount)
				[ -n "$append" ] && args+=(--append "$append")
				[ -n "$smp" ] && args+=(--cpus "$smp")
				booted=$(date +%s)
				if ! "$TOP/scripts/run-guest.sh" "${args[@]}" -- \
					"$TOP/bench/bin/guest/bench-one.sh" "$TOP/bench/$b" "$bin/$b" \
					"$dir/boot-$i/result.jsonl" $envfile; then
					die "benchmark $b ($v) failed on $on; logs: $dir/boot-$i"
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
"$VENV/bin/python" "$TOP/bench/bin/bench-report.py" "$out"
info "results: $out (report: $out/REPORT.md)"
