#!/bin/bash
# Runs inside the guest, before the selftests: give them what a normal test
# machine has and virtme-ng's guest lacks.
#  - swap (zram, 512M), for the swap and zswap tests;
#  - cgroup2 remounted with memory_hugetlb_accounting, for test_hugetlb_memcg;
#  - an ext4 scratch file system at /tmp/ksft-scratch: the guest's root is 9p,
#    which keeps no page cache, so page-cache tests must run from a real
#    file system (they create their files in the current directory).
# Running it again in the same boot keeps the scratch file system.
# Prints one line per step; a failed step is reported, not fatal: the tests
# that need it then fail or skip with their own reason.

usage() {
	cat <<'EOF'
usage: scripts/guest/setup-test-env.sh [-h|--help]
Runs inside the guest, before the selftests: zram swap, cgroup2 with
memory_hugetlb_accounting, zswap, and an ext4 scratch file system at
/tmp/ksft-scratch. One line per step; a failed step is reported, not
fatal. Takes no arguments.
EOF
}
case ${1:-} in
-h|--help) usage; exit 0 ;;
'') ;;
*) usage >&2; echo "error: setup-test-env.sh: unknown argument '$1' (it takes none)" >&2; exit 2 ;;
esac
set -u
if [ -e /sys/block/zram0/disksize ] && ! grep -q zram0 /proc/swaps; then
	echo lzo >/sys/block/zram0/comp_algorithm 2>/dev/null
	if echo 512M >/sys/block/zram0/disksize && mkswap -q /dev/zram0 >/dev/null &&
		swapon /dev/zram0; then
		echo "setup: swap on zram0 (512M)"
	else
		echo "setup: could not set up zram swap"
	fi
fi
if mount -o remount,memory_hugetlb_accounting /sys/fs/cgroup 2>/dev/null; then
	echo "setup: cgroup2 remounted with memory_hugetlb_accounting"
else
	echo "setup: could not remount cgroup2 with memory_hugetlb_accounting"
fi
if [ -w /sys/module/zswap/parameters/enabled ] && echo 1 >/sys/module/zswap/parameters/enabled; then
	echo "setup: zswap enabled"
fi
scratch=/tmp/ksft-scratch
mkdir -p $scratch
if mountpoint -q $scratch; then
	# a second run in the same boot (run-selftests.sh for another directory)
	echo "setup: ext4 scratch file system at $scratch (already mounted)"
elif truncate -s 512M /tmp/ksft-scratch.img && mkfs.ext4 -q -F /tmp/ksft-scratch.img &&
	dev=$(losetup -f --show /tmp/ksft-scratch.img) && mount -t ext4 "$dev" $scratch; then
	echo "setup: ext4 scratch file system at $scratch"
else
	echo "setup: could not mount an ext4 scratch file system at $scratch"
fi
