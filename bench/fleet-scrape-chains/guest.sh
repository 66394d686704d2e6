#!/bin/bash
# fleet-scrape-chains benchmark, guest side: guest.sh BINDIR
# The fleet-scrape scrape (bench/fleet-scrape: open, read to EOF and close
# memory.stat, cpu.stat, io.stat and the three *.pressure files of every
# cgroup) on a tree whose pods are chains of single children, as systemd
# slices and nested containers make them:
#   /sys/fs/cgroup/kubepods/{burstable,besteffort}/pod<i>/c/c/.../c
# with FSC_PODS pods (100) and D levels below each pod, for D in
# FSC_DEPTHS (1 4 8); +memory +cpu +io down to the last c, which holds a
# task that touched 256 KiB of anon memory, did 4 KiB of direct I/O and
# sleeps. Every pod has its task (fleet-scrape gives every tenth one), so
# that on the CPU where each task last ran its pod and the levels between
# are one chain with one active (then idle) child each: where the series'
# PSI mirror lets such a group mirror its child, a pressure read follows
# the chain down (patch 34), and reading every level of a chain of depth
# D costs O(D^2) chain steps per CPU where base reads each group once.
# A read collects only the CPUs with new time (patches 24 and 28), so
# each D is scraped twice:
#   _dD        the tasks stay asleep: after the warm-up pass no group has
#              new time, as on a quiet node;
#   _dD_woken  kubepods is frozen and thawed before each pass (not timed),
#              so that every task wakes and sleeps again and every level
#              of every chain has new time when it is read, as on a node
#              whose containers all ran since the last scrape.
# The tree is built anew for each D. Metrics, instructions per cgroup and
# pass (FSC_PASSES, 5, after a warm-up), named as fleet-scrape's with
# that suffix: scrape_per_cgroup_nN_dD[_woken], FILE_per_cgroup_nN_dD...,
# openclose_per_cgroup_nN_dD..., openat_per_cgroup_nN_dD...
# Variants: online2 and online8 (2 and 8 vCPUs).
. "$(dirname "$0")/../include/children.sh"
bin=$1
cg=/sys/fs/cgroup
k=$cg/kubepods
pods=${FSC_PODS:-100}
depths=${FSC_DEPTHS:-1 4 8}
passes=${FSC_PASSES:-5}
echo "fleet-scrape-chains: $(nproc) CPUs, $pods pods, depths $depths" >&2

remove_tree() {
	[ -d $k ] || return 0
	echo 1 >$k/cgroup.kill
	while grep -q 'populated 1' $k/cgroup.events; do sleep 0.1; done
	find $k -mindepth 1 -depth -type d -exec rmdir {} + && rmdir $k
}
cleanup() {
	remove_tree
	[ -z "${IO_LOOP:-}" ] || losetup -d "$IO_LOOP"
	rm -f /tmp/fleetscrape-io.img
}
trap cleanup EXIT

io_loop fleetscrape || exit 1
for d in $depths; do
	make_parent $k "+memory +cpu +io" || exit 1
	"$bin/fleetscrape" grow $k 0 "$pods" "$IO_LOOP" "$d" 1 || exit 1
	"$bin/fleetscrape" scrape $k "$pods" "$passes" "_d$d" || exit 1
	"$bin/fleetscrape" scrape $k "$pods" "$passes" "_d${d}_woken" wake || exit 1
	remove_tree || exit 1
done
