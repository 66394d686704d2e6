// SPDX-License-Identifier: GPL-2.0
/*
 * statread: cost of one read of a cgroup stat file.
 *
 *   statread METRIC FILE READS [median]
 *
 * Opens FILE once and reads it READS times from offset 0 with pread() into
 * a 64 KiB buffer, like a monitoring agent that keeps its fds open. Prints
 * one JSON line in the bench suite's format: guest CLOCK_MONOTONIC ns per
 * read (retired guest instructions under QEMU -icount shift=0), including
 * the syscall, plus the size of one read. The value is the mean over the
 * loop; with "median" each read is timed on its own and the value is the
 * median read (the mean goes to "mean"): for reads beside busy tasks, whose
 * preemptions would otherwise land in the mean.
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

static char buf[65536];

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	long reads, i;
	long long t0, t1;
	ssize_t n = 0;
	long long *each = NULL;
	int fd;

	bench_prog = "statread";
	if (argc < 4 || argc > 5 || (argc == 5 && strcmp(argv[4], "median"))) {
		fprintf(stderr, "usage: statread METRIC FILE READS [median]\n");
		return 2;
	}
	reads = atol(argv[3]);
	if (reads < 1) {
		fprintf(stderr, "statread: READS must be >= 1\n");
		return 2;
	}
	if (argc == 5) {
		each = calloc(reads, sizeof(*each));
		if (!each)
			die("calloc");
	}
	fd = open(argv[2], O_RDONLY);
	if (fd < 0) {
		fprintf(stderr, "statread: %s: %s\n", argv[2], strerror(errno));
		return 1;
	}
	for (i = 0; i < 10; i++)
		n = pread(fd, buf, sizeof(buf), 0);
	t0 = now_ns();
	if (each) {
		for (i = 0; i < reads && n >= 0; i++) {
			long long s = now_ns();

			n = pread(fd, buf, sizeof(buf), 0);
			each[i] = now_ns() - s;
		}
	} else {
		for (i = 0; i < reads; i++)
			n = pread(fd, buf, sizeof(buf), 0);
	}
	t1 = now_ns();
	if (n < 0) {
		fprintf(stderr, "statread: read %s: %s\n", argv[2], strerror(errno));
		return 1;
	}
	if (each) {
		qsort(each, reads, sizeof(*each), cmp_ll);
		printf("{\"metric\": \"%s\", \"unit\": \"ns\", \"better\": \"lower\", \"value\": %lld, \"mean\": %.1f, \"max\": %lld, \"bytes\": %zd}\n",
		       argv[1], each[reads / 2], (double)(t1 - t0) / reads, each[reads - 1], n);
	} else {
		printf("{\"metric\": \"%s\", \"unit\": \"ns\", \"better\": \"lower\", \"value\": %.1f, \"bytes\": %zd}\n",
		       argv[1], (double)(t1 - t0) / reads, n);
	}
	close(fd);
	return 0;
}
