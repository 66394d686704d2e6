/*
 * tests/psi-model/wrap_mirror.h: appended to the mirror universe M (the
 * psi.c under test): its entry points and what the driver compares.
 */
#define MIRROR_TU 1
#include "wrap_common.h"
void TU(release)(struct psi_group *g) { struct cgroup c = { g }; psi_cgroup_release(&c); }
/* psi_trigger_create()/destroy(): the rtpoll_states updates and the unmirror */
void TU(rtpoll)(struct psi_group *g, int on)
{
	if (on) {
		bool first = !g->rtpoll_states;
		WRITE_ONCE(g->rtpoll_states, g->rtpoll_states | (1 << PSI_CPU_SOME));
		if (first)
			psi_unmirror(g, false);
	} else {
		WRITE_ONCE(g->rtpoll_states, 0);
	}
}
/* What readers see: the chain-summed times at now, and the chain's state and counts */
u32 TU(view)(struct psi_group *g, int cpu, u32 *times, unsigned int *tasks)
{
	unsigned long l = model_chain_links, c = model_chain_calls;
	struct psi_group_cpu *src = psi_chain_times_now(per_cpu_ptr(g->pcpu, cpu), cpu_clock(cpu), times);
	model_chain_links = l; model_chain_calls = c;
	memcpy(tasks, src->tasks, sizeof(src->tasks));
	return src->state_mask;
}
/* One CPU of collect_percpu_times(PSI_AVGS): visited only if marked */
void TU(read_cpu)(struct psi_group *g, int cpu, u32 *times, u32 *changed)
{
	unsigned long l = model_chain_links, c = model_chain_calls;
	memset(times, 0, sizeof(u32) * NR_PSI_STATES);
	*changed = 0;
	if (cpumask_test_cpu(cpu, g->avgs_cpus)) {
		if (get_recent_times(g, cpu, PSI_AVGS, times, changed))
			psi_avgs_cpu_done(g, cpu);
	}
	model_chain_links = l; model_chain_calls = c;
}
int TU(marked)(struct psi_group *g, int cpu) { return cpumask_test_cpu(cpu, g->avgs_cpus); }
u32 *TU(times_prev)(struct psi_group *g, int cpu) { return per_cpu_ptr(g->pcpu, cpu)->times_prev[PSI_AVGS]; }
u64 TU(mirror_gen)(int cpu) { return per_cpu(psi_mirror_gen, cpu); }
