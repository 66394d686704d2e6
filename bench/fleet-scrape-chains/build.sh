#!/usr/bin/env bash
# fleet-scrape-chains, host side build (called by bench/bench.sh instead
# of its plain gcc step):  build.sh OUTDIR VMLINUX
# OUTDIR/fleetscrape from bench/fleet-scrape/fleetscrape.c, as bench.sh
# would build it there (no BPF program: this benchmark scrapes text files
# only).
set -euo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"
src=$TOP/bench/fleet-scrape/fleetscrape.c
mkdir -p "$1"
gcc -O2 -static -Wall -pthread -I "$TOP/bench/include" -o "$1/fleetscrape" "$src" ||
	die "compiling $src failed"
