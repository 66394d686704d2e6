// SPDX-License-Identifier: GPL-2.0
/*
 * quietread: the reader of an idle memcg beside busy ones, and its helpers.
 *
 *   quietread hold MIB
 *	writes one byte to each page of MIB MiB of anonymous memory (charged
 *	to the caller's memcg once), then sleeps until killed
 *   quietread busy MIB
 *	maps MIB MiB of anonymous memory, writes one byte per page, unmaps
 *	it, in a loop until killed: a steady stream of memcg stat updates
 *	(anon, LRU sizes, fault events)
 *   quietread read METRIC FILE READS GAP_US WARMUP [CONTROL]
 *	opens FILE once, reads it WARMUP times, then READS times from
 *	offset 0 with pread(), each read timed on its own and preceded by a
 *	sleep of GAP_US microseconds (a monitoring agent that reads
 *	periodically, so that busy memcgs make updates between two reads).
 *	Prints one JSON line in the bench suite's format: the median read in
 *	guest CLOCK_MONOTONIC ns (retired guest instructions under QEMU
 *	-icount shift=0), with the mean, the largest read and its size.
 *	With CONTROL, then sleeps GAP_US once more and reads CONTROL once
 *	(untimed): a positive control for whoever counts the flushes.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

static char buf[65536];

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

static void touch(char *p, size_t size)
{
	long page = sysconf(_SC_PAGESIZE);

	for (size_t off = 0; off < size; off += page)
		p[off] = 1;
}

static void hold(size_t size)
{
	char *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		die("mmap");
	touch(p, size);
	for (;;)
		pause();
}

static void busy(size_t size)
{
	for (;;) {
		char *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			die("mmap");
		touch(p, size);
		munmap(p, size);
	}
}

static int readloop(const char *metric, const char *file, long reads,
		    long gap_us, long warmup, const char *control)
{
	struct timespec gap = {
		.tv_sec = gap_us / 1000000,
		.tv_nsec = gap_us % 1000000 * 1000,
	};
	long long *each, sum = 0;
	ssize_t n = 0;
	long i;
	int fd;

	each = calloc(reads, sizeof(*each));
	if (!each)
		die("calloc");
	fd = open(file, O_RDONLY);
	if (fd < 0)
		die(file);
	for (i = 0; i < warmup; i++)
		if (pread(fd, buf, sizeof(buf), 0) < 0)
			die(file);
	for (i = 0; i < reads; i++) {
		long long s;

		if (gap_us)
			nanosleep(&gap, NULL);
		s = now_ns();
		n = pread(fd, buf, sizeof(buf), 0);
		each[i] = now_ns() - s;
		if (n < 0)
			die(file);
		sum += each[i];
	}
	close(fd);
	if (control) {
		nanosleep(&gap, NULL);
		fd = open(control, O_RDONLY);
		if (fd < 0 || pread(fd, buf, sizeof(buf), 0) < 0)
			die(control);
		close(fd);
	}
	qsort(each, reads, sizeof(*each), cmp_ll);
	printf("{\"metric\": \"%s\", \"unit\": \"ns\", \"better\": \"lower\", \"value\": %lld, \"mean\": %.1f, \"max\": %lld, \"bytes\": %zd, \"reads\": %ld, \"gap_us\": %ld}\n",
	       metric, each[reads / 2], (double)sum / reads, each[reads - 1],
	       n, reads, gap_us);
	free(each);
	return 0;
}

int main(int argc, char **argv)
{
	bench_prog = "quietread";
	if (argc == 3 && (!strcmp(argv[1], "hold") || !strcmp(argv[1], "busy"))) {
		size_t size = (size_t)atoi(argv[2]) << 20;

		if (!size) {
			fprintf(stderr, "quietread: MIB must be >= 1\n");
			return 2;
		}
		/* neither returns */
		if (argv[1][0] == 'h')
			hold(size);
		else
			busy(size);
	}
	if ((argc == 7 || argc == 8) && !strcmp(argv[1], "read")) {
		long reads = atol(argv[4]), gap_us = atol(argv[5]);
		long warmup = atol(argv[6]);

		if (reads < 1 || gap_us < 0 || warmup < 0) {
			fprintf(stderr, "quietread: READS must be >= 1, GAP_US and WARMUP >= 0\n");
			return 2;
		}
		return readloop(argv[2], argv[3], reads, gap_us, warmup,
				argc == 8 ? argv[7] : NULL);
	}
	fprintf(stderr, "usage: quietread hold|busy MIB\n"
		"       quietread read METRIC FILE READS GAP_US WARMUP [CONTROL]\n");
	return 2;
}
