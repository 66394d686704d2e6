#!/bin/bash
# shrink-slab benchmark, guest side: guest.sh BINDIR
# Drop the caches left by the boot first, so that the first drop_caches of
# the smallest N does not pay for them.
echo 3 >/proc/sys/vm/drop_caches
for n in ${SS_COUNTS:-250 500 1000 2000 4000}; do
	"$1/shrinkslab" /sys/fs/cgroup "$n" "${SS_REPEATS:-3}" || exit 1
done
