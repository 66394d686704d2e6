#!/bin/bash
# Runs inside the guest: capture-v1-stats.sh OUTDIR [ODD_READS_RESULTS]
# Mounts the memory controller as a cgroup v1 hierarchy (the kernel needs
# CONFIG_MEMCG_V1, config/coverage.config) and copies its memory.stat, which
# memcg1_stat_format() writes through the same seq_file path as the v2
# file, into OUTDIR/v1/<cgroup>/:
#   v1/root     the v1 root
#   v1/cap      memory.limit_in_bytes 256M (its hierarchical_memory_limit)
#   v1/cap/a    page cache and anon memory
# It needs its own boot: the memory controller can be mounted on v1 only
# while the v2 hierarchy does not use it, and it does not come back to v2
# until every v1 memcg is freed. With ODD_READS_RESULTS the files are also
# read in odd ways (checks/guest/odd-reads.py), as "odd-reads:v1/...".

usage() {
	cat <<'EOF'
usage: checks/guest/capture-v1-stats.sh OUTDIR [ODD_READS_RESULTS]
Runs inside the guest: mount the memory controller as a cgroup v1
hierarchy (CONFIG_MEMCG_V1) and copy the memory.stat of its root, of cap
and of cap/a into OUTDIR/v1/<cgroup>/. Needs a boot of its own. With
ODD_READS_RESULTS the files are also read in odd ways.
EOF
}
case ${1:-} in
-h|--help) usage; exit 0 ;;
-*) usage >&2; echo "error: capture-v1-stats.sh: unknown option '$1'" >&2; exit 2 ;;
esac
set -u
out=${1:?usage: capture-v1-stats.sh OUTDIR [ODD_READS_RESULTS]}
odd=${2:-}
top=/tmp/cg
mnt=$top/v1
d=$mnt/cap
cleanup() {
	rmdir $d/a $d 2>/dev/null
	umount $mnt 2>/dev/null
	rm -f /tmp/cap-v1.dat
}
trap cleanup EXIT

if grep -qw memory /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null; then
	echo "capture-v1: the v2 hierarchy uses the memory controller; boot afresh"
	exit 1
fi
mkdir -p $mnt || exit 1
mount -t cgroup -o memory memory $mnt ||
	{ echo "capture-v1: cannot mount the v1 memory controller (CONFIG_MEMCG_V1=n?)"; exit 1; }
mkdir -p $d/a || { echo "capture-v1: cannot create cgroups under $mnt"; exit 1; }
echo 256M >$d/memory.limit_in_bytes ||
	{ echo "capture-v1: cannot set memory.limit_in_bytes of $d"; exit 1; }

(echo $BASHPID >$d/a/cgroup.procs
 head -c 4M /dev/urandom >/tmp/cap-v1.dat
 cat /tmp/cap-v1.dat >/dev/null
 python3 -c 'b = bytearray(8 << 20); b[::4096] = b"x" * (len(b) // 4096)') || exit 1

for g in root cap cap/a; do
	src=$mnt/${g#root}
	dst=$out/v1/$g
	mkdir -p "$dst" || { echo "capture-v1: cannot write to $dst"; exit 1; }
	cat "$src/memory.stat" >"$dst/memory.stat" || exit 1
	dd if="$src/memory.stat" of="$dst/memory.stat.bs1" bs=1 status=none || exit 1
done
if [ -n "$odd" ]; then
	python3 "$(dirname "$0")/odd-reads.py" $top v1 v1/cap v1/cap/a -- memory.stat >"$odd"
	echo "odd reads (v1): $(grep -c '^pass' "$odd") files passed, $(grep -c '^fail' "$odd") failed"
fi
echo "capture-v1: $(find "$out/v1" -type f | wc -l) files," \
	"memory.stat of v1/cap/a: $(wc -l <"$out/v1/cap/a/memory.stat") lines"
