#!/bin/bash
# kfunc-vs-text benchmark, guest side: guest.sh BINDIR
# A parent cgroup with KVT_CHILDREN children holding anon and page cache
# memory (idle while measured), like stat-read. Cost per sample of the
# parent's stat set (kvt.h) as text (memory.stat) and through the memcg
# kfuncs; "_full" adds memory.current + memory.events (usage and memory
# event kfuncs); "_root" is the root cgroup (as in the posting).
. "$(dirname "$0")/../include/children.sh"
bin=$1
cg=/sys/fs/cgroup
p=$cg/kvt
samples=${KVT_SAMPLES:-2000}
make_parent $p "+memory" || exit 1
start_children $p "${KVT_CHILDREN:-4}" kvt || exit 1
rc=0
"$bin/kfuncvstext" stat $p "$samples" &&
	"$bin/kfuncvstext" full $p "$samples" _full &&
	"$bin/kfuncvstext" stat $cg "$samples" _root || rc=1
stop_children $p "${KVT_CHILDREN:-4}" kvt
rmdir $p
exit $rc
