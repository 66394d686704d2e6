#!/bin/bash
# psi census, guest side: census-guest.sh BINDIR OUT.jsonl [ROUNDS]
# Runs the psi benchmark's workloads (bench/psi/guest.sh) on a kernel with
# bench/psi/mirror-census.diff and writes, for each, what
# /proc/psi_census counted during it: task changes, group updates, the
# updates a mirror scheme would still do, and mode changes.
bin=$1 out=$2 rounds=${3:-20000}
[ -r /proc/psi_census ] || { echo "psi census: no /proc/psi_census (kernel without the census diff?)" >&2; exit 1; }
counts() { awk '{ printf "%s ", $2 } END { print "" }' /proc/psi_census; }
run() {	# NAME DEPTH COMMAND...
	local name=$1 depth=$2 c0 u0 m0 x0 c1 u1 m1 x1
	shift 2
	read -r c0 u0 m0 x0 < <(counts)
	"$@" >/dev/null || { echo "psi census: $name at depth $depth failed" >&2; exit 1; }
	read -r c1 u1 m1 x1 < <(counts)
	printf '{"workload": "%s", "depth": %d, "changes": %d, "updates": %d, "updates_mirror": %d, "mode_changes": %d}\n' \
		"$name" "$depth" $((c1 - c0)) $((u1 - u0)) $((m1 - m0)) $((x1 - x0)) >>"$out"
}
for d in 1 4 8 16; do
	run pingpong "$d" "$bin/pingpong" /sys/fs/cgroup "$d" "$rounds"
done
for d in 1 4 8; do
	run messaging "$d" "$bin/messaging" /sys/fs/cgroup "$d" 8 "$((rounds / 10))"
done
