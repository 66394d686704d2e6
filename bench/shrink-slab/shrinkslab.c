// SPDX-License-Identifier: GPL-2.0
/*
 * shrinkslab: drop_caches cost against the number of memcgs, after the 2018
 * "Improve shrink_slab() scalability" experiment.
 *
 *   shrinkslab CGROUP_ROOT N REPEATS
 *
 * Creates N memcgs under CGROUP_ROOT/ss (ss has the memory controller
 * enabled for its children, so each is a memcg of its own); in each, mounts a tmpfs (one
 * superblock, so one memcg-aware shrinker, per memcg) and writes a small
 * file into it from a task in that memcg. Then times
 * "echo 3 > /proc/sys/vm/drop_caches": the first call, and the mean of the
 * REPEATS calls after it. Prints two JSON lines (guest ns, i.e. retired
 * instructions under QEMU -icount shift=0). Cleans up after itself.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

static long long drop_caches(void)
{
	long long t0 = now_ns();

	write_file("/proc/sys/vm/drop_caches", "3");
	return now_ns() - t0;
}

int main(int argc, char **argv)
{
	char path[PATH_MAX + 32], root[PATH_MAX], base[PATH_MAX];
	long long first, next = 0;
	int n, repeats, i;

	bench_prog = "shrinkslab";
	if (argc != 4) {
		fprintf(stderr, "usage: shrinkslab CGROUP_ROOT N REPEATS\n");
		return 2;
	}
	n = atoi(argv[2]);
	repeats = atoi(argv[3]);
	if (n < 1 || repeats < 1) {
		fprintf(stderr, "shrinkslab: N and REPEATS must be >= 1\n");
		return 2;
	}
	snprintf(root, sizeof(root), "%s/cgroup.procs", argv[1]);
	snprintf(base, sizeof(base), "%s/ss", argv[1]);
	if (mkdir(base, 0755) && errno != EEXIST)
		die(base);
	/*
	 * Enable the memory controller in the root and in ss, so that each
	 * m<i> is a memcg of its own. Without the second write, all N
	 * cgroups share ss's memcg and reclaim walks one memcg, not N.
	 */
	snprintf(path, sizeof(path), "%s/cgroup.subtree_control", argv[1]);
	write_file(path, "+memory");
	snprintf(path, sizeof(path), "%s/cgroup.subtree_control", base);
	write_file(path, "+memory");
	if (mkdir("/tmp/ss", 0755) && errno != EEXIST)
		die("/tmp/ss");

	for (i = 0; i < n; i++) {
		char mnt[64], file[96];
		int fd;

		snprintf(path, sizeof(path), "%s/m%d", base, i);
		if (mkdir(path, 0755) && errno != EEXIST)
			die(path);
		strncat(path, "/cgroup.procs", sizeof(path) - strlen(path) - 1);
		write_file(path, "0");
		snprintf(mnt, sizeof(mnt), "/tmp/ss/%d", i);
		if (mkdir(mnt, 0755) && errno != EEXIST)
			die(mnt);
		if (mount("none", mnt, "tmpfs", 0, "size=1m"))
			die("mount tmpfs");
		snprintf(file, sizeof(file), "%s/f", mnt);
		fd = open(file, O_CREAT | O_WRONLY, 0644);
		if (fd < 0 || write(fd, "x", 1) != 1)
			die(file);
		close(fd);
	}
	write_file(root, "0");

	first = drop_caches();
	for (i = 0; i < repeats; i++)
		next += drop_caches();
	printf("{\"metric\": \"drop_caches_first_n%d\", \"unit\": \"ns\", \"better\": \"lower\", \"value\": %lld}\n",
	       n, first);
	printf("{\"metric\": \"drop_caches_next_n%d\", \"unit\": \"ns\", \"better\": \"lower\", \"value\": %.1f}\n",
	       n, (double)next / repeats);

	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "/tmp/ss/%d", i);
		umount(path);
		rmdir(path);
		snprintf(path, sizeof(path), "%s/m%d", base, i);
		rmdir(path);
	}
	rmdir(base);
	return 0;
}
