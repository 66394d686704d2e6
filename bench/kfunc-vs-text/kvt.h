/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The stat set that kfunc-vs-text reads both ways, shared by the BPF program
 * (kvt.bpf.c) and the user program (kfuncvstext.c).
 *
 * X(name in memory.stat, enumerator, enum type): page state items are read
 * with bpf_mem_cgroup_page_state(), vm events with bpf_mem_cgroup_vm_events().
 * Both kfuncs return the value memory.stat prints (bytes, or counts).
 */
#ifndef KVT_H
#define KVT_H

#define KVT_PAGE_STATE(X)						\
	X(anon, NR_ANON_MAPPED, node_stat_item)				\
	X(file, NR_FILE_PAGES, node_stat_item)				\
	X(kernel, MEMCG_KMEM, memcg_stat_item)				\
	X(shmem, NR_SHMEM, node_stat_item)				\
	X(file_mapped, NR_FILE_MAPPED, node_stat_item)			\
	X(file_dirty, NR_FILE_DIRTY, node_stat_item)			\
	X(file_writeback, NR_WRITEBACK, node_stat_item)			\
	X(inactive_anon, NR_INACTIVE_ANON, node_stat_item)		\
	X(active_anon, NR_ACTIVE_ANON, node_stat_item)			\
	X(inactive_file, NR_INACTIVE_FILE, node_stat_item)		\
	X(active_file, NR_ACTIVE_FILE, node_stat_item)			\
	X(slab_reclaimable, NR_SLAB_RECLAIMABLE_B, node_stat_item)	\
	X(slab_unreclaimable, NR_SLAB_UNRECLAIMABLE_B, node_stat_item)	\
	X(workingset_refault_anon, WORKINGSET_REFAULT_ANON, node_stat_item) \
	X(workingset_refault_file, WORKINGSET_REFAULT_FILE, node_stat_item) \
	X(pgscan_kswapd, PGSCAN_KSWAPD, node_stat_item)			\
	X(pgscan_direct, PGSCAN_DIRECT, node_stat_item)			\
	X(pgsteal_kswapd, PGSTEAL_KSWAPD, node_stat_item)		\
	X(pgsteal_direct, PGSTEAL_DIRECT, node_stat_item)

#define KVT_VM_EVENTS(X)						\
	X(pgfault, PGFAULT, vm_event_item)				\
	X(pgmajfault, PGMAJFAULT, vm_event_item)			\
	X(pgactivate, PGACTIVATE, vm_event_item)			\
	X(pgdeactivate, PGDEACTIVATE, vm_event_item)

/* The "full" sample adds memory.current and memory.events (non-root only). */
#define KVT_MEMORY_EVENTS(X)						\
	X(low, MEMCG_LOW, memcg_memory_event)				\
	X(high, MEMCG_HIGH, memcg_memory_event)				\
	X(max, MEMCG_MAX, memcg_memory_event)				\
	X(oom, MEMCG_OOM, memcg_memory_event)				\
	X(oom_kill, MEMCG_OOM_KILL, memcg_memory_event)

#define KVT_FIELD(name, item, type) unsigned long long name;

struct kvt_stats {
	KVT_PAGE_STATE(KVT_FIELD)
	KVT_VM_EVENTS(KVT_FIELD)
	unsigned long long usage;	/* memory.current */
	struct {
		KVT_MEMORY_EVENTS(KVT_FIELD)
	} events;			/* memory.events */
};

#endif
