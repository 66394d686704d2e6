#!/bin/bash
# Runs inside the guest: build a small demo hierarchy, run a short workload
# in it and print its stat files.
#
#   demo/            memory, cpu, io, pids enabled for children
#     web/           a CPU spinner and page cache reads
#     batch/         64M of anon memory under memory.high=48M, direct IO to a loop device

usage() {
	cat <<'EOF'
usage: scripts/guest/demo.sh [-h|--help]
Runs inside the guest (scripts/run.sh): build the demo hierarchy (demo/,
demo/web, demo/batch), run a short CPU, page cache, anon memory and direct
IO workload in it and print its stat files. Takes no arguments.
EOF
}
case ${1:-} in
-h|--help) usage; exit 0 ;;
'') ;;
*) usage >&2; echo "error: demo.sh: unknown argument '$1' (it takes none)" >&2; exit 2 ;;
esac
set -u
cg=/sys/fs/cgroup
d=$cg/demo
trap 'kill $(jobs -p) 2>/dev/null; wait 2>/dev/null; rmdir $d/web $d/batch $d 2>/dev/null; losetup -d "$loop" 2>/dev/null' EXIT

[ -f $cg/cgroup.controllers ] || { echo "demo: no cgroup v2 at $cg"; exit 1; }
echo "+memory +cpu +io +pids" >$cg/cgroup.subtree_control ||
	{ echo "demo: cannot enable controllers at $cg (available: $(cat $cg/cgroup.controllers))"; exit 1; }
mkdir -p $d/web $d/batch || { echo "demo: cannot create cgroups under $cg"; exit 1; }
echo "+memory +cpu +io +pids" >$d/cgroup.subtree_control
echo 48M >$d/batch/memory.high

truncate -s 64M /tmp/demo.img
loop=$(losetup -f --show /tmp/demo.img)
dd if=/dev/urandom of=/tmp/demo.dat bs=1M count=8 status=none

(echo $BASHPID >$d/web/cgroup.procs
 end=$((SECONDS + 3)); while [ $SECONDS -lt $end ]; do :; done) &
(echo $BASHPID >$d/web/cgroup.procs
 for _ in 1 2 3; do cat /tmp/demo.dat >/dev/null; done) &
(echo $BASHPID >$d/batch/cgroup.procs
 dd if=/dev/zero of="$loop" bs=64k count=256 oflag=direct status=none
 # 64M of anonymous memory against memory.high=48M: reclaim and throttling
 python3 -c 'b = bytearray(64 << 20); b[::4096] = b"x" * (len(b) // 4096)') &
wait

show() {
	local f
	for f in "$@"; do
		[ -r "$f" ] || continue
		echo "--- ${f#$cg/}"
		cat "$f"
	done
}
for g in $d $d/web $d/batch; do
	echo "=== ${g#$cg/}"
	show $g/cpu.stat $g/io.stat $g/cpu.pressure $g/memory.pressure $g/io.pressure
	echo "--- ${g#$cg/}/memory.stat (first 12 of $(wc -l <$g/memory.stat) lines)"
	head -n 12 $g/memory.stat
done
echo "=== root"
show $cg/cgroup.stat
echo "--- memory.numa_stat of demo/batch"
cat $d/batch/memory.numa_stat | head -n 4
