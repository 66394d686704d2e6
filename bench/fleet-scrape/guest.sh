#!/bin/bash
# fleet-scrape benchmark, guest side: guest.sh BINDIR
# A monitoring agent's scrape (cAdvisor, kubelet, below): open, read to EOF
# and close memory.stat, cpu.stat, io.stat, cpu.pressure, memory.pressure
# and io.pressure of every cgroup of a kubelet-like tree,
#   /sys/fs/cgroup/kubepods/{burstable,besteffort}/pod<i>/c, i = 1..N,
# +memory +cpu +io enabled down to every c; every tenth c holds a sleeping
# task that touched 256 KiB of anon memory and did 4 KiB of direct I/O to
# a loop device (fleetscrape.c; not children.sh's start_children, whose
# 4 MiB file per task does not fit 400 tasks in the 2G guest). The tree
# grows from one N to the next (FS_COUNTS, ascending). Per N, 2N + 3
# cgroups are scraped (kubepods, the two QoS classes, the pods, the c's),
# FS_PASSES passes per metric after one warm-up pass, more for small N so
# that a metric visits at least FS_MIN_VISITS cgroups (1000; N = 10: 44
# passes). Metrics, instructions per cgroup and pass (suffixed with the
# variant by the report):
#   scrape_per_cgroup_nN     the six files by path
#   FILE_per_cgroup_nN       one file only, by path
#   openclose_per_cgroup_nN  open + close of the six, no read
#   openat_per_cgroup_nN     the scrape with openat() on each cgroup's
#                            directory fd, opened once beforehand
#   kfunc_tree_nN            the kfunc route (fleetbpf.c): a pre-order
#                            cgroup iterator fetches memory.stat's numbers
#                            (kfunc-vs-text's set) of every cgroup, the
#                            same passes
# and, with a task in each of the N leaves waking once a second
# (fleetbpf avgs, FS_AVGS_SECONDS timed, 10):
#   psi_avgs_insn_per_s_nN   instructions of psi_avgs_work() per second
#   psi_avgs_insn_per_run_nN the same per run (one group's averaging)
# Boot variants (bench/fleet-scrape/variants): online2 runs every N;
# possibleK (2 online of K possible CPUs) only FS_POSSIBLE_COUNTS: guest.sh
# takes the variant from /sys/devices/system/cpu/possible. That N is 500,
# not 1000, and 500 is in the online2 ladder for comparison: each cgroup
# here takes about 3.4 KB of per-CPU memory per possible CPU, so at 255
# possible CPUs N = 500 (1,003 cgroups) leaves 0.9 GB of the 2G guest and
# N = 1000 would not fit.
# Everything is removed at the end (cgroup.kill, rmdir bottom-up).
# Host time per boot under TCG (bench kernels, another guest beside it):
# online2 with the full ladder about 3 min (guest: 32 s on base), a
# possibleK boot 1-1.5 min. N = 4000 stays (docs/fleet-scrape.md).
. "$(dirname "$0")/../include/children.sh"
bin=$1
cg=/sys/fs/cgroup
k=$cg/kubepods
counts=${FS_COUNTS:-10 100 500 1000 4000}
passes=${FS_PASSES:-5}
visits=${FS_MIN_VISITS:-1000}
avgs_seconds=${FS_AVGS_SECONDS:-10}
online=$(nproc)
possible=$(($(cut -d- -f2 /sys/devices/system/cpu/possible) + 1))
if [ "$possible" -gt "$online" ]; then
	counts=${FS_POSSIBLE_COUNTS:-500}
fi
echo "fleet-scrape: $online online, $possible possible CPUs, N in $counts" >&2

cleanup() {
	local leaves pods
	shopt -s nullglob
	if [ -d $k ]; then
		echo 1 >$k/cgroup.kill
		while grep -q 'populated 1' $k/cgroup.events; do sleep 0.1; done
		leaves=($k/*/pod*/c)
		pods=($k/*/pod*)
		[ ${#leaves[@]} -eq 0 ] || rmdir "${leaves[@]}"
		[ ${#pods[@]} -eq 0 ] || rmdir "${pods[@]}"
		rmdir $k/besteffort $k/burstable 2>/dev/null
		rmdir $k
	fi
	[ -z "${IO_LOOP:-}" ] || losetup -d "$IO_LOOP"
	rm -f /tmp/fleetscrape-io.img
}
trap cleanup EXIT

make_parent $k "+memory +cpu +io" || exit 1
io_loop fleetscrape || exit 1
have=0
for n in $counts; do
	if [ "$n" -lt "$have" ]; then
		echo "fleet-scrape: FS_COUNTS must ascend ($n after $have)" >&2
		exit 1
	fi
	if [ "$n" -gt "$have" ]; then
		"$bin/fleetscrape" grow $k $have "$n" "$IO_LOOP" || exit 1
		have=$n
	fi
	echo "fleet-scrape: n=$n:" $(grep -E '^(MemAvailable|Percpu):' /proc/meminfo) >&2
	ncg=$((2 * n + 3))
	p=$(((visits + ncg - 1) / ncg))
	[ "$p" -gt "$passes" ] || p=$passes
	"$bin/fleetscrape" scrape $k "$n" "$p" || exit 1
	"$bin/fleetbpf" tree $k "$n" "$p" || exit 1
	"$bin/fleetbpf" avgs $k "$n" "$avgs_seconds" || exit 1
done
