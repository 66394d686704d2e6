#!/bin/bash
# seed-rstat benchmark, guest side: guest.sh BINDIR
# Split rstat trees (v6.16, "cgroup: separate rstat trees"), booted on the
# base ("on": one rstat tree and lock per subsystem, and one for the base
# stats of cpu.stat) and on the rstat-unified ablation ("off", bench/
# ablations/rstat-unified.diff: any flush also flushes the base stats and
# every subsystem with a css_rstat_flush() callback, memory and io, of the
# same subtree, under one lock, as before v6.16).
#
# The posting's experiment, scaled down to 2 vCPUs. There: a parent with
# memory.max=1G, memory.swap.max=0, 26 children on a 52-CPU machine, each
# creating and reading a 1T file (reclaim all the time), and a program that
# reads cgroup.stat, cpu.stat, io.stat and memory.stat of the parent 1M
# times. Here: a parent rstat/ with memory.max=SR_MAX_MIB (32) MiB,
# memory.swap.max=0 and memory + io enabled for its children (cpu is not
# enabled: cpu.stat's usage lines and their flush come from the cgroup core
# either way); SR_CHILDREN (4) children rstat/c1..cN, each running a shell
# loop that writes a file of SR_FILE_MIB (48) MiB (dd, overwriting in
# place) and reads it back (cat), all under SCHED_IDLE on CPU 0, where the
# reader runs too, in the root cgroup (SCHED_OTHER, nice 0); CPU 1 is left
# to the kworkers (loop device, writeback). SCHED_IDLE, not nice 19: a
# waking reader preempts an idle-policy task at once; beside nice-19
# children its 1 ms sleeps (below) took 40-50 ms of guest time each in a
# smoke run, 1.3-1.7 ms now.
# Why not the posting's layout (children on half the CPUs, the reader on a
# CPU of its own): QEMU's single-threaded TCG runs the vCPUs in turn, and
# under icount the guest clock counts the instructions of both. A PAUSE
# (cpu_relax(), which css_rstat_flush() runs once per possible CPU, and
# every spin on a contended lock) ends the vCPU's turn, so with children
# busy on vCPU 1 every flush paid for turns of vCPU 1 (presumably: not
# traced; what was seen fits it): the smoke run's
# second version, children on CPU 1, had cpu.stat reads of 317k-650k
# instructions of the reader's own CPU time for 1.5 base-stat callbacks,
# against 17k for a memory.stat read that did not flush. And a reader that
# never sleeps would see no update from the other vCPU between two reads
# (its first version, without sleeps: 0.3 memcg callbacks per iteration,
# 20 iterations of exactly the same length). So the children share the
# reader's CPU, and the reader sleeps SR_GAP_US (1000) us before each read,
# untimed, which lets them run: about 1M instructions of their work between
# any two reads, as the 26 children ran beside every read there (about
# 1.2 ms of their work during each of the posting's 45 us iterations).
# A sleep before each iteration only (the first try) is not enough: then
# the iteration's first flushing read, cpu.stat, flushed all the memcg
# updates and the later ones found none, and both kernels ran the same
# memcg callbacks per iteration (3.77 and 3.75) at the same cost. Times are
# the reader's own CPU time (CLOCK_THREAD_CPUTIME_ID, the posting's "sys"
# time), so a child that runs when the flush's cond_resched() lets it is
# not counted; the monotonic clock's figures are in the raw rows
# (wall_median, wall_mean, wall_max).
# File system: ext4 on a loop device over a file in a tmpfs mounted for
# it, as bench/stat-read's stress part does in /tmp. The guest's root is a
# 9p share, which keeps no page cache, and tmpfs pages do not reclaim
# without swap; ext4's page cache does (clean pages dropped, dirty ones
# written back first), and its I/O through the loop device is charged to
# the children's blkcgs, so io.stat and the blkcg flush have work. The
# image is filled with fallocate from the root cgroup before the children
# start (made with nodiscard and eager inode table and journal init,
# mounted without discard), so the loop device's writes into it allocate
# no tmpfs page (which would be charged to a child and never reclaimed).
#
# Rows, all with the children running (guest ns = guest instructions under
# QEMU -icount shift=0; a reading that spans a turn of vCPU 1 counts its
# work, hence medians):
# - timed, with no tracing, the reader's CPU time:
#   loop_insn_per_iteration: one iteration of the posting's loop, a pread()
#   from offset 0 of each of the four files of rstat/ through fds opened
#   once (statloop.c), the sum of its four reads, median of SR_ITERS (300)
#   iterations (the mean is in the raw row);
#   cpu.stat_read_insn, io.stat_read_insn, memory.stat_read_insn: one read
#   of that file alone, median of SR_READS (300) reads.
# - counted, in a private trace instance, kprobes filtered on the reader's
#   pid (so the 2 s periodic memcg flush, the children's reclaim and other
#   flushers do not count), per iteration or read:
#   memcg_flush_callbacks_*: hits of mem_cgroup_css_rstat_flush() (one per
#   memcg and CPU flushed), blkcg_flush_callbacks_*: blkcg_rstat_flush()
#   (one per blkcg and CPU), base_flush_callbacks_*: the base stats' flush
#   (cgroup_base_stat_flush() if kprobe-able, else bpf_rstat_flush(), the
#   noinline hook css_rstat_flush() calls right after it, once per cgroup
#   and CPU; cgroup_base_stat_flush() is static and inlined into
#   css_rstat_flush() in the bench builds);
#   for SR_COUNT_ITERS (300) iterations of the loop (*_per_iteration), for
#   SR_COUNT_READS (300) reads of cpu.stat alone (*_per_cpu_stat_read) and
#   of io.stat alone (*_per_io_stat_read), each after the same sleep. The
#   claim: with the ablation a read of cpu.stat or io.stat runs memcg
#   callbacks, with split trees none.
#   Checked: no event lost; positive controls in both kernels: the loop
#   runs memcg callbacks (with split trees only its memory.stat reads can),
#   the cpu.stat reads base-stat callbacks, the io.stat reads blkcg
#   callbacks.
# Progress and sanity lines go to stderr.
bin=$1
cg=/sys/fs/cgroup
t=/sys/kernel/tracing
p=$cg/rstat
nchild=${SR_CHILDREN:-4}
mib=${SR_FILE_MIB:-48}
max=${SR_MAX_MIB:-32}
iters=${SR_ITERS:-300}
reads=${SR_READS:-300}
citers=${SR_COUNT_ITERS:-300}
creads=${SR_COUNT_READS:-300}
gap=${SR_GAP_US:-1000}
tmp=/tmp/seed-rstat-tmpfs
img=$tmp/ext4.img
fs=/tmp/seed-rstat-fs
dev=
inst=$t/instances/seed-rstat
ev=$inst/events/seedrstat

# guest uptime first: under icount, billions of instructions so far
log() { echo "seed-rstat: [$(cut -d' ' -f1 /proc/uptime)] $*" >&2; }
fail() { log "$*"; exit 1; }

cleanup() {
	local d
	for d in "$p"/c*; do
		[ -d "$d" ] || continue
		echo 1 >"$d/cgroup.kill"
		while ! grep -q 'populated 0' "$d/cgroup.events"; do sleep 0.1; done
		rmdir "$d"
	done
	[ -d "$p" ] && rmdir "$p"
	mountpoint -q $fs && umount $fs
	[ -n "$dev" ] && losetup -d "$dev"
	mountpoint -q $tmp && umount $tmp
	[ -d "$inst" ] && rmdir "$inst"
	for e in memcg_cb blkcg_cb base_cb; do
		grep -q "^p:seedrstat/$e " $t/kprobe_events 2>/dev/null &&
			echo "-:seedrstat/$e" >>$t/kprobe_events
	done
}
trap cleanup EXIT

# stat_of FILE KEY: a "KEY VALUE" line's value
stat_of() { awk -v k="$2" '$1 == k { print $2 }' "$1"; }

# The file system: image filled from the root cgroup, see above.
size=$((nchild * mib + 64))
mkdir -p $tmp $fs
mount -t tmpfs -o size=$((size + 8))M seed-rstat $tmp &&
	truncate -s ${size}M $img &&
	mkfs.ext4 -q -F -E nodiscard,lazy_itable_init=0,lazy_journal_init=0 $img &&
	fallocate -l ${size}M $img &&
	dev=$(losetup -f --show $img) &&
	mount -t ext4 "$dev" $fs || fail "cannot make ext4 on a loop device over $img"
log "ext4 on $dev over $img ($size MiB, on $(stat -f -c %T $tmp))"

echo "+memory +io" >$cg/cgroup.subtree_control &&
	mkdir $p &&
	echo "+memory +io" >$p/cgroup.subtree_control &&
	echo ${max}M >$p/memory.max || fail "cannot create $p"
[ -e $p/memory.swap.max ] && echo 0 >$p/memory.swap.max

# Kprobes, defined once (every instance sees them), enabled only below.
kp_add() {	# kp_add NAME FUNCTION
	echo "p:seedrstat/$1 $2" >>$t/kprobe_events 2>/dev/null && [ -d $t/events/seedrstat/$1 ]
}
kp_add memcg_cb mem_cgroup_css_rstat_flush ||
	fail "no kprobe on mem_cgroup_css_rstat_flush"
kp_add blkcg_cb blkcg_rstat_flush || fail "no kprobe on blkcg_rstat_flush"
if grep -qw '^cgroup_base_stat_flush' $t/available_filter_functions 2>/dev/null &&
	kp_add base_cb cgroup_base_stat_flush; then
	log "base stats: kprobe on cgroup_base_stat_flush"
elif kp_add base_cb bpf_rstat_flush; then
	log "base stats: cgroup_base_stat_flush is not traceable (inlined), kprobe on bpf_rstat_flush (called once after each of its calls)"
else
	fail "no kprobe on cgroup_base_stat_flush nor bpf_rstat_flush"
fi
mkdir $inst && echo 8192 >$inst/buffer_size_kb || fail "cannot create $inst"

for i in $(seq 1 "$nchild"); do
	mkdir $p/c$i || fail "cannot create $p/c$i"
	(echo $BASHPID >$p/c$i/cgroup.procs
	 exec chrt --idle 0 taskset -c 0 sh -c "while :; do
		dd if=/dev/zero of=$fs/f$i bs=1M count=$mib conv=notrunc status=none
		cat $fs/f$i >/dev/null
	 done") &
	disown $!	# ended by cgroup.kill, no "Killed" notice
done
# until the parent reclaims (the children's files outgrow memory.max)
for n in $(seq 1 300); do
	[ "$(stat_of $p/memory.stat pgscan)" -gt 0 ] && break
	sleep 0.1
done
scan0=$(stat_of $p/memory.stat pgscan) steal0=$(stat_of $p/memory.stat pgsteal)
[ "$scan0" -gt 0 ] || fail "no reclaim in $p after 30 s: $nchild children, $mib MiB files, memory.max ${max}M"
log "$nchild children reclaiming (pgscan $scan0), $(grep -c . $p/io.stat) io.stat lines"

log "timed: $iters iterations of the 4-file loop, $reads reads of each file, $gap us apart"
taskset -c 0 "$bin/statloop" loop loop_insn_per_iteration $p "$iters" "$gap" 10 ||
	fail "timed loop failed"
for f in cpu.stat io.stat memory.stat; do
	taskset -c 0 "$bin/statloop" read "${f}_read_insn" $p/$f "$reads" "$gap" 10 ||
		fail "timed reads of $f failed"
done

# count WHAT N STATLOOP-ARGS...: a pass of the reader under the kprobes;
# prints one row per kprobe: {memcg,blkcg,base}_flush_callbacks_per_WHAT
# and sets MEMCG BLKCG BASE to the counts
count() {
	local what=$1 n=$2 lost
	shift 2
	echo >$inst/trace
	(for e in memcg_cb blkcg_cb base_cb; do
		echo "common_pid == $BASHPID" >$ev/$e/filter && echo 1 >$ev/$e/enable || exit 1
	 done
	 exec taskset -c 0 "$bin/statloop" "$@") || fail "counted pass ($what) failed"
	for e in memcg_cb blkcg_cb base_cb; do
		echo 0 >$ev/$e/enable
		echo 0 >$ev/$e/filter
	done
	read -r MEMCG BLKCG BASE < <(awk '
		/ memcg_cb: / { m++ } / blkcg_cb: / { b++ } / base_cb: / { s++ }
		END { print m + 0, b + 0, s + 0 }' $inst/trace)
	lost=$(awk '/^(overrun|dropped events):/ { n += $NF } END { print n + 0 }' \
		$inst/per_cpu/cpu*/stats)
	log "$what: $n by the reader: $MEMCG memcg, $BLKCG blkcg, $BASE base-stat callbacks; $lost events lost"
	[ "$lost" -eq 0 ] || fail "$lost trace events lost (overrun); raise buffer_size_kb"
	awk -v w="$what" -v n="$n" -v m="$MEMCG" -v b="$BLKCG" -v s="$BASE" 'BEGIN {
		split("memcg blkcg base", name); c[1] = m; c[2] = b; c[3] = s
		for (i = 1; i <= 3; i++)
			printf "{\"metric\": \"%s_flush_callbacks_per_%s\", \"unit\": \"callbacks/%s\", \"better\": \"lower\", \"value\": %.4f, \"callbacks\": %d, \"n\": %d}\n",
				name[i], w, w, c[i] / n, c[i], n }'
}

log "counted: $citers iterations, $creads reads of cpu.stat, of io.stat"
count iteration "$citers" loop count $p "$citers" "$gap" 0 || exit 1
[ "$MEMCG" -ge 1 ] || fail "positive control: the loop's memory.stat reads ran no memcg callback"
count cpu_stat_read "$creads" read count $p/cpu.stat "$creads" "$gap" 0 || exit 1
[ "$BASE" -ge 1 ] || fail "positive control: the cpu.stat reads ran no base-stat callback"
count io_stat_read "$creads" read count $p/io.stat "$creads" "$gap" 0 || exit 1
[ "$BLKCG" -ge 1 ] || fail "positive control: the io.stat reads ran no blkcg callback"

log "reclaim during the passes: pgscan +$(($(stat_of $p/memory.stat pgscan) - scan0)), pgsteal +$(($(stat_of $p/memory.stat pgsteal) - steal0)); memory.events: $(tr '\n' ' ' <$p/memory.events)"
