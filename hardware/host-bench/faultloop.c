// SPDX-License-Identifier: GPL-2.0
/*
 * faultloop: the rstat update side on the running kernel (hardware/host-bench,
 * hardware/host-bench.sh): page faults in memcgs on every CPU, with or
 * without a reader of the parent's cpu.stat and memory.stat.
 *
 *   faultloop METRIC SECONDS PARENT MIB READER_HZ
 *
 * One worker process per CPU the caller may run on, pinned to it, each in
 * its own cgroup PARENT/w<i> (made here, removed at the end; PARENT must
 * have the memory controller in its cgroup.subtree_control). A worker
 * maps a MIB MiB memfd MAP_PRIVATE, writes one byte per page (a
 * copy-on-write fault each, charged to its memcg) and unmaps it, in a
 * loop: will-it-scale's page_fault2. The workers start together and run
 * for SECONDS. With READER_HZ > 0 the main process meanwhile reads
 * PARENT/cpu.stat and PARENT/memory.stat READER_HZ times a second (pread()
 * of fds kept open, like a monitoring agent), so each read flushes what
 * the workers' updates queued.
 *
 * Prints JSON lines in the bench suite's format: METRIC = page faults per
 * second of all workers together (better: higher; "ops" = the faults of
 * the whole command, which hardware/host-bench.sh divides perf stat's
 * counts by), and with a reader METRIC_cpu.stat_read and
 * METRIC_memory.stat_read, the mean ns of one read.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "bench.h"

struct counter {
	long long faults;
} __attribute__((aligned(64)));

struct shared {
	int stop;
	struct counter c[];
};

static void join(char *dst, const char *dir, const char *name)
{
	if (snprintf(dst, PATH_MAX, "%s/%s", dir, name) >= PATH_MAX) {
		errno = ENAMETOOLONG;
		die(dir);
	}
}

static void worker(struct shared *sh, int i, int cpu, const char *cg, size_t size,
		   int ready, int gate)
{
	long page = sysconf(_SC_PAGESIZE);
	char path[PATH_MAX], pid[32];
	long long faults = 0;
	cpu_set_t set;
	char c;
	int fd;

	join(path, cg, "cgroup.procs");
	snprintf(pid, sizeof(pid), "%d", getpid());
	write_file(path, pid);
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
	fd = memfd_create("faultloop", 0);
	if (fd < 0 || ftruncate(fd, size))
		die("memfd");
	if (write(ready, "", 1) != 1 || read(gate, &c, 1) != 0)
		die("start");
	while (!__atomic_load_n(&sh->stop, __ATOMIC_RELAXED)) {
		char *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);

		if (p == MAP_FAILED)
			die("mmap");
		for (size_t off = 0; off < size; off += page) {
			p[off] = 1;
			__atomic_store_n(&sh->c[i].faults, ++faults, __ATOMIC_RELAXED);
		}
		munmap(p, size);
	}
	_exit(0);
}

static long long sum(struct shared *sh, int n)
{
	long long s = 0;

	for (int i = 0; i < n; i++)
		s += __atomic_load_n(&sh->c[i].faults, __ATOMIC_RELAXED);
	return s;
}

static void ts_add_ns(struct timespec *ts, long long ns)
{
	ns += ts->tv_nsec;
	ts->tv_sec += ns / 1000000000LL;
	ts->tv_nsec = ns % 1000000000LL;
}

int main(int argc, char **argv)
{
	static char buf[1 << 16];
	const char *parent;
	char path[PATH_MAX], dir[PATH_MAX];
	double seconds, secs;
	long long t0, t1, f0, f1, total, reads = 0, cpu_ns = 0, mem_ns = 0;
	int hz, ncpu = 0, cpus[CPU_SETSIZE], ready[2], gate[2], i, cfd = -1, mfd = -1;
	struct shared *sh;
	pid_t *pids;
	size_t size;
	cpu_set_t set;
	char c;

	bench_prog = "faultloop";
	if (argc != 6) {
		fprintf(stderr, "usage: faultloop METRIC SECONDS PARENT MIB READER_HZ\n");
		return 2;
	}
	seconds = atof(argv[2]);
	parent = argv[3];
	size = (size_t)atol(argv[4]) << 20;
	hz = atoi(argv[5]);
	if (seconds <= 0 || !size || hz < 0) {
		fprintf(stderr, "faultloop: SECONDS and MIB must be > 0, READER_HZ >= 0\n");
		return 2;
	}
	if (sched_getaffinity(0, sizeof(set), &set))
		die("sched_getaffinity");
	for (i = 0; i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, &set))
			cpus[ncpu++] = i;
	sh = mmap(NULL, sizeof(*sh) + ncpu * sizeof(struct counter), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pids = calloc(ncpu, sizeof(*pids));
	if (sh == MAP_FAILED || !pids)
		die("memory");
	if (hz) {
		join(path, parent, "cpu.stat");
		cfd = open(path, O_RDONLY);
		join(path, parent, "memory.stat");
		mfd = open(path, O_RDONLY);
		if (cfd < 0 || mfd < 0)
			die(path);
	}
	if (pipe(ready) || pipe(gate))
		die("pipe");
	for (i = 0; i < ncpu; i++) {
		snprintf(path, sizeof(path), "w%d", i);
		join(dir, parent, path);
		if (mkdir(dir, 0755) && errno != EEXIST)
			die(dir);
		pids[i] = fork();
		if (pids[i] < 0)
			die("fork");
		if (!pids[i]) {
			close(ready[0]);
			close(gate[1]);
			worker(sh, i, cpus[i], dir, size, ready[1], gate[0]);
		}
	}
	close(ready[1]);
	close(gate[0]);
	for (i = 0; i < ncpu; i++) {
		if (read(ready[0], &c, 1) != 1) {
			fprintf(stderr, "faultloop: a worker failed to start\n");
			return 1;
		}
	}
	t0 = now_ns();
	f0 = sum(sh, ncpu);
	close(gate[1]);		/* EOF starts them all */
	if (hz) {
		struct timespec next;
		long long period = 1000000000LL / hz, end = t0 + (long long)(seconds * 1e9);

		clock_gettime(CLOCK_MONOTONIC, &next);
		while (now_ns() < end) {
			long long s;

			ts_add_ns(&next, period);
			while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) == EINTR)
				;
			s = now_ns();
			if (pread(cfd, buf, sizeof(buf), 0) < 0)
				die("cpu.stat");
			cpu_ns += now_ns() - s;
			s = now_ns();
			if (pread(mfd, buf, sizeof(buf), 0) < 0)
				die("memory.stat");
			mem_ns += now_ns() - s;
			reads++;
		}
	} else {
		struct timespec run = { (time_t)seconds,
					(long)((seconds - (long)seconds) * 1e9) };

		while (nanosleep(&run, &run) && errno == EINTR)
			;
	}
	f1 = sum(sh, ncpu);
	t1 = now_ns();
	__atomic_store_n(&sh->stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < ncpu; i++) {
		int status;

		if (waitpid(pids[i], &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
			fprintf(stderr, "faultloop: worker %d failed\n", i);
			return 1;
		}
	}
	total = sum(sh, ncpu);
	secs = (t1 - t0) / 1e9;
	printf("{\"metric\": \"%s\", \"unit\": \"faults/s\", \"better\": \"higher\", \"value\": %.1f, "
	       "\"cpus\": %d, \"reader_hz\": %d, \"mib\": %ld, \"seconds\": %.3f, \"ops\": %lld}\n",
	       argv[1], (f1 - f0) / secs, ncpu, hz, (long)(size >> 20), secs, total);
	if (hz && reads) {
		printf("{\"metric\": \"%s_cpu.stat_read\", \"unit\": \"ns\", \"better\": \"lower\", \"value\": %.1f, \"reads\": %lld}\n",
		       argv[1], (double)cpu_ns / reads, reads);
		printf("{\"metric\": \"%s_memory.stat_read\", \"unit\": \"ns\", \"better\": \"lower\", \"value\": %.1f, \"reads\": %lld}\n",
		       argv[1], (double)mem_ns / reads, reads);
	}
	for (i = 0; i < ncpu; i++) {
		snprintf(path, sizeof(path), "w%d", i);
		join(dir, parent, path);
		for (int tries = 0; rmdir(dir); tries++) {
			if (errno != EBUSY || tries == 100)
				die(dir);
			usleep(10000);
		}
	}
	return 0;
}
