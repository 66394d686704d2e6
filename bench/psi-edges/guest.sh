#!/bin/bash
# psi-edges benchmark, guest side: guest.sh BINDIR
# The costs of PSI at the edges of a cgroup's life, which grow with the
# number of possible CPUs (the boot variant, bench/psi-edges/variants):
# a delegated, unprivileged user writing 0 and 1 to cgroup.pressure of its
# group (EDGES_TOGGLES pairs, while the group has a busy task, so that it
# takes part in PSI on a CPU), the creation and removal of EDGES_RMDIRS
# empty cgroups, waited for until their release has run, and a task moving
# into a chain of single-child groups at each depth of EDGES_FORM_DEPTHS
# (EDGES_FORMS moves that form the whole chain at once, and as many into
# the chain as it was left, see edges.c).
bin=$1
cg=/sys/fs/cgroup
d=$cg/edges
mkdir -p $d/busy || exit 1
# a task that runs now and then in the group, so that it is non-idle
(echo $BASHPID >$d/busy/cgroup.procs && while :; do sleep 0.01; done) &
busy=$!
"$bin/edges" toggle $d/busy "${EDGES_TOGGLES:-200}" || exit 1
kill $busy
wait $busy 2>/dev/null
"$bin/edges" rmdir $d "${EDGES_RMDIRS:-500}" || exit 1
for depth in ${EDGES_FORM_DEPTHS:-1 8 16}; do
	# edges moves itself, and ends in $d/home, empty once it has exited
	"$bin/edges" form $d/chain $d/home "$depth" "${EDGES_FORMS:-200}" || exit 1
done
rmdir $d/chain $d/home
rmdir $d/busy $d
