#!/bin/bash
# psi benchmark, guest side: guest.sh BINDIR
# Pipe ping-pong between two tasks in sibling cgroups at each depth.
bin=$1
for d in ${PSI_DEPTHS:-1 4 8}; do
	"$bin/pingpong" /sys/fs/cgroup "$d" "${PSI_ROUNDS:-20000}" || exit 1
done
