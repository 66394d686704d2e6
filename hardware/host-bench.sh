#!/usr/bin/env bash
# The series' benchmarks on the running kernel of a real machine (or a
# guest), booted into the base or the series (hardware/package-kernels.sh,
# docs/hardware.md), as root:
#
#   host-bench.sh [--label NAME] [--runs N] [--repeat R] [--out FILE]
#                 [--max-load X] [--cpu N] [--perf PATH] [--quick]
#                 [--dry-run] [--list] [BENCH...]
#
# Writes one JSON-lines file: a header line {"header": {kernel release,
# label, CPU model, CPUs, PMU or not, date, perf version, ...}}, then one
# row per benchmark metric and run, the emulator's row with the benchmark,
# the run and, where the CPU has a PMU, perf stat's cycles and
# instructions of the command per operation (user + kernel):
#   {"bench", "metric", "unit", "better", "value", "run", "cycles"?,
#    "instructions"?, "ops"?, ...}
# The value is wall-clock time (CLOCK_MONOTONIC ns, or ops per second).
# hardware/host-compare.py compares two such files (or directories of them).
#
# Each command is run through hardware/host-bench/measure.sh, which wraps it in
# "perf stat -x, -e cycles,instructions [-r R]" and divides the counts by
# the command's operations (its timed loop and warm-up: the counts cover
# the whole command, so setup is in them, kept small by the sizes in
# hardware/host-bench/host.env). Where perf cannot count cycles (no PMU, e.g. QEMU
# TCG) it says "cycles: not available (no PMU); wall clock only" and the
# rows have wall clock only.
#
# It refuses, before doing anything, when it cannot run: not root, no
# cgroup2 at /sys/fs/cgroup, a controller (cpu, memory, io) missing from
# cgroup.controllers, the machine busy (1-minute load average above
# --max-load, default 0.5 x CPUs), perf missing for a perf bench
# benchmark, no C compiler or another tool missing. Tests point it at a
# fake /proc and /sys with CGSCALE_HOST_ROOT=DIR (then CGSCALE_HOST_UID
# stands in for the uid); that works only with --dry-run or the test
# benchmark "noop".
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"

usage() {
	cat <<'EOF'
usage: hardware/host-bench.sh [--label NAME] [--runs N] [--repeat R] [--out FILE]
                              [--max-load X] [--cpu N] [--perf PATH] [--quick]
                              [--dry-run] [--list] [BENCH...]
The series' benchmarks on the running kernel, as root, on a real machine
booted into the base or the series kernel (docs/hardware.md): JSON rows
like the emulator's, wall-clock ns always, and per-op cycles and
instructions from perf stat where the CPU has a PMU. BENCH: see --list
(default: all of them).
  --label NAME    this kernel's name in the results (default: base or series
                  from uname -r's -cgscale-base/-cgscale-series, else uname -r)
  --runs N        runs of each benchmark (default 5)
  --repeat R      perf stat -r R: each run's command R times, averaged (default 1)
  --out FILE      the result file (default results/host-LABEL-DATE.json)
  --max-load X    refuse if the 1-minute load average is above X
                  (default 0.5 x the online CPUs)
  --cpu N         the CPU of the pinned ping-pong (default: the last online one)
  --perf PATH     the perf to use (default: perf in PATH)
  --quick         tiny parameters (hardware/host-bench/quick.env, bench/*/smoke.env):
                  that everything runs, e.g. in a QEMU guest; not for numbers
  --dry-run       the checks, then what it would run; runs and writes nothing
  --list          the benchmarks and what they run, then exit
Parameters: hardware/host-bench/host.env (environment variables win). Compare two
kernels: hardware/host-compare.py BASE.json SERIES.json.
EOF
}

BENCHES=(sched-pipe sched-messaging psi-wake kernfs rstat-update stat-read cpu-scale fleet-scrape psi)
declare -A DESC=(
	[sched-pipe]="perf bench sched pipe, sender and receiver in sibling leaf cgroups at depth D (HB_DEPTHS), both pinned to one CPU: ns per round trip (this perf without -G/--cgroups: the emulator's pingpong)"
	[sched-messaging]="perf bench sched messaging (hackbench, HB_MSG_GROUPS groups) in a leaf cgroup at depth D, all CPUs: ns per message"
	[psi-wake]="PSI wake-up path (patch 28's barrier): HB_WAKE_LEAVES perf bench sched messaging -p runs in sibling cgroups, and HB_WAKE_PAIRS perf bench sched pipe pairs with sender and receiver in sibling cgroups, all at once, unpinned: ns per message / round trip"
	[kernfs]="N threads (HB_KERNFS_THREADS: 1, 16, all CPUs) open, read and close cgroupfs and sysfs files in a loop, the same file or one per thread: ops per second"
	[rstat-update]="page-fault loop (will-it-scale page_fault2) in a memcg per CPU on every CPU, without and with a HB_FAULT_READER_HZ reader of the parent's cpu.stat and memory.stat: faults per second"
	[stat-read]="the emulator's stat-read (bench/stat-read/guest.sh): ns per read of memory.stat, memory.numa_stat, cpu.stat, io.stat, cgroup.stat, idle and under reclaim"
	[cpu-scale]="the emulator's cpu-scale (bench/cpu-scale/guest.sh) on this machine's CPUs: ns per read of the stat and pressure files, a read after a flush-threshold crossing, K concurrent cpu.stat readers"
	[fleet-scrape]="the emulator's fleet-scrape (bench/fleet-scrape/guest.sh) without its BPF route: open, read, close six files of every cgroup of a kubelet-like tree, per cgroup (FS_COUNTS)"
	[psi]="the emulator's psi (bench/psi/guest.sh): pipe ping-pong at depths 1-16 (siblings, lone, apart), 8 messaging pairs, pressure reads of a chain, pinned to CPU 0"
	[noop]="(tests only) a command that prints one fixed row"
)
# commands a benchmark needs, besides cc; "perf" means perf bench
declare -A NEEDS=(
	[sched-pipe]="perf taskset" [sched-messaging]="perf" [psi-wake]="perf"
	[kernfs]="" [rstat-update]="" [stat-read]="losetup mkfs.ext4 mount taskset truncate dd"
	[cpu-scale]="losetup truncate dd" [fleet-scrape]="losetup truncate" [psi]="" [noop]=""
)
declare -A PKG=([taskset]=util-linux [losetup]=util-linux [mount]=mount [mkfs.ext4]=e2fsprogs
	[truncate]=coreutils [dd]=coreutils [cc]=gcc)
# the benchmarks whose rows always name PSI's state (psi=1/psi=0 boots)
PSI_BENCHES=" sched-pipe sched-messaging psi-wake psi "

label='' runs=5 repeat=1 out='' max_load='' pin='' perf_opt='' quick=0 dry=0 list=0
benches=()
while [ $# -gt 0 ]; do
	case $1 in
	-h|--help) usage; exit 0 ;;
	--label) [ -n "${2:-}" ] || usage_error "--label needs a NAME"; label=$2; shift 2 ;;
	--runs) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || usage_error "--runs needs a number >= 1"; runs=$2; shift 2 ;;
	--repeat) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || usage_error "--repeat needs a number >= 1"; repeat=$2; shift 2 ;;
	--out) [ -n "${2:-}" ] || usage_error "--out needs a FILE"; out=$2; shift 2 ;;
	--max-load) [[ ${2:-} =~ ^[0-9]+(\.[0-9]+)?$ ]] || usage_error "--max-load needs a number"; max_load=$2; shift 2 ;;
	--cpu) [[ ${2:-} =~ ^[0-9]+$ ]] || usage_error "--cpu needs a CPU number"; pin=$2; shift 2 ;;
	--perf) [ -n "${2:-}" ] || usage_error "--perf needs a PATH"; perf_opt=$2; shift 2 ;;
	--quick) quick=1; shift ;;
	--dry-run) dry=1; shift ;;
	--list) list=1; shift ;;
	--) shift; benches+=("$@"); break ;;
	-*) usage_error "unknown option '$1'" ;;
	*) benches+=("$1"); shift ;;
	esac
done

root=${CGSCALE_HOST_ROOT:-}
if [ "$list" -eq 1 ]; then
	for b in "${BENCHES[@]}"; do
		printf '%-16s %s\n' "$b" "${DESC[$b]}"
	done
	exit 0
fi
[ "${#benches[@]}" -gt 0 ] || benches=("${BENCHES[@]}")
for b in "${benches[@]}"; do
	if [ "$b" = noop ]; then
		[ -n "$root" ] || usage_error "benchmark 'noop' is for tests (CGSCALE_HOST_ROOT)"
		continue
	fi
	[ -n "${DESC[$b]:-}" ] || usage_error "unknown benchmark '$b' (see --list)"
done
if [ -n "$root" ] && [ "$dry" -eq 0 ]; then
	for b in "${benches[@]}"; do
		[ "$b" = noop ] ||
			die "CGSCALE_HOST_ROOT ($root) is a fake /proc and /sys for tests: it works only with --dry-run or the benchmark noop"
	done
fi

CG=/sys/fs/cgroup		# where the benchmarks make their cgroups
RCG=$root/sys/fs/cgroup		# where the checks read
HOST=$TOP/hardware/host-bench

# --- the machine -------------------------------------------------------
# count_cpus LIST: the number of CPUs in a list such as 0-3,8,10-11
count_cpus() {
	awk -F, '{ n = 0; for (i = 1; i <= NF; i++) { split($i, r, "-"); n += (r[2] == "" ? 1 : r[2] - r[1] + 1) } print n }' <<<"$1"
}
last_cpu() {
	awk -F, '{ split($NF, r, "-"); print (r[2] == "" ? r[1] : r[2]) }' <<<"$1"
}
online=$(cat "$root/sys/devices/system/cpu/online" 2>/dev/null || echo 0)
ncpu=$(count_cpus "$online")
[ "$ncpu" -ge 1 ] || die "cannot read the online CPUs ($root/sys/devices/system/cpu/online)"
[ -n "$pin" ] || pin=$(last_cpu "$online")
[ -n "$max_load" ] || max_load=$(awk -v n="$ncpu" 'BEGIN { printf "%.2f", 0.5 * n }')
kernel=$(uname -r)
if [ -n "$root" ] && [ -f "$root/proc/sys/kernel/osrelease" ]; then
	kernel=$(cat "$root/proc/sys/kernel/osrelease")
fi
if [ -z "$label" ]; then
	case $kernel in
	*-cgscale-base*) label=base ;;
	*-cgscale-series*) label=series ;;
	*) label=$kernel ;;
	esac
fi
cpu_model=$(sed -n 's/^model name[[:space:]]*: *//p' "$root/proc/cpuinfo" 2>/dev/null | head -n 1 || true)
if [ -z "$cpu_model" ] && [ -z "$root" ] && command -v lscpu >/dev/null; then
	cpu_model=$(lscpu | sed -n 's/^Model name: *//p' | head -n 1 || true)
fi
[ -n "$cpu_model" ] || cpu_model=unknown
psi=off
[ -e "$root/proc/pressure/cpu" ] && psi=on

# programs to build: PROG=SOURCE (relative to the top of the repository)
programs() {
	case $1 in
	sched-pipe) [ "$pipe_cgroups" -eq 1 ] || echo pingpong=bench/psi/pingpong.c ;;
	kernfs) echo kernfs=hardware/host-bench/kernfs.c ;;
	rstat-update) echo faultloop=hardware/host-bench/faultloop.c ;;
	stat-read) echo statread=bench/stat-read/statread.c ;;
	cpu-scale) echo cpuscale=bench/cpu-scale/cpuscale.c ;;
	fleet-scrape) echo fleetscrape=bench/fleet-scrape/fleetscrape.c hostscrape=hardware/host-bench/hostscrape.c fleetbpf= ;;
	psi) echo pingpong=bench/psi/pingpong.c messaging=bench/psi/messaging.c chainread=bench/psi/chainread.c ;;
	noop) echo noop= ;;
	esac
}

# --- the checks ----------------------------------------------------------
refusals=()
refuse() { refusals+=("$1"); }
needs_perf=()
for b in "${benches[@]}"; do
	case " ${NEEDS[$b]} " in *" perf "*) needs_perf+=("$b") ;; esac
done

uid=$(id -u)
[ -z "$root" ] || uid=${CGSCALE_HOST_UID:-$uid}
[ "$uid" -eq 0 ] ||
	refuse "root: not root (uid $uid): the benchmarks make cgroups, move tasks into them and drop caches; run it as root: sudo hardware/host-bench.sh ..."

fstype=$(awk '$2 == "/sys/fs/cgroup" { t = $3 } END { print t }' "$root/proc/mounts" 2>/dev/null || true)
if [ "$fstype" != cgroup2 ]; then
	refuse "cgroup2: no cgroup2 at /sys/fs/cgroup (mounted there: ${fstype:-nothing}): boot with cgroup v2 alone (the default of systemd since Debian 11; on older systems add systemd.unified_cgroup_hierarchy=1 to the kernel command line)"
else
	have=$(cat "$RCG/cgroup.controllers" 2>/dev/null || true)
	missing=()
	for c in cpu memory io; do
		case " $have " in *" $c "*) ;; *) missing+=("$c") ;; esac
	done
	[ "${#missing[@]}" -eq 0 ] ||
		refuse "controllers: ${missing[*]} not in /sys/fs/cgroup/cgroup.controllers (it has: ${have:-none}): boot a kernel with them (CONFIG_CGROUP_SCHED, CONFIG_MEMCG, CONFIG_BLK_CGROUP; hardware/package-kernels.sh builds such kernels) and with no cgroup v1 hierarchy holding them (cgroup_no_v1=all)"
fi

# fleet-scrape's guest.sh makes /sys/fs/cgroup/kubepods and kills all in it
# at the end: not on a machine where a kubelet has its pods there
if [[ " ${benches[*]} " == *" fleet-scrape "* ]] && [ -d "$RCG/kubepods" ]; then
	refuse "kubepods: /sys/fs/cgroup/kubepods exists (a kubelet's pods?), and fleet-scrape makes that cgroup and kills every task in it at the end: run fleet-scrape on a machine without a kubelet, or leave it out"
fi

# with psi=0 there are no pressure files to read
if [ "$psi" = off ]; then
	readers=()
	for b in "${benches[@]}"; do
		case $b in cpu-scale|fleet-scrape) readers+=("$b") ;; esac
	done
	[ "${#readers[@]}" -eq 0 ] ||
		refuse "psi: PSI is off (no /proc/pressure; psi=0 on the kernel command line?), and ${readers[*]} read pressure files: run them on a boot with PSI on, or leave them out (a psi=0 boot is for sched-pipe sched-messaging psi-wake psi)"
fi

load=$(awk '{ print $1 }' "$root/proc/loadavg" 2>/dev/null || echo 0)
if awk -v l="$load" -v m="$max_load" 'BEGIN { exit !(l > m) }'; then
	refuse "load: machine busy: the 1-minute load average is $load, above $max_load (0.5 x $ncpu CPUs unless --max-load): stop what runs (see top), wait until the load falls below it, then run again; --max-load X sets another limit"
fi

perf=$perf_opt
[ -n "$perf" ] || perf=$(command -v perf || true)
perf_version=none
perf_why=	# why there is no perf
if [ -z "$perf" ] || ! [ -x "$perf" ]; then
	perf_why="perf not found${perf_opt:+ at $perf_opt}"
	perf=
elif ! perf_version=$("$perf" --version 2>&1); then
	perf_why="perf does not run ($perf --version says: ${perf_version//$'\n'/ })"
	perf_version=none
	perf=
fi
perf_note="$perf_why: apt install linux-perf"
if [ -z "$perf" ] && [ "${#needs_perf[@]}" -gt 0 ]; then
	refuse "perf: $perf_why, and ${needs_perf[*]} run perf bench: install it (apt install linux-perf), or leave out ${needs_perf[*]}"
fi

pipe_cgroups=0
if [ -n "$perf" ]; then
	# perf bench ... -h exits 129
	case $("$perf" bench sched pipe -h 2>&1 || true) in *--cgroups*) pipe_cgroups=1 ;; esac
fi
need_cc=0
for b in "${benches[@]}"; do
	case " $(programs "$b") " in *=[a-z]*) need_cc=1 ;; esac
done
if [ "$need_cc" -eq 1 ] && ! command -v cc >/dev/null; then
	refuse "cc: no C compiler (cc): the benchmark programs are built from bench/ on this machine: apt install gcc"
fi
declare -A tool_users=()
for b in "${benches[@]}"; do
	for t in ${NEEDS[$b]}; do
		[ "$t" = perf ] && continue
		command -v "$t" >/dev/null || tool_users[$t]+="${tool_users[$t]:+ }$b"
	done
done
for t in "${!tool_users[@]}"; do
	refuse "tools: $t not found, and ${tool_users[$t]} need it: apt install ${PKG[$t]:-$t}"
done

if [ "${#refusals[@]}" -gt 0 ]; then
	for r in "${refusals[@]}"; do
		printf 'error: host-bench.sh: refused (%s): %s\n' "${r%%:*}" "${r#*: }" >&2
	done
	printf 'error: host-bench.sh: %d check(s) failed, nothing was run\n' "${#refusals[@]}" >&2
	exit 1
fi

# --- cycles or wall clock only -----------------------------------------------
pmu=0
if [ -n "$perf" ]; then
	probe=$("$perf" stat -x, -e cycles,instructions -- true 2>&1 >/dev/null || true)
	if awk -F, '{ ev = $3; sub(/\/$/, "", ev); sub(/^.*\//, "", ev); sub(/:.*/, "", ev)
		     if ($1 ~ /^[0-9]+(\.[0-9]+)?$/ && $1 > 0) seen[ev] = 1 }
		END { exit !(seen["cycles"] && seen["instructions"]) }' <<<"$probe"; then
		pmu=1
	else
		perf_note="no PMU"
	fi
fi
if [ "$pmu" -eq 1 ]; then
	cycles_line="cycles: perf stat -e cycles,instructions (user + kernel) of each command, per operation"
else
	cycles_line="cycles: not available ($perf_note); wall clock only"
fi

# --- parameters ----------------------------------------------------------------
set -a
[ "$quick" -eq 0 ] || . "$HOST/quick.env"
. "$HOST/host.env"
set +a
at_least() { [ "$1" -ge "$2" ] && echo "$1" || echo "$2"; }
msg_groups=${HB_MSG_GROUPS:-$(at_least $((ncpu / 8)) 1)}
wake_leaves=${HB_WAKE_LEAVES:-$(at_least $((ncpu / 8)) 2)}
wake_pairs=${HB_WAKE_PAIRS:-$(at_least $((ncpu / 2)) 1)}
if [ -n "$HB_KERNFS_THREADS" ]; then
	kernfs_threads=$HB_KERNFS_THREADS
else
	kernfs_threads=1
	[ "$ncpu" -ge 16 ] && kernfs_threads+=" 16"
	[ "$ncpu" -gt 1 ] && [ "$ncpu" -ne 16 ] && kernfs_threads+=" $ncpu"
fi

step "host-bench: kernel $kernel (label $label), $ncpu CPUs ($cpu_model), PSI $psi, load $load"
info "$cycles_line"
[ "$pipe_cgroups" -eq 1 ] || ! [[ " ${benches[*]} " == *" sched-pipe "* ]] ||
	info "sched-pipe: this perf's sched pipe has no -G/--cgroups; the emulator's pingpong (on CPU 0) runs instead"
gov=$(cat "$root/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor" 2>/dev/null || echo none)
case $gov in
performance|none) ;;
*) info "note: CPU frequency governor '$gov'; steadier numbers with 'cpupower frequency-set -g performance'" ;;
esac
[ "$quick" -eq 0 ] || info "--quick: tiny parameters, the numbers mean nothing"

# --- running ---------------------------------------------------------------
if [ "$dry" -eq 1 ]; then
	BIN='$BIN'
	MEASURE=hardware/host-bench/measure.sh
	TOGETHER=hardware/host-bench/together.sh
	INCG=hardware/host-bench/incg.sh
else
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/cgscale-host.XXXXXX")
	BIN=$tmp/bin
	MEASURE=$HOST/measure.sh
	TOGETHER=$HOST/together.sh
	INCG=$HOST/incg.sh
	export HB_TMP=$tmp HB_REPEAT=$repeat
	HB_PERF=
	[ "$pmu" -eq 0 ] || HB_PERF=$perf
	export HB_PERF
fi

# x CMD...: run CMD, or with --dry-run show it
x() {
	if [ "$dry" -eq 1 ]; then
		printf '      %s\n' "$*"
	else
		"$@"
	fi
}
# xw FILE TEXT: write TEXT to FILE (a cgroup file), or show it
xw() {
	if [ "$dry" -eq 1 ]; then
		printf '      echo %s > %s\n' "$2" "$1"
	else
		echo "$2" >"$1"
	fi
}

# cgroups this run made, removed on exit (tasks killed first)
made_cgroups=()
cg_remove() {
	local d=$1
	[ -d "$d" ] || return 0
	if [ -e "$d/cgroup.kill" ]; then
		echo 1 >"$d/cgroup.kill" 2>/dev/null || true
		local i
		for ((i = 0; i < 100; i++)); do
			grep -q 'populated 0' "$d/cgroup.events" 2>/dev/null && break
			sleep 0.05
		done
	fi
	find "$d" -depth -type d -exec rmdir {} + 2>/dev/null || true
}
remove_made() {
	local d
	for d in "${made_cgroups[@]}"; do cg_remove "$d"; done
}
cleanup() {
	remove_made
	[ -z "${tmp:-}" ] || rm -rf "$tmp"
}
# mkcg DIR...: make cgroups under $CG/cgscale-* (their top-level one is
# removed, tasks killed, at the end of the run)
mkcg() {
	local d rel top
	for d in "$@"; do
		case $d in
		"$CG"/cgscale-?*) ;;
		*) echo "host-bench.sh: mkcg: $d is not under $CG/cgscale-*" >&2; return 1 ;;
		esac
		rel=${d#"$CG"/}
		top=$CG/${rel%%/*}
		case " ${made_cgroups[*]} " in *" $top "*) ;; *) made_cgroups+=("$top") ;; esac
	done
	x mkdir -p "$@"
}
# chain NAME D: CHAIN = the cgroup that holds the leaves at level D below
# the root (made), LEAF = the prefix of their names
chain() {
	local i
	if [ "$2" -eq 1 ]; then
		CHAIN=$CG LEAF=cgscale-$1-
		return
	fi
	CHAIN=$CG/cgscale-$1
	for ((i = 2; i < $2; i++)); do CHAIN=$CHAIN/l$i; done
	LEAF=
	mkcg "$CHAIN"
}

bench_sched_pipe() {
	local d a b
	for d in $HB_DEPTHS; do
		if [ "$pipe_cgroups" -eq 1 ]; then
			chain pipe "$d"
			a=$CHAIN/${LEAF}a b=$CHAIN/${LEAF}b
			mkcg "$a" "$b"
			x "$MEASURE" --metric "sched_pipe_round_trip_depth$d" --ops-each "$HB_PIPE_LOOPS" -- \
				taskset -c "$pin" "$perf" bench sched pipe -l "$HB_PIPE_LOOPS" \
				-G "${a#"$CG"/},${b#"$CG"/}"
		else
			# pingpong makes ROOT/pp1/.../{ppa,ppb} itself, pinned to CPU 0
			x "$BIN/pingpong" "$CG" "$d" "$HB_PIPE_LOOPS"
		fi
	done
}

bench_sched_messaging() {
	local d leaf
	for d in $HB_DEPTHS; do
		chain msg "$d"
		leaf=$CHAIN/${LEAF}leaf
		mkcg "$leaf"
		# 20 senders x 20 receivers per group, HB_MSG_LOOPS messages each pair
		x "$MEASURE" --metric "sched_messaging_depth$d" --ops-each $((msg_groups * 400 * HB_MSG_LOOPS)) -- \
			"$INCG" "$leaf" "$perf" bench sched messaging -g "$msg_groups" -l "$HB_MSG_LOOPS"
	done
}

bench_psi_wake() {
	local w=$CG/cgscale-wake i dirs=()
	for ((i = 0; i < wake_leaves; i++)); do dirs+=("$w/m$i"); done
	for ((i = 0; i < wake_pairs; i++)); do
		dirs+=("$w/s$i")
		[ "$pipe_cgroups" -eq 0 ] || dirs+=("$w/r$i")
	done
	mkcg "${dirs[@]}"
	x "$MEASURE" --metric "wake_messaging_leaves$wake_leaves" --ops-each $((400 * HB_WAKE_LOOPS)) \
		--instances "$wake_leaves" -- \
		"$TOGETHER" "$wake_leaves" "$INCG" "$w/m%i" "$perf" bench sched messaging -p -g 1 -l "$HB_WAKE_LOOPS"
	if [ "$pipe_cgroups" -eq 1 ]; then
		x "$MEASURE" --metric "wake_pipe_pairs$wake_pairs" --ops-each "$HB_WAKE_PIPE_LOOPS" \
			--instances "$wake_pairs" -- \
			"$TOGETHER" "$wake_pairs" "$perf" bench sched pipe -l "$HB_WAKE_PIPE_LOOPS" \
			-G "cgscale-wake/s%i,cgscale-wake/r%i"
	else
		# no -G: each pair in one leaf of its own
		x "$MEASURE" --metric "wake_pipe_pairs${wake_pairs}_leaf_each" --ops-each "$HB_WAKE_PIPE_LOOPS" \
			--instances "$wake_pairs" -- \
			"$TOGETHER" "$wake_pairs" "$INCG" "$w/s%i" "$perf" bench sched pipe -l "$HB_WAKE_PIPE_LOOPS"
	fi
}

bench_kernfs() {
	local k=$CG/cgscale-kernfs t i max=1 same own sys
	for t in $kernfs_threads; do [ "$t" -le "$max" ] || max=$t; done
	local dirs=("$k/a/b")
	for ((i = 0; i < max; i++)); do dirs+=("$k/own/t$i"); done
	mkcg "${dirs[@]}"
	same=$k/a/b/cgroup.controllers
	local cpus=()
	for ((i = 0; i < ncpu; i++)); do cpus+=("$i"); done
	if [ "$dry" -eq 0 ]; then
		# the online CPUs' own sysfs files
		mapfile -t cpus < <(for c in /sys/devices/system/cpu/cpu[0-9]*; do
			[ -e "$c/topology/core_id" ] && echo "${c##*cpu}"; done | sort -n)
	fi
	for t in $kernfs_threads; do
		own=()
		sys=()
		for ((i = 0; i < t; i++)); do
			own+=("$k/own/t$i/cgroup.controllers")
			if [ "${#cpus[@]}" -gt 0 ]; then
				sys+=("/sys/devices/system/cpu/cpu${cpus[i % ${#cpus[@]}]}/topology/core_id")
			else
				sys+=(/sys/devices/system/cpu/online)
			fi
		done
		x "$BIN/kernfs" "kernfs_cgroupfs_same_threads$t" "$HB_KERNFS_SECONDS" "$t" "$same"
		x "$BIN/kernfs" "kernfs_cgroupfs_own_threads$t" "$HB_KERNFS_SECONDS" "$t" "${own[@]}"
		x "$BIN/kernfs" "kernfs_sysfs_same_threads$t" "$HB_KERNFS_SECONDS" "$t" /sys/devices/system/cpu/online
		x "$BIN/kernfs" "kernfs_sysfs_own_threads$t" "$HB_KERNFS_SECONDS" "$t" "${sys[@]}"
	done
}

bench_rstat_update() {
	local p=$CG/cgscale-fault
	xw "$CG/cgroup.subtree_control" +memory
	mkcg "$p"
	xw "$p/cgroup.subtree_control" +memory
	x "$BIN/faultloop" page_fault2_per_s "$HB_FAULT_SECONDS" "$p" "$HB_FAULT_MIB" 0
	x "$BIN/faultloop" "page_fault2_per_s_reader${HB_FAULT_READER_HZ}hz" "$HB_FAULT_SECONDS" "$p" \
		"$HB_FAULT_MIB" "$HB_FAULT_READER_HZ"
}

# the emulator's benchmark NAME: bench/NAME/guest.sh, its commands measured
bench_guest() {
	local name=$1 prefix
	case $name in
	stat-read) prefix=STAT_ ;; cpu-scale) prefix=CS_ ;; fleet-scrape) prefix=FS_ ;; psi) prefix=PSI_ ;;
	esac
	if [ "$dry" -eq 1 ]; then
		x "bench/$name/guest.sh" "$BIN" "($(env | grep "^$prefix" | sort | tr '\n' ' ')...)"
		return
	fi
	(
		if [ "$quick" -eq 1 ] && [ -f "$TOP/bench/$name/smoke.env" ]; then
			set -a
			. "$TOP/bench/$name/smoke.env"
			FS_POSSIBLE_COUNTS=$FS_COUNTS
			set +a
		fi
		"$TOP/bench/$name/guest.sh" "$BIN"
	)
}

run_bench() {
	case $1 in
	sched-pipe) bench_sched_pipe ;;
	sched-messaging) bench_sched_messaging ;;
	psi-wake) bench_psi_wake ;;
	kernfs) bench_kernfs ;;
	rstat-update) bench_rstat_update ;;
	stat-read|cpu-scale|fleet-scrape|psi) bench_guest "$1" ;;
	noop) x "$BIN/noop" ;;
	esac
}

if [ "$dry" -eq 1 ]; then
	step "dry run: $runs run(s) of ${benches[*]}; per run:"
	info "(\$BIN/PROG: PROG built from bench/ or hardware/host-bench/ with cc, run through hardware/host-bench/measure.sh)"
	for b in "${benches[@]}"; do
		info "$b: ${DESC[$b]}"
		run_bench "$b"
	done
	info "(nothing was run or written)"
	exit 0
fi

trap cleanup EXIT
date=$(date +%Y%m%d-%H%M%S)
[ -n "$out" ] || out=$TOP/results/host-$label-$date.json
mkdir -p "$(dirname "$out")"
log=${out%.json}.log
: >"$log"

step "building the benchmark programs (cc, into $BIN)"
mkdir -p "$BIN/real"
declare -A built=()
for b in "${benches[@]}"; do
	for p in $(programs "$b"); do
		name=${p%%=*} src=${p#*=}
		[ -z "${built[$name]:-}" ] || continue
		built[$name]=1
		if [ "$name" = noop ]; then
			printf '#!/bin/sh\necho %s\n' \
				"'{\"metric\": \"noop\", \"unit\": \"ns\", \"better\": \"lower\", \"value\": 100, \"ops\": 1000}'" \
				>"$BIN/real/noop"
			chmod +x "$BIN/real/noop"
		elif [ -n "$src" ]; then
			cc -O2 -Wall -pthread -I "$TOP/bench/include" -o "$BIN/real/$name" "$TOP/$src" \
				>>"$log" 2>&1 || die "compiling $src failed; log: $log"
		fi
		ln -s "$MEASURE" "$BIN/$name"
	done
done

json_str() {
	local s=${1//\\/\\\\}
	s=${s//\"/\\\"}
	s=${s//$'\t'/ }
	s=${s//$'\n'/ }
	printf '"%s"' "$s"
}
{
	printf '{"header": {"tool": "host-bench", "kernel": %s, "label": %s, "cpu_model": %s, "cpus": %d' \
		"$(json_str "$kernel")" "$(json_str "$label")" "$(json_str "$cpu_model")" "$ncpu"
	printf ', "online": %s, "pmu": %s, "cycles": %s, "date": %s, "perf_version": %s' \
		"$(json_str "$online")" "$([ "$pmu" -eq 1 ] && echo true || echo false)" \
		"$(json_str "$cycles_line")" "$(json_str "$(date -Iseconds)")" "$(json_str "$perf_version")"
	printf ', "psi": %s, "cmdline": %s, "governor": %s, "smt": %s, "numa_nodes": %d' \
		"$(json_str "$psi")" "$(json_str "$(cat "$root/proc/cmdline" 2>/dev/null || true)")" \
		"$(json_str "$gov")" "$(json_str "$(cat "$root/sys/devices/system/cpu/smt/active" 2>/dev/null || echo none)")" \
		"$(find "$root/sys/devices/system/node" -maxdepth 1 -name 'node[0-9]*' 2>/dev/null | wc -l)"
	printf ', "root_subtree_control": %s, "load_at_start": %s, "max_load": %s, "runs": %d, "repeat": %d' \
		"$(json_str "$(cat "$RCG/cgroup.subtree_control" 2>/dev/null || true)")" "$load" "$max_load" "$runs" "$repeat"
	printf ', "quick": %s, "pinned_cpu": %d, "harness_commit": %s, "benches": [%s]}}\n' \
		"$([ "$quick" -eq 1 ] && echo true || echo false)" "$pin" \
		"$(json_str "$(git -C "$TOP" rev-parse --short HEAD 2>/dev/null || echo unknown)")" \
		"$(printf '"%s", ' "${benches[@]}" | sed 's/, $//')"
} >"$out.partial"

t0=$(date +%s)
nrows=0
for b in "${benches[@]}"; do
	suffix=
	case $PSI_BENCHES in *" $b "*) suffix=_psi_$psi ;; esac
	[ "$psi" = on ] || suffix=_psi_off
	for ((r = 1; r <= runs; r++)); do
		step "[$r/$runs] $b ($(($(date +%s) - t0))s so far)"
		echo "== $b run $r" >>"$log"
		# a subshell with set -e of its own (not ignored as under "if"):
		# the first command that fails ends the run; its cgroups go with it
		set +e
		(
			set -e
			trap remove_made EXIT
			run_bench "$b"
		) >"$tmp/rows" 2>>"$log"
		status=$?
		set -e
		if [ "$status" -ne 0 ]; then
			tail -n 20 "$log" >&2
			die "$b failed in run $r; log: $log (rows so far: $out.partial)"
		fi
		n=$(awk -v bench="$b" -v run="$r" -v sfx="$suffix" '
			/^[ \t]*\{.*"metric": *"[^"]*".*"value"/ {
				line = $0
				if (sfx != "" && match(line, /"metric": *"[^"]*"/)) {
					m = substr(line, RSTART, RLENGTH - 1)
					line = substr(line, 1, RSTART - 1) m sfx "\"" substr(line, RSTART + RLENGTH)
				}
				sub(/^[ \t]*\{/, "{\"bench\": \"" bench "\", ", line)
				sub(/\}[ \t]*$/, ", \"run\": " run "}", line)
				print line >> out
				n++
			}
			END { print n + 0 }' out="$out.partial" "$tmp/rows")
		[ "$n" -gt 0 ] || die "$b printed no rows in run $r; log: $log"
		nrows=$((nrows + n))
	done
done
mv "$out.partial" "$out"
step "done: $nrows rows in $out ($(($(date +%s) - t0))s; log: $log)"
info "$cycles_line"
info "compare: hardware/host-compare.py A.json B.json (each a file like this one, or a directory of them)"
