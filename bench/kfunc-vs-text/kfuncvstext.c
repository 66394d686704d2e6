// SPDX-License-Identifier: GPL-2.0
/*
 * kfuncvstext: cost of one sample of a cgroup's memory stats, read as text
 * versus fetched by a BPF cgroup iterator with the memcg kfuncs, after the
 * "memcg: reading memcg stats more efficiently" experiment (2025).
 *
 *   kfuncvstext stat|full CGROUP SAMPLES [SUFFIX]
 *
 * One sample fills a struct kvt_stats (kvt.h) for CGROUP:
 *  text:  pread() of CGROUP/memory.stat from an fd kept open, parsed into
 *         the struct ("full": also memory.current and memory.events);
 *  kfunc: bpf_iter_create() on a cgroup iterator link made once (order
 *         SELF_ONLY, the cgroup's fd), read() to run kvt.bpf.c, close(),
 *         and a copy of the struct from the skeleton's mmapped .bss.
 * Both flush the memcg's stats first (memory.stat does; the program calls
 * bpf_mem_cgroup_flush_stats()). Prints text_per_sample, kfunc_per_sample
 * (+SUFFIX): guest ns per sample, i.e. retired guest instructions under QEMU
 * -icount shift=0. One text and one kfunc sample taken back to back at the
 * end are compared field by field ("mismatches"; differences go to stderr).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bench.h"
#include "bench_cgroup.h"
#include "kvt.h"
#include "kvt.skel.h"

struct field {
	const char *name;
	size_t len;
	size_t off;
};

#define KVT_TABLE(name, item, type) \
	{ #name, sizeof(#name) - 1, offsetof(struct kvt_stats, name) },
static const struct field stat_fields[] = {
	KVT_PAGE_STATE(KVT_TABLE)
	KVT_VM_EVENTS(KVT_TABLE)
};
#define KVT_ETABLE(name, item, type) \
	{ #name, sizeof(#name) - 1, offsetof(struct kvt_stats, events.name) },
static const struct field event_fields[] = {
	KVT_MEMORY_EVENTS(KVT_ETABLE)
};
#define NSTAT (sizeof(stat_fields) / sizeof(stat_fields[0]))
#define NEVENT (sizeof(event_fields) / sizeof(event_fields[0]))

static char buf[65536];

/*
 * Parse "key value\n" lines into the fields of @s named in @tab. The keys of
 * memory.stat come in a fixed order, so the entry after the last match is
 * tried first, then all of them.
 */
static void parse_keyed(const char *p, const char *end, const struct field *tab,
			size_t n, struct kvt_stats *s)
{
	size_t next = 0;

	while (p < end) {
		const char *key = p;
		unsigned long long v = 0;
		size_t len, i;

		while (p < end && *p != ' ')
			p++;
		len = p - key;
		for (p++; p < end && *p >= '0' && *p <= '9'; p++)
			v = v * 10 + (*p - '0');
		while (p < end && *p++ != '\n')
			;
		i = next;
		if (i >= n || tab[i].len != len || memcmp(tab[i].name, key, len)) {
			for (i = 0; i < n; i++)
				if (tab[i].len == len && !memcmp(tab[i].name, key, len))
					break;
			if (i == n)
				continue;
		}
		*(unsigned long long *)((char *)s + tab[i].off) = v;
		next = i + 1;
	}
}

static ssize_t read_fd(int fd, const char *what)
{
	ssize_t n = pread(fd, buf, sizeof(buf), 0);

	if (n < 0)
		die(what);
	return n;
}

struct text {
	int stat, current, events;
};

static void text_sample(const struct text *t, int full, struct kvt_stats *s)
{
	ssize_t n = read_fd(t->stat, "read memory.stat");

	parse_keyed(buf, buf + n, stat_fields, NSTAT, s);
	if (!full)
		return;
	n = read_fd(t->current, "read memory.current");
	s->usage = strtoull(buf, NULL, 10);
	n = read_fd(t->events, "read memory.events");
	parse_keyed(buf, buf + n, event_fields, NEVENT, s);
}

static void kfunc_sample(struct kvt *skel, int link_fd, struct kvt_stats *s)
{
	int fd = bpf_iter_create(link_fd);

	if (fd < 0)
		die("bpf_iter_create");
	if (read(fd, buf, sizeof(buf)) < 0)
		die("read of the cgroup iterator");
	close(fd);
	memcpy(s, &skel->bss->out, sizeof(*s));
}

static int open_in(const char *dir, const char *name)
{
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		die(path);
	return fd;
}

static void bpf_failed(const char *what, int err)
{
	struct utsname u;

	uname(&u);
	fprintf(stderr,
		"kfuncvstext: %s: %s\n"
		"kfuncvstext: kernel %s %s: the program needs BPF_SYSCALL, DEBUG_INFO_BTF,\n"
		"  MEMCG and the memcg kfuncs of mm/bpf_memcontrol.c (v7.0+); the libbpf\n"
		"  messages above (verifier log between BEGIN/END PROG LOAD LOG) say why\n",
		what, strerror(-err), u.release, u.version);
	exit(1);
}

static int compare(const struct kvt_stats *a, const struct kvt_stats *b, int full)
{
	int bad = 0;
	size_t i;

#define CMP(tab, n)							\
	for (i = 0; i < (n); i++) {					\
		unsigned long long x = *(unsigned long long *)((char *)a + tab[i].off); \
		unsigned long long y = *(unsigned long long *)((char *)b + tab[i].off); \
		if (x != y) {						\
			fprintf(stderr, "kfuncvstext: %s: text %llu, kfunc %llu\n", \
				tab[i].name, x, y);			\
			bad++;						\
		}							\
	}
	CMP(stat_fields, NSTAT);
	if (full) {
		CMP(event_fields, NEVENT);
		if (a->usage != b->usage) {
			fprintf(stderr, "kfuncvstext: usage: text %llu, kfunc %llu\n",
				a->usage, b->usage);
			bad++;
		}
	}
	return bad;
}

int main(int argc, char **argv)
{
	struct kvt_stats ts = {}, ks = {};
	struct text t = { -1, -1, -1 };
	const char *suffix = argc > 4 ? argv[4] : "";
	struct bpf_link *link;
	long long t0, t1, t2;
	struct kvt *skel;
	long samples, i;
	int full, cgfd, err, bad;
	unsigned long runs;

	bench_prog = "kfuncvstext";
	if (argc < 4 || argc > 5 || (strcmp(argv[1], "stat") && strcmp(argv[1], "full"))) {
		fprintf(stderr, "usage: kfuncvstext stat|full CGROUP SAMPLES [SUFFIX]\n");
		return 2;
	}
	full = !strcmp(argv[1], "full");
	samples = atol(argv[3]);
	if (samples < 1) {
		fprintf(stderr, "kfuncvstext: SAMPLES must be >= 1\n");
		return 2;
	}

	t.stat = open_in(argv[2], "memory.stat");
	if (full) {
		t.current = open_in(argv[2], "memory.current");
		t.events = open_in(argv[2], "memory.events");
	}
	cgfd = open(argv[2], O_RDONLY | O_DIRECTORY);
	if (cgfd < 0)
		die(argv[2]);

	skel = kvt__open();
	if (!skel)
		bpf_failed("opening the BPF skeleton", -errno);
	err = kvt__load(skel);
	if (err)
		bpf_failed("loading kvt.bpf.o (verifier or BTF)", err);
	skel->bss->full = full;
	link = attach_cgroup_iter(skel->progs.kvt_query, cgfd, BPF_CGROUP_ITER_SELF_ONLY);
	if (!link)
		bpf_failed("attaching the cgroup iterator", -errno);

	for (i = 0; i < 10; i++) {
		text_sample(&t, full, &ts);
		kfunc_sample(skel, bpf_link__fd(link), &ks);
	}
	runs = skel->bss->runs;
	t0 = now_ns();
	for (i = 0; i < samples; i++)
		text_sample(&t, full, &ts);
	t1 = now_ns();
	for (i = 0; i < samples; i++)
		kfunc_sample(skel, bpf_link__fd(link), &ks);
	t2 = now_ns();
	if (skel->bss->runs - runs != (unsigned long)samples) {
		fprintf(stderr, "kfuncvstext: the BPF program ran %lu times for %ld samples\n",
			skel->bss->runs - runs, samples);
		return 1;
	}

	memset(&ts, 0, sizeof(ts));
	memset(&ks, 0xff, sizeof(ks));
	text_sample(&t, full, &ts);
	kfunc_sample(skel, bpf_link__fd(link), &ks);
	bad = compare(&ts, &ks, full);

	printf("{\"metric\": \"text_per_sample%s\", \"unit\": \"ns\", \"better\": \"lower\", \"value\": %.1f, \"stats\": %zu}\n",
	       suffix, (double)(t1 - t0) / samples, NSTAT + (full ? NEVENT + 1 : 0));
	printf("{\"metric\": \"kfunc_per_sample%s\", \"unit\": \"ns\", \"better\": \"lower\", \"value\": %.1f, \"mismatches\": %d, \"file\": %llu, \"anon\": %llu}\n",
	       suffix, (double)(t2 - t1) / samples, bad, ks.file, ks.anon);
	bpf_link__destroy(link);
	kvt__destroy(skel);
	return 0;
}
