"""Tests of checks/heavy/kcsan-reports.py (the KCSAN report grouping and the rule
of checks/heavy/check-kcsan.sh) on synthetic dmesg excerpts.

The excerpts follow what print_report() of kernel/kcsan/report.c (v7.3)
prints: a ruler, "BUG: KCSAN: data-race in A / B" (the two first frames'
functions, %ps, sorted), per access "<type> to 0x<addr> of <n> bytes by
task <pid>|interrupt on cpu <n>:" and a stack of " func+0xoff/0xlen"
lines (stack_trace_print()), "value changed: ...", "Reported by Kernel
Concurrency Sanitizer on:", dump_stack_print_info()'s CPU line and a
ruler; a race of unknown origin is "BUG: KCSAN: data-race in func+0x../0x.."
(%pS) and "race at unknown origin, with read to ...".
"""
import importlib.util
import json
import pathlib
import subprocess
import sys

TOP = pathlib.Path(__file__).resolve().parent.parent
SCRIPT = TOP / "checks" / "heavy" / "kcsan-reports.py"

spec = importlib.util.spec_from_file_location("kcsan_reports", SCRIPT)
kr = importlib.util.module_from_spec(spec)
spec.loader.exec_module(kr)

BOOT = """\
[    0.000000] Linux version 7.3.0-rc7-cgscale (cgscale@cgscale) (gcc (Debian 12.2.0-14+deb12u1) 12.2.0) #1 SMP PREEMPT_DYNAMIC
[    0.000000] Command line: console=ttyS0 panic=-1
[    0.412345] kcsan: enabled early
[    0.412346] kcsan: non-strict mode configured - use CONFIG_KCSAN_STRICT=y to see all data races
[    1.103000] kcsan: selftest: 3/3 tests passed
"""

# a race between kernfs's RCU revalidate and rmdir (fs/kernfs/dir.c, a
# file the series touches)
KERNFS_RACE = """\
[   41.220001] ==================================================================
[   41.220002] BUG: KCSAN: data-race in kernfs_dop_revalidate / kernfs_remove_self
[   41.220003] 
[   41.220004] write to 0xffff8880051a3c4a of 2 bytes by task 1712 on cpu 3:
[   41.220005]  kernfs_remove_self+0x14c/0x2a0
[   41.220006]  cgroup_rmdir+0x31/0x150
[   41.220007]  kernfs_iop_rmdir+0x8e/0xc0
[   41.220008]  vfs_rmdir+0x1a5/0x2f0
[   41.220009]  do_rmdir+0x16a/0x2c0
[   41.220010]  __x64_sys_rmdir+0x2e/0x40
[   41.220011]  do_syscall_64+0xc2/0x1d0
[   41.220012]  entry_SYSCALL_64_after_hwframe+0x77/0x7f
[   41.220013] 
[   41.220014] read to 0xffff8880051a3c4a of 2 bytes by task 1698 on cpu 1:
[   41.220015]  kernfs_dop_revalidate+{off}/0x3cf
[   41.220016]  lookup_fast+0x118/0x1f0
[   41.220017]  walk_component+0x3d/0x250
[   41.220018]  path_lookupat+0xb1/0x2a0
[   41.220019]  filename_lookup+0x10d/0x2b0
[   41.220020]  do_sys_openat2+0x90/0x100
[   41.220021]  __x64_sys_openat+0x9c/0xd0
[   41.220022]  do_syscall_64+0xc2/0x1d0
[   41.220023]  entry_SYSCALL_64_after_hwframe+0x77/0x7f
[   41.220024] 
[   41.220025] value changed: 0x0011 -> 0x0019
[   41.220026] 
[   41.220027] Reported by Kernel Concurrency Sanitizer on:
[   41.220028] CPU: 1 UID: 0 PID: 1698 Comm: stress-reader.p Not tainted 7.3.0-rc7-cgscale #1 PREEMPT(voluntary)
[   41.220029] Hardware name: QEMU Standard PC (i440FX + PIIX, 1996), BIOS 1.16.2-debian-1.16.2-1 04/01/2014
[   41.220030] ==================================================================
"""

# a race in mm code the series does not touch, one side in an interrupt
MM_RACE = """\
[   77.000001] ==================================================================
[   77.000002] BUG: KCSAN: data-race in folio_add_lru / lru_add_drain_cpu
[   77.000003] 
[   77.000004] read-write to 0xffff88807dc2b0c8 of 1 bytes by interrupt on cpu 0:
[   77.000005]  lru_add_drain_cpu+0x3b/0x220
[   77.000006]  lru_add_drain+0x49/0x80
[   77.000007] 
[   77.000008] read (marked) to 0xffff88807dc2b0c8 of 1 bytes by task 2001 on cpu 0:
[   77.000009]  folio_add_lru+0x6a/0x120
[   77.000010]  shmem_alloc_and_add_folio+0x2c1/0x5d0
[   77.000011] 
[   77.000012] Reported by Kernel Concurrency Sanitizer on:
[   77.000013] CPU: 0 UID: 0 PID: 2001 Comm: stress-ng-vm Not tainted 7.3.0-rc7-cgscale #1 PREEMPT(voluntary)
[   77.000014] ==================================================================
"""

UNKNOWN_ORIGIN = """\
[   90.000001] ==================================================================
[   90.000002] BUG: KCSAN: data-race in collect_percpu_times+0x2f1/0x4f7
[   90.000003] 
[   90.000004] race at unknown origin, with read to 0xffff88807dd2e1f0 of 4 bytes by task 95 on cpu 2:
[   90.000005]  collect_percpu_times+0x2f1/0x4f7
[   90.000006]  psi_avgs_work+0x5b/0x130
[   90.000007]  process_one_work+0x2a4/0x5e0
[   90.000008] 
[   90.000009] value changed: 0x00000003 -> 0x00000001
[   90.000010] 
[   90.000011] Reported by Kernel Concurrency Sanitizer on:
[   90.000012] CPU: 2 UID: 0 PID: 95 Comm: kworker/2:1 Not tainted 7.3.0-rc7-cgscale #1 PREEMPT(voluntary)
[   90.000013] ==================================================================
"""

# function -> source file, as addr2line on the vmlinux would say
MAP = """\
kernfs_dop_revalidate fs/kernfs/dir.c
kernfs_remove_self fs/kernfs/dir.c
folio_add_lru mm/swap.c
lru_add_drain_cpu mm/swap.c
collect_percpu_times kernel/sched/psi.c
"""

TOUCHED = "fs/kernfs/dir.c\nfs/kernfs/inode.c\nkernel/sched/psi.c\nmm/memcontrol.c\n"


def lines(text):
    return text.splitlines(keepends=True)


def run(*args):
    return subprocess.run([sys.executable, str(SCRIPT), *map(str, args)],
                          capture_output=True, text=True)


def parse(tmp_path, name, text, mapping=MAP):
    log = tmp_path / f"{name}.dmesg"
    log.write_text(text)
    m = tmp_path / "map.txt"
    m.write_text(mapping)
    out = tmp_path / f"{name}.json"
    p = run("parse", "--kernel", name, "--out", out, "--map", m, log)
    assert p.returncode == 0, p.stderr
    return out


def compare(tmp_path, base, series):
    t = tmp_path / "touched.txt"
    t.write_text(TOUCHED)
    return run("compare", "--base", base, "--series", series, "--touched", t)


def test_data_race_pair_parses():
    reports, info = kr.parse_log(lines(BOOT + KERNFS_RACE.format(off="0x5a")))
    assert info["starts_at_boot"] and info["kcsan_enabled"]
    assert len(reports) == 1
    r = reports[0]
    assert r["kind"] == "data-race"
    assert r["title"] == "data-race in kernfs_dop_revalidate / kernfs_remove_self"
    assert not r["unknown_origin"]
    assert r["value_change"] == "0x0011 -> 0x0019"
    (w, rd) = r["accesses"]
    assert (w["type"], w["size"], w["who"], w["cpu"]) == ("write", 2, "task 1712", 3)
    assert (rd["type"], rd["size"], rd["who"], rd["cpu"]) == ("read", 2, "task 1698", 1)
    assert [f["func"] for f in w["frames"]][:2] == ["kernfs_remove_self", "cgroup_rmdir"]
    assert len(w["frames"]) == 8 and len(rd["frames"]) == 9
    assert rd["frames"][0] == {"func": "kernfs_dop_revalidate", "off": 0x5a, "len": 0x3cf,
                               "mod": None}


def test_interrupt_marked_and_unknown_origin_parse():
    reports, _ = kr.parse_log(lines(MM_RACE + UNKNOWN_ORIGIN))
    mm, unk = reports
    assert [a["type"] for a in mm["accesses"]] == ["read-write", "read (marked)"]
    assert mm["accesses"][0]["who"] == "interrupt"
    assert unk["unknown_origin"] and len(unk["accesses"]) == 1
    assert unk["accesses"][0]["frames"][0]["func"] == "collect_percpu_times"


def test_prefixes_of_console_and_caller_ids_are_stripped():
    text = "".join(f"<3>[   41.2] [  T1698] {line.split('] ', 1)[1]}"
                   for line in lines(KERNFS_RACE.format(off="0x5a")))
    reports, info = kr.parse_log(lines(text))
    assert len(reports) == 1 and len(reports[0]["accesses"]) == 2
    assert not info["starts_at_boot"]


def test_groups_by_file_and_function_of_the_first_frames(tmp_path):
    text = BOOT + KERNFS_RACE.format(off="0x5a") + MM_RACE + KERNFS_RACE.format(off="0x77")
    d = json.loads(parse(tmp_path, "patched", text).read_text())
    assert d["total"] == 3
    keys = [(g["key"], g["count"]) for g in d["groups"]]
    assert keys == [("fs/kernfs/dir.c:kernfs_dop_revalidate / fs/kernfs/dir.c:kernfs_remove_self", 2),
                    ("mm/swap.c:folio_add_lru / mm/swap.c:lru_add_drain_cpu", 1)]
    assert d["per_file"] == {"fs/kernfs/dir.c": 2, "mm/swap.c": 1}


def test_series_report_in_a_touched_file_that_base_lacks_fails(tmp_path):
    base = parse(tmp_path, "base", BOOT + MM_RACE)
    series = parse(tmp_path, "patched", BOOT + MM_RACE + KERNFS_RACE.format(off="0x5a"))
    p = compare(tmp_path, base, series)
    assert p.returncode == 1, p.stdout + p.stderr
    assert "NOT ON BASE: fs/kernfs/dir.c:kernfs_dop_revalidate / fs/kernfs/dir.c:kernfs_remove_self" \
        in p.stdout
    assert p.stdout.splitlines()[-1].startswith("fail kcsan:rule(1 group(s)")


def test_same_report_on_both_kernels_passes(tmp_path):
    # other offsets, other count: the same file:function pair
    base = parse(tmp_path, "base", BOOT + KERNFS_RACE.format(off="0x61"))
    series = parse(tmp_path, "patched", BOOT + KERNFS_RACE.format(off="0x5a") * 3)
    p = compare(tmp_path, base, series)
    assert p.returncode == 0, p.stdout + p.stderr
    assert p.stdout.splitlines()[-1].startswith("pass kcsan:rule(")


def test_series_report_in_an_untouched_file_passes(tmp_path):
    base = parse(tmp_path, "base", BOOT)
    series = parse(tmp_path, "patched", BOOT + MM_RACE)
    p = compare(tmp_path, base, series)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "of them not on base: 0" in p.stdout


def test_unknown_origin_in_a_touched_file_fails(tmp_path):
    base = parse(tmp_path, "base", BOOT)
    series = parse(tmp_path, "patched", BOOT + UNKNOWN_ORIGIN)
    p = compare(tmp_path, base, series)
    assert p.returncode == 1 and "kernel/sched/psi.c:collect_percpu_times" in p.stdout


def test_unresolved_series_report_fails(tmp_path):
    base = parse(tmp_path, "base", BOOT)
    series = parse(tmp_path, "patched", BOOT + MM_RACE, mapping="")
    p = compare(tmp_path, base, series)
    assert p.returncode == 1 and "frames not resolved" in p.stdout


def test_inlined_access_counts_for_the_inner_file():
    # addr2line -i: innermost (inlined helper) first, the symbol's function last
    def resolve(frames):
        return {(f, o): [("kernfs_ns_enabled", "fs/kernfs/kernfs-internal.h", "80"),
                         ("kernfs_dop_revalidate", "fs/kernfs/dir.c", "1150")]
                for f, o, _ in frames}
    reports, _ = kr.parse_log(lines(UNKNOWN_ORIGIN.replace("collect_percpu_times",
                                                           "kernfs_dop_revalidate")))
    groups = kr.group_reports(reports, resolve)
    assert groups[0]["key"] == "fs/kernfs/dir.c:kernfs_dop_revalidate"
    assert groups[0]["files"] == ["fs/kernfs/dir.c", "fs/kernfs/kernfs-internal.h"]


def test_touched_files_come_from_the_patches(tmp_path):
    (tmp_path / "0001-a.patch").write_text(
        "Subject: x\n---\n fs/kernfs/dir.c | 2 +-\n\n"
        "diff --git a/fs/kernfs/dir.c b/fs/kernfs/dir.c\n--- a/fs/kernfs/dir.c\n")
    (tmp_path / "0002-b.patch").write_text(
        "diff --git a/kernel/sched/psi.c b/kernel/sched/psi.c\n")
    assert kr.touched_from_patches(tmp_path) == {"fs/kernfs/dir.c", "kernel/sched/psi.c"}
    series = kr.touched_from_patches(TOP / "patches")
    assert {"kernel/sched/psi.c", "fs/kernfs/dir.c", "fs/kernfs/inode.c"} <= series


def test_paths_from_dwarf_are_made_relative():
    assert kr.rel_path("/work/main/build/linux/kernel/sched/psi.c",
                       ["/work/main/build/linux"]) == "kernel/sched/psi.c"
    # ccache's base directory makes them relative to the object directory
    assert kr.rel_path("/work/main/build/obj/patched-test-kcsan/../../linux/fs/kernfs/dir.c",
                       ["/work/main/build/linux"]) == "fs/kernfs/dir.c"
    assert kr.rel_path("../../base/linux-source-7.3/include/linux/psi.h", []) == \
        "include/linux/psi.h"


def test_a_wrapped_ring_buffer_is_noticed(tmp_path):
    d = json.loads(parse(tmp_path, "patched", MM_RACE).read_text())
    assert d["logs"][0]["starts_at_boot"] is False
    assert d["logs"][0]["kcsan_enabled"] is False


# the jiffies race of 2026-11-27: an upstream function of a file the
# series touches (mm/memcontrol.c) against the tick, in an interrupt
JIFFIES_RACE = """\
[  608.541777] ==================================================================
[  608.541971] BUG: KCSAN: data-race in mem_cgroup_flush_stats_ratelimited / tick_do_update_jiffies64
[  608.542000] 
[  608.542200] write to 0xffffffff8280b200 of 8 bytes by interrupt on cpu 2:
[  608.542274]  tick_do_update_jiffies64+0x124/0x210
[  608.542381]  tick_nohz_handler+0x24c/0x280
[  608.548059]  asm_sysvec_apic_timer_interrupt+0x16/0x20
[  608.548060]  kernfs_dop_revalidate+0x10/0x3cf
[  608.548061] 
[  608.548795] read to 0xffffffff8280b200 of 8 bytes by task 2693 on cpu 0:
[  608.548867]  mem_cgroup_flush_stats_ratelimited+0x24/0x80
[  608.548967]  shrink_node.isra.0+0x220/0x1100
[  608.549052]  try_charge_memcg+0x23b/0xae0
[  608.549053] 
[  608.550005] value changed: 0x0000000100012d5d -> 0x0000000100012d5e
[  608.550006] 
[  608.550083] Reported by Kernel Concurrency Sanitizer on:
[  608.550084] ==================================================================
"""

MAP_JIFFIES = MAP + """\
mem_cgroup_flush_stats_ratelimited mm/memcontrol.c
tick_do_update_jiffies64 kernel/time/tick-sched.c
"""

MEMCG_BASE = """\
/* comment */
void mem_cgroup_flush_stats_ratelimited(struct mem_cgroup *memcg)
{
	if (time_after64(jiffies_64, flush_last_time + 2UL*FLUSH_TIME))
		mem_cgroup_flush_stats(memcg);
}

static __printf(2, 3) int try_charge_memcg(gfp_t gfp_mask,
					   unsigned int nr_pages)
{
	return 0;
}
"""


def trees(tmp_path, memcg_series, dir_series="int kernfs_dop_revalidate(void)\n{\n}\n"):
    for name, memcg, kdir in (("base", MEMCG_BASE, "int kernfs_dop_revalidate(void)\n{\n}\n"),
                              ("series", memcg_series, dir_series)):
        (tmp_path / name / "mm").mkdir(parents=True)
        (tmp_path / name / "fs/kernfs").mkdir(parents=True)
        (tmp_path / name / "mm/memcontrol.c").write_text(memcg)
        (tmp_path / name / "fs/kernfs/dir.c").write_text(kdir)
    return tmp_path / "base", tmp_path / "series"


def compare_code(tmp_path, base, series, bsrc, ssrc):
    t = tmp_path / "touched.txt"
    t.write_text(TOUCHED)
    return run("compare", "--base", base, "--series", series, "--touched", t,
               "--base-src", bsrc, "--series-src", ssrc)


def test_c_functions_finds_kernel_style_definitions():
    funcs = kr.c_functions(MEMCG_BASE + "struct x y = {\n\t.a = 1,\n};\n")
    assert sorted(funcs) == ["mem_cgroup_flush_stats_ratelimited", "try_charge_memcg"]
    assert funcs["try_charge_memcg"][0].startswith("static __printf(2, 3) int try_charge_memcg(")
    assert funcs["try_charge_memcg"][0].endswith("}")


def test_upstream_function_in_a_touched_file_passes_and_is_listed(tmp_path):
    base = parse(tmp_path, "base", BOOT, MAP_JIFFIES)
    series = parse(tmp_path, "series", BOOT + JIFFIES_RACE, MAP_JIFFIES)
    # the series changes another function of the file, not these
    bsrc, ssrc = trees(tmp_path, MEMCG_BASE + "\nint memory_stat_format(void)\n{\n\treturn 1;\n}\n")
    p = compare_code(tmp_path, base, series, bsrc, ssrc)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "functions the series adds or changes: 1, in 2 touched C files" in p.stdout
    assert "not on base, upstream code: kernel/time/tick-sched.c:tick_do_update_jiffies64 / " \
           "mm/memcontrol.c:mem_cgroup_flush_stats_ratelimited" in p.stdout
    assert "pass kcsan:rule(" in p.stdout
    # the file-level rule, without the trees, fails the same reports
    assert compare(tmp_path, base, series).returncode == 1


def test_a_changed_function_on_the_stack_fails(tmp_path):
    base = parse(tmp_path, "base", BOOT, MAP_JIFFIES)
    series = parse(tmp_path, "series", BOOT + JIFFIES_RACE, MAP_JIFFIES)
    changed = MEMCG_BASE.replace("return 0;", "return 1;")  # try_charge_memcg
    bsrc, ssrc = trees(tmp_path, changed)
    p = compare_code(tmp_path, base, series, bsrc, ssrc)
    assert p.returncode == 1
    assert "through try_charge_memcg, which the series adds or changes" in p.stdout
    assert "fail kcsan:rule(1 group(s) of the series through code the series adds or changes" \
           in p.stdout


def test_the_interrupted_context_does_not_count(tmp_path):
    # kernfs_dop_revalidate is below the interrupt entry of the write side
    base = parse(tmp_path, "base", BOOT, MAP_JIFFIES)
    series = parse(tmp_path, "series", BOOT + JIFFIES_RACE, MAP_JIFFIES)
    bsrc, ssrc = trees(tmp_path, MEMCG_BASE, "int kernfs_dop_revalidate(void)\n{\n\treturn 1;\n}\n")
    p = compare_code(tmp_path, base, series, bsrc, ssrc)
    assert p.returncode == 0, p.stdout
    assert "functions the series adds or changes: 1," in p.stdout


def test_a_function_not_found_in_its_touched_file_fails(tmp_path):
    base = parse(tmp_path, "base", BOOT, MAP_JIFFIES)
    series = parse(tmp_path, "series", BOOT + JIFFIES_RACE, MAP_JIFFIES)
    bsrc, ssrc = trees(tmp_path, "/* generated by a macro */\n")
    p = compare_code(tmp_path, base, series, bsrc, ssrc)
    assert p.returncode == 1
    assert "mm/memcontrol.c:mem_cgroup_flush_stats_ratelimited, a function not found" in p.stdout


def test_the_trees_go_together(tmp_path):
    base = parse(tmp_path, "base", BOOT, MAP_JIFFIES)
    t = tmp_path / "touched.txt"
    t.write_text(TOUCHED)
    p = run("compare", "--base", base, "--series", base, "--touched", t, "--base-src", tmp_path)
    assert p.returncode == 2
    assert "--base-src and --series-src go together" in p.stderr
