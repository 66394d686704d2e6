#!/bin/bash
# stat-read benchmark, guest side: guest.sh BINDIR
# A parent cgroup with STAT_CHILDREN children, each holding some anon and
# page cache memory and having done a little direct I/O to a loop device
# (idle while measured). Cost per read of each stat file
# of the parent (non-root; metric = file name) and of the root (_root).
# Then the same reads of the parent while it is under memory stress
# (metric = file name + "_stress"), after the rstat posting's experiment:
# memory.max on the parent, no swap, and STAT_STRESSORS more children
# that each read a file larger than the limit from ext4 in a loop, so they
# reclaim all the time. The files are written beforehand from the root
# cgroup and dropped from the page cache, so the children's reads charge
# them. Stressors run on CPU 1, the reader on CPU 0. Under -icount the
# guest clock advances with the instructions of both vCPUs and the reader
# gets preempted by the stressors' I/O work, so each read is timed on its
# own and the metric is the median read.
. "$(dirname "$0")/../include/children.sh"
bin=$1
cg=/sys/fs/cgroup
p=$cg/statread
reads=${STAT_READS:-2000}
make_parent $p "+memory +cpu +io +pids" || exit 1
# A loop device the children do direct I/O to, so that io.stat of the
# parent has a device line (an empty io.stat only measures the syscall).
io_loop statread || exit 1
start_children $p "${STAT_CHILDREN:-4}" statread direct_io || exit 1
for f in memory.stat memory.numa_stat cpu.stat io.stat cgroup.stat; do
	"$bin/statread" "$f" "$p/$f" "$reads" || exit 1
done
for f in memory.stat cpu.stat cgroup.stat io.stat; do
	"$bin/statread" "${f}_root" "$cg/$f" "$reads" || exit 1
done

nstress=${STAT_STRESSORS:-2}
if [ "$nstress" -gt 0 ]; then
	mib=${STAT_STRESS_MIB:-64}
	fs=/tmp/statread-fs
	mkdir -p $fs
	truncate -s $((nstress * mib + 64))M /tmp/statread.img &&
		mkfs.ext4 -q -F /tmp/statread.img &&
		dev=$(losetup -f --show /tmp/statread.img) &&
		mount -t ext4 "$dev" $fs || exit 1
	for i in $(seq 1 "$nstress"); do
		dd if=/dev/zero of=$fs/f$i bs=1M count="$mib" status=none || exit 1
	done
	sync
	echo 1 >/proc/sys/vm/drop_caches
	[ -e $p/memory.swap.max ] && echo 0 >$p/memory.swap.max
	echo "${STAT_STRESS_MAX:-48M}" >$p/memory.max
	for i in $(seq 1 "$nstress"); do
		mkdir -p $p/s$i
		(echo $BASHPID >$p/s$i/cgroup.procs
		 exec taskset -c 1 sh -c "while :; do cat $fs/f$i >/dev/null; done") &
		disown $!	# ended by cgroup.kill below, no "Killed" notice
	done
	sleep 1
	for f in memory.stat memory.numa_stat cpu.stat io.stat cgroup.stat; do
		taskset -c 0 "$bin/statread" "${f}_stress" "$p/$f" "$reads" median || exit 1
	done
	grep -E '^(pgscan|pgsteal) ' $p/memory.stat | sed 's/^/stress: /' >&2
	for i in $(seq 1 "$nstress"); do
		echo 1 >$p/s$i/cgroup.kill
		while ! grep -q 'populated 0' $p/s$i/cgroup.events; do sleep 0.1; done
		rmdir $p/s$i
	done
	umount $fs && losetup -d "$dev"
	rm -f /tmp/statread.img
fi
stop_children $p "${STAT_CHILDREN:-4}" statread
rmdir $p
losetup -d "$IO_LOOP"
rm -f /tmp/statread-io.img
