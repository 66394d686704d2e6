#!/usr/bin/env bash
# Build one BPF guest program of the bench suite (called by a benchmark's
# build.sh):
#   build-bench-bpf.sh OUTDIR VMLINUX NAME.bpf.c PROG.c [INCLUDE-DIR...]
# vmlinux.h from VMLINUX's BTF, NAME.bpf.c -> NAME.bpf.o (clang -target
# bpf, CO-RE, so one object runs on base and patched), its skeleton
# NAME.skel.h (skeleton name NAME), and the static guest program
# OUTDIR/PROG (libbpf.a, libelf, zlib). Both sources see bench/include,
# their own directory and the INCLUDE-DIRs. The programs use the memcg
# stat kfuncs, so VMLINUX must have them. Generated files go to
# $BUILD/bench-tools/gen.*, not into the repository.
set -euo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"
usage() {
	cat <<'EOF'
usage: bench/bin/build-bench-bpf.sh OUTDIR VMLINUX NAME.bpf.c PROG.c
                                    [INCLUDE-DIR...]
Build one BPF guest program of the bench suite (a benchmark's build.sh calls
it): NAME.bpf.c with clang (CO-RE, vmlinux.h from the BTF of VMLINUX), its
skeleton NAME.skel.h, and the static program OUTDIR/PROG linked with
libbpf.a (bench/bin/bench-bpf-tools.sh). INCLUDE-DIRs are added to both
compilations. Generated files go to build/bench-tools/gen.*.
EOF
}
only_operands "$@"
[ $# -ge 4 ] || usage_error "want OUTDIR VMLINUX NAME.bpf.c PROG.c, got $# arguments"
out=$1 vmlinux=$2 bpfsrc=$3 progsrc=$4
shift 4
name=$(basename "$bpfsrc" .bpf.c)
prog=$(basename "$progsrc" .c)
incs=(-I "$TOP/bench/include" -I "$(dirname "$bpfsrc")")
for d in "$@"; do incs+=(-I "$d"); done

command -v clang >/dev/null ||
	die "clang is not installed (needed for the BPF program $bpfsrc): run scripts/install-deps.sh (apt: clang llvm)"
[ -f "$vmlinux" ] || die "no vmlinux at $vmlinux (kernel not built?)"
tools=$("$TOP/bench/bin/bench-bpf-tools.sh")
bpftool=$tools/bpftool/bootstrap/bpftool
inc=$tools/libbpf/root/usr/include
gen=$(mktemp -d "$tools/gen.XXXXXX")
trap 'rm -rf "$gen"' EXIT

"$bpftool" btf dump file "$vmlinux" format c >"$gen/vmlinux.h" ||
	die "bpftool could not dump BTF from $vmlinux (needs CONFIG_DEBUG_INFO_BTF=y)"
grep -q 'bpf_mem_cgroup_page_state' "$gen/vmlinux.h" ||
	die "$vmlinux has no memcg kfuncs in its BTF (mm/bpf_memcontrol.c: needs MEMCG, BPF_SYSCALL, v7.0+)"
clang -g -O2 -Wall -fms-extensions -Wno-microsoft-anon-tag -target bpf -D__TARGET_ARCH_x86 \
	-I "$gen" -I "$inc" "${incs[@]}" -c "$bpfsrc" -o "$gen/$name.bpf.o" ||
	die "clang failed on $bpfsrc"
"$bpftool" gen skeleton "$gen/$name.bpf.o" name "$name" >"$gen/$name.skel.h" ||
	die "bpftool gen skeleton failed on $gen/$name.bpf.o"
mkdir -p "$out"
gcc -O2 -static -Wall "${incs[@]}" -I "$gen" -I "$inc" \
	-o "$out/$prog" "$progsrc" "$tools/libbpf/libbpf.a" -lelf -lz ||
	die "compiling $progsrc failed"
