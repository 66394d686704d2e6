#!/bin/bash
# Runs inside the guest (started by scripts/run-guest.sh):
#   exec.sh OUTDIR CMD...
# Runs CMD with its output in OUTDIR/guest.log (and on the console), then
# writes its exit status to OUTDIR/status and the kernel log to
# OUTDIR/dmesg.txt. OUTDIR is a host directory shared read-write.

usage() {
	cat <<'EOF'
usage: scripts/guest/exec.sh OUTDIR CMD...
Runs inside the guest (started by scripts/run-guest.sh): run CMD with its
output in OUTDIR/guest.log and on the console, then write its exit status
to OUTDIR/status and the kernel log to OUTDIR/dmesg.txt.
EOF
}
case ${1:-} in
-h|--help) usage; exit 0 ;;
-*) usage >&2; echo "error: exec.sh: unknown option '$1'" >&2; exit 2 ;;
esac
[ $# -ge 2 ] || { usage >&2; echo "error: exec.sh: want OUTDIR CMD..., got $# arguments" >&2; exit 2; }
out=$1
shift
mountpoint -q /sys/kernel/tracing 2>/dev/null ||
	mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
mountpoint -q /sys/fs/cgroup 2>/dev/null ||
	mount -t cgroup2 cgroup2 /sys/fs/cgroup 2>/dev/null
echo "guest: $(uname -r), $(nproc) cpus, cmdline: $(cat /proc/cmdline)" >"$out/guest.log"
"$@" 2>&1 | tee -a "$out/guest.log"
rc=${PIPESTATUS[0]}
dmesg >"$out/dmesg.txt"
echo "$rc" >"$out/status"
exit "$rc"
