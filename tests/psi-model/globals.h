/*
 * tests/psi-model/globals.h: the model's state that the generated units
 * (gen/mirror.c, gen/ref.c) reference: the clocks, IRQ time, current
 * task per CPU of each universe, the chain counters; and the universes'
 * groups, per-CPU data and tasks. Included by exactly one file of each
 * program (driver.c, bench/native/psi-timing.c).
 */
#define MAXG 40
#define MAXT 6

unsigned long model_chain_links, model_chain_calls;
u64 model_clock[NCPU];
int model_current_cpu;
u64 model_move_tick;
u64 model_irq_time[NCPU];
struct task_struct *M_curr[NCPU], *R_curr[NCPU], *M_current, *R_current;

struct univ {
	struct psi_group g[MAXG];
	struct psi_group_cpu pc[MAXG][NCPU];
	struct task_struct t[MAXT];
	struct task_struct idle[NCPU];
} UM, UR;
