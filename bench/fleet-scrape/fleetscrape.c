// SPDX-License-Identifier: GPL-2.0
/*
 * fleetscrape: a monitoring agent's scrape of every cgroup of a node
 * (bench/fleet-scrape).
 *
 *   fleetscrape grow ROOT FROM TO DEV [DEPTH [EVERY]]
 *	makes ROOT/{burstable,besteffort}/pod<i>/c for i = FROM+1 .. TO
 *	(odd i burstable, even i besteffort), with +memory +cpu +io enabled
 *	down to every c. Every tenth c (i = 10, 20, ...) gets a task that
 *	touches 256 KiB of anonymous memory, does 4 KiB of direct I/O to DEV
 *	(a loop device, so that io.stat has a device line) and sleeps until
 *	it is killed (guest.sh uses ROOT/cgroup.kill). ROOT must exist with
 *	the three controllers in its cgroup.subtree_control.
 *	DEPTH (default 1) makes each pod a chain of DEPTH single children,
 *	pod<i>/c/c/.../c, the task in the last; EVERY (default 10) gives
 *	every EVERY-th pod a task instead of every tenth.
 *   fleetscrape scrape ROOT N PASSES [SUFFIX [wake]]
 *	collects the cgroups of the subtree ROOT (ROOT included; not timed)
 *	and scrapes them PASSES + 1 times per metric, the first pass being
 *	a warm-up. Metrics (suffix _n<N>), guest ns per cgroup per pass:
 *	  scrape_per_cgroup	open, read to EOF and close the six files
 *				of every cgroup, by path
 *	  <file>_per_cgroup	the same for one of the six files only
 *	  openclose_per_cgroup	open and close the six files, no read
 *	  openat_per_cgroup	the scrape with each file opened by
 *				openat() on the cgroup's directory fd,
 *				opened once beforehand (agent-style)
 *	SUFFIX, if given, is appended to every metric name. With "wake",
 *	ROOT is frozen and thawed before each pass (not timed), so that
 *	every task of the tree wakes and sleeps again and every cgroup
 *	with a task has new pressure time on its CPU when the pass reads:
 *	a node whose containers all did something since the last scrape.
 *
 * Prints JSON lines in the bench suite's format. Times are guest
 * CLOCK_MONOTONIC ns: retired guest instructions under QEMU -icount
 * shift=0, summed over all vCPUs that run meanwhile.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "bench.h"
#include "bench_cgroup.h"

#define NFILES 6
#define CONTROLLERS "+memory +cpu +io"

static const char *const files[NFILES] = {
	"memory.stat", "cpu.stat", "io.stat",
	"cpu.pressure", "memory.pressure", "io.pressure",
};

static char buf[65536];
static char **cgs;		/* cgroup directory paths */
static size_t *cglen;		/* their lengths */
static int *dirfds;
static long ncg, capcg;
static long long pass_bytes;	/* bytes read by the last pass */
static const char *suffix = "";	/* appended to every metric name */
static const char *wake_root;	/* freeze and thaw it before each pass */

/* dst = dir/name, or die */
static void join(char *dst, const char *dir, const char *name)
{
	if (snprintf(dst, PATH_MAX, "%s/%s", dir, name) >= PATH_MAX) {
		errno = ENAMETOOLONG;
		die(dir);
	}
}

static void make_cgroup(const char *path, int subtree)
{
	char p[PATH_MAX];

	if (mkdir(path, 0755) && errno != EEXIST)
		die(path);
	if (subtree) {
		join(p, path, "cgroup.subtree_control");
		write_file(p, CONTROLLERS);
	}
}

static void sleeper(const char *cg, const char *dev, long i, int ready)
{
	size_t len = 256 << 10;
	char p[PATH_MAX], pid[32];
	void *io;
	char *mem;
	int fd;

	/* don't hold the guest's stdout or stderr open after guest.sh ends */
	fd = open("/dev/null", O_RDWR);
	if (fd < 0 || dup2(fd, 0) < 0 || dup2(fd, 1) < 0)
		die("/dev/null");
	join(p, cg, "cgroup.procs");
	snprintf(pid, sizeof(pid), "%d", getpid());
	write_file(p, pid);
	mem = mmap(NULL, len, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		die("mmap");
	memset(mem, 1, len);
	if (posix_memalign(&io, 4096, 4096))
		die("posix_memalign");
	memset(io, 0, 4096);
	fd = open(dev, O_RDWR | O_DIRECT);
	if (fd < 0)
		die(dev);
	if (pread(fd, io, 4096, (i % 2048) * 4096) != 4096 ||
	    pwrite(fd, io, 4096, (i % 2048) * 4096) != 4096)
		die("direct I/O");
	close(fd);
	if (dup2(1, 2) < 0 || write(ready, "", 1) != 1)
		_exit(1);
	close(ready);
	for (;;)
		pause();
}

static int do_grow(char **argv)
{
	const char *root = argv[0], *dev = argv[3];
	long from = atol(argv[1]), to = atol(argv[2]), i, tasks = 0;
	long depth = argv[4] ? atol(argv[4]) : 1;
	long every = argv[4] && argv[5] ? atol(argv[5]) : 10;
	char qos[2][PATH_MAX], pod[PATH_MAX], leaf[PATH_MAX], name[32];
	long long t0 = now_ns();
	int ready[2], d;
	pid_t pid;
	char c;

	if (depth < 1 || every < 1) {
		fprintf(stderr, "fleetscrape: DEPTH and EVERY must be >= 1\n");
		return 2;
	}
	if (pipe(ready))
		die("pipe");
	join(qos[0], root, "besteffort");
	join(qos[1], root, "burstable");
	make_cgroup(qos[0], 1);
	make_cgroup(qos[1], 1);
	for (i = from + 1; i <= to; i++) {
		snprintf(name, sizeof(name), "pod%ld", i);
		join(pod, qos[i & 1], name);
		make_cgroup(pod, 1);
		join(leaf, pod, "c");
		for (d = 1; d < depth; d++) {
			make_cgroup(leaf, 1);
			strcpy(pod, leaf);
			join(leaf, pod, "c");
		}
		make_cgroup(leaf, 0);
		if (i % every)
			continue;
		pid = fork();
		if (pid < 0)
			die("fork");
		if (!pid) {
			close(ready[0]);
			sleeper(leaf, dev, i, ready[1]);
		}
		tasks++;
	}
	close(ready[1]);
	for (i = 0; i < tasks; i++)
		if (read(ready[0], &c, 1) != 1)
			die("a sleeper failed");
	close(ready[0]);
	fprintf(stderr, "fleetscrape: pods %ld..%ld made, %ld sleeping tasks, %.3f s guest\n",
		from + 1, to, tasks, (now_ns() - t0) / 1e9);
	return 0;
}

static void add_cgroup(const char *path, void *unused)
{
	if (ncg == capcg) {
		capcg = capcg ? 2 * capcg : 1024;
		cgs = realloc(cgs, capcg * sizeof(*cgs));
		cglen = realloc(cglen, capcg * sizeof(*cglen));
		if (!cgs || !cglen)
			die("realloc");
	}
	cgs[ncg] = strdup(path);
	if (!cgs[ncg])
		die("strdup");
	cglen[ncg++] = strlen(path);
}

static void read_to_eof(int fd)
{
	ssize_t n;

	while ((n = read(fd, buf, sizeof(buf))) > 0)
		pass_bytes += n;
	if (n < 0)
		die("read");
}

/* one pass over every cgroup: the files of mask, by path */
static void pass_paths(unsigned int mask, int do_read)
{
	char path[PATH_MAX + 32];	/* + "/" + a file name */
	long i;
	int f;

	for (i = 0; i < ncg; i++) {
		memcpy(path, cgs[i], cglen[i]);
		path[cglen[i]] = '/';
		for (f = 0; f < NFILES; f++) {
			int fd;

			if (!(mask & (1u << f)))
				continue;
			memcpy(path + cglen[i] + 1, files[f], strlen(files[f]) + 1);
			fd = open(path, O_RDONLY);
			if (fd < 0)
				die(path);
			if (do_read)
				read_to_eof(fd);
			close(fd);
		}
	}
}

/* one pass over every cgroup: the six files, openat() on its directory */
static void pass_openat(void)
{
	long i;
	int f;

	for (i = 0; i < ncg; i++) {
		for (f = 0; f < NFILES; f++) {
			int fd = openat(dirfds[i], files[f], O_RDONLY);

			if (fd < 0)
				die(files[f]);
			read_to_eof(fd);
			close(fd);
		}
	}
}

/* wait until ROOT/cgroup.events says "frozen STATE" */
static void wait_frozen(const char *events, char state)
{
	char ev[256];

	for (;;) {
		char *f;

		read_small_file(events, ev, sizeof(ev));
		f = strstr(ev, "frozen ");
		if (f && f[7] == state)
			return;
		usleep(1000);
	}
}

/* wake every task below wake_root once: freeze and thaw it */
static void wake_tree(void)
{
	char freeze[PATH_MAX], events[PATH_MAX];

	join(freeze, wake_root, "cgroup.freeze");
	join(events, wake_root, "cgroup.events");
	write_file(freeze, "1");
	wait_frozen(events, '1');
	write_file(freeze, "0");
	wait_frozen(events, '0');
	usleep(10000);	/* let them run and sleep again */
}

/* kind: -1 scrape, 0..5 one file, 6 openclose, 7 openat */
static void measure(const char *metric, long n, int passes, int kind)
{
	long long sum = 0, bytes = 0;
	int p;

	for (p = 0; p <= passes; p++) {
		long long t0;

		if (wake_root)
			wake_tree();
		pass_bytes = 0;
		t0 = now_ns();
		if (kind < 0)
			pass_paths((1u << NFILES) - 1, 1);
		else if (kind < NFILES)
			pass_paths(1u << kind, 1);
		else if (kind == NFILES)
			pass_paths((1u << NFILES) - 1, 0);
		else
			pass_openat();
		if (p) {	/* the first pass warms up */
			sum += now_ns() - t0;
			bytes += pass_bytes;
		}
	}
	printf("{\"metric\": \"%s_per_cgroup_n%ld%s\", \"unit\": \"ns\", \"better\": \"lower\", \"value\": %.1f, \"cgroups\": %ld, \"passes\": %d, \"bytes_per_cgroup\": %.1f}\n",
	       metric, n, suffix, (double)sum / passes / ncg, ncg, passes,
	       (double)bytes / passes / ncg);
	fflush(stdout);
}

static int do_scrape(char **argv)
{
	const char *root = argv[0];
	long n = atol(argv[1]), i;
	int passes = atoi(argv[2]), f;
	long long t0 = now_ns();
	struct rlimit rl;

	if (passes < 1) {
		fprintf(stderr, "fleetscrape: PASSES must be >= 1\n");
		return 2;
	}
	if (argv[3])
		suffix = argv[3];
	if (argv[3] && argv[4]) {
		if (strcmp(argv[4], "wake")) {
			fprintf(stderr, "fleetscrape: want \"wake\" after SUFFIX, got \"%s\"\n",
				argv[4]);
			return 2;
		}
		wake_root = root;
	}
	walk_cgroups(root, add_cgroup, NULL);
	fprintf(stderr, "fleetscrape: n=%ld: %ld cgroups, %d passes each\n",
		n, ncg, passes);
	measure("scrape", n, passes, -1);
	for (f = 0; f < NFILES; f++)
		measure(files[f], n, passes, f);
	measure("openclose", n, passes, NFILES);
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
	measure("openat", n, passes, NFILES + 1);
	for (i = 0; i < ncg; i++)
		close(dirfds[i]);
	fprintf(stderr, "fleetscrape: n=%ld measured in %.3f s guest\n",
		n, (now_ns() - t0) / 1e9);
	return 0;
}

int main(int argc, char **argv)
{
	bench_prog = "fleetscrape";
	if (argc >= 6 && argc <= 8 && !strcmp(argv[1], "grow"))
		return do_grow(argv + 2);
	if (argc >= 5 && argc <= 7 && !strcmp(argv[1], "scrape"))
		return do_scrape(argv + 2);
	fprintf(stderr, "usage: fleetscrape grow ROOT FROM TO DEV [DEPTH [EVERY]]\n"
		"       fleetscrape scrape ROOT N PASSES [SUFFIX [wake]]\n");
	return 2;
}
