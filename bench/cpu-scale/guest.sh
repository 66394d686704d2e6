#!/bin/bash
# cpu-scale benchmark, guest side: guest.sh BINDIR
# Cost of reading each stat and pressure file of a non-root cgroup (with one
# child holding a sleeping task) as the number of CPUs grows. The boot
# variant sets the CPUs (bench/cpu-scale/variants): onlineN boots N vCPUs,
# possibleN boots 2 and lets the guest know of N possible CPUs (QEMU
# -smp 2,maxcpus=N), as cloud VMs often do. Metrics (suffixed with the
# variant by the report):
#   FILE            mean cost of one read (cpu.stat, io.stat, memory.stat,
#                   cgroup.stat, cpu.pressure, memory.pressure)
#   memory.stat_pending  a read right after a task on the last CPU faulted
#                   in and freed enough pages to trip the memcg flush
#                   threshold, so the read flushes (updates on one CPU)
#   cpu.stat_readersK  (onlineN only, K = N) time for K readers, one per
#                   CPU, each reading cpu.stat CS_READERS_READS times
. "$(dirname "$0")/../include/children.sh"
bin=$1
cg=/sys/fs/cgroup
p=$cg/cpuscale
reads=${CS_READS:-500}
online=$(nproc)
possible=$(($(cut -d- -f2 /sys/devices/system/cpu/possible) + 1))
echo "cpu-scale: $online online, $possible possible CPUs" >&2
make_parent $p "+memory +cpu +io" || exit 1
# A loop device with a little direct I/O from the child, so that io.stat
# has a device line.
truncate -s 8M /tmp/cpuscale-io.img
iodev=$(losetup -f --show /tmp/cpuscale-io.img) || exit 1
direct_io() {
	dd if=/dev/zero of="$iodev" bs=4k count=4 oflag=direct status=none
}
start_children $p 1 cpuscale direct_io || exit 1
for f in cpu.stat io.stat memory.stat cgroup.stat cpu.pressure memory.pressure; do
	"$bin/cpuscale" read "$f" "$p/$f" "$reads" || exit 1
done
# memcg flushes a subtree once its pending updates exceed
# MEMCG_CHARGE_BATCH (64) per online CPU; faulting in and freeing a page
# makes at least two updates.
mkdir -p $p/w
"$bin/cpuscale" pending memory.stat_pending "$p/memory.stat" $p/w/cgroup.procs \
	$((online - 1)) $((64 * online + 256)) "${CS_PENDING_READS:-50}" || exit 1
rmdir $p/w
case "$online" in
1) ;;
*) if [ "$possible" -eq "$online" ]; then
	"$bin/cpuscale" readers "cpu.stat_readers$online" "$p/cpu.stat" "$online" \
		"${CS_READERS_READS:-100}" || exit 1
   fi ;;
esac
stop_children $p 1 cpuscale
rmdir $p
losetup -d "$iodev"
rm -f /tmp/cpuscale-io.img
