#!/usr/bin/env bash
# The PSI accounting of the base and of the series timed natively on this
# machine's CPU (not in a guest): bench/native/psi-timing.c runs psi.c's
# functions, copied verbatim from both trees by tests/psi-model, compiled
# with the kernel's code-generation flags, on the same event streams. The
# report: ns per round of each workload, base against series, medians of
# interleaved repetitions with spread and the bootstrap mark of the A/B
# reports (bench/bin/bench-report.py). See bench/native/README.md for what
# such a harness cannot show.
set -euo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"

usage() {
	cat <<'EOF'
usage: bench/native/psi.sh [--tree DIR] [--psi-c FILE] [--reps N] [--rounds N]
                           [--cpu C] [--cflags-from CMDFILE] [--quick] [--out DIR]
The PSI accounting functions of the base and of the series (kernel/sched/
psi.c of both, copied verbatim by tests/psi-model/extract.py), compiled
with the kernel's code-generation flags and timed natively with
CLOCK_MONOTONIC on this machine's CPU: a pipe ping-pong at cgroup depth
1, 4, 8 and 16, a lone task at depth 1 and 16, and a dense kubepods-shaped
tree. Base and series alternate within each repetition.
  --tree DIR       the series tree (default build/linux, or CGSCALE_SRC);
                   the base's psi.c is its commit "base"
  --psi-c FILE     time FILE as the series' psi.c instead of the tree's
                   (a variant or a planted bug; the tree's psi_types.h)
  --reps N         repetitions per workload (default 21)
  --rounds N       rounds timed per repetition (default 200000)
  --cpu C          pin to CPU C (default 1)
  --cflags-from F  take the flags from a kernel build's .o.cmd file
                   (default: the flags of the test kernel's
                   kernel/sched/build_utility.o, GCC 12, 2026-12-02)
  --quick          3 repetitions of 2000 rounds (a smoke run, seconds)
  --out DIR        results (default build/native-psi/DATE): raw.jsonl,
                   summary.json, REPORT.md, psi.png
EOF
}
tree=$SRC psi_c= reps=21 rounds=200000 cpu=1 cflags_from= out=
while [ $# -gt 0 ]; do
	case $1 in
	--tree) [ $# -ge 2 ] || usage_error "--tree needs a directory"; tree=$2; shift 2 ;;
	--psi-c) [ $# -ge 2 ] || usage_error "--psi-c needs a file"; psi_c=$2; shift 2 ;;
	--reps) [ $# -ge 2 ] || usage_error "--reps needs a number"; reps=$2; shift 2 ;;
	--rounds) [ $# -ge 2 ] || usage_error "--rounds needs a number"; rounds=$2; shift 2 ;;
	--cpu) [ $# -ge 2 ] || usage_error "--cpu needs a number"; cpu=$2; shift 2 ;;
	--cflags-from) [ $# -ge 2 ] || usage_error "--cflags-from needs a file"; cflags_from=$2; shift 2 ;;
	--quick) reps=3 rounds=2000; shift ;;
	--out) [ $# -ge 2 ] || usage_error "--out needs a directory"; out=$2; shift 2 ;;
	-h|--help) usage; exit 0 ;;
	*) usage_error "unknown argument '$1'" ;;
	esac
done
for n in "$reps" "$rounds" "$cpu"; do
	case $n in ''|*[!0-9]*) usage_error "not a number: '$n'" ;; esac
done
[ "$reps" -ge 2 ] || usage_error "--reps must be at least 2"
[ "$rounds" -ge 1 ] || usage_error "--rounds must be at least 1"
need_cmd gcc python3 git
[ -f "$tree/kernel/sched/psi.c" ] ||
	die "no kernel/sched/psi.c in $tree; make the series work tree with scripts/make-worktree.sh, or name another with --tree"
[ -z "$psi_c" ] || [ -f "$psi_c" ] || die "no file $psi_c (--psi-c)"
git -C "$tree" rev-parse -q --verify base >/dev/null ||
	die "$tree has no commit 'base' (the base's psi.c comes from it); make it with scripts/make-worktree.sh"

# The code-generation flags of the kernel's kernel/sched/build_utility.o
# (which includes psi.c), config test, GCC 12.2, 2026-12-02; without
# -mcmodel=kernel (userspace links at low addresses), includes, defines
# and warnings.
kflags=(-O2 -std=gnu11 -fms-extensions -fshort-wchar -funsigned-char -fno-common -fno-PIE
	-fno-strict-aliasing -mno-sse -mno-mmx -mno-sse2 -mno-3dnow -mno-avx -mno-sse4a
	-fcf-protection=none -m64 -falign-jumps=1 -falign-loops=1 -mno-80387 -mno-fp-ret-in-387
	-mpreferred-stack-boundary=3 -mskip-rax-setup -march=x86-64 -mtune=generic -mno-red-zone
	-fno-asynchronous-unwind-tables -fno-delete-null-pointer-checks -fno-allow-store-data-races
	-fno-stack-protector -fomit-frame-pointer -ftrivial-auto-var-init=zero
	-fno-stack-clash-protection -falign-functions=16 -fno-strict-overflow -fno-stack-check
	-fconserve-stack)
if [ -n "$cflags_from" ]; then
	[ -f "$cflags_from" ] || die "no file $cflags_from (a kernel build's kernel/sched/.build_utility.o.cmd)"
	mapfile -t kflags < <(sed -n '1s/^[^=]*:= //p' "$cflags_from" | tr ' ' '\n' |
		grep -E '^-(O|f|m|std)' | grep -vE '^-(mcmodel|fmacro-prefix-map|fsanitize|mrecord-mcount|mfentry|fpatchable)')
	[ ${#kflags[@]} -gt 0 ] || die "no -O/-f/-m flags on the first line of $cflags_from"
fi

out=${out:-$BUILD/native-psi/$(date +%Y%m%d-%H%M%S)}
mkdir -p "$out/gen"
out=$(realpath "$out")
model=$TOP/tests/psi-model
git -C "$tree" show base:kernel/sched/psi.c >"$out/base-psi.c"
rev="patches/ of repo commit $(git -C "$TOP" rev-parse --short HEAD), work tree $(git -C "$tree" rev-parse --short HEAD)"
git -C "$tree" diff --quiet HEAD -- kernel/sched/psi.c include/linux/psi_types.h || rev="$rev+changes"
series_psi=$tree/kernel/sched/psi.c
if [ -n "$psi_c" ]; then
	series_psi=$(realpath "$psi_c")
	rev="$rev with psi.c from $psi_c"
fi

step "extracting psi.c of the base and of $tree ($rev) (log: $out/build.log)"
run_logged "tests/psi-model/build.sh" "$out/build.log" \
	"$model/build.sh" "$out" "$series_psi" "$tree/include/linux/psi_types.h" "$out/base-psi.c"
step "compiling both with the kernel's flags"
inc=(-iquote "$out/gen" -I "$model" -DCONFIG_DEBUG_MISC=0 -Wno-unused-function)
for u in mirror ref; do
	run_logged "compiling $u.c" "$out/build.log.$u" \
		gcc "${kflags[@]}" "${inc[@]}" -c "$out/gen/$u.c" -o "$out/gen/$u-k.o"
done
run_logged "compiling psi-timing.c" "$out/build.log.timing" \
	gcc -O2 -Wall "${inc[@]}" -c "$TOP/bench/native/psi-timing.c" -o "$out/gen/psi-timing.o"
run_logged "linking psi-timing" "$out/build.log.link" \
	gcc -no-pie -o "$out/psi-timing" "$out/gen/psi-timing.o" "$out/gen/mirror-k.o" "$out/gen/ref-k.o"
printf '%s\n' "${kflags[@]}" >"$out/cflags.txt"
{
	echo "{\"series\": \"$rev\", \"cpu\": $cpu, \"reps\": $reps, \"rounds\": $rounds,"
	echo " \"cpu_model\": \"$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)\","
	echo " \"gcc\": \"$(gcc -dumpfullversion)\", \"load\": \"$(cut -d' ' -f1-3 /proc/loadavg)\"}"
} >"$out/meta.json"

workloads=("pingpong 1" "pingpong 4" "pingpong 8" "pingpong 16" "lone 1" "lone 16" "kubepods 4")
: >"$out/raw.jsonl"
for w in "${workloads[@]}"; do
	set -- $w
	step "timing $1 at depth $2: $reps repetitions of $rounds rounds, base and series"
	"$out/psi-timing" -w "$1" -d "$2" -n "$rounds" -r "$reps" -c "$cpu" >>"$out/raw.jsonl" ||
		die "psi-timing -w $1 -d $2 failed (above: why); its rows so far: $out/raw.jsonl"
done
step "report"
python3 "$TOP/bench/native/report.py" "$out"
info "$out/REPORT.md"
