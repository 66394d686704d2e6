/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the guest programs of the cgscale bench suite. Each
 * program prints its results as JSON lines:
 *   {"metric": NAME, "unit": "ns", "better": "lower", "value": X, ...}
 * where ns is guest CLOCK_MONOTONIC time, i.e. retired guest instructions
 * when QEMU runs with -icount shift=0.
 */
#ifndef CGSCALE_BENCH_H
#define CGSCALE_BENCH_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *bench_prog = "bench";

static inline void die(const char *what)
{
	fprintf(stderr, "%s: %s: %s\n", bench_prog, what, strerror(errno));
	exit(1);
}

static inline long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Write a string to a file such as cgroup.procs or drop_caches, or die. */
static inline void write_file(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY);

	if (fd < 0 || write(fd, val, strlen(val)) < 0)
		die(path);
	close(fd);
}

/* Read a small file such as cgroup.events into buf, NUL-terminated, or die. */
static inline void read_small_file(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		die(path);
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		die(path);
	buf[n] = '\0';
}

#endif
