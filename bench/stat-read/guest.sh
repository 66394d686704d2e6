#!/bin/bash
# stat-read benchmark, guest side: guest.sh BINDIR
# A parent cgroup with STAT_CHILDREN children, each holding some anon and
# page cache memory (idle while measured). Cost per read of each stat file
# of the parent (non-root; metric = file name) and of the root (_root).
bin=$1
cg=/sys/fs/cgroup
p=$cg/statread
reads=${STAT_READS:-2000}
echo "+memory +cpu +io +pids" >$cg/cgroup.subtree_control
mkdir -p $p
echo "+memory +cpu +io +pids" >$p/cgroup.subtree_control
pids=()
for i in $(seq 1 "${STAT_CHILDREN:-4}"); do
	mkdir -p $p/c$i
	(echo $BASHPID >$p/c$i/cgroup.procs
	 head -c 4M /dev/urandom >/tmp/statread.$i
	 cat /tmp/statread.$i >/dev/null
	 exec sleep 1000) &
	pids+=($!)
done
sleep 1
for f in memory.stat memory.numa_stat cpu.stat io.stat cgroup.stat; do
	"$bin/statread" "$f" "$p/$f" "$reads" || exit 1
done
for f in memory.stat cpu.stat cgroup.stat; do
	"$bin/statread" "${f}_root" "$cg/$f" "$reads" || exit 1
done
kill "${pids[@]}"
wait 2>/dev/null
for i in $(seq 1 "${STAT_CHILDREN:-4}"); do rmdir $p/c$i; rm -f /tmp/statread.$i; done
rmdir $p
