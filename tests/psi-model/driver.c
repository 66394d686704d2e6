/*
 * tests/psi-model/driver.c, the differential driver: the same
 * scheduler/cgroup events go to the mirror universe M (the psi.c under
 * test) and to the reference universe R (the base's plain per-group
 * accounting). After every event every live group's
 * chain-summed times at now, state and task counts on every CPU must be
 * equal, and so must the deltas of every read (collect_percpu_times()).
 *
 * usage: model [-s seed] [-n events] [-r runs] [-T tasks] [-D] [-q] [-o failtrace]
 *        model [-T tasks] -t tracefile | model -d
 *   -r: number of random trees (runs), each of -n events, seeds seed..seed+r-1
 *   -T: tasks per tree (default 1-6 at random), -D: deep single-child chains
 *   -o: where a failing run writes its trace (default fail.trace)
 *   -t: replay a trace (one event per line; 6 tasks unless -T)
 *   -d: directed chain case (a lone task's first wake-up 16 groups down)
 * Exit 0 with an "OK: N trees, ..." line, or 1 with a "FAIL ..." line.
 */
#include "shim.h"
#include <stdarg.h>
#include <setjmp.h>
#include <signal.h>

#define MAXDEPTH 16

#include "globals.h"

#define DECL(P) \
void P##task_change(struct task_struct *, int, int); \
void P##task_switch(struct task_struct *, struct task_struct *, bool); \
void P##memstall_enter(struct task_struct *); \
void P##memstall_leave(struct task_struct *); \
void P##move(struct task_struct *, struct psi_group *); \
void P##pressure_write(struct psi_group *, int); \
void P##release(struct psi_group *); \
void P##rtpoll(struct psi_group *, int); \
u32 P##view(struct psi_group *, int, u32 *, unsigned int *); \
void P##read_cpu(struct psi_group *, int, u32 *, u32 *); \
void P##irqtime(int, struct task_struct *, struct task_struct *); void P##reset_rq(void);
DECL(M_)
DECL(R_)
int M_marked(struct psi_group *, int);
u64 M_mirror_gen(int);
static long cov_mirroring, cov_checks, cov_maxchain, cov_chainhist[MAXDEPTH + 2];
u32 *M_times_prev(struct psi_group *, int);


/* the driver's own view of the scheduler and the tree */
static char *fmt_times(char *buf, const u32 *t);
enum { T_SLEEP, T_RUNNABLE, T_CURR };
struct gmeta { int alive, parent, depth; } G[MAXG];
struct tmeta { int state, cpu, group; } T[MAXT];
int curr[NCPU];			/* task index or -1 (idle) */
int ntasks;

enum ev_type { E_CREATE, E_WAKE, E_SWITCH, E_MSTALL, E_MIGRATE, E_MOVE,
	       E_PRESSURE, E_RELEASE, E_RTPOLL, E_READ, E_IRQ, E_NR };
static const char *ev_name[] = { "create", "wake", "switch", "mstall", "migrate",
				 "move", "pressure", "release", "rtpoll", "read", "irq" };
struct event { int type, a, b, c, d; u64 dt[NCPU]; };

static jmp_buf fail_jmp;
#include <unistd.h>
static char fail_msg[4096];
static long ev_index;
static int quiet;
static const char *cur_ev_str;

void model_fail(const char *what)
{
	snprintf(fail_msg, sizeof(fail_msg), "%s", what);
	longjmp(fail_jmp, 1);
}
void model_failf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(fail_msg, sizeof(fail_msg), fmt, ap);
	va_end(ap);
	longjmp(fail_jmp, 2);
}

static void reset(void)
{
	int i, c;
	memset(&UM, 0, sizeof(UM)); memset(&UR, 0, sizeof(UR));
	memset(G, 0, sizeof(G)); memset(T, 0, sizeof(T));
	/* group 0 is the root, like psi_system: enabled, no parent */
	for (struct univ *u = &UM; u; u = (u == &UM ? &UR : NULL)) {
		for (i = 0; i < MAXG; i++) {
			u->g[i].pcpu = u->pc[i];
			u->g[i].id = i;
		}
		u->g[0].enabled = true;
		for (c = 0; c < NCPU; c++) {
			u->idle[c].pid = 0; u->idle[c].need_psi = 0; u->idle[c].cpu = c;
		}
		for (i = 0; i < MAXT; i++) {
			u->t[i].pid = i + 1; u->t[i].need_psi = 1;
			snprintf(u->t[i].comm, 16, "t%d", i);
			u->t[i].cgroups = &u->g[0];
		}
	}
	G[0].alive = 1; G[0].parent = -1;
	for (c = 0; c < NCPU; c++) {
		curr[c] = -1;
		M_curr[c] = &UM.idle[c]; R_curr[c] = &UR.idle[c];
		model_clock[c] = 1000000000ULL + c * 12345;
		model_irq_time[c] = 0;
		M_reset_rq(); R_reset_rq();
	}
	for (i = 0; i < MAXT; i++) { T[i].state = T_SLEEP; T[i].cpu = 0; T[i].group = 0; }
}

static int nchildren(int g) { int n = 0; for (int i = 0; i < MAXG; i++) n += G[i].alive && G[i].parent == g; return n; }
static int ntasks_in(int g) { int n = 0; for (int i = 0; i < ntasks; i++) n += T[i].group == g; return n; }
static int nrunnable(int c) { int n = 0; for (int i = 0; i < ntasks; i++) n += T[i].state == T_RUNNABLE && T[i].cpu == c; return n; }

/* enqueue: the flags psi_enqueue() computes, see kernel/sched/stats.h */
static int enqueue_set(struct task_struct *p, int migrated, int *clear)
{
	int set;
	*clear = 0;
	if (migrated) {
		set = TSK_RUNNING;
		if (p->in_memstall) set |= TSK_MEMSTALL | TSK_MEMSTALL_RUNNING;
	} else {
		if (p->in_iowait) *clear |= TSK_IOWAIT;
		set = TSK_RUNNING;
		if (p->in_memstall) set |= TSK_MEMSTALL_RUNNING;
	}
	return set;
}

static void both_task(int t, void (*fm)(struct task_struct *), void (*fr)(struct task_struct *))
{ fm(&UM.t[t]); fr(&UR.t[t]); }

/* apply one event; returns 0 if its preconditions don't hold (skipped) */
static int apply(struct event *e)
{
	int c, t, g, clear, set;
	for (c = 0; c < NCPU; c++) model_clock[c] += e->dt[c];

	switch (e->type) {
	case E_CREATE: /* a=slot b=parent */
		g = e->a; if (g <= 0 || g >= MAXG || G[g].alive) return 0;
		if (e->b < 0 || e->b >= MAXG || !G[e->b].alive || G[e->b].depth >= MAXDEPTH) return 0;
		for (struct univ *u = &UM; u; u = (u == &UM ? &UR : NULL)) {
			memset(u->pc[g], 0, sizeof(u->pc[g]));	/* alloc_percpu() zeroes */
			memset(&u->g[g], 0, sizeof(u->g[g]));
			u->g[g].pcpu = u->pc[g]; u->g[g].id = g;
			u->g[g].enabled = true;
			u->g[g].parent = &u->g[e->b];
		}
		G[g].alive = 1; G[g].parent = e->b; G[g].depth = G[e->b].depth + 1;
		return 1;
	case E_WAKE: /* a=task b=cpu */
		t = e->a; c = e->b;
		if (t >= ntasks || T[t].state != T_SLEEP) return 0;
		if (c != T[t].cpu) {
			/* psi_ttwu_dequeue() on the old CPU, then a migrated enqueue */
			if (UM.t[t].psi_flags) {
				M_task_change(&UM.t[t], UM.t[t].psi_flags, 0);
				R_task_change(&UR.t[t], UR.t[t].psi_flags, 0);
			}
			UM.t[t].cpu = UR.t[t].cpu = T[t].cpu = c;
			set = enqueue_set(&UM.t[t], 1, &clear);
		} else {
			set = enqueue_set(&UM.t[t], 0, &clear);
		}
		M_task_change(&UM.t[t], clear, set);
		R_task_change(&UR.t[t], clear, set);
		T[t].state = T_RUNNABLE;
		return 1;
	case E_SWITCH: { /* a=cpu b=sleep c=next(-1 idle) d=iowait */
		int prev, next;
		struct task_struct *mp, *rp, *mn, *rn;
		c = e->a; prev = curr[c]; next = e->c;
		if (prev < 0 && e->b) return 0;
		if (next >= ntasks || next == prev) return 0;
		if (next >= 0 && (T[next].state != T_RUNNABLE || T[next].cpu != c)) return 0;
		if (next < 0 && prev < 0) return 0;
		/* idle only when nothing else is runnable */
		if (next < 0 && (!e->b || nrunnable(c))) return 0;
		mp = prev < 0 ? &UM.idle[c] : &UM.t[prev]; rp = prev < 0 ? &UR.idle[c] : &UR.t[prev];
		mn = next < 0 ? &UM.idle[c] : &UM.t[next]; rn = next < 0 ? &UR.idle[c] : &UR.t[next];
		if (prev >= 0) {
			if (e->b) {
				mp->in_iowait = rp->in_iowait = e->d & 1;
				T[prev].state = T_SLEEP;
			} else {
				T[prev].state = T_RUNNABLE;
			}
		}
		curr[c] = next; M_curr[c] = mn; R_curr[c] = rn;
		model_irq_time[c] += (u64)e->d >> 1;
		M_irqtime(c, mp, mn); R_irqtime(c, rp, rn);
		M_task_switch(mp, mn, e->b);
		R_task_switch(rp, rn, e->b);
		if (next >= 0) {
			T[next].state = T_CURR;
			mn->in_iowait = rn->in_iowait = 0;	/* io_schedule_finish() */
		}
		return 1;
	}
	case E_MSTALL: /* a=cpu: the current task enters or leaves a memstall */
		c = e->a; t = curr[c];
		if (t < 0) return 0;
		if (!UM.t[t].in_memstall) both_task(t, M_memstall_enter, R_memstall_enter);
		else both_task(t, M_memstall_leave, R_memstall_leave);
		return 1;
	case E_MIGRATE: /* a=task b=cpu: load balancing of a queued task */
		t = e->a; c = e->b;
		if (t >= ntasks || T[t].state != T_RUNNABLE || T[t].cpu == c) return 0;
		M_task_change(&UM.t[t], UM.t[t].psi_flags, 0);
		R_task_change(&UR.t[t], UR.t[t].psi_flags, 0);
		UM.t[t].cpu = UR.t[t].cpu = T[t].cpu = c;
		set = enqueue_set(&UM.t[t], 1, &clear);
		M_task_change(&UM.t[t], clear, set);
		R_task_change(&UR.t[t], clear, set);
		return 1;
	case E_MOVE: /* a=task b=group */
		t = e->a; g = e->b;
		if (t >= ntasks || g < 0 || g >= MAXG || !G[g].alive || T[t].group == g) return 0;
		{
			u64 save[NCPU];
			memcpy(save, model_clock, sizeof(save));
			model_move_tick = e->c;	/* time between the two walks */
			M_move(&UM.t[t], &UM.g[g]);
			memcpy(model_clock, save, sizeof(save));
			R_move(&UR.t[t], &UR.g[g]);
			model_move_tick = 0;
		}
		T[t].group = g;
		return 1;
	case E_PRESSURE: /* a=group: toggle cgroup.pressure */
		g = e->a;
		if (g <= 0 || g >= MAXG || !G[g].alive) return 0;
		{ int en = !UM.g[g].enabled; M_pressure_write(&UM.g[g], en); R_pressure_write(&UR.g[g], en); }
		return 1;
	case E_RELEASE: /* a=group: an empty leaf */
		g = e->a;
		if (g <= 0 || g >= MAXG || !G[g].alive || nchildren(g) || ntasks_in(g)) return 0;
		M_release(&UM.g[g]); R_release(&UR.g[g]);
		G[g].alive = 0;
		/* freed a grace period later: poison it, a chain through it shows */
		for (c = 0; c < NCPU; c++) {
			struct psi_group_cpu *pc = &UM.pc[g][c];
			memset(pc, 0xa5, sizeof(*pc));
			pc->state_mask = 0;
		}
		return 1;
	case E_RTPOLL: /* a=group: add or remove an rtpoll trigger */
		g = e->a;
		if (g < 0 || g >= MAXG || !G[g].alive) return 0;
		{ int on = !UM.g[g].rtpoll_states; M_rtpoll(&UM.g[g], on); R_rtpoll(&UR.g[g], on); }
		return 1;
	case E_IRQ: /* a=cpu b=irq ns: sched_tick()'s psi_account_irqtime(rq, curr, NULL) */
		c = e->a;
		if (c < 0 || c >= NCPU) return 0;
		model_irq_time[c] += e->b;
		M_irqtime(c, M_curr[c], NULL); R_irqtime(c, R_curr[c], NULL);
		return 1;
	case E_READ: { /* a=group b=aggregator's CPU: collect_percpu_times(PSI_AVGS) */
		u32 tm[NR_PSI_STATES], tr[NR_PSI_STATES], chm, chr;
		g = e->a;
		if (g < 0 || g >= MAXG || !G[g].alive || !UM.g[g].enabled) return 0;
		model_current_cpu = e->b;
		UM.g[g].avgs_work.pending = 0;
		for (c = 0; c < NCPU; c++) {
			M_read_cpu(&UM.g[g], c, tm, &chm);
			R_read_cpu(&UR.g[g], c, tr, &chr);
			if (memcmp(tm, tr, sizeof(tm)) || chm != chr)
			{ char b1[128], b2[128];
				model_failf("read of g%d cpu%d: deltas M=[%s] R=[%s] changed M=%x R=%x",
				      g, c, fmt_times(b1, tm), fmt_times(b2, tr), chm, chr); }
		}
		return 1;
	}
	}
	return 0;
}

static unsigned char was_nonidle[MAXG][NCPU];
static void snap_nonidle(void)
{
	for (int g = 0; g < MAXG; g++)
		for (int c = 0; c < NCPU; c++) {
			u32 tr[NR_PSI_STATES]; unsigned int kr[4];
			was_nonidle[g][c] = G[g].alive && (R_view(&UR.g[g], c, tr, kr) & (1 << PSI_NONIDLE));
		}
}
static char *fmt_times(char *buf, const u32 *t)
{
	int n = 0;
	for (int s = 0; s < NR_PSI_STATES; s++) n += sprintf(buf + n, "%s%u", s ? " " : "", t[s]);
	return buf;
}
static void check_all(void)
{
	int g, c, s;
	for (g = 0; g < MAXG; g++) {
		if (!G[g].alive) continue;
		for (c = 0; c < NCPU; c++) {
			u32 tm[NR_PSI_STATES], tr[NR_PSI_STATES], sm, sr;
			unsigned int km[4], kr[4];
			sm = M_view(&UM.g[g], c, tm, km);
			sr = R_view(&UR.g[g], c, tr, kr);
			/* PSI_STATE_RESCHEDULE is the aggregator's, not the state */
			sm &= ~PSI_STATE_RESCHEDULE; sr &= ~PSI_STATE_RESCHEDULE;
			if (sm != sr || memcmp(tm, tr, sizeof(tm)) || memcmp(km, kr, sizeof(km)))
			{ char b1[128], b2[128];
				model_failf("g%d cpu%d: M state=%x tasks=[%u %u %u %u] times=[%s] | R state=%x tasks=[%u %u %u %u] times=[%s]",
				      g, c, sm, km[0], km[1], km[2], km[3], fmt_times(b1, tm),
				      sr, kr[0], kr[1], kr[2], kr[3], fmt_times(b2, tr)); }
			/* a group that woke must have its avgs work kicked */
			if (UM.g[g].enabled && (sr & (1 << PSI_NONIDLE)) && !was_nonidle[g][c] &&
			    !UM.g[g].avgs_work.pending)
				model_failf("kick: g%d woke on cpu%d without avgs_work scheduled", g, c);
			/* the avgs aggregator must visit a CPU with uncollected time */
			if (UM.g[g].enabled && !M_marked(&UM.g[g], c)) {
				u32 *prev = M_times_prev(&UM.g[g], c);
				if ((sm & (1 << PSI_NONIDLE)) || memcmp(prev, tm, sizeof(tm)))
					model_failf("mark: g%d cpu%d not in avgs_cpus with uncollected time (state=%x)", g, c, sm);
			}
			(void)s;
			/* coverage: how long is the chain from here? */
			{
				struct psi_group_cpu *pc = &UM.pc[g][c]; int len = 0;
				while (pc->state_mask & PSI_MIRRORING) { pc = pc->mirror; len++; }
				cov_checks++; if (len) cov_mirroring++;
				if (len > cov_maxchain) cov_maxchain = len;
				cov_chainhist[len > MAXDEPTH ? MAXDEPTH + 1 : len]++;
			}
		}
	}
	for (int t = 0; t < ntasks; t++)
		if (UM.t[t].psi_flags != UR.t[t].psi_flags)
			model_failf("t%d psi_flags M=%x R=%x", t, UM.t[t].psi_flags, UR.t[t].psi_flags);
}

/* ---- random generation ---- */
static u64 rng;
static u64 rnd(void) { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return rng; }
static int rn(int n) { return n > 0 ? (int)(rnd() % n) : 0; }

static void gen_dt(struct event *e)
{
	for (int c = 0; c < NCPU; c++) {
		int k = rn(100);
		e->dt[c] = k < 15 ? 0 : k < 85 ? (u64)rn(2000) : k < 97 ? (u64)rn(3000000) : (rnd() & 0x1ffffffffULL);
	}
}
static int pick_group(void)
{
	int n = 0, cand[MAXG];
	for (int g = 0; g < MAXG; g++) if (G[g].alive) cand[n++] = g;
	return cand[rn(n)];
}
static int pick_leafish(void)
{
	int n = 0, cand[MAXG];
	for (int g = 0; g < MAXG; g++) if (G[g].alive && (!nchildren(g) || rn(4) == 0)) cand[n++] = g;
	return n ? cand[rn(n)] : pick_group();
}

static void gen_event(struct event *e)
{
	int k = rn(100);
	memset(e, 0, sizeof(*e));
	gen_dt(e);
	if (k < 20) { e->type = E_WAKE; e->a = rn(ntasks); e->b = rn(5) ? T[e->a].cpu : rn(NCPU); }
	else if (k < 45) {
		e->type = E_SWITCH; e->a = rn(NCPU); e->b = rn(2); e->d = (rn(3) == 0) | (rn(3) ? 0 : rn(3000) << 1);
		int n = 0, cand[MAXT];
		for (int t = 0; t < ntasks; t++) if (T[t].state == T_RUNNABLE && T[t].cpu == e->a) cand[n++] = t;
		e->c = n ? cand[rn(n)] : -1;
	}
	else if (k < 53) { e->type = E_MSTALL; e->a = rn(NCPU); }
	else if (k < 57) { e->type = E_MIGRATE; e->a = rn(ntasks); e->b = rn(NCPU); }
	else if (k < 67) { e->type = E_MOVE; e->a = rn(ntasks); e->b = pick_leafish(); e->c = rn(2) ? rn(5000) : 0; }
	else if (k < 71) {
		e->type = E_PRESSURE; e->a = pick_group();
		for (int g = 1; g < MAXG && rn(4); g++) if (G[g].alive && !UM.g[g].enabled) { e->a = g; break; }
	}
	else if (k < 74) { e->type = E_RELEASE; e->a = pick_group(); }
	else if (k < 77) {
		e->type = E_CREATE; e->b = pick_group();
		int s; for (s = 1; s < MAXG && G[s].alive; s++) ;
		e->a = s;
		if (rn(2)) { /* prefer growing deep chains: under a leaf */
			int l = pick_leafish(); if (G[l].depth < MAXDEPTH) e->b = l;
		}
	}
	else if (k < 79) {
		e->type = E_RTPOLL; e->a = pick_group();
		for (int g = 0; g < MAXG && rn(4); g++) if (G[g].alive && UM.g[g].rtpoll_states) { e->a = g; break; }
	}
	else if (k < 84) { e->type = E_IRQ; e->a = rn(NCPU); e->b = rn(4) ? rn(2000) : 0; }
	else { e->type = E_READ; e->a = pick_group(); e->b = rn(NCPU); }
}

/* random tree: root, deep single-child chains and siblings */
static int deep;
static int gen_tree(struct event *evs, int max)
{
	int n = 0, slot = 1, ng = deep ? MAXDEPTH + rn(MAXG - MAXDEPTH - 4) : 4 + rn(MAXG - 12);
	while (slot <= ng && n < max) {
		struct event *e = &evs[n];
		memset(e, 0, sizeof(*e));
		e->type = E_CREATE; e->a = slot;
		int k = rn(10), p;
		if ((k < 6 || deep) && slot > 1) p = slot - 1;		/* extend a chain */
		else p = rn(slot);				/* a sibling anywhere */
		while (G[p].depth >= MAXDEPTH) p = G[p].parent;
		e->b = p;
		if (!apply(e)) break;
		n++; slot++;
	}
	return n;
}

static void ev_str(struct event *e, char *buf, size_t n)
{
	snprintf(buf, n, "%s %d %d %d %d dt %llu %llu", ev_name[e->type], e->a, e->b, e->c, e->d,
		 (unsigned long long)e->dt[0], (unsigned long long)e->dt[1]);
}
static int parse_ev(const char *line, struct event *e)
{
	char name[32]; unsigned long long d0, d1;
	memset(e, 0, sizeof(*e));
	if (sscanf(line, "%31s %d %d %d %d dt %llu %llu", name, &e->a, &e->b, &e->c, &e->d, &d0, &d1) != 7) return 0;
	for (e->type = 0; e->type < E_NR; e->type++) if (!strcmp(name, ev_name[e->type])) break;
	if (e->type == E_NR) return 0;
	e->dt[0] = d0; e->dt[1] = d1;
	return 1;
}

#define MAXEV 200000
static struct event trace[MAXEV];
static int ntrace;
static long counts[E_NR];

static int run_events(struct event *evs, int n, FILE *dump)
{
	char buf[200];
	volatile int i = 0;
	if (setjmp(fail_jmp)) {
		ev_str(&evs[i], buf, sizeof(buf));
		printf("FAIL at event %d (%s): %s\n", i, buf, fail_msg);
		if (dump) for (int j = 0; j <= i; j++) { ev_str(&evs[j], buf, sizeof(buf)); fprintf(dump, "%s\n", buf); }
		return -1;
	}
	for (i = 0; i < n; i++) {
		snap_nonidle();
		if (apply(&evs[i])) { counts[evs[i].type]++; check_all(); }
	}
	return 0;
}

static void on_segv(int sig)
{
	sigset_t s; sigemptyset(&s); sigaddset(&s, sig); sigprocmask(SIG_UNBLOCK, &s, NULL);
	model_fail(sig == SIGSEGV ? "SIGSEGV (a chain read through a bad pointer)" : "signal");
}

int main(int argc, char **argv)
{
	signal(SIGSEGV, on_segv); signal(SIGBUS, on_segv);
	u64 seed = 1; long nev = 20000; int runs = 1, directed = 0, opt;
	const char *tracefile = NULL, *dumpfile = "fail.trace";
	while ((opt = getopt(argc, argv, "s:n:r:t:dqo:T:D")) != -1) {
		if (opt == 's') seed = strtoull(optarg, 0, 0);
		else if (opt == 'n') nev = atol(optarg);
		else if (opt == 'r') runs = atoi(optarg);
		else if (opt == 't') tracefile = optarg;
		else if (opt == 'd') directed = 1;
		else if (opt == 'q') quiet = 1;
		else if (opt == 'o') dumpfile = optarg;
		else if (opt == 'T') ntasks = atoi(optarg);
		else if (opt == 'D') deep = 1;
	}
	if (directed) {
		/* a lone task first wakes at the bottom of a fresh 16-deep chain */
		struct event e;
		reset(); ntasks = 1;
		if (setjmp(fail_jmp)) { printf("FAIL directed: %s\n", fail_msg); return 1; }
		for (int g = 1; g <= MAXDEPTH; g++) {
			memset(&e, 0, sizeof(e)); e.type = E_CREATE; e.a = g; e.b = g - 1; apply(&e);
		}
		memset(&e, 0, sizeof(e)); e.type = E_MOVE; e.a = 0; e.b = MAXDEPTH; apply(&e); check_all();
		memset(&e, 0, sizeof(e)); e.type = E_WAKE; e.a = 0; e.b = 0; e.dt[0] = 1000;
		model_chain_links = model_chain_calls = 0;
		apply(&e);
		printf("directed: wakeup at depth %d: psi_chain_times calls=%lu links=%lu\n",
		       MAXDEPTH, model_chain_calls, model_chain_links);
		check_all();
		int mirroring = 0;
		for (int g = 0; g <= MAXDEPTH; g++) mirroring += !!(UM.pc[g][0].state_mask & PSI_MIRRORING);
		printf("directed: %d groups mirror after the walk\n", mirroring);
		memset(&e, 0, sizeof(e)); e.type = E_SWITCH; e.a = 0; e.c = 0; e.dt[0] = 500;
		model_chain_links = model_chain_calls = 0;
		apply(&e); check_all();
		printf("directed: switch in: calls=%lu links=%lu\n", model_chain_calls, model_chain_links);
		memset(&e, 0, sizeof(e)); e.type = E_SWITCH; e.a = 0; e.b = 1; e.c = -1; e.dt[0] = 700;
		apply(&e); check_all();
		memset(&e, 0, sizeof(e)); e.type = E_WAKE; e.a = 0; e.b = 0; e.dt[0] = 300;
		model_chain_links = model_chain_calls = 0;
		apply(&e); check_all();
		printf("directed: second wakeup (chain stays): calls=%lu links=%lu\n", model_chain_calls, model_chain_links);
		printf("directed: OK\n");
		return 0;
	}
	if (tracefile) {
		FILE *f = fopen(tracefile, "r"); char line[256];
		if (!f) { perror(tracefile); return 2; }
		reset(); if (!ntasks) ntasks = MAXT;
		ntrace = 0;
		while (fgets(line, sizeof(line), f) && ntrace < MAXEV)
			if (parse_ev(line, &trace[ntrace])) ntrace++;
		int r = run_events(trace, ntrace, NULL);
		if (!r) printf("replay: %d events OK\n", ntrace);
		return r ? 1 : 0;
	}
	int tasks_opt = ntasks;
	volatile long total = 0, applied = 0; u64 gen_total = 0;
	for (int r = 0; r < runs; r++) {
		rng = (seed + r) * 0x9E3779B97F4A7C15ULL | 1;
		for (int i = 0; i < 10; i++) rnd();
		reset();
		ntasks = tasks_opt ? tasks_opt : 1 + rn(MAXT);
		memset(counts, 0, sizeof(counts));
		u64 gen_start[NCPU];
		for (int c = 0; c < NCPU; c++) gen_start[c] = M_mirror_gen(c);
		int n = gen_tree(trace, MAXEV);
		/* generate and apply one by one: generation depends on the state */
		FILE *dump = NULL;
		char buf[200];
		volatile int i = n;
		if (setjmp(fail_jmp)) {
			ev_str(&trace[i], buf, sizeof(buf));
			printf("FAIL seed %llu tasks %d at event %d (%s): %s\n", (unsigned long long)(seed + r), ntasks, i, buf, fail_msg);
			dump = fopen(dumpfile, "w");
			fprintf(dump, "# seed %llu tasks %d\n", (unsigned long long)(seed + r), ntasks);
			for (int j = 0; j <= i; j++) { ev_str(&trace[j], buf, sizeof(buf)); fprintf(dump, "%s\n", buf); }
			fclose(dump);
			return 1;
		}
		check_all();
		for (; i < n + nev && i < MAXEV; i++) {
			gen_event(&trace[i]);
			snap_nonidle();
			if (apply(&trace[i])) { counts[trace[i].type]++; applied++; check_all(); }
			total++;
		}
		for (int c = 0; c < NCPU; c++) gen_total += M_mirror_gen(c) - gen_start[c];
		if (!quiet) {
			printf("run seed %llu: %d groups %d tasks, %ld events (%ld applied):", (unsigned long long)(seed + r), n + 1, ntasks, nev, applied);
			for (int k = 0; k < E_NR; k++) printf(" %s=%ld", ev_name[k], counts[k]);
			printf("\n");
		}
	}
	printf("coverage: mirror begins+ends=%llu, group-CPU checks mirroring %ld of %ld, longest chain %ld links; chain length histogram:",
	       (unsigned long long)gen_total, cov_mirroring, cov_checks, cov_maxchain);
	for (int k = 0; k <= MAXDEPTH; k++) printf(" %d:%ld", k, cov_chainhist[k]);
	printf("\n");
	printf("OK: %d trees, %ld events generated, %ld applied, 0 mismatches\n", runs, total, applied);
	return 0;
}
