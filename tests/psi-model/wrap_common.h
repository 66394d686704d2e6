/*
 * tests/psi-model/wrap_common.h: the entry points the driver calls, the
 * same for both universes; included by wrap_mirror.h and wrap_ref.h.
 */
void TU(task_change)(struct task_struct *t, int clear, int set) { psi_task_change(t, clear, set); }
void TU(task_switch)(struct task_struct *p, struct task_struct *n, bool sleep) { psi_task_switch(p, n, sleep); }
void TU(memstall_enter)(struct task_struct *t) { unsigned long f; current = t; psi_memstall_enter(&f); current = NULL; }
void TU(memstall_leave)(struct task_struct *t) { unsigned long f = 0; current = t; psi_memstall_leave(&f); current = NULL; }
void TU(move)(struct task_struct *t, struct psi_group *to) { cgroup_move_task(t, to); }
/* cgroup_pressure_write(): the order of its calls around ->enabled */
void TU(pressure_write)(struct psi_group *g, int enable)
{
	if (g->enabled == enable)
		return;
#ifdef MIRROR_TU
	if (!enable)
		psi_cgroup_exclude(g);
#endif
	g->enabled = enable;
	if (enable)
		psi_cgroup_restart(g);
}
static struct rq TU(rq)[NCPU];
void TU(irqtime)(int cpu, struct task_struct *curr, struct task_struct *prev) { psi_account_irqtime(&TU(rq)[cpu], curr, prev); }
void TU(reset_rq)(void) { memset(TU(rq), 0, sizeof(TU(rq))); }
