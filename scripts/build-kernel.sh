#!/usr/bin/env bash
# Build a kernel: build-kernel.sh [--with DIFF]... [--ablation DIFF] CONFIG [SRC [NAME]]
#   CONFIG  a config name from config/configs (test, bench)
#   SRC     kernel source tree (default: the work tree $BUILD/linux)
#   NAME    build name (default: patched); objects go to $BUILD/obj/NAME-CONFIG
#   --with DIFF  a harness-only diff (bench/harness/*.diff) applied to SRC for
#           this build and reverted afterwards, also on failure; the list of
#           diffs goes to OBJ/.harness-diffs
#   --ablation DIFF  an ablation (bench/ablations/*.diff): applied and reverted
#           like --with, but recorded in OBJ/.ablation ("NAME.diff SHA256"),
#           not in .harness-diffs, which must match between compared kernels
#   --seed NAME  a missing object directory starts as a copy of
#           build/obj/NAME-CONFIG (same config), so that only what SRC
#           changes against that build is compiled again
# The .config is "make allnoconfig" plus the config's fragments; every option a
# fragment sets must survive olddefconfig, or the build stops.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

usage() {
	cat <<'EOF'
usage: scripts/build-kernel.sh [--with DIFF]... [--ablation DIFF]
                               CONFIG [SRC [NAME]]
Build a kernel (bzImage) of config CONFIG (config/configs: test, bench ...)
from SRC (default: the work tree build/linux) into build/obj/NAME-CONFIG
(NAME default: patched). Log: build/logs/build-NAME-CONFIG.log.
  --with DIFF      a harness-only diff applied to SRC for this build and
                   reverted afterwards; listed in OBJ/.harness-diffs
  --ablation DIFF  an ablation diff, applied and reverted like --with;
                   recorded in OBJ/.ablation
  --seed NAME      a missing object directory starts as a copy of
                   build/obj/NAME-CONFIG
  --target T       make T instead of bzImage (repeatable), e.g. objects
                   such as kernel/sched/build_utility.o
EOF
}
withs=()
ablation=
seed=
targets=()
while [ $# -gt 0 ]; do
	case $1 in
	-h|--help) usage; exit 0 ;;
	--with) [ -f "${2:-}" ] || die "build-kernel.sh: --with needs a diff file (got '${2:-}')"
		withs+=("$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"); shift 2 ;;
	--ablation) [ -f "${2:-}" ] || die "build-kernel.sh: --ablation needs a diff file (got '${2:-}')"
		[ -z "$ablation" ] || die "build-kernel.sh: one --ablation per build"
		ablation=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); shift 2 ;;
	--seed) [ -n "${2:-}" ] || die "build-kernel.sh: --seed needs a build name (e.g. base)"
		seed=$2; shift 2 ;;
	--target) [ -n "${2:-}" ] || die "build-kernel.sh: --target needs a make target (e.g. lib/seq_buf.o)"
		targets+=("$2"); shift 2 ;;
	-*) usage_error "unknown option '$1'" ;;
	*) break ;;
	esac
done
only_operands "$@"
[ $# -ge 1 ] || usage_error "no CONFIG given"
cfg=$1
src=${2:-$SRC}
name=${3:-patched}
obj=$BUILD/obj/$name-$cfg
log=$LOGS/build-$name-$cfg.log
need_cmd make gcc flex bison bc pahole
[ -f "$src/Makefile" ] || die "no kernel tree at $src; run scripts/make-worktree.sh first"
src=$(cd "$src" && pwd)	# make -C and O= need it absolute

frags=$(awk -v c="$cfg" '$1 == c { $1 = ""; print }' "$TOP/config/configs")
[ -n "$frags" ] || die "unknown config '$cfg' (see config/configs)"

export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache}
export CCACHE_BASEDIR=$BUILD
export CCACHE_NOHASHDIR=1
export KBUILD_BUILD_TIMESTAMP="2026-10-16"
export KBUILD_BUILD_USER=cgscale KBUILD_BUILD_HOST=cgscale
cc=gcc
if command -v ccache >/dev/null; then
	cc="ccache gcc"
	ccache -M 8G >/dev/null
else
	warn "ccache not found; building without it"
fi
jobs=$(($(nproc) + 1))
kmake=(make -C "$src" O="$obj" ARCH=x86_64 CC="$cc" HOSTCC="$cc" -j"$jobs")

# A cold build writes about 2.3 GB to $obj, an incremental one little.
if [ -f "$obj/vmlinux" ]; then gib=1; else gib=3; fi
need_disk "build-kernel.sh $name-$cfg" "$gib" "building it"
# One kernel build at a time on this machine: a second caller waits here
# (before the seed copy, which reads another build's objects),
# also one from another clone's build area (the lock is machine-wide).
exec 9>"$KERNEL_BUILD_LOCK"
if ! flock -n 9; then
	info "another kernel build is running; waiting for it"
	flock 9
fi
if [ -n "$seed" ] && [ ! -e "$obj" ] && [ -f "$BUILD/obj/$seed-$cfg/.config" ]; then
	need_disk "build-kernel.sh" 3 "copying build/obj/$seed-$cfg to start $name-$cfg"
	info "starting build/obj/$name-$cfg as a copy of build/obj/$seed-$cfg"
	rm -rf "$obj.tmp"
	cp -a "$BUILD/obj/$seed-$cfg" "$obj.tmp"
	mv "$obj.tmp" "$obj"
fi
mkdir -p "$obj" "$LOGS"
step "configuring $name-$cfg ($frags)"
new=$obj/.config.new
(
	cd "$obj"
	"${kmake[@]}" KCONFIG_CONFIG=.config.new allnoconfig
	frag_paths=()
	for f in $frags; do frag_paths+=("$TOP/config/$f"); done
	KCONFIG_CONFIG=.config.new "$src/scripts/kconfig/merge_config.sh" -m -O "$obj" \
		.config.new "${frag_paths[@]}"
	"${kmake[@]}" KCONFIG_CONFIG=.config.new olddefconfig
) >"$LOGS/config-$name-$cfg.log" 2>&1 || {
	tail -n 20 "$LOGS/config-$name-$cfg.log" >&2
	die "configuring $name-$cfg failed; log: $LOGS/config-$name-$cfg.log"
}
# Every option the fragments ask for must be in the result; an option set
# again by a later fragment (maxsmp.config's NR_CPUS over base.config's)
# is checked with its last value only.
missing=0
declare -A last_frag=()
for f in $frags; do
	while IFS= read -r line; do
		case "$line" in ''|'#'*) continue ;; esac
		last_frag[${line%%=*}]=$f
	done <"$TOP/config/$f"
done
# An option after a line "# added by the series: ..." is one that a patch
# of the series declares: a tree without that patch (the base, or an early
# commit under check-bisect.sh) has no such symbol, and the option is
# skipped there, saying so. Anywhere else a missing option is an error.
for f in $frags; do
	added=0
	while IFS= read -r line; do
		case "$line" in
		'# added by the series:'*) added=1; continue ;;
		''|'#'*) continue ;;
		esac
		opt=${line%%=*} val=${line#*=}
		if [ "$added" -eq 1 ]; then
			added=0
			if ! grep -rqx --include='Kconfig*' "config ${opt#CONFIG_}" "$src"; then
				info "$f: $opt is not declared in this tree (a patch of the series adds it); skipped"
				continue
			fi
		fi
		[ "${last_frag[$opt]}" = "$f" ] || continue
		if [ "$val" = n ]; then
			grep -q "^$opt=" "$new" && { warn "$f: $opt=n did not stick"; missing=1; }
		else
			grep -qxF "$line" "$new" || { warn "$f: $line did not stick (got: $(grep "^$opt=\|^# $opt is" "$new" || echo unset))"; missing=1; }
		fi
	done <"$TOP/config/$f"
done
[ "$missing" -eq 0 ] || die "the config fragments do not hold after olddefconfig (see above)"
if ! cmp -s "$new" "$obj/.config"; then
	mv "$new" "$obj/.config"
else
	rm -f "$new"
fi

applied=()
revert_withs() {
	local i
	for ((i = ${#applied[@]} - 1; i >= 0; i--)); do
		patch -R -p1 -s -d "$src" --no-backup-if-mismatch <"${applied[i]}" ||
			warn "could not revert ${applied[i]} in $src; revert it by hand (patch -R -p1)"
	done
	applied=()
}
trap revert_withs EXIT
for d in "${withs[@]}" ${ablation:+"$ablation"}; do
	what="harness diff"
	[ "$d" = "$ablation" ] && what=ablation
	patch -p1 -s -d "$src" --forward --no-backup-if-mismatch --dry-run <"$d" >/dev/null ||
		die "$what $d does not apply to $src (with the diffs before it); nothing was changed"
	patch -p1 -s -d "$src" --forward --no-backup-if-mismatch <"$d"
	applied+=("$d")
	info "applied $what $(basename "$d") for this build"
done
printf '%s\n' "${withs[@]##*/}" | grep . >"$obj/.harness-diffs" || : >"$obj/.harness-diffs"
# a kernel built from the tree as it is now; prove-selftests.sh marks its
# builds of a break afterwards (.prove-break), see run-guest.sh
rm -f "$obj/.prove-break"
if [ -n "$ablation" ]; then
	echo "$(basename "$ablation") $(sha256sum <"$ablation" | cut -d' ' -f1)" >"$obj/.ablation"
else
	rm -f "$obj/.ablation"
fi
[ ${#targets[@]} -gt 0 ] || targets=(bzImage)
step "building $name-$cfg in $obj (make -j$jobs ${targets[*]}, log: $log)"
start=$(date +%s)
if ! "${kmake[@]}" "${targets[@]}" >"$log" 2>&1; then
	grep -E 'error|Error' "$log" | head -n 20 >&2
	die "building $name-$cfg failed; log: $log"
fi
secs=$(($(date +%s) - start))
if [ "${targets[*]}" = bzImage ]; then
	echo "$secs" >"$obj/.build-seconds"
	info "built $obj/arch/x86/boot/bzImage in $((secs / 60))m$((secs % 60))s"
else
	info "built ${targets[*]} in $obj in $((secs / 60))m$((secs % 60))s"
fi
