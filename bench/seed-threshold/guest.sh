#!/bin/bash
# seed-threshold benchmark, guest side: guest.sh BINDIR
# The per-memcg flush threshold (v6.8), booted on the base ("on") and on the
# flush-global-threshold ablation ("off", bench/ablations/
# flush-global-threshold.diff: one machine-wide threshold, threshold
# flushes from the root, as before v6.8).
#
# Quiet memcg beside busy siblings: thr/quiet holds THR_QUIET_MIB of anon
# memory charged once by a task that then sleeps; K sibling memcgs
# thr/b1..bK (K in THR_BUSY) each run a task that maps, faults in and unmaps
# 1 MiB of anon memory in a loop, task i on CPU i mod nproc, at nice 19 (so
# that they take what the reader and this script leave: under icount every
# guest second costs a billion emulated instructions). The reader
# runs on CPU 0 from the root cgroup and reads thr/quiet/memory.stat
# THR_READS times through one open fd, sleeping THR_GAP_US before each read
# (a periodic reader; the busy memcgs make hundreds of updates in between).
# Two passes per K, both beside the same busy tasks:
# - timed, with no tracing: quiet_read_insn_kK, the median read;
# - counted, in a private trace instance, events filtered on the reader's
#   pid (so the 2 s periodic flush and other flushers do not count):
#   quiet_flushes_per_read_kK = memcg:memcg_flush_stats events with
#   needs_flush=1 or force=1 (the calls of __mem_cgroup_flush_stats() that
#   went on to css_rstat_flush(); a read of memory.stat makes one call) per
#   read, and quiet_flush_callbacks_per_read_kK = hits of a kprobe on
#   mem_cgroup_css_rstat_flush() (one per memcg and CPU flushed) per read.
#   With the mechanism, expected 0 and 0; with the ablation, about 1, and
#   for each CPU that ran busy tasks one callback per busy memcg on it,
#   one for thr and one for the root. Checked: one memcg_flush_stats event
#   of quiet (memcg_id) per read, no events lost, and as a positive
#   control, a last read of thr/memory.stat (the busy memcgs' parent,
#   over its threshold in both kernels) that must count as a flush.
# Update path: bench/memcg-update's page fault loops (page_faultN_per_
# process/thread, 2 tasks in the level-2 cgroup mu/b, MU_LOOPS, MU_MIB),
# without the busy tasks; the reference put the mechanism's price there at
# -1.3% to -3.7%. Its "flushes" row is left out.
# Progress and sanity lines go to stderr.
bin=$1
here=$(dirname "$0")
cg=/sys/fs/cgroup
t=/sys/kernel/tracing
p=$cg/thr
reads=${THR_READS:-500}
gap=${THR_GAP_US:-1000}
ncpu=$(nproc)
inst=$t/instances/seed-threshold
ev=$inst/events/memcg/memcg_flush_stats
kp=$inst/events/seedthr/flush_cb

# guest uptime first: under icount, billions of instructions so far
log() { echo "seed-threshold: [$(cut -d' ' -f1 /proc/uptime)] $*" >&2; }
fail() { log "$*"; exit 1; }

# stop_cgroup CGROUP: kill its tasks, wait until they are gone, remove it
stop_cgroup() {
	echo 1 >"$1/cgroup.kill"
	while ! grep -q 'populated 0' "$1/cgroup.events"; do sleep 0.1; done
	rmdir "$1"
}

cleanup() {
	local d
	for d in "$p"/b* "$p/quiet"; do
		[ -d "$d" ] && stop_cgroup "$d"
	done
	[ -d "$p" ] && rmdir "$p"
	[ -d "$inst" ] && rmdir "$inst"
	grep -q '^p:seedthr/flush_cb ' $t/kprobe_events 2>/dev/null &&
		echo '-:seedthr/flush_cb' >>$t/kprobe_events
}
trap cleanup EXIT

[ -d $t/events/memcg/memcg_flush_stats ] ||
	fail "no memcg:memcg_flush_stats tracepoint in $t"
echo "+memory" >$cg/cgroup.subtree_control &&
	mkdir -p $p/quiet &&
	echo "+memory" >$p/cgroup.subtree_control || fail "cannot create $p"
(echo $BASHPID >$p/quiet/cgroup.procs
 exec "$bin/quietread" hold "${THR_QUIET_MIB:-4}") &
disown $!	# ended by cgroup.kill, no "Killed" notice
mkdir $inst && echo 8192 >$inst/buffer_size_kb || fail "cannot create $inst"
if ! echo 'p:seedthr/flush_cb mem_cgroup_css_rstat_flush' >>$t/kprobe_events 2>/dev/null ||
	[ ! -d $kp ]; then
	log "no kprobe on mem_cgroup_css_rstat_flush, no callback rows"
	kp=
fi
sleep 1

for k in ${THR_BUSY:-1 8}; do
	for i in $(seq 1 "$k"); do
		mkdir $p/b$i || fail "cannot create $p/b$i"
		(echo $BASHPID >$p/b$i/cgroup.procs
		 exec nice -n 19 taskset -c $((i % ncpu)) "$bin/quietread" busy 1) &
		disown $!
	done
	sleep 0.2
	log "K=$k: $reads timed reads of quiet/memory.stat, ${gap} us apart"
	taskset -c 0 "$bin/quietread" read "quiet_read_insn_k$k" $p/quiet/memory.stat \
		"$reads" "$gap" 10 || fail "timed reads failed"

	log "K=$k: $reads counted reads"
	echo >$inst/trace
	(for e in $ev $kp; do
		echo "common_pid == $BASHPID" >$e/filter && echo 1 >$e/enable || exit 1
	 done
	 exec taskset -c 0 "$bin/quietread" read count $p/quiet/memory.stat \
		"$reads" "$gap" 0 $p/memory.stat >/dev/null) || fail "counted reads failed"
	for e in $ev $kp; do
		echo 0 >$e/enable
		echo 0 >$e/filter
	done
	for i in $(seq 1 "$k"); do
		stop_cgroup $p/b$i
	done
	# quiet's events and the callbacks before the control read's event;
	# the control read's (thr, memcg_id = its inode number) and after
	read -r calls flushes cbs ccalls cflushes ccbs < <(awk \
		-v q="memcg_id=$(stat -c %i $p/quiet) " -v c="memcg_id=$(stat -c %i $p) " '
		/ memcg_flush_stats: / {
			f = /force=1|needs_flush=1/
			if (index($0, q)) { calls++; flushes += f }
			else if (index($0, c)) { ctl = 1; ccalls++; cflushes += f }
			next
		}
		/ flush_cb: / { if (ctl) ccbs++; else cbs++ }
		END { print calls + 0, flushes + 0, cbs + 0, ccalls + 0, cflushes + 0, ccbs + 0 }' $inst/trace)
	lost=$(awk '/^overrun:/ { n += $2 } END { print n + 0 }' $inst/per_cpu/cpu*/stats)
	log "K=$k: quiet: $calls memcg_flush_stats calls by the reader, $flushes flushing, $cbs callbacks; control read of thr: $ccalls calls, $cflushes flushing, $ccbs callbacks; $lost events lost"
	[ "$calls" -eq "$reads" ] || fail "$calls memcg_flush_stats events for quiet, not one per read ($reads)"
	[ "$lost" -eq 0 ] || fail "$lost trace events lost (overrun); raise buffer_size_kb"
	[ "$cflushes" -ge 1 ] && { [ -z "$kp" ] || [ "$ccbs" -ge 1 ]; } ||
		fail "positive control: the read of thr/memory.stat (busy children) was not counted as a flush"
	awk -v n="$flushes" -v r="$reads" -v m="quiet_flushes_per_read_k$k" 'BEGIN {
		printf "{\"metric\": \"%s\", \"unit\": \"flushes/read\", \"better\": \"lower\", \"value\": %.4f, \"flushes\": %d, \"reads\": %d}\n", m, n / r, n, r }'
	if [ -n "$kp" ]; then
		awk -v n="$cbs" -v r="$reads" -v m="quiet_flush_callbacks_per_read_k$k" 'BEGIN {
			printf "{\"metric\": \"%s\", \"unit\": \"callbacks/read\", \"better\": \"lower\", \"value\": %.4f, \"callbacks\": %d, \"reads\": %d}\n", m, n / r, n, r }'
	fi
done

log "update path: bench/memcg-update page fault loops"
set -o pipefail
"$here/../memcg-update/guest.sh" "$bin" | grep -v '"metric": "flushes"' ||
	fail "memcg-update's page fault loops failed"
