#!/bin/bash
# open-close benchmark, guest side: guest.sh BINDIR
# Cost of opening and closing a cgroup file, the path a monitoring agent
# takes for every file of every cgroup it scrapes. The stat-read
# benchmark's cgroup: a parent with OC_CHILDREN (4) children that hold
# some memory and did a little direct I/O to a loop device, idle while
# measured. For each file of the parent in OC_FILES (memory.stat and
# cpu.stat, which can only be read, and cpu.pressure, which can also be
# written, whose opens keep their open context), OC_OPS (20000)
# operations of each mode of openclose (openclose.c: openat() on a kept
# directory fd and close(); the same with the file held open by another
# fd; open, read to EOF and close; open by path and close; opens and
# closes in batches of 500), all on CPU 0. Metrics: MODE_FILE (batch:
# batch_open_FILE and batch_close_FILE), guest ns per operation, which the
# instruction clock makes instructions.
. "$(dirname "$0")/../include/children.sh"
bin=$1
p=/sys/fs/cgroup/openclose
ops=${OC_OPS:-20000}
make_parent $p "+memory +cpu +io +pids" || exit 1
io_loop openclose || exit 1
start_children $p "${OC_CHILDREN:-4}" openclose direct_io || exit 1
for f in ${OC_FILES:-memory.stat cpu.stat cpu.pressure}; do
	for m in openclose held readclose path; do
		taskset -c 0 "$bin/openclose" $m $p "$f" "$ops" || exit 1
	done
	taskset -c 0 "$bin/openclose" batch $p "$f" "$ops" 500 || exit 1
done
stop_children $p "${OC_CHILDREN:-4}" openclose
rmdir $p
losetup -d "$IO_LOOP"
rm -f /tmp/openclose-io.img
