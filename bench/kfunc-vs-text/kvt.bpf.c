// SPDX-License-Identifier: GPL-2.0
/*
 * kfunc-vs-text, BPF side: a sleepable cgroup iterator program that copies
 * the stat set of kvt.h for the iterated cgroup into "out" (in .bss, which
 * the skeleton mmaps, so user space reads it without a syscall). Attached
 * with order BPF_CGROUP_ITER_SELF_ONLY; each read() of an iterator fd made
 * from the link runs it once. Sleepable ("iter.s") because
 * bpf_mem_cgroup_flush_stats() may sleep; memory.stat flushes the same way
 * before it prints.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include "kvt.h"

char _license[] SEC("license") = "GPL";

struct kvt_stats out;
int full;		/* set by user space: also usage and memory.events */
unsigned long runs;

#define KVT_PAGE(name, item, type) \
	out.name = bpf_mem_cgroup_page_state(memcg, bpf_core_enum_value(enum type, item));
#define KVT_EVENT(name, item, type) \
	out.name = bpf_mem_cgroup_vm_events(memcg, bpf_core_enum_value(enum type, item));
#define KVT_MEMEV(name, item, type) \
	out.events.name = bpf_mem_cgroup_memory_events(memcg, bpf_core_enum_value(enum type, item));

SEC("iter.s/cgroup")
int kvt_query(struct bpf_iter__cgroup *ctx)
{
	struct cgroup *cgrp = ctx->cgroup;
	struct mem_cgroup *memcg;

	if (!cgrp)
		return 1;
	memcg = bpf_get_mem_cgroup(&cgrp->self);
	if (!memcg)
		return 1;
	bpf_mem_cgroup_flush_stats(memcg);
	KVT_PAGE_STATE(KVT_PAGE)
	KVT_VM_EVENTS(KVT_EVENT)
	if (full) {
		out.usage = bpf_mem_cgroup_usage(memcg);
		KVT_MEMORY_EVENTS(KVT_MEMEV)
	}
	bpf_put_mem_cgroup(memcg);
	runs++;
	return 0;
}
