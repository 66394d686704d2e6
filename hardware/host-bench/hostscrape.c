// SPDX-License-Identifier: GPL-2.0
/*
 * hostscrape: one metric of bench/fleet-scrape's scrape per command, so
 * that perf stat's counts of the command belong to that metric
 * (hardware/host-bench.sh runs fleet-scrape's guest.sh unchanged and turns
 * each "fleetscrape scrape ROOT N PASSES" into nine of these).
 *
 *   hostscrape ROOT N PASSES KIND
 *
 * KIND: scrape (the six files by path), one of the six file names,
 * openclose (open + close of the six, no read) or openat (the scrape
 * with openat() on each cgroup's directory fd). The code is fleetscrape's
 * own (bench/fleet-scrape/fleetscrape.c, included here), so the JSON line
 * is the one fleetscrape prints for that metric; the command does
 * PASSES + 1 passes (the first one warms up) over the "cgroups" it
 * prints.
 */
#define main fleetscrape_main
#include "../fleet-scrape/fleetscrape.c"
#undef main

int main(int argc, char **argv)
{
	const char *root, *kind;
	int passes, k;
	struct rlimit rl;
	long n, i;

	bench_prog = "hostscrape";
	if (argc != 5) {
		fprintf(stderr, "usage: hostscrape ROOT N PASSES KIND\n"
			"  KIND: scrape, openclose, openat or one of the six files\n");
		return 2;
	}
	root = argv[1];
	n = atol(argv[2]);
	passes = atoi(argv[3]);
	kind = argv[4];
	if (passes < 1) {
		fprintf(stderr, "hostscrape: PASSES must be >= 1\n");
		return 2;
	}
	if (!strcmp(kind, "scrape"))
		k = -1;
	else if (!strcmp(kind, "openclose"))
		k = NFILES;
	else if (!strcmp(kind, "openat"))
		k = NFILES + 1;
	else {
		for (k = 0; k < NFILES; k++)
			if (!strcmp(kind, files[k]))
				break;
		if (k == NFILES) {
			fprintf(stderr, "hostscrape: unknown KIND '%s'\n", kind);
			return 2;
		}
	}
	walk_cgroups(root, add_cgroup, NULL);
	if (k == NFILES + 1) {
		/* one directory fd per cgroup, kept open like an agent's */
		if (getrlimit(RLIMIT_NOFILE, &rl))
			die("getrlimit");
		if (rl.rlim_cur < (rlim_t)ncg + 64) {
			rl.rlim_cur = ncg + 64;
			if (rl.rlim_max < rl.rlim_cur)
				rl.rlim_max = rl.rlim_cur;
			if (setrlimit(RLIMIT_NOFILE, &rl))
				die("setrlimit");
		}
		dirfds = calloc(ncg, sizeof(*dirfds));
		if (!dirfds)
			die("calloc");
		for (i = 0; i < ncg; i++) {
			dirfds[i] = open(cgs[i], O_RDONLY | O_DIRECTORY);
			if (dirfds[i] < 0)
				die(cgs[i]);
		}
	}
	measure(k < 0 ? "scrape" : k < NFILES ? files[k] : k == NFILES ? "openclose" : "openat",
		n, passes, k);
	return 0;
}
