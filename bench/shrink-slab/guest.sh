#!/bin/bash
# shrink-slab benchmark, guest side: guest.sh BINDIR
for n in ${SS_COUNTS:-250 500 1000 2000}; do
	"$1/shrinkslab" /sys/fs/cgroup "$n" "${SS_REPEATS:-3}" || exit 1
done
