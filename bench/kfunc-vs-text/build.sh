#!/usr/bin/env bash
# kfunc-vs-text, host side build (called by scripts/bench.sh instead of its
# plain gcc step):  build.sh OUTDIR VMLINUX
# vmlinux.h from VMLINUX's BTF, kvt.bpf.c -> kvt.bpf.o (clang -target bpf,
# CO-RE, so one object runs on base and patched), its skeleton, and the
# static guest program OUTDIR/kfuncvstext (libbpf.a, libelf, zlib).
# Generated files go to $BUILD/bench-tools/gen.*, not into the repository.
set -euo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"
out=$1 vmlinux=$2
here=$TOP/bench/kfunc-vs-text

command -v clang >/dev/null ||
	die "clang is not installed (needed for the BPF program of kfunc-vs-text): run scripts/install-deps.sh (apt: clang llvm)"
[ -f "$vmlinux" ] || die "no vmlinux at $vmlinux (kernel not built?)"
tools=$("$TOP/scripts/bench-bpf-tools.sh")
bpftool=$tools/bpftool/bootstrap/bpftool
inc=$tools/libbpf/root/usr/include
gen=$(mktemp -d "$tools/gen.XXXXXX")
trap 'rm -rf "$gen"' EXIT

"$bpftool" btf dump file "$vmlinux" format c >"$gen/vmlinux.h" ||
	die "bpftool could not dump BTF from $vmlinux (needs CONFIG_DEBUG_INFO_BTF=y)"
grep -q 'bpf_mem_cgroup_page_state' "$gen/vmlinux.h" ||
	die "$vmlinux has no memcg kfuncs in its BTF (mm/bpf_memcontrol.c: needs MEMCG, BPF_SYSCALL, v7.0+)"
clang -g -O2 -Wall -fms-extensions -Wno-microsoft-anon-tag -target bpf -D__TARGET_ARCH_x86 -I "$gen" -I "$inc" -I "$here" \
	-c "$here/kvt.bpf.c" -o "$gen/kvt.bpf.o" || die "clang failed on $here/kvt.bpf.c"
"$bpftool" gen skeleton "$gen/kvt.bpf.o" name kvt >"$gen/kvt.skel.h" ||
	die "bpftool gen skeleton failed on $gen/kvt.bpf.o"
mkdir -p "$out"
gcc -O2 -static -Wall -I "$TOP/bench/include" -I "$here" -I "$gen" -I "$inc" \
	-o "$out/kfuncvstext" "$here/kfuncvstext.c" "$tools/libbpf/libbpf.a" -lelf -lz ||
	die "compiling $here/kfuncvstext.c failed"
