// SPDX-License-Identifier: GPL-2.0
/*
 * openclose: cost of opening and closing a cgroup file (the open-close
 * benchmark, bench/open-close/guest.sh, and bench/bin/profile-open.sh).
 *
 *   openclose MODE DIR FILE N [BATCH]
 *
 * DIR is a cgroup directory, FILE a file name in it. MODE:
 *   openclose	N times openat(dirfd, FILE, O_RDONLY) and close()
 *   held	the same with one more fd of FILE kept open meanwhile, so
 *		that kernfs's open node of the file outlives each close
 *   readclose	N times openat(), read() to EOF (64 KiB buffer: one read
 *		with data, one that returns 0) and close()
 *   read	N times pread(fd, 64 KiB, 0) on one fd kept open
 *   path	N times open("DIR/FILE") by path and close()
 *   batch	N / BATCH times: open BATCH fds of FILE, then close them all;
 *		prints the open and the close phase separately
 *
 * Prints JSON lines in the bench suite's format, value = guest
 * CLOCK_MONOTONIC ns per operation (retired guest instructions under
 * QEMU -icount shift=0). The first 100 operations are a warm-up.
 *
 * With OPENCLOSE_DITHER=1 in the environment each operation is followed
 * by a pseudo-random 0-2047 turns of an empty user-space loop, for perf:
 * under the instruction clock the loop is exactly periodic and a sampling
 * period that is too, so the samples can lock onto a few phases of the
 * loop (seen: close at 2 % of the samples of open+close without it, at
 * 20 % in batches). The times then include the dither.
 */
#define _GNU_SOURCE
#include <limits.h>

#include "bench.h"

static char buf[65536];
static int dither_on;
static unsigned int seed = 2463534242u;

static void dither(void)
{
	unsigned int i, n;

	if (!dither_on)
		return;
	seed ^= seed << 13;
	seed ^= seed >> 17;
	seed ^= seed << 5;
	n = seed & 2047;
	for (i = 0; i < n; i++)
		__asm__ volatile("" ::: "memory");
}

static void print(const char *mode, const char *file, const char *what,
		  long long ns, long n)
{
	printf("{\"metric\": \"%s%s_%s\", \"unit\": \"ns\", \"better\": \"lower\", \"value\": %.1f, \"ops\": %ld}\n",
	       mode, what, file, (double)ns / n, n);
}

static int open_at(int dfd, const char *file)
{
	int fd = openat(dfd, file, O_RDONLY);

	if (fd < 0)
		die(file);
	return fd;
}

static long long loop(const char *mode, int dfd, const char *file,
		      const char *path, long n)
{
	long long t0 = now_ns();
	long i;
	int fd;

	if (!strcmp(mode, "openclose") || !strcmp(mode, "held")) {
		for (i = 0; i < n; i++) {
			close(open_at(dfd, file));
			dither();
		}
	} else if (!strcmp(mode, "readclose")) {
		for (i = 0; i < n; i++) {
			fd = open_at(dfd, file);
			while (read(fd, buf, sizeof(buf)) > 0)
				;
			close(fd);
			dither();
		}
	} else if (!strcmp(mode, "read")) {
		fd = open_at(dfd, file);
		t0 = now_ns();
		for (i = 0; i < n; i++) {
			if (pread(fd, buf, sizeof(buf), 0) < 0)
				die("pread");
			dither();
		}
		close(fd);
	} else if (!strcmp(mode, "path")) {
		for (i = 0; i < n; i++) {
			fd = open(path, O_RDONLY);
			if (fd < 0)
				die(path);
			close(fd);
			dither();
		}
	} else {
		fprintf(stderr, "openclose: unknown mode %s\n", mode);
		exit(2);
	}
	return now_ns() - t0;
}

int main(int argc, char **argv)
{
	const char *mode, *file;
	char path[PATH_MAX];
	long n, batch, i, j;
	int dfd, held = -1, *fds;

	bench_prog = "openclose";
	dither_on = getenv("OPENCLOSE_DITHER") != NULL;
	if (argc < 5 || argc > 6) {
		fprintf(stderr, "usage: openclose MODE DIR FILE N [BATCH]\n");
		return 2;
	}
	mode = argv[1];
	file = argv[3];
	n = atol(argv[4]);
	batch = argc > 5 ? atol(argv[5]) : 500;
	if (n < 1 || batch < 1 || (!strcmp(mode, "batch") && n % batch)) {
		fprintf(stderr, "openclose: N must be >= 1 (in batch mode a multiple of BATCH)\n");
		return 2;
	}
	snprintf(path, sizeof(path), "%s/%s", argv[2], file);
	dfd = open(argv[2], O_RDONLY | O_DIRECTORY);
	if (dfd < 0)
		die(argv[2]);
	if (!strcmp(mode, "held"))
		held = open_at(dfd, file);

	if (!strcmp(mode, "batch")) {
		long long topen = 0, tclose = 0, t;

		fds = calloc(batch, sizeof(*fds));
		if (!fds)
			die("calloc");
		for (i = -1; i < n / batch; i++) {	/* i = -1: warm-up */
			t = now_ns();
			for (j = 0; j < batch; j++) {
				fds[j] = open_at(dfd, file);
				dither();
			}
			if (i >= 0)
				topen += now_ns() - t;
			t = now_ns();
			for (j = 0; j < batch; j++) {
				close(fds[j]);
				dither();
			}
			if (i >= 0)
				tclose += now_ns() - t;
		}
		print(mode, file, "_open", topen, n);
		print(mode, file, "_close", tclose, n);
		return 0;
	}
	loop(mode, dfd, file, path, 100);
	print(mode, file, "", loop(mode, dfd, file, path, n), n);
	if (held >= 0)
		close(held);
	return 0;
}
