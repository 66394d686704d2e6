#!/bin/bash
# Guest side of an experiment for docs/psi-depth.md, not a benchmark:
#   ancestor-pressure.sh PINGPONG [DEPTH [ROUNDS...]]
# Runs the psi benchmark's sibling ping-pong (pingpong.c) at DEPTH (8) below
# a level-1 cgroup x and prints how much CPU "some" and "full" time x's
# cpu.pressure gained over ROUNDS round trips (0 10000 20000), next to the
# guest time that passed. If x's CPU_SOME state starts and ends on every
# round trip, its "some" time is a fixed share of each round trip, neither
# 0 nor all of it. Boot with --clock icount for repeatable numbers.
pp=${1:?usage: ancestor-pressure.sh PINGPONG [DEPTH [ROUNDS...]]}
depth=${2:-8}
shift $(($# > 1 ? 2 : 1))
[ $# -gt 0 ] || set -- 0 10000 20000
cg=/sys/fs/cgroup
mkdir -p $cg/x || exit 1
field() { awk -v k="$1" '$1 == k { sub("total=", "", $5); print $5 }' $cg/x/cpu.pressure; }
for rounds in "$@"; do
	s0=$(field some) f0=$(field full) t0=$(awk '{ print int($1 * 1000000) }' /proc/uptime)
	if [ "$rounds" -gt 0 ]; then "$pp" $cg/x "$depth" "$rounds" || exit 1; fi
	s1=$(field some) f1=$(field full) t1=$(awk '{ print int($1 * 1000000) }' /proc/uptime)
	echo "depth=$depth rounds=$rounds x: cpu some +$((s1 - s0)) us, full +$((f1 - f0)) us, elapsed $((t1 - t0)) us"
done
rmdir $cg/x
