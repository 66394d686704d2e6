#!/usr/bin/env bash
# Build a minimal upstream BPF selftest runner, OUTDIR/test_progs, holding
# only the cgroup rstat/iterator tests the series builds on:
#   cgroup_hierarchical_stats  (fentry on bpf_rstat_flush + css_rstat_updated)
#   cgroup_iter_memcg          (cgroup iterator + the memcg stat kfuncs)
#   cgroup_iter                (cgroup iterator walks, css_task iterator)
#   build-bpf-selftests.sh OUTDIR VMLINUX
# from the pinned base tree's tools/testing/selftests/bpf (read-only; all
# generated files go to $BUILD/bpf-selftests/work). VMLINUX is a kernel
# image with BTF (CONFIG_DEBUG_INFO_BTF): vmlinux.h comes from its BTF. The
# BPF objects are CO-RE, so the runner also loads on other kernels.
#
# Why not the upstream Makefile: building all of test_progs on a Debian 12
# host against this project's configs fails in places that have nothing to
# do with these tests: bpf_testmod.ko and the other test kmods need
# CONFIG_MODULES (the configs have MODULES=n); libarena needs cpuv4 support
# from the toolchain; and many progs/*.c use kfuncs that vmlinux.h declares
# only when the kernel was built from the selftests' own config. So this
# script does by hand what the Makefile's test_progs runner does, for these
# three tests only, with the Makefile's flags:
#   - progs/X.c for every X.skel.h the three prog_tests include ->
#     clang-19 -target bpfel -mcpu=v3 (BPF_CFLAGS + CLANG_CFLAGS +
#     -DENABLE_ATOMICS_TESTS), bpftool gen object (3 link rounds, checked
#     for a fixed point) and gen skeleton;
#   - prog_tests/tests.h with DEFINE_TEST lines for the three tests only;
#   - verification_cert.h (verify_sig_setup.sh genkey, as the Makefile);
#   - test_progs.c, the three prog_tests and the helpers test_progs.c
#     needs (list below) -> gcc (COMMON_CFLAGS), linked with the static
#     libbpf.a of bench/bin/bench-bpf-tools.sh, -lelf -lz -lrt -lpthread.
# libpcap is not used (the Makefile also leaves TRAFFIC_MONITOR off when
# pkg-config finds no libpcap). No subskeletons (nothing here uses them).
#
# At run time (not checked here): test_progs exits with status 255 and no
# output before any test unless add_key("asymmetric", X.509 cert) works:
# KEYS, ASYMMETRIC_KEY_TYPE, ASYMMETRIC_PUBLIC_KEY_SUBTYPE,
# X509_CERTIFICATE_PARSER, CRYPTO_RSA, CRYPTO_SHA256 (upstream's selftest
# config gets them through MODULE_SIG). The tests themselves need BPF_JIT,
# DEBUG_INFO_BTF, BPF_EVENTS (tp_btf), FUNCTION_TRACER + DYNAMIC_FTRACE
# (fentry/bpf_rstat_flush), BPF_LSM (iters_css_task has an lsm/ program that
# cgroup_iter__self_only_css_task loads, not attaches), MEMCG, SHMEM and
# MEMFD_CREATE, a writable /tmp that supports shared mmap, and root.
set -euo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"

usage() {
	cat <<'EOF'
usage: checks/heavy/build-bpf-selftests.sh OUTDIR VMLINUX
Build OUTDIR/test_progs, the upstream BPF selftest runner with only the
tests cgroup_hierarchical_stats, cgroup_iter_memcg and cgroup_iter, from
the pinned base tree's tools/testing/selftests/bpf. VMLINUX is a kernel
built with BTF (CONFIG_DEBUG_INFO_BTF); the objects are CO-RE. Generated
files: build/bpf-selftests/work; logs: build/logs/bpf-selftests/.
EOF
}
only_operands "$@"
[ $# -eq 2 ] || usage_error "want OUTDIR VMLINUX, got $# arguments"
out=$1 vmlinux=$2
TESTS=(cgroup_hierarchical_stats cgroup_iter_memcg cgroup_iter)
# The helpers of the Makefile's TRUNNER_EXTRA_SOURCES that these tests and
# test_progs.c link against (found by linking: the others, trace_helpers,
# disasm, btf_helpers ..., are not referenced).
HELPERS=(cgroup_helpers testing_helpers network_helpers json_writer)
CLANG=${CLANG:-clang-19}
CC=${CC:-gcc}

[ -f "$vmlinux" ] || die "no vmlinux at $vmlinux (kernel not built?)"
need_cmd "$CLANG" "$CC" openssl od
tools=$("$TOP/bench/bin/bench-bpf-tools.sh") # also ensures the base tree
bpftool=$tools/bpftool/bootstrap/bpftool
libbpf_inc=$tools/libbpf/root/usr/include
libbpf_a=$tools/libbpf/libbpf.a

sel=$BASE_TREE/tools/testing/selftests/bpf
toolsdir=$BASE_TREE/tools
top_work=$BUILD/bpf-selftests
work=$top_work/work
logdir=$LOGS/bpf-selftests
mkdir -p "$top_work" "$logdir"
exec 9>"$top_work/.lock"
flock 9
rm -rf "$work" "$logdir"
mkdir -p "$work/prog_tests" "$work/obj" "$logdir"

# The Makefile's CLANG_SYS_INCLUDES (get_sys_includes): the host clang's
# system include dirs, after everything else.
sys_includes=()
while read -r d; do
	sys_includes+=(-idirafter "$d")
done < <("$CLANG" -v -E - </dev/null 2>&1 |
	sed -n '/<...> search starts here:/,/End of search list./{ s| \(/.*\)|\1|p }')

BPF_CFLAGS=(-g -Wall -Werror -D__TARGET_ARCH_x86 -mlittle-endian
	-I "$work" -I "$libbpf_inc" -I "$sel" -I "$toolsdir/include/uapi"
	-I "$toolsdir/include" -I "$sel/libarena/include"
	-std=gnu11 -fno-strict-aliasing -Wno-microsoft-anon-tag -fms-extensions
	-Wno-compare-distinct-pointer-types -Wno-initializer-overrides
	"${sys_includes[@]}" -DENABLE_ATOMICS_TESTS)
# COMMON_CFLAGS (OPT_FLAGS -O0 as without RELEASE=1), then what
# ../lib.mk adds.
CFLAGS=(-g -O0 -rdynamic -std=gnu11 -Wall -Werror -fno-omit-frame-pointer
	-Wno-unused-but-set-variable
	-I "$work" -I "$sel" -I "$libbpf_inc" -I "$toolsdir/lib"
	-I "$toolsdir/include" -I "$toolsdir/arch/x86/include"
	-I "$toolsdir/include/uapi" -I "$sel/libarena/include"
	-D_GNU_SOURCE= -I "$BASE_TREE/tools/testing/selftests")
LDLIBS=(-lelf -lz -lrt -lpthread)

step "vmlinux.h from the BTF of $vmlinux"
"$bpftool" btf dump file "$vmlinux" format c >"$work/vmlinux.h" 2>"$logdir/vmlinux-h.log" ||
	die "bpftool could not dump BTF from $vmlinux (needs CONFIG_DEBUG_INFO_BTF=y); log: $logdir/vmlinux-h.log"
grep -q 'bpf_mem_cgroup_page_state' "$work/vmlinux.h" ||
	die "$vmlinux has no memcg kfuncs in its BTF (progs/cgroup_iter_memcg.c needs them: MEMCG, BPF_SYSCALL, v7.0+)"

# Every skeleton the three tests include.
progs=()
for t in "${TESTS[@]}"; do
	src=$sel/prog_tests/$t.c
	[ -f "$src" ] || die "no test $t in $sel/prog_tests"
	if grep -qE '#include ".*\.(lskel|subskel)\.h"' "$src"; then
		die "$src includes a light or sub-skeleton; this script builds only plain skeletons"
	fi
	while read -r p; do
		progs+=("$p")
	done < <(sed -n -E 's/^#include "([a-zA-Z0-9_]+)\.skel\.h".*/\1/p' "$src")
done
mapfile -t progs < <(printf '%s\n' "${progs[@]}" | sort -u)

# gen_skel OBJ NAME: the Makefile's skeleton rule. Three rounds of bpftool's
# static linker (which must reach a fixed point), then the skeleton. Chained
# with && because run_logged calls it where set -e does not apply.
gen_skel() {
	local o=${1%.o}
	"$bpftool" gen object "$o.linked1.o" "$1" &&
		"$bpftool" gen object "$o.linked2.o" "$o.linked1.o" &&
		"$bpftool" gen object "$o.linked3.o" "$o.linked2.o" &&
		cmp "$o.linked2.o" "$o.linked3.o" &&
		"$bpftool" gen skeleton "$o.linked3.o" name "$2" >"$work/$2.skel.h"
}

step "BPF objects and skeletons: ${progs[*]} ($CLANG, logs: $logdir/)"
for p in "${progs[@]}"; do
	o=$work/obj/$p.bpf.o
	run_logged "$CLANG -target bpf on progs/$p.c" "$logdir/$p.bpf.log" \
		"$CLANG" "${BPF_CFLAGS[@]}" -O2 --target=bpfel -c "$sel/progs/$p.c" -mcpu=v3 -o "$o"
	run_logged "bpftool gen object/skeleton for $p" "$logdir/$p.skel.log" gen_skel "$o" "$p"
done

step "prog_tests/tests.h (${TESTS[*]}) and verification_cert.h"
{
	echo '/* Generated header, do not edit */'
	for t in "${TESTS[@]}"; do
		sed -n -E 's/^void (serial_)?test_([a-zA-Z0-9_]+)\((void)?\).*/DEFINE_TEST(\2)/p' \
			"$sel/prog_tests/$t.c"
	done | sort
} >"$work/prog_tests/tests.h"
for t in "${TESTS[@]}"; do
	grep -q "^DEFINE_TEST($t)\$" "$work/prog_tests/tests.h" ||
		die "prog_tests/$t.c has no 'void test_$t(void)' entry point"
done
mkdir -p "$work/key"
run_logged "verify_sig_setup.sh genkey (openssl)" "$logdir/genkey.log" \
	bash "$sel/verify_sig_setup.sh" genkey "$work/key"
cert=$work/key/signing_key.der
{
	echo "unsigned char test_progs_verification_cert[] = {"
	od -v -t 'xC' -w12 "$cert" | sed 's/ \(\S\+\)/ 0x\1,/g;s/^\S\+/ /;$d'
	echo "};"
	echo "unsigned int test_progs_verification_cert_len = $(wc -c <"$cert");"
} >"$work/verification_cert.h"

step "test_progs: test_progs.c, ${#TESTS[@]} tests, ${#HELPERS[@]} helpers ($CC, logs: $logdir/)"
objs=()
for t in "${TESTS[@]}"; do
	run_logged "compiling prog_tests/$t.c" "$logdir/$t.test.log" \
		"$CC" "${CFLAGS[@]}" -c "$sel/prog_tests/$t.c" -o "$work/obj/$t.test.o"
	objs+=("$work/obj/$t.test.o")
done
for h in test_progs "${HELPERS[@]}"; do
	run_logged "compiling $h.c" "$logdir/$h.log" \
		"$CC" "${CFLAGS[@]}" -c "$sel/$h.c" -o "$work/obj/$h.o"
	objs+=("$work/obj/$h.o")
done
mkdir -p "$out"
run_logged "linking test_progs" "$logdir/link.log" \
	"$CC" "${CFLAGS[@]}" "${objs[@]}" "$libbpf_a" "${LDLIBS[@]}" -o "$out/test_progs.tmp"
mv "$out/test_progs.tmp" "$out/test_progs"
info "built $out/test_progs (${TESTS[*]})"
