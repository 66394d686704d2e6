#!/usr/bin/env python3
"""Break a perf.data of bench/bin/profile-open.sh down by component.

    profile-open-report.py [--kallsyms FILE] [--comm openclose]
                           [--insn INSN_PER_OP] PERF_DATA

Reads the samples with their kernel call chains ("perf script"), keeps
the kernel samples of the task COMM and gives each to the innermost frame of its chain
that names a component of the open, read or close path (the COMPONENTS
below), split by what the leaf function does (slab allocation, slab free,
memcg charge, locks...). With --insn (the mode's instructions per
operation without perf, from times.json) each row also gets an estimate
of its instructions per operation: its share of the task's samples times
INSN_PER_OP. Samples of other tasks (kworkers, RCU, idle) are counted by
task at the end: the out-of-task part of kfree_rcu() and of deferred
work shows up there.
"""
import argparse
import collections
import re
import subprocess
import sys

# Innermost of these frames owns a sample (function names; a trailing
# ".cold"/".isra.0" etc. is stripped). Order does not matter.
COMPONENTS = {
    # syscalls and their entry and exit
    "do_syscall_64": "syscall entry/exit",
    "entry_SYSCALL_64": "syscall entry/exit",
    "syscall_exit_to_user_mode": "syscall entry/exit",
    "__x64_sys_openat": "open: openat() (other)",
    "do_sys_openat2": "open: openat() (other)",
    "getname_flags": "open: getname/putname",
    "getname": "open: getname/putname",
    "putname": "open: getname/putname",
    "alloc_fd": "open: fd table (alloc_fd, fd_install)",
    "fd_install": "open: fd table (alloc_fd, fd_install)",
    "do_filp_open": "open: path_openat (other)",
    "path_openat": "open: path_openat (other)",
    "alloc_empty_file": "open: alloc_empty_file (struct file)",
    "init_file": "open: alloc_empty_file (struct file)",
    "path_init": "open: walk (path_init, link_path_walk)",
    "link_path_walk": "open: walk (path_init, link_path_walk)",
    "walk_component": "open: walk (lookup_fast, revalidate)",
    "lookup_fast": "open: walk (lookup_fast, revalidate)",
    "kernfs_dop_revalidate": "open: walk (lookup_fast, revalidate)",
    "try_to_unlazy": "open: walk: leave RCU walk (try_to_unlazy)",
    "try_to_unlazy_next": "open: walk: leave RCU walk (try_to_unlazy)",
    "complete_walk": "open: walk: complete/terminate_walk",
    "terminate_walk": "open: walk: complete/terminate_walk",
    "open_last_lookups": "open: open_last_lookups",
    "do_open": "open: do_open (other)",
    "may_open": "open: may_open (permission)",
    "inode_permission": "open: inode_permission",
    "kernfs_iop_permission": "open: kernfs_iop_permission",
    "vfs_open": "open: do_dentry_open (other)",
    "do_dentry_open": "open: do_dentry_open (other)",
    "fsnotify_open_perm_and_set_mode": "open: fsnotify",
    "__fsnotify_parent": "fsnotify",
    "fsnotify": "fsnotify",
    "kernfs_fop_open": "open: kernfs_fop_open (other, incl. kernfs_open_file alloc)",
    "kernfs_get_active": "open: kernfs_get/put_active",
    "kernfs_put_active": "open: kernfs_get/put_active",
    "kernfs_get_open_node": "open: kernfs_get_open_node (open node alloc, mutex)",
    "seq_open": "open: seq_open (seq_file alloc)",
    "cgroup_file_open": "open: cgroup_file_open (cgroup_file_ctx alloc, ns get)",
    # close
    "__x64_sys_close": "close: close() (other)",
    "file_close_fd": "close: file_close_fd",
    "filp_flush": "close: filp_flush",
    "fput": "close: fput (task_work_add)",
    "task_work_add": "close: fput (task_work_add)",
    "task_work_run": "close: task_work_run",
    "____fput": "close: __fput (other)",
    "__fput": "close: __fput (other)",
    "locks_remove_file": "close: __fput (other)",
    "kernfs_fop_release": "close: kernfs_fop_release (other, incl. kernfs_open_file free)",
    "kernfs_release_file": "close: cgroup_file_release",
    "cgroup_file_release": "close: cgroup_file_release",
    "kernfs_unlink_open_file": "close: kernfs_unlink_open_file (open node kfree_rcu, mutex)",
    "kvfree_call_rcu": "close: kernfs_unlink_open_file (open node kfree_rcu, mutex)",
    "seq_release": "close: seq_release (seq_file, seq buffer free)",
    "dput": "close: dput/mntput",
    "mntput": "close: dput/mntput",
    "mntput_no_expire": "close: dput/mntput",
    "file_free": "close: file_free (struct file)",
    # read
    "ksys_read": "read: read() (other)",
    "__x64_sys_read": "read: read() (other)",
    "__x64_sys_pread64": "read: read() (other)",
    "vfs_read": "read: read() (other)",
    "kernfs_fop_read_iter": "read: seq_read_iter (other)",
    "seq_read_iter": "read: seq_read_iter (other)",
    "seq_buf_alloc": "read: seq buffer alloc",
    "kernfs_seq_start": "read: kernfs_seq_start/stop (active ref, of->mutex)",
    "kernfs_seq_stop": "read: kernfs_seq_start/stop (active ref, of->mutex)",
    "kernfs_seq_show": "read: show",
    "_copy_to_iter": "read: copy to user",
    # sampling itself
    "perf_event_task_tick": "perf",
}

# Components whose samples are also listed by call site: functions into
# which kernfs_get_open_node(), kernfs_release_file(), file_free() are
# inlined.
SITES = {"kernfs_fop_open", "kernfs_fop_release", "__fput", "do_dentry_open",
         "cgroup_file_open", "cgroup_file_release", "seq_release"}

LEAF = [
    (re.compile(r"kmem_cache_alloc|__kmalloc|kmalloc|slab_alloc|___slab_alloc|"
                r"allocate_slab|__kvmalloc|kvmalloc"), "slab alloc"),
    (re.compile(r"kmem_cache_free|kfree|__slab_free|slab_free|free_to_partial|"
                r"put_cpu_partial|kvfree|free_slab|discard_slab"), "slab free"),
    (re.compile(r"memcg|obj_cgroup|objcg|obj_stock|refill_stock|"
                r"mod_memcg|__mod_lruvec|memcg_slab"), "memcg charge"),
    (re.compile(r"mutex|rwsem|down_read|up_read|down_write|up_write|"
                r"_raw_spin|spin_lock"), "lock"),
    (re.compile(r"memset|memcpy|clear_page|rep_stos|__memset"), "memset/memcpy"),
    (re.compile(r"percpu_counter"), "percpu counter"),
]


def base(sym):
    return re.sub(r"\.(cold|isra|constprop|part|llvm)\b.*$", "", sym)


def leaf_class(sym):
    for rx, name in LEAF:
        if rx.search(sym):
            return name
    return "self"


def samples(args):
    cmd = ["perf", "script", "-i", args.data, "-F", "comm,ip,sym,symoff",
           "--no-inline"]
    if args.kallsyms:
        cmd += ["--kallsyms", args.kallsyms]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                       text=True, check=False)
    comm, chain = None, []
    for line in p.stdout.splitlines():
        if not line.strip():
            if comm is not None:
                yield comm, chain
            comm, chain = None, []
        elif line[0] not in " \t":
            comm, chain = line.strip(), []
        else:
            f = line.split(None, 1)
            sym = f[1].split(" (")[0].strip() if len(f) > 1 else "?"
            name, _, off = sym.partition("+")
            chain.append((base(name), off, f[0].startswith("ffffffff")))
    if comm is not None:
        yield comm, chain


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kallsyms", help="the guest's /proc/kallsyms, for perf script")
    ap.add_argument("--comm", default="openclose", help="the task whose samples are broken down")
    ap.add_argument("--insn", type=float, help="instructions per op (no perf)")
    ap.add_argument("data", help="a MODE.data of bench/bin/profile-open.sh")
    args = ap.parse_args()

    comps = collections.Counter()
    leaves = collections.defaultdict(collections.Counter)
    incl = collections.Counter()
    sites = collections.Counter()
    others = collections.Counter()
    total = user = 0
    for comm, chain in samples(args):
        if comm != args.comm:
            others[re.sub(r"[/:].*", "", comm) if comm.startswith("kworker") else comm] += 1
            continue
        if not chain or not chain[0][2]:
            user += 1               # the loop itself and OPENCLOSE_DITHER
            continue
        total += 1
        owner = "other kernel"
        for i, (fn, off, _) in enumerate(chain):   # leaf first
            if fn in COMPONENTS:
                owner = COMPONENTS[fn]
                if fn in SITES:
                    callee = chain[i - 1][0] if i else "(self)"
                    sites["%s+%s -> %s" % (fn, off, callee) if i else
                          "%s (self)" % fn] += 1
                break
        comps[owner] += 1
        leaves[owner][leaf_class(chain[0][0]) if chain else "?"] += 1
        for fn in set(c[0] for c in chain):
            incl[fn] += 1
    if not total:
        sys.exit("no samples of %s in %s" % (args.comm, args.data))

    def est(n):
        return "%7.0f" % (n / total * args.insn) if args.insn else ""

    print("%d kernel samples of %s (and %d in user space, not counted)%s" % (total, args.comm, user,
          ", %.0f insn/op without perf" % args.insn if args.insn else ""))
    print("%-66s %7s %6s %7s  %s" % ("component (innermost frame)", "samples",
                                     "share", "insn/op" if args.insn else "",
                                     "by leaf"))
    for owner, n in sorted(comps.items(), key=lambda kv: -kv[1]):
        lv = ", ".join("%s %d" % kv for kv in leaves[owner].most_common())
        print("%-66s %7d %5.1f%% %7s  %s" % (owner, n, 100 * n / total, est(n), lv))
    print()
    print("inclusive (frame anywhere in the chain):")
    for fn in ["__x64_sys_openat", "path_openat", "link_path_walk",
               "kernfs_iop_permission", "try_to_unlazy", "alloc_empty_file",
               "do_dentry_open", "kernfs_fop_open", "kernfs_get_open_node",
               "seq_open", "cgroup_file_open", "__x64_sys_close",
               "task_work_run", "__fput", "kernfs_fop_release",
               "cgroup_file_release", "kernfs_unlink_open_file",
               "seq_release", "file_free", "dput", "ksys_read",
               "seq_read_iter", "seq_buf_alloc", "kmem_cache_alloc_noprof",
               "__kmalloc_cache_noprof", "kmem_cache_free", "kfree",
               "__memcg_slab_post_alloc_hook", "__memcg_slab_free_hook",
               "kvfree_call_rcu", "mutex_lock", "mutex_unlock",
               "down_read", "up_read"]:
        if incl[fn]:
            print("  %-40s %7d %5.1f%% %7s" % (fn, incl[fn], 100 * incl[fn] / total,
                                              est(incl[fn])))
    print()
    print("call sites in %s (return address -> callee; addr2line -i the"
          " address for the source line):" % ", ".join(SITES))
    for site, n in sites.most_common(40):
        print("  %-66s %7d %5.1f%% %7s" % (site, n, 100 * n / total, est(n)))
    print()
    print("samples of other tasks (the openclose task: %d):" % total)
    for comm, n in others.most_common(12):
        print("  %-40s %7d" % (comm, n))


if __name__ == "__main__":
    main()
