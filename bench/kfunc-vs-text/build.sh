#!/usr/bin/env bash
# kfunc-vs-text, host side build (called by bench/bench.sh instead of its
# plain gcc step):  build.sh OUTDIR VMLINUX
# kvt.bpf.c and its skeleton, and the static guest program
# OUTDIR/kfuncvstext (bench/bin/build-bench-bpf.sh).
set -euo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"
here=$TOP/bench/kfunc-vs-text
"$TOP/bench/bin/build-bench-bpf.sh" "$1" "$2" "$here/kvt.bpf.c" "$here/kfuncvstext.c"
