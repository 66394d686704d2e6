/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What fleet.bpf.c and fleetbpf.c share: the memory.stat numbers the
 * kfunc route fetches per cgroup (the stat set of bench/kfunc-vs-text/kvt.h,
 * as an agent using the memcg kfuncs would), and the size of the table the
 * tree walk fills.
 */
#ifndef FLEET_H
#define FLEET_H

#include "kvt.h"

/* 2 N + 3 cgroups for N = 4000 is 8,003 */
#define FLEET_TREE_MAX 8192

struct fleet_stats {
	KVT_PAGE_STATE(KVT_FIELD)
	KVT_VM_EVENTS(KVT_FIELD)
};

#endif
