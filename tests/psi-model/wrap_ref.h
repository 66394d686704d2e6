/*
 * tests/psi-model/wrap_ref.h: appended to the reference universe R (the
 * base's psi.c, plain per-group accounting): the same entry points.
 */
#include "wrap_common.h"
void TU(release)(struct psi_group *g) { }
void TU(rtpoll)(struct psi_group *g, int on) { g->rtpoll_states = on ? (1 << PSI_CPU_SOME) : 0; }
u32 TU(view)(struct psi_group *g, int cpu, u32 *times, unsigned int *tasks)
{
	struct psi_group_cpu *gc = per_cpu_ptr(g->pcpu, cpu);
	int s;
	memcpy(times, gc->times, sizeof(gc->times));
	for (s = 0; s < NR_PSI_STATES; s++)
		if (gc->state_mask & (1 << s))
			times[s] += cpu_clock(cpu) - gc->state_start;
	memcpy(tasks, gc->tasks, sizeof(gc->tasks));
	return gc->state_mask;
}
void TU(read_cpu)(struct psi_group *g, int cpu, u32 *times, u32 *changed)
{
	get_recent_times(g, cpu, PSI_AVGS, times, changed);
}
