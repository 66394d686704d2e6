// SPDX-License-Identifier: GPL-2.0
/*
 * fleetbpf: the BPF side of the fleet scrape (bench/fleet-scrape).
 *
 *   fleetbpf tree ROOT N PASSES
 *	the kfunc route: a pre-order cgroup iterator on ROOT (fleet.bpf.c)
 *	fetches the stat set of fleet.h for every cgroup of the subtree,
 *	ROOT included, into a table that user space reads through the
 *	skeleton's mmapped .bss. One pass is bpf_iter_create(), read() and
 *	close() of the iterator fd, and a sum over the table (the agent
 *	looks at what it fetched); PASSES + 1 passes, the first a warm-up.
 *	Prints kfunc_tree_n<N>: guest ns per cgroup per pass. The walk must
 *	visit every cgroup directory of the subtree; the root's anon and
 *	file are compared with its memory.stat ("mismatches").
 *   fleetbpf avgs ROOT N SECONDS
 *	the PSI averaging work with N groups active: a task in each
 *	ROOT/{burstable,besteffort}/pod<i>/c (i = 1..N, the layout of
 *	fleetscrape grow) wakes once a second, the N tasks spread evenly
 *	over the second, so that every group of the tree has something new
 *	at each 2 s averaging period. After 3 s, the psi_avgs_work() runs
 *	of SECONDS seconds are timed (fleet.bpf.c, workqueue tracepoints).
 *	Prints psi_avgs_insn_per_s_n<N> (ns of psi_avgs_work() per second
 *	of guest time) and psi_avgs_insn_per_run_n<N> (per run).
 *
 * Times are guest CLOCK_MONOTONIC ns: retired guest instructions under
 * QEMU -icount shift=0.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <signal.h>
#include <sys/wait.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bench.h"
#include "bench_cgroup.h"
#include "fleet.h"
#include "fleet.skel.h"

static char buf[65536];

static void bpf_failed(const char *what, int err)
{
	fprintf(stderr,
		"fleetbpf: %s: %s\n"
		"fleetbpf: needs BPF_SYSCALL, DEBUG_INFO_BTF, MEMCG and the memcg\n"
		"  kfuncs of mm/bpf_memcontrol.c (v7.0+); the libbpf messages above\n"
		"  (verifier log between BEGIN/END PROG LOAD LOG) say why\n",
		what, strerror(-err));
	exit(1);
}

static void count_one(const char *dir, void *arg)
{
	(*(long *)arg)++;
}

/* cgroup directories of the subtree at path, path included */
static long count_cgroups(const char *path)
{
	long n = 0;

	walk_cgroups(path, count_one, &n);
	return n;
}

/* the value of "key " in a keyed file such as memory.stat */
static unsigned long long keyed_value(const char *path, const char *key)
{
	size_t len = strlen(key);
	const char *p;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		die(path);
	n = read(fd, buf, sizeof(buf) - 1);
	if (n < 0)
		die(path);
	close(fd);
	buf[n] = 0;
	for (p = buf; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : p)
		if (!strncmp(p, key, len) && p[len] == ' ')
			return strtoull(p + len + 1, NULL, 10);
	fprintf(stderr, "fleetbpf: no \"%s\" in %s\n", key, path);
	exit(1);
}

static void walk(struct fleet *skel, int link_fd)
{
	int fd;

	skel->bss->tree_n = 0;
	fd = bpf_iter_create(link_fd);
	if (fd < 0)
		die("bpf_iter_create");
	while (read(fd, buf, sizeof(buf)) > 0)
		;
	close(fd);
}

static int do_tree(const char *root, long n, int passes)
{
	unsigned long long sum = 0, anon, file;
	long cgroups = count_cgroups(root);
	struct bpf_link *link;
	long long t, total = 0;
	struct fleet *skel;
	int cgfd, err, p, bad = 0;
	unsigned int i;
	char path[PATH_MAX];

	cgfd = open(root, O_RDONLY | O_DIRECTORY);
	if (cgfd < 0)
		die(root);
	skel = fleet__open();
	if (!skel)
		bpf_failed("opening the BPF skeleton", -errno);
	bpf_program__set_autoload(skel->progs.fleet_wq_start, false);
	bpf_program__set_autoload(skel->progs.fleet_wq_end, false);
	err = fleet__load(skel);
	if (err)
		bpf_failed("loading fleet.bpf.o (verifier or BTF)", err);
	link = attach_cgroup_iter(skel->progs.fleet_tree, cgfd,
				  BPF_CGROUP_ITER_DESCENDANTS_PRE);
	if (!link)
		bpf_failed("attaching the cgroup iterator", -errno);

	for (p = 0; p <= passes; p++) {
		t = now_ns();
		walk(skel, bpf_link__fd(link));
		for (i = 0; i < skel->bss->tree_n && i < FLEET_TREE_MAX; i++)
			sum += skel->bss->tree[i].anon + skel->bss->tree[i].file;
		if (p)		/* the first pass warms up */
			total += now_ns() - t;
		if (skel->bss->tree_n != cgroups || skel->bss->tree_full) {
			fprintf(stderr, "fleetbpf: the walk visited %u cgroups (%lu did not fit), %s has %ld\n",
				skel->bss->tree_n, skel->bss->tree_full, root, cgroups);
			return 1;
		}
	}

	/* the root is first in pre-order; its memory.stat has the same numbers */
	snprintf(path, sizeof(path), "%s/memory.stat", root);
	anon = keyed_value(path, "anon");
	file = keyed_value(path, "file");
	walk(skel, bpf_link__fd(link));
	if (skel->bss->tree[0].anon != anon) {
		fprintf(stderr, "fleetbpf: anon: text %llu, kfunc %llu\n", anon,
			(unsigned long long)skel->bss->tree[0].anon);
		bad++;
	}
	if (skel->bss->tree[0].file != file) {
		fprintf(stderr, "fleetbpf: file: text %llu, kfunc %llu\n", file,
			(unsigned long long)skel->bss->tree[0].file);
		bad++;
	}
	printf("{\"metric\": \"kfunc_tree_n%ld\", \"unit\": \"ns\", \"better\": \"lower\", \"value\": %.1f, \"cgroups\": %ld, \"passes\": %d, \"mismatches\": %d, \"sum\": %llu}\n",
	       n, (double)total / passes / cgroups, cgroups, passes, bad, sum);
	fflush(stdout);
	bpf_link__destroy(link);
	fleet__destroy(skel);
	close(cgfd);
	return 0;
}

/* a task in cg that wakes once a second, at phase ns into each second */
static void ticker(const char *cg, long long phase, int ready)
{
	char p[PATH_MAX + 16], pid[32];
	struct timespec ts;
	long long next;

	snprintf(p, sizeof(p), "%s/cgroup.procs", cg);
	snprintf(pid, sizeof(pid), "%d", getpid());
	write_file(p, pid);
	if (write(ready, "", 1) != 1)
		_exit(1);
	close(ready);
	next = (now_ns() / 1000000000LL + 1) * 1000000000LL + phase;
	for (;;) {
		ts.tv_sec = next / 1000000000LL;
		ts.tv_nsec = next % 1000000000LL;
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		next += 1000000000LL;
	}
}

static unsigned long long ksym(const char *name)
{
	unsigned long long addr;
	char type, sym[256];
	FILE *f = fopen("/proc/kallsyms", "r");

	if (!f)
		die("/proc/kallsyms");
	while (fscanf(f, "%llx %c %255s%*[^\n]", &addr, &type, sym) == 3)
		if (!strcmp(sym, name)) {
			fclose(f);
			return addr;
		}
	fprintf(stderr, "fleetbpf: no %s in /proc/kallsyms\n", name);
	exit(1);
}

static void sleep_ns(long long ns)
{
	struct timespec ts = { ns / 1000000000LL, ns % 1000000000LL };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static int do_avgs(const char *root, long n, int seconds)
{
	unsigned long long ns0, runs0, ns1, runs1;
	struct bpf_link *start, *end;
	char cg[PATH_MAX];
	struct fleet *skel;
	long long t0, t1;
	int ready[2], err;
	pid_t *pids;
	long i;
	char c;

	pids = calloc(n, sizeof(*pids));
	if (!pids || pipe(ready))
		die("calloc or pipe");
	/* fork before loading BPF: the tickers stay small */
	for (i = 1; i <= n; i++) {
		snprintf(cg, sizeof(cg), "%s/%s/pod%ld/c", root,
			 i & 1 ? "burstable" : "besteffort", i);
		pids[i - 1] = fork();
		if (pids[i - 1] < 0)
			die("fork");
		if (!pids[i - 1]) {
			close(ready[0]);
			ticker(cg, (i - 1) * 1000000000LL / n, ready[1]);
		}
	}
	close(ready[1]);
	for (i = 0; i < n; i++)
		if (read(ready[0], &c, 1) != 1)
			die("a ticker failed");
	close(ready[0]);

	skel = fleet__open();
	if (!skel)
		bpf_failed("opening the BPF skeleton", -errno);
	bpf_program__set_autoload(skel->progs.fleet_tree, false);
	err = fleet__load(skel);
	if (err)
		bpf_failed("loading fleet.bpf.o (verifier or BTF)", err);
	skel->bss->avgs_func = ksym("psi_avgs_work");
	start = bpf_program__attach(skel->progs.fleet_wq_start);
	end = bpf_program__attach(skel->progs.fleet_wq_end);
	if (!start || !end)
		bpf_failed("attaching to the workqueue tracepoints", -errno);

	sleep_ns(3000000000LL);
	ns0 = skel->bss->avgs_ns;
	runs0 = skel->bss->avgs_runs;
	t0 = now_ns();
	sleep_ns(seconds * 1000000000LL);
	ns1 = skel->bss->avgs_ns;
	runs1 = skel->bss->avgs_runs;
	t1 = now_ns();

	for (i = 0; i < n; i++)
		kill(pids[i], SIGKILL);
	for (i = 0; i < n; i++)
		waitpid(pids[i], NULL, 0);
	if (runs1 == runs0) {
		fprintf(stderr, "fleetbpf: psi_avgs_work() did not run in %d s\n", seconds);
		return 1;
	}
	printf("{\"metric\": \"psi_avgs_insn_per_s_n%ld\", \"unit\": \"ns/s\", \"better\": \"lower\", \"value\": %.1f, \"runs_per_s\": %.2f, \"groups\": %ld}\n",
	       n, (double)(ns1 - ns0) * 1e9 / (t1 - t0),
	       (double)(runs1 - runs0) * 1e9 / (t1 - t0), count_cgroups(root));
	printf("{\"metric\": \"psi_avgs_insn_per_run_n%ld\", \"unit\": \"ns\", \"better\": \"lower\", \"value\": %.1f, \"runs\": %llu}\n",
	       n, (double)(ns1 - ns0) / (runs1 - runs0), runs1 - runs0);
	fflush(stdout);
	bpf_link__destroy(start);
	bpf_link__destroy(end);
	fleet__destroy(skel);
	return 0;
}

int main(int argc, char **argv)
{
	bench_prog = "fleetbpf";
	if (argc == 5 && !strcmp(argv[1], "tree") && atoi(argv[4]) >= 1)
		return do_tree(argv[2], atol(argv[3]), atoi(argv[4]));
	if (argc == 5 && !strcmp(argv[1], "avgs") && atol(argv[3]) >= 1 && atoi(argv[4]) >= 1)
		return do_avgs(argv[2], atol(argv[3]), atoi(argv[4]));
	fprintf(stderr, "usage: fleetbpf tree ROOT N PASSES (PASSES >= 1)\n"
		"       fleetbpf avgs ROOT N SECONDS (N, SECONDS >= 1)\n");
	return 2;
}
