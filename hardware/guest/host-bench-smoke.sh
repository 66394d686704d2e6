#!/bin/bash
# Runs inside the guest (scripts/test.sh boots the test kernel for it):
#   host-bench-smoke.sh OUTDIR
# A short run of hardware/host-bench.sh as root: --quick, one run, the
# benchmarks and parameters of hardware/host-bench/smoke.env. The result goes to
# OUTDIR/smoke.json (its log OUTDIR/smoke.log), the tool's output to
# stdout; hardware/check-host-bench.py turns them into result lines.
# --max-load: a TCG guest's 1-minute load average just after boot is above
# host-bench's 0.5 x CPUs (the boot's own work, emulated), so the smoke
# lifts the limit; tests/test_host_bench.py covers that refusal.

usage() {
	cat <<'USAGE'
usage: hardware/guest/host-bench-smoke.sh OUTDIR
Runs inside the guest: hardware/host-bench.sh --quick, one run, the
benchmarks and parameters of hardware/host-bench/smoke.env; result OUTDIR/smoke.json.
USAGE
}
case ${1:-} in
-h|--help) usage; exit 0 ;;
-*) usage >&2; echo "error: host-bench-smoke.sh: unknown option '$1'" >&2; exit 2 ;;
esac
[ $# -eq 1 ] || { usage >&2; echo "error: host-bench-smoke.sh: want OUTDIR, got $# arguments" >&2; exit 2; }
out=$1
top=$(cd "$(dirname "$0")/../.." && pwd)
set -a
. "$top/hardware/host-bench/smoke.env"
set +a
echo "host-bench smoke: load average $(cut -d' ' -f1-3 /proc/loadavg) at start"
# shellcheck disable=SC2086  # a list of benchmark names
exec "$top/hardware/host-bench.sh" --quick --runs 1 --max-load 1000 --out "$out/smoke.json" \
	$HB_SMOKE_BENCHES
