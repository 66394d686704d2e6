// SPDX-License-Identifier: GPL-2.0
/*
 * fleet-scrape, BPF side (user side: fleetbpf.c).
 *
 * fleet_tree: the kfunc route of a scrape. A sleepable cgroup iterator
 * attached in pre-order (BPF_CGROUP_ITER_DESCENDANTS_PRE) to the root of
 * the scraped tree: one read() of an iterator fd runs it once per cgroup
 * of the subtree, and each run flushes the cgroup's memcg stats (as a
 * read of memory.stat does) and copies the stat set of fleet.h into
 * tree[tree_n++]. .bss is mmapped by the skeleton, so user space reads
 * the table without a syscall. Nothing is written to the seq_file: a
 * cgroup iterator cannot resume a walk that filled its buffer.
 *
 * fleet_wq_start/fleet_wq_end: the cost of the PSI averaging work. On the
 * workqueue_execute_start/end tracepoints, for work items whose function
 * is avgs_func (psi_avgs_work(), address set by user space), the time
 * between the two is added to avgs_ns and avgs_runs is counted. Under QEMU
 * -icount shift=0, bpf_ktime_get_ns() advances with retired guest
 * instructions, so avgs_ns is the work's instructions (plus any interrupt
 * or preemption in between).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_tracing.h>
#include "fleet.h"

char _license[] SEC("license") = "GPL";

struct fleet_stats tree[FLEET_TREE_MAX];
unsigned int tree_n;		/* reset by user space before each walk */
unsigned long tree_full;	/* cgroups that did not fit */

__u64 avgs_func;
__u64 avgs_ns, avgs_runs;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u64);
	__type(value, __u64);
} avgs_start SEC(".maps");

#define FLEET_PAGE(name, item, type) \
	s->name = bpf_mem_cgroup_page_state(memcg, bpf_core_enum_value(enum type, item));
#define FLEET_EVENT(name, item, type) \
	s->name = bpf_mem_cgroup_vm_events(memcg, bpf_core_enum_value(enum type, item));

SEC("iter.s/cgroup")
int fleet_tree(struct bpf_iter__cgroup *ctx)
{
	struct cgroup *cgrp = ctx->cgroup;
	struct mem_cgroup *memcg;
	struct fleet_stats *s;
	unsigned int i = tree_n;

	if (!cgrp)
		return 0;
	if (i >= FLEET_TREE_MAX) {
		tree_full++;
		return 0;
	}
	memcg = bpf_get_mem_cgroup(&cgrp->self);
	if (!memcg)
		return 0;
	bpf_mem_cgroup_flush_stats(memcg);
	s = &tree[i];
	KVT_PAGE_STATE(FLEET_PAGE)
	KVT_VM_EVENTS(FLEET_EVENT)
	bpf_put_mem_cgroup(memcg);
	tree_n = i + 1;
	return 0;
}

SEC("tp_btf/workqueue_execute_start")
int BPF_PROG(fleet_wq_start, struct work_struct *work)
{
	__u64 key = (__u64)work, now;

	if ((__u64)work->func != avgs_func)
		return 0;
	now = bpf_ktime_get_ns();
	bpf_map_update_elem(&avgs_start, &key, &now, BPF_ANY);
	return 0;
}

SEC("tp_btf/workqueue_execute_end")
int BPF_PROG(fleet_wq_end, struct work_struct *work, work_func_t function)
{
	__u64 now = bpf_ktime_get_ns();
	__u64 key = (__u64)work, *t0;

	if ((__u64)function != avgs_func)
		return 0;
	t0 = bpf_map_lookup_elem(&avgs_start, &key);
	if (!t0)
		return 0;
	__sync_fetch_and_add(&avgs_ns, now - *t0);
	__sync_fetch_and_add(&avgs_runs, 1);
	bpf_map_delete_elem(&avgs_start, &key);
	return 0;
}
