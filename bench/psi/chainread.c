// SPDX-License-Identifier: GPL-2.0
/*
 * chainread: cost of reading the cpu.pressure of a group whose only active
 * task on the reader's CPU is the reader itself, DEPTH levels below it.
 *
 *   chainread ROOT DEPTH READS
 *
 * Creates ROOT/pr1/.../pr{DEPTH}, moves itself into the deepest group,
 * pins itself to CPU 0 and reads ROOT/pr1/cpu.pressure READS times, then
 * goes back to ROOT and removes the groups. While it runs, every group
 * between it and pr1 has one active child on CPU 0: where groups mirror
 * their only active child, the read follows that chain, so this is the
 * readers' price of mirroring at each depth (the avgs work of a group
 * collects its CPUs the same way).
 * Prints one JSON line in the bench suite's format: guest CLOCK_MONOTONIC
 * nanoseconds per read (under QEMU -icount shift=0, retired guest
 * instructions). With PSI off (no pressure files) it prints nothing.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench.h"
#include "psi-tasks.h"

int main(int argc, char **argv)
{
	char top[PATH_MAX / 2], dir[PATH_MAX], file[PATH_MAX], buf[4096];
	int depth, fd, i;
	long long t0, t1;
	long reads, r;

	bench_prog = "chainread";
	if (argc != 4) {
		fprintf(stderr, "usage: chainread CGROUP_ROOT DEPTH READS\n");
		return 2;
	}
	depth = atoi(argv[2]);
	reads = atol(argv[3]);
	if (depth < 1 || reads < 1) {
		fprintf(stderr, "chainread: DEPTH and READS must be >= 1\n");
		return 2;
	}

	snprintf(top, sizeof(top), "%s/pr1", argv[1]);
	snprintf(dir, sizeof(dir), "%s", argv[1]);
	for (i = 1; i <= depth; i++) {
		size_t n = strlen(dir);

		snprintf(dir + n, sizeof(dir) - n, "/pr%d", i);
		if (mkdir(dir, 0755) && errno != EEXIST)
			die(dir);
	}
	snprintf(file, sizeof(file), "%s/cpu.pressure", top);
	fd = open(file, O_RDONLY);
	if (fd < 0 && errno == ENOENT)
		return 0;	/* psi=0 */
	if (fd < 0)
		die(file);

	enter(dir);
	pin_cpu0();
	/* Warm up, and let the chain form */
	for (r = 0; r < 100; r++)
		if (pread(fd, buf, sizeof(buf), 0) <= 0)
			die(file);
	t0 = now_ns();
	for (r = 0; r < reads; r++)
		if (pread(fd, buf, sizeof(buf), 0) <= 0)
			die(file);
	t1 = now_ns();
	close(fd);

	enter(argv[1]);
	for (i = depth; i >= 1; i--) {
		if (rmdir(dir))
			die(dir);
		*strrchr(dir, '/') = '\0';
	}
	printf("{\"metric\": \"pressure_read_chain_depth%d\", \"unit\": \"ns\", \"better\": \"lower\", \"value\": %.1f, \"reads\": %ld}\n",
	       depth, (double)(t1 - t0) / reads, reads);
	return 0;
}
