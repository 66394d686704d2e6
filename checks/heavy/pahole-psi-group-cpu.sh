#!/usr/bin/env bash
# The layout of struct psi_group_cpu on x86_64 and i386, with and without
# CONFIG_IRQ_TIME_ACCOUNTING (issue 47, section 4): the PSI mirror keeps its
# data in fields a mirroring group does not use, so the struct must not grow.
#
#   pahole-psi-group-cpu.sh [TREE...]    (default: the base and the series)
#
# For each TREE and each of the four variants: allnoconfig of that
# architecture plus SMP, CGROUPS, PSI and DWARF debug info, with
# IRQ_TIME_ACCOUNTING on or off; then only kernel/sched/build_utility.o
# (the object that builds psi.c) is compiled, in
# build/obj/pahole-NAME-ARCH-irqtime-{y,n}, and pahole prints the struct.
# Output: one block per variant on stdout (a line naming it, then
# pahole's text), logs under build/logs/pahole/. A few minutes per
# variant the first time (make prepare), seconds after.
set -euo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"

usage() {
	cat <<'EOF'
usage: checks/heavy/pahole-psi-group-cpu.sh [TREE...]
pahole of struct psi_group_cpu on x86_64 and i386, with and without
CONFIG_IRQ_TIME_ACCOUNTING, for each kernel tree (default: the base and the
series work tree): a small config and only kernel/sched/build_utility.o
are built, in build/obj/pahole-*. Logs: build/logs/pahole/.
EOF
}
case ${1:-} in -h|--help) usage; exit 0 ;; -*) usage_error "unknown option '$1'" ;; esac
need_cmd pahole
[ $# -gt 0 ] || set -- "$BASE_TREE" "$SRC"
logs=$BUILD/logs/pahole
# mk ARGS...: make in $tree for $obj and $arch (set by the loops below)
mk() { make -s -C "$tree" O="$obj" ARCH="$arch" CC="ccache gcc" "$@"; }
mkdir -p "$logs"
for tree in "$@"; do
	[ -f "$tree/kernel/sched/psi.c" ] || die "$tree is not a kernel tree (no kernel/sched/psi.c)"
	case $(realpath "$tree") in
	"$(realpath -m "$BASE_TREE")") name=base ;;
	"$(realpath -m "$SRC")") name=series ;;
	*) name=$(basename "$tree") ;;
	esac
	for arch in x86_64 i386; do
		for irq in y n; do
			obj=$BUILD/obj/pahole-$name-$arch-irqtime-$irq
			log=$logs/$name-$arch-irqtime-$irq.log
			step "$name $arch irqtime=$irq (log: $log)"
			mkdir -p "$obj"
			{
				mk allnoconfig
				"$tree/scripts/config" --file "$obj/.config" -e SMP -e CGROUPS -e PSI -e DEBUG_KERNEL \
					-d DEBUG_INFO_NONE -e DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT \
					-e TICK_CPU_ACCOUNTING -"$([ "$irq" = y ] && echo e || echo d)" IRQ_TIME_ACCOUNTING
				mk olddefconfig
			} >"$log" 2>&1 || die "configuring $obj failed; see $log"
			for opt in SMP CGROUPS PSI DEBUG_INFO; do
				grep -q "^CONFIG_$opt=y" "$obj/.config" || die "$obj/.config lacks CONFIG_$opt=y; see $log"
			done
			if [ "$irq" = y ]; then
				grep -q '^CONFIG_IRQ_TIME_ACCOUNTING=y' "$obj/.config" ||
					die "$obj/.config lacks CONFIG_IRQ_TIME_ACCOUNTING=y; see $log"
			else
				! grep -q '^CONFIG_IRQ_TIME_ACCOUNTING=y' "$obj/.config" ||
					die "$obj/.config still has CONFIG_IRQ_TIME_ACCOUNTING=y; see $log"
			fi
			mk -j"$(nproc)" kernel/sched/build_utility.o >>"$log" 2>&1 ||
				die "building kernel/sched/build_utility.o in $obj failed; see $log"
			echo "pahole -C psi_group_cpu, $name, $arch, irqtime=$irq:"
			pahole -C psi_group_cpu "$obj/kernel/sched/build_utility.o"
		done
	done
done
