#!/usr/bin/env bash
# Build the BPF tools the bench suite's BPF programs need, from the pinned
# base tree (the series does not touch them), into $BUILD/bench-tools:
#   libbpf/libbpf.a, libbpf/root/usr/include/bpf/*.h  (tools/lib/bpf, static)
#   bpftool/bootstrap/bpftool                          (tools/bpf/bpftool)
# Incremental (make); serialized with a lock so parallel bench runs can call it.
# Prints the tools directory.
set -euo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"

usage() {
	cat <<'EOF'
usage: bench/bin/bench-bpf-tools.sh [-h|--help]
Build the BPF tools of the bench suite from the pinned base tree into
build/bench-tools: libbpf.a with its headers, and bpftool (bootstrap).
Incremental, one caller at a time (a lock); prints that directory. Takes
no arguments. Logs: build/logs/bench-libbpf.log, bench-bpftool.log.
EOF
}
only_operands "$@"
[ $# -eq 0 ] || usage_error "unknown argument '$1' (it takes none)"

tools=$BUILD/bench-tools
mkdir -p "$tools/libbpf" "$tools/bpftool" "$LOGS"
"$TOP/scripts/get-base.sh" >&2
exec 9>"$tools/.lock"
flock 9
run_logged "building libbpf (tools/lib/bpf of $BASE_TREE)" "$LOGS/bench-libbpf.log" \
	make -C "$BASE_TREE/tools/lib/bpf" -j"$(nproc)" OUTPUT="$tools/libbpf/" \
	DESTDIR="$tools/libbpf/root" prefix=/usr "$tools/libbpf/libbpf.a" install_headers
run_logged "building bpftool (bootstrap, tools/bpf/bpftool of $BASE_TREE)" "$LOGS/bench-bpftool.log" \
	make -C "$BASE_TREE/tools/bpf/bpftool" -j"$(nproc)" OUTPUT="$tools/bpftool/" bootstrap
echo "$tools"
