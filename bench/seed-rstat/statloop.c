// SPDX-License-Identifier: GPL-2.0
/*
 * statloop: the rstat posting's reader, scaled down.
 *
 *   statloop loop METRIC DIR ITERS GAP_US WARMUP
 *	opens DIR/cgroup.stat, DIR/cpu.stat, DIR/io.stat and DIR/memory.stat
 *	once, then per iteration reads each of the four from offset 0 with
 *	pread() (a seq_file restarts its show() at offset 0, so every pread
 *	is a full read, flush included; the posting's program re-read the
 *	four files 1M times), sleeping GAP_US microseconds before each read.
 *	WARMUP untimed iterations, then ITERS, each timed as the sum of its
 *	four reads (the sleeps are not timed). Prints one JSON line in the
 *	bench suite's
 *	format: value = the median iteration in guest ns of the reader's
 *	CPU time (CLOCK_THREAD_CPUTIME_ID), with the mean and the largest,
 *	the same three of guest CLOCK_MONOTONIC time (wall_*, which counts
 *	also what ran while the reader was switched out, and the two
 *	clock_gettime() calls of the CPU clock), round_mean (the mean time
 *	of an iteration with its sleeps, warm-up included) and the four
 *	files' sizes.
 *   statloop read METRIC FILE READS GAP_US WARMUP
 *	opens FILE once, reads it WARMUP times, then READS times with pread()
 *	from offset 0, each after a sleep of GAP_US microseconds and timed on
 *	its own. Prints the same fields for the one file.
 * The sleep lets the updaters run between two reads (see guest.sh: under
 * QEMU's round-robin TCG the vCPUs take turns, a reader that never sleeps
 * would see almost no updates). METRIC "count" prints nothing (a pass
 * under the tracer, for counting). Under QEMU -icount shift=0 guest ns are
 * retired guest instructions.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

static const char *const files[] = {
	"cgroup.stat", "cpu.stat", "io.stat", "memory.stat",
};
#define NFILES (sizeof(files) / sizeof(files[0]))

static char buf[65536];

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

/* the reader's own CPU time: not the time it spends switched out */
static long long cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void gap(long gap_us)
{
	struct timespec ts = {
		.tv_sec = gap_us / 1000000,
		.tv_nsec = gap_us % 1000000 * 1000,
	};

	if (gap_us)
		nanosleep(&ts, NULL);
}

/* sorts v[n]; its median, and its mean in *mean */
static long long median(long long *v, long n, double *mean)
{
	double sum = 0;
	long i;

	for (i = 0; i < n; i++)
		sum += v[i];
	*mean = sum / n;
	qsort(v, n, sizeof(*v), cmp_ll);
	return v[n / 2];
}

/*
 * WARMUP untimed rounds, then N timed ones; a round: for each of the NFD
 * files, sleep GAP_US, then a full pread() from offset 0. Prints the row.
 */
static int rounds(const char *metric, const char *const *path, int nfd,
		  long n, long gap_us, long warmup)
{
	long long *wall = calloc(n, sizeof(*wall));
	long long *cpu = calloc(n, sizeof(*cpu));
	ssize_t size[NFILES] = { 0 };
	int fd[NFILES];
	double wmean, cmean;
	long long wmed, cmed, start;
	long i;
	int f;

	if (!wall || !cpu)
		die("calloc");
	for (f = 0; f < nfd; f++) {
		fd[f] = open(path[f], O_RDONLY);
		if (fd[f] < 0)
			die(path[f]);
	}
	start = now_ns();
	for (i = -warmup; i < n; i++) {
		long long w = 0, c = 0;

		for (f = 0; f < nfd; f++) {
			gap(gap_us);
			w -= now_ns();
			c -= cpu_ns();
			size[f] = pread(fd[f], buf, sizeof(buf), 0);
			if (size[f] < 0)
				die(path[f]);
			c += cpu_ns();
			w += now_ns();
		}
		if (i >= 0) {
			cpu[i] = c;
			wall[i] = w;
		}
	}
	/* the sleep and whatever ran before the reader woke up, included */
	start = (now_ns() - start) / (n + warmup);
	for (f = 0; f < nfd; f++)
		close(fd[f]);
	cmed = median(cpu, n, &cmean);
	wmed = median(wall, n, &wmean);
	if (strcmp(metric, "count")) {
		printf("{\"metric\": \"%s\", \"unit\": \"ns\", \"better\": \"lower\", \"value\": %lld, \"mean\": %.1f, \"max\": %lld, \"wall_median\": %lld, \"wall_mean\": %.1f, \"wall_max\": %lld, \"n\": %ld, \"gap_us\": %ld, \"round_mean\": %lld, \"bytes\": [",
		       metric, cmed, cmean, cpu[n - 1], wmed, wmean,
		       wall[n - 1], n, gap_us, start);
		for (f = 0; f < nfd; f++)
			printf("%s%zd", f ? ", " : "", size[f]);
		printf("]}\n");
	}
	free(wall);
	free(cpu);
	return 0;
}

int main(int argc, char **argv)
{
	bench_prog = "statloop";
	if (argc == 7 && (!strcmp(argv[1], "loop") || !strcmp(argv[1], "read"))) {
		long n = atol(argv[4]), gap_us = atol(argv[5]);
		long warmup = atol(argv[6]);

		if (n < 1 || gap_us < 0 || warmup < 0) {
			fprintf(stderr, "statloop: ITERS/READS must be >= 1, GAP_US and WARMUP >= 0\n");
			return 2;
		}
		const char *path[NFILES];
		char p[NFILES][4096];
		size_t f;

		if (argv[1][0] == 'r') {
			path[0] = argv[3];
			return rounds(argv[2], path, 1, n, gap_us, warmup);
		}
		for (f = 0; f < NFILES; f++) {
			snprintf(p[f], sizeof(p[f]), "%s/%s", argv[3], files[f]);
			path[f] = p[f];
		}
		return rounds(argv[2], path, NFILES, n, gap_us, warmup);
	}
	fprintf(stderr, "usage: statloop loop METRIC DIR ITERS GAP_US WARMUP\n"
		"       statloop read METRIC FILE READS GAP_US WARMUP\n");
	return 2;
}
