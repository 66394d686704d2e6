#!/usr/bin/env bash
# Build tools/testing/selftests/cgroup of SRC against the UAPI headers of the
# kernel built in OBJ: build-selftests.sh [SRC [OBJ]]
# Installs into OBJ/kselftest. Also builds filesystems/sysfs (sysfs_perm,
# the kernfs RCU walk test) when SRC has it, and else removes an install of
# it that another tree left in OBJ.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

usage() {
	cat <<'EOF'
usage: scripts/build-selftests.sh [SRC [OBJ]]
Build tools/testing/selftests/cgroup of SRC (default: the work tree
build/linux), and filesystems/sysfs when SRC has it, against the UAPI
headers of the kernel configured in OBJ (default: build/obj/patched-test)
and install them into OBJ/kselftest.
Log: build/logs/selftests-build-OBJNAME.log.
EOF
}
only_operands "$@"
[ $# -le 2 ] || usage_error "want [SRC [OBJ]], got $# arguments"
src=${1:-$SRC}
obj=${2:-$BUILD/obj/patched-test}
[ -f "$obj/.config" ] || die "no configured kernel in $obj; build it first"
# make runs in other directories: relative paths would land inside SRC
src=$(realpath "$src") obj=$(realpath "$obj")
log=$LOGS/selftests-build-$(basename "$obj").log
targets=cgroup
if [ -d "$src/tools/testing/selftests/filesystems/sysfs" ]; then
	targets="$targets filesystems/sysfs"
elif [ -d "$obj/kselftest/filesystems/sysfs" ]; then
	# installed from another tree into the same OBJ: it must not run as this one's
	info "removing $obj/kselftest/filesystems/sysfs ($src has no filesystems/sysfs)"
	rm -rf "$obj/kselftest/filesystems/sysfs"
fi
step "building selftests: $targets (log: $log)"
{
	make -C "$src" O="$obj" ARCH=x86_64 -j"$(nproc)" headers
	make -C "$src/tools/testing/selftests" O="$obj/kselftest-build" \
		KHDR_INCLUDES="-isystem $obj/usr/include" TARGETS="$targets" \
		INSTALL_PATH="$obj/kselftest" -j"$(nproc)" install
} >"$log" 2>&1 || {
	grep -E 'error|Error' "$log" | head -n 20 >&2
	die "building the cgroup selftests failed; log: $log"
}
info "installed in $obj/kselftest/cgroup"
