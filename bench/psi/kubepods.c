// SPDX-License-Identifier: GPL-2.0
/*
 * kubepods: a fixed amount of mixed work in a kubepods-shaped cgroup tree,
 * the tree of a Kubernetes node under systemd (the names shortened):
 *
 *   ROOT/kubepods/{burstable,besteffort}/pod<i>/c<j>   PODS pods a class,
 *                                                      CONTAINERS each
 *   ROOT/system/svc<k>                                 three services
 *
 *   kubepods ROOT PODS CONTAINERS ROUNDS
 *
 * In each pod, containers 0 and 1 play pipe ping-pong with a little work
 * on each side (a request/response pair), ROUNDS round trips; every other
 * container runs ROUNDS / 4 bursts of work, each followed by a 200 us
 * sleep (a batch job that blocks now and then). The services wake every
 * 2 ms for a little work until the containers are done, and the kernel's
 * own threads run in the root. Nothing is pinned: the tasks spread over
 * the online CPUs as the scheduler places them, many containers a CPU.
 * All tasks wait at a common gate, then do their work.
 *
 * Prints two JSON lines in the bench suite's format: kubepods_wall, guest
 * CLOCK_MONOTONIC nanoseconds from the gate until the last container is
 * done, and kubepods_cpu, the containers' tasks' own CPU time (the sum of
 * their getrusage() user and system times, microseconds), both per round (PODS * 2 *
 * ROUNDS). Under QEMU -icount shift=0 nanoseconds are retired guest
 * instructions. Removes the tree afterwards.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "psi-tasks.h"

#define MAX_PODS 32
#define MAX_CONTAINERS 8
#define SERVICES 3

static const char *classes[] = { "burstable", "besteffort" };

static volatile unsigned long sink;

static void work(unsigned long loops)
{
	for (unsigned long i = 0; i < loops; i++)
		sink += i;
}

static void nap(long us)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = us * 1000 };

	nanosleep(&ts, NULL);
}

/* Format a path into @buf (PATH_MAX bytes), or die if it is too long */
static void pathf(char *buf, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, PATH_MAX, fmt, ap);
	va_end(ap);
	if (n < 0 || n >= PATH_MAX) {
		errno = ENAMETOOLONG;
		die(fmt);
	}
}

static void make_dir(const char *dir)
{
	if (mkdir(dir, 0755) && errno != EEXIST)
		die(dir);
}

/* rmdir, retrying for a while if the last task's exit is still in flight */
static void remove_dir(const char *dir)
{
	for (int i = 0; rmdir(dir); i++) {
		if (errno != EBUSY || i == 100)
			die(dir);
		usleep(10000);
	}
}

/* This task's CPU time so far, user and system (getrusage() sums its run time) */
static long long run_ns(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		die("getrusage");
	return (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000LL +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000LL;
}

static void wait_gate(int gate)
{
	char c;

	if (read(gate, &c, 1) < 0)
		die("gate");
}

/* Report this task's run time to the parent, and exit */
static void report(int res)
{
	long long ns = run_ns();

	if (write(res, &ns, sizeof(ns)) != sizeof(ns))
		die("result pipe");
	exit(0);
}

int main(int argc, char **argv)
{
	char path[PATH_MAX], kp[PATH_MAX], sys[PATH_MAX];
	int gate[2], res[2], pods, containers, rounds, nr = 0;
	pid_t svc[SERVICES];
	long long t0, t1, cpu = 0, ns;

	bench_prog = "kubepods";
	if (argc != 5) {
		fprintf(stderr, "usage: kubepods ROOT PODS CONTAINERS ROUNDS\n");
		return 2;
	}
	pods = atoi(argv[2]);
	containers = atoi(argv[3]);
	rounds = atoi(argv[4]);
	if (pods < 1 || pods > MAX_PODS || containers < 2 ||
	    containers > MAX_CONTAINERS || rounds < 4) {
		fprintf(stderr, "kubepods: PODS 1-%d, CONTAINERS 2-%d, ROUNDS >= 4\n",
			MAX_PODS, MAX_CONTAINERS);
		return 2;
	}

	pathf(kp, "%s/kubepods", argv[1]);
	pathf(sys, "%s/system", argv[1]);
	make_dir(kp);
	make_dir(sys);
	if (pipe(gate) || pipe(res))
		die("pipe");

	for (int k = 0; k < SERVICES; k++) {
		pathf(path, "%s/svc%d", sys, k);
		make_dir(path);
		svc[k] = fork();
		if (svc[k] < 0)
			die("fork");
		if (!svc[k]) {
			enter(path);
			close(gate[1]);
			wait_gate(gate[0]);
			for (;;) {
				nap(2000);
				work(2000);
			}
		}
	}

	for (int c = 0; c < 2; c++) {
		pathf(path, "%s/%s", kp, classes[c]);
		make_dir(path);
		for (int i = 0; i < pods; i++) {
			int req[2], rsp[2];

			pathf(path, "%s/%s/pod%d", kp, classes[c], i);
			make_dir(path);
			if (pipe(req) || pipe(rsp))
				die("pipe");
			for (int j = 0; j < containers; j++, nr++) {
				char cg[PATH_MAX];
				pid_t pid;

				pathf(cg, "%s/%s/pod%d/c%d", kp,
					 classes[c], i, j);
				make_dir(cg);
				pid = fork();
				if (pid < 0)
					die("fork");
				if (pid)
					continue;
				enter(cg);
				close(gate[1]);
				wait_gate(gate[0]);
				if (j == 0) {		/* the client */
					char b = 0;

					for (int r = 0; r < rounds; r++) {
						work(500);
						if (write(req[1], &b, 1) != 1 ||
						    read(rsp[0], &b, 1) != 1)
							die("client");
					}
				} else if (j == 1) {	/* the server */
					char b;

					for (int r = 0; r < rounds; r++) {
						if (read(req[0], &b, 1) != 1)
							die("server");
						work(1000);
						if (write(rsp[1], &b, 1) != 1)
							die("server");
					}
				} else {		/* a batch job */
					for (int r = 0; r < rounds / 4; r++) {
						work(20000);
						nap(200);
					}
				}
				report(res[1]);
			}
			close(req[0]);
			close(req[1]);
			close(rsp[0]);
			close(rsp[1]);
		}
	}

	close(gate[0]);
	close(res[1]);
	t0 = now_ns();
	close(gate[1]);		/* open the gate */
	for (int n = 0; n < nr; n++) {
		if (read(res[0], &ns, sizeof(ns)) != sizeof(ns))
			die("results");
		cpu += ns;
	}
	t1 = now_ns();
	for (int k = 0; k < SERVICES; k++)
		kill(svc[k], SIGKILL);
	while (wait(NULL) > 0)
		;

	printf("{\"metric\": \"kubepods_wall\", \"unit\": \"ns\", \"better\": \"lower\", \"value\": %.1f, \"pods\": %d, \"containers\": %d, \"rounds\": %d}\n",
	       (double)(t1 - t0) / (pods * 2 * rounds), pods, containers, rounds);
	printf("{\"metric\": \"kubepods_cpu\", \"unit\": \"ns\", \"better\": \"lower\", \"value\": %.1f, \"pods\": %d, \"containers\": %d, \"rounds\": %d}\n",
	       (double)cpu / (pods * 2 * rounds), pods, containers, rounds);

	for (int c = 0; c < 2; c++) {
		for (int i = 0; i < pods; i++) {
			for (int j = 0; j < containers; j++) {
				pathf(path, "%s/%s/pod%d/c%d",
					 kp, classes[c], i, j);
				remove_dir(path);
			}
			pathf(path, "%s/%s/pod%d", kp, classes[c], i);
			remove_dir(path);
		}
		pathf(path, "%s/%s", kp, classes[c]);
		remove_dir(path);
	}
	for (int k = 0; k < SERVICES; k++) {
		pathf(path, "%s/svc%d", sys, k);
		remove_dir(path);
	}
	remove_dir(sys);
	remove_dir(kp);
	return 0;
}
