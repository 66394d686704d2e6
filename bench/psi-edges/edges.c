// SPDX-License-Identifier: GPL-2.0
/*
 * edges: the costs of PSI at the edges of a cgroup's life.
 *
 *   edges toggle DIR ROUNDS
 *     As an unprivileged user (uid and gid 65534) to whom DIR has been
 *     delegated (DIR, its cgroup.pressure and cgroup.procs chowned), write
 *     0 and then 1 to DIR/cgroup.pressure ROUNDS times. Prints
 *     pressure_toggle_wall, guest CLOCK_MONOTONIC ns per 0-and-1 pair,
 *     which includes any wait (an RCU grace period is idle time, which
 *     -icount sleep=off skips to the next timer but still counts), and
 *     pressure_toggle_cpu, the writer's own CPU time per pair
 *     (CLOCK_THREAD_CPUTIME_ID: instructions it ran, user and kernel).
 *
 *   edges rmdir DIR N
 *     Creates DIR/e1 .. DIR/eN, removes them, and waits until DIR's
 *     cgroup.stat shows no dying descendant: the release work of every
 *     child has run. Prints rmdir_per_cgroup, guest ns per child for the
 *     whole (its wait for grace periods is shared by the N children).
 *
 *   edges form DIR HOME DEPTH ROUNDS
 *     Creates a chain of DEPTH single-child cgroups under DIR (DIR/f/f/..),
 *     then ROUNDS times moves itself from HOME into the chain's bottom and
 *     back. Before every other move in, it writes 0 and 1 to
 *     cgroup.pressure of each group of the chain (not timed), which ends
 *     any mirroring there, so that the move's walk finds the whole chain
 *     idle and not mirroring: it begins every group at once, as a task's
 *     first wake-up in a new cgroup does. The other moves find the chain
 *     as the last move out left it (a group goes on mirroring while
 *     idle). Prints move_form_cpu_depthD and move_mirrored_cpu_depthD,
 *     the mover's own CPU time per move in (CLOCK_THREAD_CPUTIME_ID:
 *     cgroup migration waits for RCU, which is idle time).
 *
 * Guest ns are retired guest instructions when QEMU runs with -icount
 * shift=0,sleep=off, except for idle time.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

static long long cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void put(int fd, const char *val)
{
	if (pwrite(fd, val, strlen(val), 0) < 0)
		die("cgroup.pressure");
}

static int toggle(const char *dir, long rounds)
{
	char path[PATH_MAX];
	long long t0, t1, c0, c1;
	int fd;

	snprintf(path, sizeof(path), "%s/cgroup.pressure", dir);
	if (chown(dir, 65534, 65534) || chown(path, 65534, 65534))
		die("chown");
	if (setgid(65534) || setuid(65534))
		die("setuid");
	fd = open(path, O_WRONLY);
	if (fd < 0)
		die(path);
	put(fd, "0");
	put(fd, "1");
	t0 = now_ns();
	c0 = cpu_ns();
	for (long r = 0; r < rounds; r++) {
		put(fd, "0");
		put(fd, "1");
	}
	c1 = cpu_ns();
	t1 = now_ns();
	close(fd);
	printf("{\"metric\": \"pressure_toggle_wall\", \"unit\": \"ns\", \"better\": \"lower\", \"value\": %.1f, \"rounds\": %ld}\n",
	       (double)(t1 - t0) / rounds, rounds);
	printf("{\"metric\": \"pressure_toggle_cpu\", \"unit\": \"ns\", \"better\": \"lower\", \"value\": %.1f, \"rounds\": %ld}\n",
	       (double)(c1 - c0) / rounds, rounds);
	return 0;
}

static long dying(const char *dir)
{
	char path[PATH_MAX], buf[512], *p;

	snprintf(path, sizeof(path), "%s/cgroup.stat", dir);
	read_small_file(path, buf, sizeof(buf));
	p = strstr(buf, "nr_dying_descendants ");
	if (!p) {
		errno = EINVAL;
		die("nr_dying_descendants");
	}
	return atol(p + strlen("nr_dying_descendants "));
}

static int remove_many(const char *dir, long n)
{
	char path[PATH_MAX];
	long long t0, t1;
	long i;

	t0 = now_ns();
	for (i = 1; i <= n; i++) {
		snprintf(path, sizeof(path), "%s/e%ld", dir, i);
		if (mkdir(path, 0755))
			die(path);
	}
	for (i = 1; i <= n; i++) {
		snprintf(path, sizeof(path), "%s/e%ld", dir, i);
		if (rmdir(path))
			die(path);
	}
	while (dying(dir))
		usleep(1000);
	t1 = now_ns();
	printf("{\"metric\": \"rmdir_per_cgroup\", \"unit\": \"ns\", \"better\": \"lower\", \"value\": %.1f, \"cgroups\": %ld}\n",
	       (double)(t1 - t0) / n, n);
	return 0;
}

static void move_self(const char *dir)
{
	char path[PATH_MAX + 32];

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	write_file(path, "0");
}

/* The group LEVEL levels below DIR in the chain: DIR/f/f/.. */
static void chain_dir(char *buf, const char *dir, int level)
{
	int n = snprintf(buf, PATH_MAX, "%s", dir);

	while (level-- > 0 && n < PATH_MAX)
		n += snprintf(buf + n, PATH_MAX - n, "/f");
}

static int form(const char *dir, const char *home, int depth, long rounds)
{
	char level[PATH_MAX], path[PATH_MAX + 32];
	long long c0, form_ns = 0, mirrored_ns = 0;
	long r;
	int i;

	if (depth < 1 || depth > 64) {
		fprintf(stderr, "edges: DEPTH must be 1 to 64\n");
		return 2;
	}
	if (mkdir(home, 0755) && errno != EEXIST)
		die(home);
	if (mkdir(dir, 0755) && errno != EEXIST)
		die(dir);
	for (i = 1; i <= depth; i++) {
		chain_dir(level, dir, i);
		if (mkdir(level, 0755) && errno != EEXIST)
			die(level);
	}
	move_self(home);
	for (r = 0; r < 2 * rounds; r++) {
		bool fresh = !(r & 1);

		for (i = 1; fresh && i <= depth; i++) {
			chain_dir(level, dir, i);
			snprintf(path, sizeof(path), "%s/cgroup.pressure", level);
			write_file(path, "0");
			write_file(path, "1");
		}
		chain_dir(level, dir, depth);
		c0 = cpu_ns();
		move_self(level);
		if (fresh)
			form_ns += cpu_ns() - c0;
		else
			mirrored_ns += cpu_ns() - c0;
		move_self(home);
	}
	for (i = depth; i >= 1; i--) {
		chain_dir(level, dir, i);
		if (rmdir(level))
			die(level);
	}
	printf("{\"metric\": \"move_form_cpu_depth%d\", \"unit\": \"ns\", \"better\": \"lower\", \"value\": %.1f, \"rounds\": %ld}\n",
	       depth, (double)form_ns / rounds, rounds);
	printf("{\"metric\": \"move_mirrored_cpu_depth%d\", \"unit\": \"ns\", \"better\": \"lower\", \"value\": %.1f, \"rounds\": %ld}\n",
	       depth, (double)mirrored_ns / rounds, rounds);
	return 0;
}

int main(int argc, char **argv)
{
	bench_prog = "edges";
	if (argc == 4 && !strcmp(argv[1], "toggle") && atol(argv[3]) > 0)
		return toggle(argv[2], atol(argv[3]));
	if (argc == 4 && !strcmp(argv[1], "rmdir") && atol(argv[3]) > 0)
		return remove_many(argv[2], atol(argv[3]));
	if (argc == 6 && !strcmp(argv[1], "form") && atol(argv[5]) > 0)
		return form(argv[2], argv[3], atoi(argv[4]), atol(argv[5]));
	fprintf(stderr, "usage: edges toggle DIR ROUNDS | edges rmdir DIR N | edges form DIR HOME DEPTH ROUNDS\n");
	return 2;
}
