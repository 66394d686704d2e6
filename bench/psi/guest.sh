#!/bin/bash
# psi benchmark, guest side: guest.sh BINDIR
# Pipe ping-pong between two tasks in sibling cgroups at each depth
# (PSI_DEPTHS), then with one task at the root and the other alone in its
# groups, which go idle and active on every round trip (PSI_LONE_DEPTHS),
# then with the first task alone in a top-level group (PSI_APART_DEPTHS),
# then PSI_MSG_PAIRS pairs ping-ponging at once, each task in
# its own leaf of a depth-D tree (messaging.c, PSI_MSG_DEPTHS), then the
# cost of a cpu.pressure read of a group from a task DEPTH levels below it,
# its only active task (chainread.c, PSI_READ_DEPTHS).
bin=$1
for d in ${PSI_DEPTHS:-1 4 8 16}; do
	"$bin/pingpong" /sys/fs/cgroup "$d" "${PSI_ROUNDS:-20000}" || exit 1
done
for d in ${PSI_LONE_DEPTHS:-1 8 16}; do
	"$bin/pingpong" /sys/fs/cgroup "$d" "${PSI_ROUNDS:-20000}" lone || exit 1
done
# ... and with the first task alone in a top-level group of its own
for d in ${PSI_APART_DEPTHS:-1 8 16}; do
	"$bin/pingpong" /sys/fs/cgroup "$d" "${PSI_ROUNDS:-20000}" apart || exit 1
done
# bench/bin/bench-psi-steps.sh builds the ping-pong alone
if [ -x "$bin/chainread" ]; then
	for d in ${PSI_READ_DEPTHS:-1 8 16}; do
		"$bin/chainread" /sys/fs/cgroup "$d" "${PSI_READS:-2000}" || exit 1
	done
fi
# ... and without the messaging program
if [ ! -x "$bin/messaging" ]; then
	echo "psi: $bin/messaging not built, messaging rows skipped" >&2
	exit 0
fi
for d in ${PSI_MSG_DEPTHS:-1 4 8}; do
	"$bin/messaging" /sys/fs/cgroup "$d" "${PSI_MSG_PAIRS:-8}" "${PSI_MSG_ROUNDS:-2000}" || exit 1
done
