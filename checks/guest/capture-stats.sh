#!/bin/bash
# Runs inside the guest: capture-stats.sh OUTDIR [ODD_READS_RESULTS]
# Builds a small, scripted hierarchy and copies the text stat files the
# series reformats (memory.stat, memory.numa_stat, cpu.stat, cpu.stat.local,
# io.stat, cgroup.stat, and the cpu, memory and io .pressure files) of the
# root and of non-root cgroups into OUTDIR/<cgroup>/, and the system-wide
# pressure files of /proc/pressure into OUTDIR/proc-pressure/.
# checks/check-stat-format.py compares them with a capture from the
# unpatched base and with a printf reference formatter.
#
#   root       io.cost.qos enabled on loop0 with vrate held at 99.25%:
#              io.stat shows "cost.vrate=99.25" (a "%02u" fraction of ten or
#              more); root-vrate/ has the root's io.stat again with vrate
#              at 99.05% (a fraction below ten, which needs the zero pad)
#   cap/       memory, cpu, io, pids for children
#     a/       anon and page cache memory, CPU time, direct IO to NLOOP
#              loop devices: its io.stat has one line per device and is
#              bigger than a page, so seq_file overflows and retries
#              and one 2 MiB hugetlb page (cgroup2 is remounted with
#              memory_hugetlb_accounting, so memory.stat has a hugetlb line)
#     b/       idle
# With ODD_READS_RESULTS, the same files are then read in odd ways (chunks,
# pread, lseek; checks/guest/odd-reads.py) and compared with one large
# read; the result lines go to that file.

usage() {
	cat <<'EOF'
usage: checks/guest/capture-stats.sh OUTDIR [ODD_READS_RESULTS]
Runs inside the guest: build a small scripted cgroup hierarchy and copy the
stat and pressure files the series reformats, of the root and of non-root
groups, into OUTDIR/<cgroup>/ (and /proc/pressure into
OUTDIR/proc-pressure/), for checks/check-stat-format.py. With
ODD_READS_RESULTS the files are also read in odd ways
(checks/guest/odd-reads.py), the result lines to that file.
EOF
}
case ${1:-} in
-h|--help) usage; exit 0 ;;
-*) usage >&2; echo "error: capture-stats.sh: unknown option '$1'" >&2; exit 2 ;;
esac
set -u
out=${1:?usage: capture-stats.sh OUTDIR [ODD_READS_RESULTS]}
odd=${2:-}
cg=/sys/fs/cgroup
d=$cg/cap
nloop=${NLOOP:-80}
loops=()
cleanup() {
	local l
	rmdir $d/a $d/b $d 2>/dev/null
	for l in "${loops[@]}"; do losetup -d "$l" 2>/dev/null; done
	rm -f /tmp/cap.img.* /tmp/cap.dat /tmp/cap-huge/f
	umount /tmp/cap-huge 2>/dev/null
}
trap cleanup EXIT

[ -f $cg/cgroup.controllers ] || { echo "capture: no cgroup v2 at $cg"; exit 1; }
echo "+memory +cpu +io +pids" >$cg/cgroup.subtree_control ||
	{ echo "capture: cannot enable controllers at $cg"; exit 1; }
mkdir -p $d/a $d/b || { echo "capture: cannot create cgroups under $cg"; exit 1; }
mount -o remount,memory_hugetlb_accounting $cg ||
	{ echo "capture: cannot remount $cg with memory_hugetlb_accounting"; exit 1; }
echo 2 >/proc/sys/vm/nr_hugepages && mkdir -p /tmp/cap-huge &&
	mount -t hugetlbfs -o pagesize=2M none /tmp/cap-huge ||
	{ echo "capture: no 2 MiB hugetlb pages (nr_hugepages $(cat /proc/sys/vm/nr_hugepages))"; exit 1; }
echo "+memory +cpu +io +pids" >$d/cgroup.subtree_control

for i in $(seq 0 $((nloop - 1))); do
	truncate -s 1M /tmp/cap.img.$i
	l=$(losetup -f --show /tmp/cap.img.$i) || { echo "capture: losetup failed"; exit 1; }
	loops+=("$l")
done
# iocost on the first loop device: its root io.stat line gets cost.vrate
# (a "%u.%02u" field) and every line of that device cost.usage. vrate
# starts at 100.00 and moves to the qos min/max range only while the device
# is busy, one timer period at a time: hold_vrate PCT sets the range to PCT
# and does direct I/O from cap/a until io.stat shows it (at most 60 s).
# iocost moves vrate only while it misses its latency targets or throttles,
# so the targets are set out of reach (1 us at the median): every period
# with I/O counts as busy, whatever the speed of the host. (Writing
# io.cost.model instead tripped a lockdep report in iocost against the qos
# write, so it is left alone.)
majmin=$(cat /sys/block/"$(basename "${loops[0]}")"/dev)
hold_vrate() {
	local end=$((SECONDS + 60))
	echo "$majmin enable=1 rpct=50 rlat=1 wpct=50 wlat=1 min=$1 max=$1" >$cg/io.cost.qos ||
		{ echo "capture: cannot set iocost qos on $majmin"; return 1; }
	while [ $SECONDS -lt $end ]; do
		grep -q " cost.vrate=$1 " $cg/io.stat && return 0
		(echo $BASHPID >$d/a/cgroup.procs
		 dd if=/dev/zero of="${loops[0]}" bs=4k count=64 oflag=direct status=none
		 dd if="${loops[0]}" of=/dev/null bs=4k count=64 iflag=direct status=none)
		sleep 0.1
	done
	echo "capture: cost.vrate did not reach $1 in 60 s: $(grep "^$majmin" $cg/io.stat)"
	return 1
}

(echo $BASHPID >$d/a/cgroup.procs
 for l in "${loops[@]}"; do
	dd if=/dev/zero of="$l" bs=4k count=2 oflag=direct status=none
	dd if="$l" of=/dev/null bs=4k count=1 iflag=direct status=none
 done
 head -c 4M /dev/urandom >/tmp/cap.dat
 cat /tmp/cap.dat >/dev/null
 fallocate -l 2M /tmp/cap-huge/f || { echo "capture: cannot allocate a hugetlb page"; exit 1; }
 python3 -c 'b = bytearray(8 << 20); b[::4096] = b"x" * (len(b) // 4096)') || exit 1
(echo $BASHPID >$d/b/cgroup.procs; true)

hold_vrate 99.25 || exit 1
files="memory.stat memory.numa_stat cpu.stat cpu.stat.local io.stat cgroup.stat"
files+=" cpu.pressure memory.pressure io.pressure"
for g in "" cap cap/a cap/b; do
	dst=$out/${g:-root}
	mkdir -p "$dst" || { echo "capture: cannot write to $dst"; exit 1; }
	for f in $files; do
		[ -r "$cg/$g/$f" ] || continue
		cat "$cg/$g/$f" >"$dst/$f" || exit 1
		# The same file read one byte per read(): seq_file's other path
		dd if="$cg/$g/$f" of="$dst/$f.bs1" bs=1 status=none
	done
done
# /proc/pressure/cpu has a "full" line of zeros (undefined system-wide)
mkdir -p "$out/proc-pressure" || exit 1
for f in cpu memory io; do
	cat /proc/pressure/$f >"$out/proc-pressure/$f.pressure" &&
		dd if=/proc/pressure/$f of="$out/proc-pressure/$f.pressure.bs1" bs=1 status=none || exit 1
done
hold_vrate 99.05 || exit 1
mkdir -p "$out/root-vrate" && cat $cg/io.stat >"$out/root-vrate/io.stat" &&
	dd if=$cg/io.stat of="$out/root-vrate/io.stat.bs1" bs=1 status=none || exit 1
if [ -n "$odd" ]; then
	python3 "$(dirname "$0")/odd-reads.py" $cg root cap cap/a cap/b -- $files >"$odd"
	echo "odd reads: $(grep -c '^pass' "$odd") files passed ($(grep -c '(exact)$' "$odd") byte for byte), $(grep -c '^fail' "$odd") failed"
fi
echo "capture: $(find "$out" -type f | wc -l) files, $(nproc) cpus," \
	"$(ls -d /sys/devices/system/node/node* | wc -l) nodes," \
	"io.stat of cap/a: $(wc -l <"$out/cap/a/io.stat") lines, $(wc -c <"$out/cap/a/io.stat") bytes"
