#!/usr/bin/env bash
# fleet-scrape, host side build (called by bench/bench.sh instead of its
# plain gcc step):  build.sh OUTDIR VMLINUX
# OUTDIR/fleetscrape (gcc, as bench.sh would), and OUTDIR/fleetbpf with
# fleet.bpf.c and its skeleton (bench/bin/build-bench-bpf.sh; the stat set
# comes from bench/kfunc-vs-text/kvt.h).
set -euo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"
here=$TOP/bench/fleet-scrape
mkdir -p "$1"
gcc -O2 -static -Wall -pthread -I "$TOP/bench/include" -o "$1/fleetscrape" "$here/fleetscrape.c" ||
	die "compiling $here/fleetscrape.c failed"
"$TOP/bench/bin/build-bench-bpf.sh" "$1" "$2" "$here/fleet.bpf.c" "$here/fleetbpf.c" \
	"$TOP/bench/kfunc-vs-text"
