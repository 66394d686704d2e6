#!/bin/sh
# hardware/host-bench/incg.sh CGROUP CMD...: move this process into CGROUP (a
# cgroup2 directory), then exec CMD there, so that CMD and every task it
# forks run in CGROUP (hardware/host-bench.sh: perf bench sched messaging in
# a leaf cgroup).
case ${1:-} in
-h|--help) echo "usage: hardware/host-bench/incg.sh CGROUP CMD..."; exit 0 ;;
esac
[ $# -ge 2 ] || { echo "usage: hardware/host-bench/incg.sh CGROUP CMD..." >&2; exit 2; }
echo $$ >"$1/cgroup.procs" || exit 1
shift
exec "$@"
