#!/bin/bash
# memcg-update benchmark, guest side: guest.sh BINDIR
# will-it-scale-like page fault loops in a level-2 cgroup (/a/b), 2 tasks,
# cost per fault; and the number of memcg stat flushes during the run
# (memcg_flush_stats tracepoint events).
bin=$1
cg=/sys/fs/cgroup
t=/sys/kernel/tracing
echo "+memory" >$cg/cgroup.subtree_control
mkdir -p $cg/mu/b
echo "+memory" >$cg/mu/cgroup.subtree_control
echo $$ >$cg/mu/b/cgroup.procs
ev=$t/events/memcg/memcg_flush_stats
if [ -d "$ev" ]; then
	echo >$t/trace
	echo 1 >$ev/enable
fi
for test in 1 2 3; do
	for mode in process thread; do
		"$bin/pagefault" $test $mode 2 "${MU_LOOPS:-8}" "${MU_MIB:-16}" || exit 1
	done
done
if [ -d "$ev" ]; then
	echo 0 >$ev/enable
	n=$(grep -c memcg_flush_stats $t/trace)
	echo "{\"metric\": \"flushes\", \"unit\": \"count\", \"better\": \"lower\", \"value\": $n}"
fi
echo $$ >$cg/cgroup.procs
rmdir $cg/mu/b $cg/mu
