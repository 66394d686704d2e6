// SPDX-License-Identifier: GPL-2.0
/*
 * pingpong: cost of a task-switch round trip between two tasks in two
 * different cgroups at a given depth, both on one CPU.
 *
 *   pingpong ROOT DEPTH ROUNDS [lone|apart]
 *
 * Creates ROOT/pp1/.../pp{DEPTH-1}/{ppa,ppb}, so that both leaves are at
 * level DEPTH below ROOT (depth 1: ROOT/ppa and ROOT/ppb), puts the tasks in them,
 * pins both to CPU 0 and passes one byte back and forth through two pipes
 * ROUNDS times. Every round trip is two task switches, each walking the PSI
 * groups of both cgroups' ancestors. Prints one JSON line in the bench
 * suite's format: guest CLOCK_MONOTONIC nanoseconds per round trip (under
 * QEMU -icount shift=0 that is retired guest instructions per round trip).
 *
 * With "lone", the first task stays in ROOT and only the second goes to
 * ROOT/pp1/.../ppb: the second task is then the only task of its groups
 * and all of them go idle and active again on every round trip, as the
 * groups of a mostly idle service do at each of its wakeups. The metric
 * is then lone_round_trip_depthD.
 *
 * With "apart", the first task is alone in a group of its own at the top,
 * ROOT/ppz, and the second alone at depth DEPTH as with "lone": the two
 * alternate, each alone in its groups, so that the root's one active child
 * changes on every switch. That is the edge of PSI mirroring where a
 * group's mirroring begins and ends most often. The metric is
 * apart_round_trip_depthD.
 *
 * With PSI_MARK=FILE in the environment it reads FILE (a pressure file)
 * right before and right after the timed rounds: the reads show in a
 * kernel instruction trace (bench/bin/profile-insns.sh --between psi_cpu_show)
 * where the rounds begin and end.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "psi-tasks.h"

int main(int argc, char **argv)
{
	char dir[PATH_MAX], a[PATH_MAX], b[PATH_MAX], z[PATH_MAX];
	int ab[2], ba[2], depth, lone, apart, i;
	long rounds;
	long long t0, t1;
	char c = 0, buf[256];
	const char *mark;
	int markfd = -1;
	pid_t pid;

	bench_prog = "pingpong";
	lone = argc == 5 && !strcmp(argv[4], "lone");
	apart = argc == 5 && !strcmp(argv[4], "apart");
	if (argc != 4 && !lone && !apart) {
		fprintf(stderr, "usage: pingpong CGROUP_ROOT DEPTH ROUNDS [lone|apart]\n");
		return 2;
	}
	depth = atoi(argv[2]);
	rounds = atol(argv[3]);
	if (depth < 1 || rounds < 1) {
		fprintf(stderr, "pingpong: DEPTH and ROUNDS must be >= 1\n");
		return 2;
	}

	snprintf(dir, sizeof(dir), "%s", argv[1]);
	for (i = 1; i < depth; i++) {
		size_t n = strlen(dir);

		snprintf(dir + n, sizeof(dir) - n, "/pp%d", i);
		if (mkdir(dir, 0755) && errno != EEXIST)
			die(dir);
	}
	snprintf(a, sizeof(a), "%s/ppa", dir);
	snprintf(b, sizeof(b), "%s/ppb", dir);
	if ((mkdir(a, 0755) && errno != EEXIST) || (mkdir(b, 0755) && errno != EEXIST))
		die("mkdir leaf");
	snprintf(z, sizeof(z), "%s/ppz", argv[1]);
	if (apart && mkdir(z, 0755) && errno != EEXIST)
		die(z);
	if (pipe(ab) || pipe(ba))
		die("pipe");
	mark = getenv("PSI_MARK");
	if (mark && *mark) {
		markfd = open(mark, O_RDONLY);
		if (markfd < 0)
			die(mark);
	}

	pin_cpu0();
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		close(ab[1]);
		close(ba[0]);
		enter(b);
		for (;;) {
			if (read(ab[0], &c, 1) != 1)
				_exit(0);
			if (write(ba[1], &c, 1) != 1)
				_exit(1);
		}
	}
	close(ab[0]);
	close(ba[1]);
	enter(apart ? z : lone ? argv[1] : a);
	/* warm up */
	for (i = 0; i < 1000; i++)
		if (write(ab[1], &c, 1) != 1 || read(ba[0], &c, 1) != 1)
			die("warmup");
	if (markfd >= 0 && pread(markfd, buf, sizeof(buf), 0) < 0)
		die("mark");
	t0 = now_ns();
	for (long r = 0; r < rounds; r++)
		if (write(ab[1], &c, 1) != 1 || read(ba[0], &c, 1) != 1)
			die("pingpong");
	t1 = now_ns();
	if (markfd >= 0 && pread(markfd, buf, sizeof(buf), 0) < 0)
		die("mark");
	close(ab[1]);
	waitpid(pid, NULL, 0);
	enter(argv[1]);
	printf("{\"metric\": \"%sround_trip_depth%d\", \"unit\": \"ns\", \"better\": \"lower\", \"value\": %.1f, \"rounds\": %ld}\n",
	       apart ? "apart_" : lone ? "lone_" : "", depth, (double)(t1 - t0) / rounds, rounds);

	/* remove the hierarchy, leaves first */
	rmdir(a);
	rmdir(b);
	if (apart)
		rmdir(z);
	while (depth-- > 1) {
		rmdir(dir);
		*strrchr(dir, '/') = '\0';
	}
	return 0;
}
