/*
 * tests/psi-model/shim.h: userspace shims for the code that extract.py
 * copies out of kernel/sched/psi.c (both universes). See README.
 */
#ifndef PSI_MODEL_SHIM_H
#define PSI_MODEL_SHIM_H
#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <stdio.h>
#include <stdlib.h>

/* u8 .. u64 and their signed kinds, as the tree defines them (build.sh) */
#include "int_types.h"

#define NCPU 2
#define CONFIG_CGROUPS 1
/* the invariant checks of CONFIG_DEBUG_MISC; bench/native builds with 0 */
#ifndef CONFIG_DEBUG_MISC
#define CONFIG_DEBUG_MISC 1
#endif
#define CONFIG_IRQ_TIME_ACCOUNTING 1
#define IS_ENABLED(x) (x)
#define ____cacheline_aligned_in_smp
#undef __always_inline
#define __always_inline inline __attribute__((always_inline))
#define noinline __attribute__((noinline))
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define BIT(x) (1UL << (x))
#define __ffs(x) ((unsigned long)__builtin_ctzl(x))
#define READ_ONCE(x) (*(volatile typeof(x) *)&(x))
#define WRITE_ONCE(x, v) ((x) = (v))
#define data_race(x) (x)
#define sizeof_field(T, m) sizeof(((T *)0)->m)

#include "psi_types_extract.h"	/* enums and struct psi_group_cpu of the tree */

/* model failure reporting, implemented by the driver */
void model_fail(const char *what);
void model_failf(const char *fmt, ...) __attribute__((noreturn));
extern unsigned long model_chain_links, model_chain_calls;
extern u64 model_clock[NCPU];
extern int model_current_cpu;

#define WARN_ON_ONCE(c) ({ bool __c = !!(c); if (__c) model_fail("WARN_ON_ONCE(" #c ") at " __FILE__ ":" __stringify(__LINE__)); __c; })
#define __stringify_1(x) #x
#define __stringify(x) __stringify_1(x)
#define printk_deferred_once(...) model_failf(__VA_ARGS__)
#define printk_deferred(...) model_failf(__VA_ARGS__)
#define KERN_ERR ""

struct work_struct { int dummy; };
struct delayed_work { struct work_struct work; int pending; };
#define delayed_work_pending(w) ((w)->pending)
#define schedule_delayed_work(w, d) ((w)->pending = 1)
#define current_work() ((struct work_struct *)0)
#define wq_worker_last_func(p) ((void *)0)
#define PF_WQ_WORKER 0x20

struct psi_group {
	struct psi_group *parent;
	bool enabled;
	bool no_mirror;
	struct psi_group_cpu *pcpu;		/* NCPU entries */
	struct delayed_work avgs_work;
	unsigned long avgs_cpus[1];
	u32 rtpoll_states;
	int id;					/* model */
};
struct cgroup { struct psi_group *psi; };
#define css_set psi_group
struct task_struct {
	int pid;
	char comm[16];
	int cpu;
	unsigned int psi_flags;
	unsigned in_memstall:1, in_iowait:1, need_psi:1;
	unsigned int flags;
	struct psi_group *cgroups;
};
struct rq { u64 psi_irq_time; }; struct rq_flags { int dummy; };
extern u64 model_irq_time[NCPU];
#define irq_time_read(c) (model_irq_time[c])
#define irqtime_enabled() 1

#define per_cpu_ptr(p, c) (&(p)[c])
#define DEFINE_PER_CPU(type, name) type name[NCPU]
#define per_cpu(v, c) ((v)[c])
#define for_each_possible_cpu(c) for ((c) = 0; (c) < NCPU; (c)++)
#define cpumask_test_cpu(c, m) ((*(m) >> (c)) & 1)
#define cpumask_set_cpu(c, m) (*(m) |= 1UL << (c))
#define cpumask_clear_cpu(c, m) (*(m) &= ~(1UL << (c)))
#define smp_mb() do { } while (0)
#define smp_mb__after_atomic() do { } while (0)
#define rcu_read_lock() do { } while (0)
#define rcu_read_unlock() do { } while (0)
/* cgroup_move_task() switches task->cgroups between its two walks: let time pass there */
extern u64 model_move_tick;
#define rcu_assign_pointer(p, v) ({ (p) = (v); for (int __c = 0; __c < NCPU; __c++) model_clock[__c] += model_move_tick; })
#define kcsan_atomic_next(n) do { } while (0)
#define lockdep_assert_rq_held(rq) do { } while (0)
#define cpu_rq(c) ((struct rq *)0)
#define guard(x) (void)
#define this_rq_lock_irq(rf) ((struct rq *)0)
#define rq_unlock_irq(rq, rf) ((void)(rq))
#define task_rq_lock(t, rf) ((struct rq *)0)
#define task_rq_unlock(rq, t, rf) ((void)(rq))
#define raw_smp_processor_id() (model_current_cpu)
#define cpu_clock(c) (model_clock[c])
#define task_cpu(t) ((t)->cpu)
#define cgroup_psi(c) (c)
#define task_dfl_cgroup(t) ((t)->cgroups)
#define cgroup_on_dfl(c) 1
#define EXPORT_SYMBOL_GPL(x)
/* psi_seq: a single-threaded model has no concurrent readers */
#define psi_write_begin(c) do { } while (0)
#define psi_write_end(c) do { } while (0)
#define psi_read_begin(c) 0u
#define psi_read_retry(c, s) false

/* static keys */
#define static_branch_likely(k) (*(k))
#define static_branch_unlikely(k) (*(k))
static bool psi_disabled = false;
static bool psi_cgroups_enabled = true;
static int psi_bug;			/* the base's */

static inline void psi_schedule_rtpoll_work(struct psi_group *group, unsigned long delay, bool force) { }
static void psi_avgs_work(struct work_struct *work) { }

#endif
