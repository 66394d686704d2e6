#!/bin/bash
# kfunc-vs-text benchmark, guest side: guest.sh BINDIR
# A parent cgroup with KVT_CHILDREN children holding anon and page cache
# memory (idle while measured), like stat-read. Cost per sample of the
# parent's stat set (kvt.h) as text (memory.stat) and through the memcg
# kfuncs; "_full" adds memory.current + memory.events (usage and memory
# event kfuncs); "_root" is the root cgroup (as in the posting).
bin=$1
cg=/sys/fs/cgroup
p=$cg/kvt
samples=${KVT_SAMPLES:-2000}
echo "+memory" >$cg/cgroup.subtree_control
mkdir -p $p
echo "+memory" >$p/cgroup.subtree_control
pids=()
for i in $(seq 1 "${KVT_CHILDREN:-4}"); do
	mkdir -p $p/c$i
	(echo $BASHPID >$p/c$i/cgroup.procs
	 head -c 4M /dev/urandom >/tmp/kvt.$i
	 cat /tmp/kvt.$i >/dev/null
	 exec sleep 1000) &
	pids+=($!)
done
sleep 1
rc=0
"$bin/kfuncvstext" stat $p "$samples" &&
	"$bin/kfuncvstext" full $p "$samples" _full &&
	"$bin/kfuncvstext" stat $cg "$samples" _root || rc=1
kill "${pids[@]}"
wait 2>/dev/null
for i in $(seq 1 "${KVT_CHILDREN:-4}"); do rmdir $p/c$i; rm -f /tmp/kvt.$i; done
rmdir $p
exit $rc
