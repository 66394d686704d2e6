// SPDX-License-Identifier: GPL-2.0
/*
 * statread: cost of one read of a cgroup stat file.
 *
 *   statread METRIC FILE READS
 *
 * Opens FILE once and reads it READS times from offset 0 with pread() into
 * a 64 KiB buffer, like a monitoring agent that keeps its fds open. Prints
 * one JSON line in the bench suite's format: guest CLOCK_MONOTONIC ns per
 * read (retired guest instructions under QEMU -icount shift=0), including
 * the syscall, plus the size of one read.
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

int main(int argc, char **argv)
{
	long reads, i;
	long long t0, t1;
	ssize_t n = 0;
	int fd;

	bench_prog = "statread";
	if (argc != 4) {
		fprintf(stderr, "usage: statread METRIC FILE READS\n");
		return 2;
	}
	reads = atol(argv[3]);
	fd = open(argv[2], O_RDONLY);
	if (fd < 0) {
		fprintf(stderr, "statread: %s: %s\n", argv[2], strerror(errno));
		return 1;
	}
	for (i = 0; i < 10; i++)
		n = pread(fd, buf, sizeof(buf), 0);
	t0 = now_ns();
	for (i = 0; i < reads; i++)
		n = pread(fd, buf, sizeof(buf), 0);
	t1 = now_ns();
	if (n < 0) {
		fprintf(stderr, "statread: read %s: %s\n", argv[2], strerror(errno));
		return 1;
	}
	printf("{\"metric\": \"%s\", \"unit\": \"ns\", \"better\": \"lower\", \"value\": %.1f, \"bytes\": %zd}\n",
	       argv[1], (double)(t1 - t0) / reads, n);
	close(fd);
	return 0;
}
