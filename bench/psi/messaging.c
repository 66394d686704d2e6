// SPDX-License-Identifier: GPL-2.0
/*
 * messaging: cost of a round trip when many sender/receiver pairs in many
 * leaf cgroups share one CPU (after perf bench sched messaging).
 *
 *   messaging ROOT DEPTH PAIRS ROUNDS
 *
 * Creates ROOT/pm1/.../pm{DEPTH-1}/leaf0..leaf{2*PAIRS-1}, all leaves at
 * level DEPTH below ROOT (depth 1: ROOT/leaf0...), and PAIRS pairs of tasks:
 * pair i's sender in leaf 2i, its receiver in leaf 2i+1. A round trip is one
 * byte from sender to receiver through a pipe and back through another.
 * All tasks are pinned to CPU 0 and all pairs run at once, so the run queue
 * holds tasks of many leaves and the task switches go between arbitrary
 * leaves rather than between the two tasks of one pair. Each pair first
 * warms up, then waits at a common start gate and does ROUNDS round trips.
 * Prints one JSON line in the bench suite's format: guest CLOCK_MONOTONIC
 * nanoseconds from the gate's opening until the last sender is done,
 * divided by PAIRS * ROUNDS (under QEMU -icount shift=0, retired guest
 * instructions per round trip). Removes the hierarchy afterwards.
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

#define MAX_PAIRS 64
#define WARMUP 200


/* rmdir, retrying for a while if the last task's exit is still in flight */
static void remove_dir(const char *dir)
{
	for (int i = 0; rmdir(dir); i++) {
		if (errno != EBUSY || i == 100)
			die(dir);
		usleep(10000);
	}
}

static void leaf_path(char *buf, size_t size, const char *dir, int i)
{
	snprintf(buf, size, "%s/leaf%d", dir, i);
}

int main(int argc, char **argv)
{
	char dir[PATH_MAX], leaf[PATH_MAX];
	int gate[2], ready[2], done[2];
	pid_t pids[2 * MAX_PAIRS];
	int depth, pairs, i, n = 0;
	long rounds;
	long long t0, t1;
	char c = 0;

	bench_prog = "messaging";
	if (argc != 5) {
		fprintf(stderr, "usage: messaging CGROUP_ROOT DEPTH PAIRS ROUNDS\n");
		return 2;
	}
	depth = atoi(argv[2]);
	pairs = atoi(argv[3]);
	rounds = atol(argv[4]);
	if (depth < 1 || pairs < 1 || pairs > MAX_PAIRS || rounds < 1) {
		fprintf(stderr, "messaging: DEPTH and ROUNDS must be >= 1, PAIRS 1..%d\n",
			MAX_PAIRS);
		return 2;
	}

	snprintf(dir, sizeof(dir), "%s", argv[1]);
	for (i = 1; i < depth; i++) {
		size_t len = strlen(dir);

		snprintf(dir + len, sizeof(dir) - len, "/pm%d", i);
		if (mkdir(dir, 0755) && errno != EEXIST)
			die(dir);
	}
	for (i = 0; i < 2 * pairs; i++) {
		leaf_path(leaf, sizeof(leaf), dir, i);
		if (mkdir(leaf, 0755) && errno != EEXIST)
			die(leaf);
	}
	if (pipe(gate) || pipe(ready) || pipe(done))
		die("pipe");

	pin_cpu0();	/* inherited by every child */
	for (int p = 0; p < pairs; p++) {
		int ab[2], ba[2];
		pid_t pid;

		/* made per pair and closed in the parent after both forks, so
		 * that no other pair's task holds them open */
		if (pipe(ab) || pipe(ba))
			die("pipe");

		pid = fork();
		if (pid < 0)
			die("fork");
		if (pid == 0) {	/* receiver */
			close(ab[1]);
			close(ba[0]);
			close(gate[0]);
			close(gate[1]);
			close(ready[0]);
			close(ready[1]);
			close(done[0]);
			close(done[1]);
			leaf_path(leaf, sizeof(leaf), dir, 2 * p + 1);
			enter(leaf);
			for (;;) {
				if (read(ab[0], &c, 1) != 1)
					_exit(0);
				if (write(ba[1], &c, 1) != 1)
					_exit(1);
			}
		}
		pids[n++] = pid;

		pid = fork();
		if (pid < 0)
			die("fork");
		if (pid == 0) {	/* sender */
			close(ab[0]);
			close(ba[1]);
			close(gate[1]);
			close(ready[0]);
			close(done[0]);
			leaf_path(leaf, sizeof(leaf), dir, 2 * p);
			enter(leaf);
			for (i = 0; i < WARMUP; i++)
				if (write(ab[1], &c, 1) != 1 || read(ba[0], &c, 1) != 1)
					die("warmup");
			if (write(ready[1], &c, 1) != 1)
				die("ready");
			/* the parent closes the gate's write end: EOF for all */
			if (read(gate[0], &c, 1) != 0)
				die("gate");
			for (long r = 0; r < rounds; r++)
				if (write(ab[1], &c, 1) != 1 || read(ba[0], &c, 1) != 1)
					die("round trip");
			if (write(done[1], &c, 1) != 1)
				die("done");
			close(ab[1]);	/* the receiver sees EOF and exits */
			_exit(0);
		}
		pids[n++] = pid;
		close(ab[0]);
		close(ab[1]);
		close(ba[0]);
		close(ba[1]);
	}
	close(gate[0]);
	close(ready[1]);
	close(done[1]);

	for (i = 0; i < pairs; i++)
		if (read(ready[0], &c, 1) != 1)
			die("waiting for the senders' warm-up");
	t0 = now_ns();
	close(gate[1]);
	for (i = 0; i < pairs; i++)
		if (read(done[0], &c, 1) != 1)
			die("waiting for the senders");
	t1 = now_ns();

	for (i = 0; i < n; i++) {
		int status;

		if (waitpid(pids[i], &status, 0) < 0)
			die("waitpid");
		if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			fprintf(stderr, "messaging: a task of pair %d failed (status %#x)\n",
				i / 2, status);
			return 1;
		}
	}
	printf("{\"metric\": \"messaging_depth%d\", \"unit\": \"ns\", \"better\": \"lower\", \"value\": %.1f, \"pairs\": %d, \"rounds\": %ld}\n",
	       depth, (double)(t1 - t0) / ((double)pairs * rounds), pairs, rounds);

	/* remove the hierarchy, leaves first */
	for (i = 0; i < 2 * pairs; i++) {
		leaf_path(leaf, sizeof(leaf), dir, i);
		remove_dir(leaf);
	}
	while (depth-- > 1) {
		remove_dir(dir);
		*strrchr(dir, '/') = '\0';
	}
	return 0;
}
