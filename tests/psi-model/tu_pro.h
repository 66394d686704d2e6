/*
 * tests/psi-model/tu_pro.h: included at the top of each generated
 * translation unit: the universe's rq->curr, current and renamed entry
 * points (TU(x) is M_x for the mirror code, R_x for the base's).
 */
extern struct task_struct *TU(curr)[NCPU];
extern struct task_struct *TU(current);
#define cpu_curr(c) (TU(curr)[c])
#define current (TU(current))
static struct psi_group psi_system;
#define psi_task_change TU(psi_task_change)
#define psi_task_switch TU(psi_task_switch)
#define psi_memstall_enter TU(psi_memstall_enter)
#define psi_memstall_leave TU(psi_memstall_leave)
#define cgroup_move_task TU(cgroup_move_task)
#define psi_cgroup_restart TU(psi_cgroup_restart)
#define psi_cgroup_exclude TU(psi_cgroup_exclude)
#define psi_cgroup_release TU(psi_cgroup_release)
#define psi_account_irqtime TU(psi_account_irqtime)
