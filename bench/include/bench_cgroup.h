/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Cgroup helpers shared by guest programs of the bench suite: a pre-order
 * walk of a cgroup subtree and, for the BPF programs (include after
 * <bpf/libbpf.h>), the attachment of a cgroup iterator.
 */
#ifndef CGSCALE_BENCH_CGROUP_H
#define CGSCALE_BENCH_CGROUP_H

#include <dirent.h>
#include <limits.h>

#include "bench.h"

/* fn(dir, arg) for dir and every cgroup directory below it, pre-order */
static inline void walk_cgroups(const char *dir,
				void (*fn)(const char *dir, void *arg), void *arg)
{
	char sub[PATH_MAX];
	struct dirent *de;
	DIR *d;

	fn(dir, arg);
	d = opendir(dir);
	if (!d)
		die(dir);
	while ((de = readdir(d))) {
		if (de->d_type != DT_DIR || de->d_name[0] == '.')
			continue;
		if (snprintf(sub, sizeof(sub), "%s/%s", dir, de->d_name) >= (int)sizeof(sub)) {
			errno = ENAMETOOLONG;
			die(dir);
		}
		walk_cgroups(sub, fn, arg);
	}
	closedir(d);
}

#ifdef __LIBBPF_LIBBPF_H
/* a cgroup iterator link for prog on the cgroup open at cgfd, or NULL */
static inline struct bpf_link *attach_cgroup_iter(struct bpf_program *prog, int cgfd,
						  enum bpf_cgroup_iter_order order)
{
	LIBBPF_OPTS(bpf_iter_attach_opts, opts);
	union bpf_iter_link_info linfo = {};

	linfo.cgroup.cgroup_fd = cgfd;
	linfo.cgroup.order = order;
	opts.link_info = &linfo;
	opts.link_info_len = sizeof(linfo);
	return bpf_program__attach_iter(prog, &opts);
}
#endif

#endif
