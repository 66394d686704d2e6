// SPDX-License-Identifier: GPL-2.0
/*
 * cpuscale: cost of cgroup stat and pressure file reads as the number of
 * CPUs grows (bench/cpu-scale).
 *
 *   cpuscale read METRIC FILE READS
 *	mean cost of one pread() of FILE from offset 0 (fd kept open), like
 *	bench/stat-read.
 *   cpuscale pending METRIC FILE PROCS CPU PAGES READS
 *	a worker process joins the cgroup of PROCS (its cgroup.procs), pinned
 *	to CPU; before each read it faults in PAGES anonymous pages and unmaps
 *	them, so the memcg has updates queued on that one CPU and the read
 *	that follows has to flush them. The reader runs on CPU 0 and times
 *	each read on its own; value = mean of those reads.
 *   cpuscale readers METRIC FILE K READS
 *	K processes, one pinned to each of CPUs 0..K-1, each read FILE READS
 *	times, starting together; value = time from the start until the last
 *	one is done. The shape of the concurrent cAdvisor experiment.
 *
 * Prints one JSON line in the bench suite's format. Times are guest
 * CLOCK_MONOTONIC ns: retired guest instructions under QEMU -icount
 * shift=0, summed over all vCPUs that run meanwhile.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "bench.h"

static char buf[65536];

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
}

static int open_file(const char *path)
{
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		die(path);
	return fd;
}

static ssize_t read_file(int fd, const char *path)
{
	ssize_t n = pread(fd, buf, sizeof(buf), 0);

	if (n < 0)
		die(path);
	return n;
}

static void result(const char *metric, double value, ssize_t bytes)
{
	printf("{\"metric\": \"%s\", \"unit\": \"ns\", \"better\": \"lower\", \"value\": %.1f, \"bytes\": %zd}\n",
	       metric, value, bytes);
}

static int do_read(char **argv)
{
	long reads = atol(argv[2]), i;
	int fd = open_file(argv[1]);
	long long t0;
	ssize_t n = 0;

	for (i = 0; i < 10; i++)
		n = read_file(fd, argv[1]);
	t0 = now_ns();
	for (i = 0; i < reads; i++)
		n = read_file(fd, argv[1]);
	result(argv[0], (double)(now_ns() - t0) / reads, n);
	return 0;
}

static int do_pending(char **argv)
{
	const char *file = argv[1], *procs = argv[2];
	int cpu = atoi(argv[3]);
	long pages = atol(argv[4]), reads = atol(argv[5]), i;
	int go[2], done[2], fd;
	long long sum = 0;
	ssize_t n = 0;
	pid_t pid;
	char c = 0;

	if (pipe(go) || pipe(done))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		char pidbuf[32];
		size_t len = pages * 4096;

		close(go[1]);	/* or the read below never sees EOF */
		close(done[0]);
		snprintf(pidbuf, sizeof(pidbuf), "%d", getpid());
		write_file(procs, pidbuf);
		pin(cpu);
		while (read(go[0], &c, 1) == 1) {
			char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
				       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

			if (p == MAP_FAILED)
				die("mmap");
			for (size_t off = 0; off < len; off += 4096)
				p[off] = 1;
			munmap(p, len);
			if (write(done[1], &c, 1) != 1)
				die("write");
		}
		_exit(0);
	}
	close(go[0]);
	close(done[1]);
	pin(0);
	fd = open_file(file);
	for (i = 0; i < reads + 2; i++) {
		long long t0;

		if (write(go[1], &c, 1) != 1 || read(done[0], &c, 1) != 1)
			die("worker");
		t0 = now_ns();
		n = read_file(fd, file);
		if (i >= 2)	/* the first two warm up */
			sum += now_ns() - t0;
	}
	close(go[1]);
	waitpid(pid, NULL, 0);
	result(argv[0], (double)sum / reads, n);
	return 0;
}

static int do_readers(char **argv)
{
	const char *file = argv[1];
	int k = atoi(argv[2]), i;
	long reads = atol(argv[3]);
	int start[2], ready[2];
	long long t0;
	char c = 0;

	if (pipe(start) || pipe(ready))
		die("pipe");
	for (i = 0; i < k; i++) {
		pid_t pid = fork();

		if (pid < 0)
			die("fork");
		if (!pid) {
			int fd = open_file(file);

			close(start[1]);	/* the parent's close starts them */
			close(ready[0]);
			pin(i);
			read_file(fd, file);
			/* wait for EOF: the parent closes start[1] */
			if (write(ready[1], &c, 1) != 1 || read(start[0], &c, 1) != 0)
				die("sync");
			for (long r = 0; r < reads; r++)
				read_file(fd, file);
			_exit(0);
		}
	}
	close(start[0]);
	close(ready[1]);
	for (i = 0; i < k; i++)
		if (read(ready[0], &c, 1) != 1)
			die("sync");
	t0 = now_ns();
	close(start[1]);	/* EOF wakes them all */
	for (i = 0; i < k; i++) {
		int status;

		if (wait(&status) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
			die("reader failed");
	}
	printf("{\"metric\": \"%s\", \"unit\": \"ns\", \"better\": \"lower\", \"value\": %lld, \"bare\": true, \"readers\": %d, \"reads_each\": %ld}\n",
	       argv[0], now_ns() - t0, k, reads);
	return 0;
}

int main(int argc, char **argv)
{
	bench_prog = "cpuscale";
	if (argc == 5 && !strcmp(argv[1], "read"))
		return do_read(argv + 2);
	if (argc == 8 && !strcmp(argv[1], "pending"))
		return do_pending(argv + 2);
	if (argc == 6 && !strcmp(argv[1], "readers"))
		return do_readers(argv + 2);
	fprintf(stderr, "usage: cpuscale read METRIC FILE READS\n"
		"       cpuscale pending METRIC FILE PROCS CPU PAGES READS\n"
		"       cpuscale readers METRIC FILE K READS\n");
	return 2;
}
