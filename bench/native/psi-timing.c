/*
 * bench/native/psi-timing.c: the PSI accounting functions of the base and
 * of the series, timed natively on this machine's CPU on the same event
 * streams (bench/native/psi.sh builds and runs it; see its --help).
 *
 * Universe R is the base's kernel/sched/psi.c, universe M the series'
 * (both copied verbatim by tests/psi-model/extract.py, compiled with the
 * kernel's flags). A workload is one round of scheduler events that
 * returns to where it started: a pipe ping-pong of two tasks in the same
 * leaf cgroup at depth D (2 task changes and 2 context switches a round),
 * a lone task that wakes, runs and sleeps at depth D (1 + 2), and a dense
 * kubepods-shaped tree with 3 tasks on each of the 2 CPUs, each task in
 * its own container of its own pod (12 a round). Each repetition times
 * ROUNDS rounds of M and of R, in alternating order, with CLOCK_MONOTONIC
 * and prints one JSON line per kernel; at the end every group's times,
 * state and task counts must be the same in both (as tests/psi-model
 * checks them), or it fails with exit 1:
 *
 *   {"workload": W, "depth": D, "kernel": "base"|"series", "rep": I,
 *    "rounds": N, "calls_per_round": C, "ns_per_round": X}
 *
 * What it cannot show: no rq lock, no per-CPU segment or percpu offset,
 * no seqcount (psi_write_begin()/end() are empty), no interrupts or other
 * CPUs writing the same lines, 2 possible CPUs, static keys as plain
 * bools, the avgs work as a flag, the kernel's own memory layout.
 *
 * usage: psi-timing [-w pingpong|lone|kubepods] [-d DEPTH] [-n ROUNDS]
 *                   [-r REPS] [-c CPU]
 */
#define _GNU_SOURCE
#include "shim.h"
#include <stdarg.h>
#include <time.h>
#include <sched.h>
#include <unistd.h>

#include "globals.h"

void model_fail(const char *what)
{
	fprintf(stderr, "psi-timing: the accounting failed: %s\n", what);
	exit(1);
}

void model_failf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "psi-timing: the accounting failed: ");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

#define DECL(P)								\
void P##task_change(struct task_struct *, int, int);			\
void P##task_switch(struct task_struct *, struct task_struct *, bool);	\
void P##irqtime(int, struct task_struct *, struct task_struct *);	\
u32 P##view(struct psi_group *, int, u32 *, unsigned int *);
DECL(M_)
DECL(R_)

/* one step of a round: a wake-up of task a, or a switch on CPU c from a to b (-1: idle) */
enum { S_WAKE, S_SWITCH };
struct step { int type, cpu, a, b, sleep; };

#define MAXSTEPS 64
static struct step round_steps[MAXSTEPS], setup_steps[MAXSTEPS];
static int nround, nsetup, ngroups = 1, ntasks;
static int parent_of[MAXG], group_of[MAXT];

static int add_group(int parent)
{
	if (ngroups >= MAXG) {
		fprintf(stderr, "psi-timing: more than %d groups\n", MAXG);
		exit(2);
	}
	parent_of[ngroups] = parent;
	return ngroups++;
}

static int chain(int depth)
{
	int g = 0;

	while (depth-- > 0)
		g = add_group(g);
	return g;
}

static void step(struct step *s, int *n, int type, int cpu, int a, int b, int sleep)
{
	s[(*n)++] = (struct step){ type, cpu, a, b, sleep };
}

static void setup_workload(const char *w, int depth)
{
	if (!strcmp(w, "pingpong")) {
		int leaf = chain(depth);

		ntasks = 2;
		group_of[0] = group_of[1] = leaf;
		/* task 0 running on CPU 0, task 1 asleep */
		step(setup_steps, &nsetup, S_WAKE, 0, 0, 0, 0);
		step(setup_steps, &nsetup, S_SWITCH, 0, -1, 0, 0);
		step(round_steps, &nround, S_WAKE, 0, 1, 0, 0);
		step(round_steps, &nround, S_SWITCH, 0, 0, 1, 1);
		step(round_steps, &nround, S_WAKE, 0, 0, 0, 0);
		step(round_steps, &nround, S_SWITCH, 0, 1, 0, 1);
	} else if (!strcmp(w, "lone")) {
		ntasks = 1;
		group_of[0] = chain(depth);
		step(round_steps, &nround, S_WAKE, 0, 0, 0, 0);
		step(round_steps, &nround, S_SWITCH, 0, -1, 0, 0);
		step(round_steps, &nround, S_SWITCH, 0, 0, -1, 1);
	} else if (!strcmp(w, "kubepods")) {
		/* kubepods/{burstable,besteffort}/pod/container, 6 pods, a task each */
		int kube = add_group(0), cls[2], c, i;

		cls[0] = add_group(kube);
		cls[1] = add_group(kube);
		ntasks = 6;
		for (i = 0; i < ntasks; i++)
			group_of[i] = add_group(add_group(cls[i % 2]));
		/* tasks 3c..3c+2 on CPU c; the first of each running */
		for (c = 0; c < NCPU; c++) {
			step(setup_steps, &nsetup, S_WAKE, c, 3 * c, 0, 0);
			step(setup_steps, &nsetup, S_SWITCH, c, -1, 3 * c, 0);
		}
		for (i = 0; i < 3; i++) {
			for (c = 0; c < NCPU; c++) {
				int cur = 3 * c + i, next = 3 * c + (i + 1) % 3;

				step(round_steps, &nround, S_WAKE, c, next, 0, 0);
				step(round_steps, &nround, S_SWITCH, c, cur, next, 1);
			}
		}
	} else {
		fprintf(stderr, "psi-timing: unknown workload '%s' (pingpong, lone, kubepods)\n", w);
		exit(2);
	}
}

static void init_univ(struct univ *u, int cpu_of[])
{
	int i, c;

	memset(u, 0, sizeof(*u));
	for (i = 0; i < ngroups; i++) {
		u->g[i].pcpu = u->pc[i];
		u->g[i].id = i;
		u->g[i].enabled = true;
		u->g[i].parent = i ? &u->g[parent_of[i]] : NULL;
	}
	for (c = 0; c < NCPU; c++)
		u->idle[c].cpu = c;
	for (i = 0; i < ntasks; i++) {
		u->t[i].pid = i + 1;
		u->t[i].need_psi = 1;
		u->t[i].cpu = cpu_of[i];
		u->t[i].cgroups = &u->g[group_of[i]];
	}
}

/* one universe's steps, with direct calls (P is M_ or R_) */
#define RUN(P, u)						\
static void run_##P(const struct step *s, int nsteps, long rounds)		\
{										\
	for (long r = 0; r < rounds; r++) {					\
		for (int i = 0; i < nsteps; i++) {				\
			const struct step *x = &s[i];				\
			struct task_struct *prev, *next;			\
										\
			model_clock[x->cpu] += 1000;				\
			if (x->type == S_WAKE) {				\
				P##task_change(&u.t[x->a], 0, TSK_RUNNING);	\
				continue;					\
			}							\
			prev = x->a < 0 ? &u.idle[x->cpu] : &u.t[x->a];	\
			next = x->b < 0 ? &u.idle[x->cpu] : &u.t[x->b];	\
			P##curr[x->cpu] = next;					\
			P##irqtime(x->cpu, prev, next);				\
			P##task_switch(prev, next, x->sleep);			\
		}								\
	}									\
}
RUN(M_, UM)
RUN(R_, UR)

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* each universe has its own clock, so that both see the same times */
static u64 uclock[2][NCPU];

static double run(int series, const struct step *s, int nsteps, long rounds)
{
	double t0, t1;

	memcpy(model_clock, uclock[series], sizeof(model_clock));
	t0 = now_ns();
	if (series)
		run_M_(s, nsteps, rounds);
	else
		run_R_(s, nsteps, rounds);
	t1 = now_ns();
	memcpy(uclock[series], model_clock, sizeof(model_clock));
	return t1 - t0;
}

/* after the same events, both universes must agree on every group's view */
static void check_same(void)
{
	for (int g = 0; g < ngroups; g++) {
		for (int c = 0; c < NCPU; c++) {
			u32 tm[NR_PSI_STATES], tr[NR_PSI_STATES], sm, sr;
			unsigned int km[4], kr[4];

			memcpy(model_clock, uclock[1], sizeof(model_clock));
			sm = M_view(&UM.g[g], c, tm, km) & ~PSI_STATE_RESCHEDULE;
			memcpy(model_clock, uclock[0], sizeof(model_clock));
			sr = R_view(&UR.g[g], c, tr, kr) & ~PSI_STATE_RESCHEDULE;
			if (sm != sr || memcmp(tm, tr, sizeof(tm)) || memcmp(km, kr, sizeof(km)))
				model_failf("group %d cpu %d: series state %x, base %x, or their times or counts differ",
					    g, c, sm, sr);
		}
	}
	for (int i = 0; i < ntasks; i++)
		if (UM.t[i].psi_flags != UR.t[i].psi_flags)
			model_failf("task %d: psi_flags series %x, base %x", i, UM.t[i].psi_flags,
				    UR.t[i].psi_flags);
}

int main(int argc, char **argv)
{
	const char *w = "pingpong";
	int depth = 1, reps = 15, cpu = -1, opt, i, c, cpu_of[MAXT];
	long rounds = 100000;

	while ((opt = getopt(argc, argv, "w:d:n:r:c:h")) != -1) {
		switch (opt) {
		case 'w': w = optarg; break;
		case 'd': depth = atoi(optarg); break;
		case 'n': rounds = atol(optarg); break;
		case 'r': reps = atoi(optarg); break;
		case 'c': cpu = atoi(optarg); break;
		default:
			fprintf(opt == 'h' ? stdout : stderr,
				"usage: psi-timing [-w pingpong|lone|kubepods] [-d DEPTH] [-n ROUNDS] [-r REPS] [-c CPU]\n");
			return opt == 'h' ? 0 : 2;
		}
	}
	if (depth < 0 || depth > 16 || rounds < 1 || reps < 1) {
		fprintf(stderr, "psi-timing: depth 0-16, rounds and reps at least 1\n");
		return 2;
	}
	if (cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set)) {
			perror("psi-timing: sched_setaffinity");
			return 1;
		}
	}
	setup_workload(w, depth);
	for (i = 0; i < ntasks; i++)
		cpu_of[i] = !strcmp(w, "kubepods") ? i / 3 : 0;
	init_univ(&UM, cpu_of);
	init_univ(&UR, cpu_of);
	for (c = 0; c < NCPU; c++) {
		uclock[0][c] = uclock[1][c] = 1000000000ULL + c * 12345;
		M_curr[c] = &UM.idle[c];
		R_curr[c] = &UR.idle[c];
	}
	run(1, setup_steps, nsetup, 1);
	run(0, setup_steps, nsetup, 1);
	/* warm up both: caches, branch predictors, the CPU's frequency */
	run(1, round_steps, nround, rounds);
	run(0, round_steps, nround, rounds);
	for (i = 0; i < reps; i++) {
		for (int k = 0; k < 2; k++) {
			int series = (i + k) % 2;
			double ns = run(series, round_steps, nround, rounds);

			printf("{\"workload\": \"%s\", \"depth\": %d, \"kernel\": \"%s\", \"rep\": %d, "
			       "\"rounds\": %ld, \"calls_per_round\": %d, \"ns_per_round\": %.3f}\n",
			       w, depth, series ? "series" : "base", i, rounds, nround, ns / rounds);
		}
	}
	check_same();
	return 0;
}
