// SPDX-License-Identifier: GPL-2.0
/*
 * kernfs: THREADS threads open, read to EOF and close kernfs files
 * (cgroupfs, sysfs) by path in a loop for SECONDS, all at once: the shape
 * of the kernfs scalability tests of 2022 (many threads, the same files,
 * open/read/close in a loop), on the running kernel (hardware/host-bench,
 * hardware/host-bench.sh).
 *
 *   kernfs METRIC SECONDS THREADS FILE...
 *
 * Thread i starts at FILE[i % NFILES] and goes round the list: with one
 * FILE every thread opens the same file, with THREADS files each thread
 * has its own. One op = open() by path + read() to EOF + close() of one
 * file. The threads start together (a barrier) and stop when the main
 * thread, after SECONDS, sets a flag. Prints one JSON line in the bench
 * suite's format: value = ops per second of all threads together (better:
 * higher), the slowest and the fastest thread's ops per second, and "ops",
 * the ops of the whole command, which hardware/host-bench.sh divides perf
 * stat's cycles and instructions of the command by.
 */
#define _GNU_SOURCE
#include <pthread.h>

#include "bench.h"

#define MAX_THREADS 4096

static char **files;
static int nfiles;
static int stop;
static pthread_barrier_t start;

struct worker {
	pthread_t tid;
	int index;
	long long ops;
} __attribute__((aligned(64)));

static void *worker(void *arg)
{
	struct worker *w = arg;
	char buf[4096];
	long long ops = 0;
	int f = w->index % nfiles;

	pthread_barrier_wait(&start);
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		int fd = open(files[f], O_RDONLY);
		ssize_t n;

		if (fd < 0)
			die(files[f]);
		while ((n = read(fd, buf, sizeof(buf))) > 0)
			;
		if (n < 0)
			die(files[f]);
		close(fd);
		ops++;
		if (++f == nfiles)
			f = 0;
	}
	w->ops = ops;
	return NULL;
}

int main(int argc, char **argv)
{
	struct timespec run;
	struct worker *ws;
	long long t0, t1, total = 0, lo = -1, hi = 0;
	double seconds, secs;
	int threads, i;

	bench_prog = "kernfs";
	if (argc < 5) {
		fprintf(stderr, "usage: kernfs METRIC SECONDS THREADS FILE...\n");
		return 2;
	}
	seconds = atof(argv[2]);
	threads = atoi(argv[3]);
	if (seconds <= 0 || threads < 1 || threads > MAX_THREADS) {
		fprintf(stderr, "kernfs: SECONDS must be > 0, THREADS 1..%d\n", MAX_THREADS);
		return 2;
	}
	files = argv + 4;
	nfiles = argc - 4;
	for (i = 0; i < nfiles; i++) {
		int fd = open(files[i], O_RDONLY);

		if (fd < 0)
			die(files[i]);
		close(fd);
	}
	ws = calloc(threads, sizeof(*ws));
	if (!ws || pthread_barrier_init(&start, NULL, threads + 1))
		die("calloc");
	for (i = 0; i < threads; i++) {
		ws[i].index = i;
		errno = pthread_create(&ws[i].tid, NULL, worker, &ws[i]);
		if (errno)
			die("pthread_create");
	}
	pthread_barrier_wait(&start);
	t0 = now_ns();
	run.tv_sec = (time_t)seconds;
	run.tv_nsec = (long)((seconds - (double)run.tv_sec) * 1e9);
	while (nanosleep(&run, &run) && errno == EINTR)
		;
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < threads; i++) {
		pthread_join(ws[i].tid, NULL);
		total += ws[i].ops;
		if (lo < 0 || ws[i].ops < lo)
			lo = ws[i].ops;
		if (ws[i].ops > hi)
			hi = ws[i].ops;
	}
	/* the threads stop within one op of the flag */
	t1 = now_ns();
	secs = (t1 - t0) / 1e9;
	printf("{\"metric\": \"%s\", \"unit\": \"ops/s\", \"better\": \"higher\", \"value\": %.1f, "
	       "\"threads\": %d, \"files\": %d, \"slowest_thread_ops_per_s\": %.1f, "
	       "\"fastest_thread_ops_per_s\": %.1f, \"seconds\": %.3f, \"ops\": %lld}\n",
	       argv[1], total / secs, threads, nfiles, lo / secs, hi / secs, secs, total);
	return 0;
}
