/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the psi benchmark's programs do with their tasks: move the caller
 * into a cgroup, pin it to CPU 0. Include after bench.h, with _GNU_SOURCE
 * defined (cpu_set_t).
 */
#ifndef CGSCALE_PSI_TASKS_H
#define CGSCALE_PSI_TASKS_H

#include <limits.h>
#include <sched.h>

static inline void enter(const char *cg)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/cgroup.procs", cg);
	write_file(path, "0");
}

static inline void pin_cpu0(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
}

#endif
