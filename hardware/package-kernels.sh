#!/usr/bin/env bash
# Debian packages of the base and of the series from one config, to install
# side by side on a real machine and boot one or the other (docs/hardware.md):
#
#   package-kernels.sh [--config FILE] [--localmodconfig] [--only base|series]
#                      [--out DIR]
#
# The config: the Debian linux-source .deb of the base carries no config
# (only the source tarball, its changelog and copyright; checked on
# 2026-11-27), so it starts from "make defconfig", or from FILE, e.g. the
# distribution config of the machine the kernels are for
# (/boot/config-$(uname -r)); then config/cgroup.config,
# config/maxsmp.config and hardware/host-bench/fleet.config are merged over it (the
# cgroup, PSI, BPF and perf parts a fleet host runs with, NR_CPUS 8192)
# and "make olddefconfig" fills in the rest. The config is made once, in
# the base's object directory, and copied to the series': both must come
# out the same, but for the options the series itself adds (patch 40's
# KERNFS_KUNIT_TEST, found as "+config" lines in patches/), or it stops.
# --localmodconfig keeps only the modules loaded on this machine (run it
# on the machine the kernels are for: shorter builds).
#
# Then "make bindeb-pkg" of each tree with O=build/obj/pkg-{base,series}
# and LOCALVERSION=-cgscale-base / -cgscale-series (uname -r says which
# kernel runs, and hardware/host-bench.sh takes its label from it), with
# ccache as scripts/build-kernel.sh uses it, one kernel build at a time
# ($KERNEL_BUILD_LOCK of scripts/lib.sh). The packages (linux-image, linux-headers,
# linux-libc-dev, the -dbg image) and the .buildinfo and .changes files go
# to DIR/base and DIR/series (default build/packages), with the config and
# the build time in seconds. Logs: build/logs/package-*.log.
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"

usage() {
	cat <<'EOF'
usage: hardware/package-kernels.sh [--config FILE] [--localmodconfig]
                                   [--only base|series] [--out DIR]
Debian packages (make bindeb-pkg) of the base and of the series, from one
config, named by LOCALVERSION -cgscale-base and -cgscale-series, to install
side by side on a real machine (docs/hardware.md).
  --config FILE     start from FILE (e.g. /boot/config-$(uname -r), the
                    distribution's config) instead of "make defconfig"
  --localmodconfig  keep only the modules loaded on this machine
  --only KERNEL     package only base or only series (the config is made
                    the same way)
  --out DIR         where the packages go (default build/packages)
Fragments merged over the start config: config/cgroup.config,
config/maxsmp.config, hardware/host-bench/fleet.config. Logs: build/logs/package-*.log.
EOF
}

start_config='' localmod=0 only='' out=''
while [ $# -gt 0 ]; do
	case $1 in
	-h|--help) usage; exit 0 ;;
	--config) [ -f "${2:-}" ] || usage_error "--config needs a config file (got '${2:-}')"
		start_config=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); shift 2 ;;
	--localmodconfig) localmod=1; shift ;;
	--only) case ${2:-} in base|series) only=$2 ;; *) usage_error "--only needs base or series" ;; esac
		shift 2 ;;
	--out) [ -n "${2:-}" ] || usage_error "--out needs a DIR"; out=$2; shift 2 ;;
	-*) usage_error "unknown option '$1'" ;;
	*) usage_error "unknown argument '$1'" ;;
	esac
done
[ -n "$out" ] || out=$BUILD/packages
FRAGS=(config/cgroup.config config/maxsmp.config hardware/host-bench/fleet.config)
# must hold on every architecture: without them the benchmarks cannot run
ESSENTIAL=" CONFIG_CGROUPS CONFIG_MEMCG CONFIG_CGROUP_SCHED CONFIG_BLK_CGROUP CONFIG_PSI CONFIG_PERF_EVENTS CONFIG_BPF_SYSCALL CONFIG_BLK_DEV_LOOP "

need_cmd make gcc flex bison bc pahole
# the Build-Depends of the kernel's own debian/control
# (scripts/package/mkdebian); dpkg-checkbuilddeps would stop bindeb-pkg on
# any of them only after the config is made
pkg_deps=(dpkg-dev debhelper bc bison flex kmod libdw-dev libelf-dev libssl-dev python3 rsync)
mapfile -t missing < <(missing_packages "${pkg_deps[@]}")
[ "${#missing[@]}" -eq 0 ] ||
	die "make bindeb-pkg needs ${missing[*]}: scripts/install-deps.sh ${missing[*]} (or apt install them), then run this again"
"$TOP/scripts/get-base.sh"
"$TOP/scripts/make-worktree.sh"
declare -A tree=([base]=$BASE_TREE [series]=$SRC)
kernels=(base series)
[ -z "$only" ] || kernels=("$only")

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
kmake() { # kmake KERNEL TARGET...: make in KERNEL's tree, objects in build/obj/pkg-KERNEL
	local k=$1
	shift
	make -C "${tree[$k]}" O="$BUILD/obj/pkg-$k" CC="$cc" HOSTCC="$cc" -j"$jobs" \
		LOCALVERSION="-cgscale-$k" "$@"
}
mkdir -p "$LOGS" "$BUILD/obj/pkg-base" "$BUILD/obj/pkg-series"

# --- one config, made in the base's object directory ---------------------------
bobj=$BUILD/obj/pkg-base
clog=$LOGS/package-config.log
step "config: ${start_config:-make defconfig} + ${FRAGS[*]}$([ "$localmod" -eq 0 ] || echo " (localmodconfig)")"
(
	# each step checked: set -e does not act in a subshell left of "||"
	cd "$bobj" || exit 1
	if [ -n "$start_config" ]; then
		cp "$start_config" .config || exit 1
		# a distribution config names its own signing keys (Debian:
		# debian/certs/...), which are not in these trees
		"${tree[base]}/scripts/config" --file .config --set-str SYSTEM_TRUSTED_KEYS "" \
			--set-str SYSTEM_REVOCATION_KEYS "" --set-str MODULE_SIG_KEY certs/signing_key.pem ||
			exit 1
		kmake base olddefconfig || exit 1
	else
		kmake base defconfig || exit 1
	fi
	if [ "$localmod" -eq 1 ]; then
		kmake base localmodconfig < <(yes '') || exit 1
	fi
	paths=()
	for f in "${FRAGS[@]}"; do paths+=("$TOP/$f"); done
	"${tree[base]}/scripts/kconfig/merge_config.sh" -m -O "$bobj" .config "${paths[@]}" || exit 1
	kmake base olddefconfig
) >"$clog" 2>&1 || {
	tail -n 20 "$clog" >&2
	die "making the config failed; log: $clog"
}
# every option the fragments set, with its last value, must hold; those the
# architecture lacks only warn, the essential ones stop
declare -A want=()
for f in "${FRAGS[@]}"; do
	while IFS= read -r line; do
		case "$line" in ''|'#'*) continue ;; esac
		want[${line%%=*}]=$line
	done <"$TOP/$f"
done
bad=0
for opt in $(printf '%s\n' "${!want[@]}" | sort); do
	line=${want[$opt]} val=${want[$opt]#*=}
	if [ "$val" = n ]; then
		! grep -q "^$opt=" "$bobj/.config" && continue
	else
		grep -qxF "$line" "$bobj/.config" && continue
	fi
	got=$(grep "^$opt=\|^# $opt is" "$bobj/.config" || echo unset)
	case $ESSENTIAL in
	*" $opt "*) warn "$line did not stick (got: $got), and the benchmarks need it"; bad=1 ;;
	*) warn "$line did not stick (got: $got); this architecture or config may not have it" ;;
	esac
done
[ "$bad" -eq 0 ] || die "the config lacks what the benchmarks need (see above); log: $clog"
cp "$bobj/.config" "$BUILD/obj/pkg-series/.config"
kmake series olddefconfig >>"$clog" 2>&1 || die "olddefconfig of the series failed; log: $clog"
# the series declares options of its own (patch 40: KERNFS_KUNIT_TEST);
# their lines may be only in the series' config, all others must match
added=$(series_config_options)
same_config_but_series_options "$bobj/.config" "$BUILD/obj/pkg-series/.config" ||
	die "base and series configs differ after olddefconfig, beyond the options the series adds (${added:-none}): diff $bobj/.config $BUILD/obj/pkg-series/.config"
for o in ${added//|/ }; do
	! grep -q "^CONFIG_$o=" "$BUILD/obj/pkg-series/.config" || info "the series' own CONFIG_$o is set in its config: $(grep "^CONFIG_$o=" "$BUILD/obj/pkg-series/.config")"
done
info "one config for both: $(grep -c '=' "$bobj/.config") options set"

# --- the packages -----------------------------------------------------------------
exec 9>"$KERNEL_BUILD_LOCK"
if ! flock -n 9; then
	info "another kernel build is running; waiting for it"
	flock 9
fi
for k in "${kernels[@]}"; do
	log=$LOGS/package-$k.log
	step "make bindeb-pkg: $k (${tree[$k]}, LOCALVERSION=-cgscale-$k, make -j$jobs, log: $log)"
	# dpkg-buildpackage leaves the packages beside the object directory,
	# some without the release in their names (linux-libc-dev_*.deb,
	# linux-upstream_*.buildinfo and .changes): take what this build wrote
	stamp=$BUILD/obj/pkg-$k/.package-stamp
	touch "$stamp"
	start=$(date +%s)
	if ! kmake "$k" bindeb-pkg >"$log" 2>&1; then
		grep -E 'error|Error' "$log" | head -n 20 >&2
		die "packaging $k failed; log: $log"
	fi
	secs=$(($(date +%s) - start))
	dest=$out/$k
	rm -rf "$dest"
	mkdir -p "$dest"
	find "$BUILD/obj" -maxdepth 1 -newer "$stamp" \
		\( -name '*.deb' -o -name '*.buildinfo' -o -name '*.changes' \) -exec mv -t "$dest" {} +
	cp "$BUILD/obj/pkg-$k/.config" "$dest/config"
	echo "$secs" >"$dest/build-seconds"
	ls "$dest"/*.deb >/dev/null 2>&1 || die "no packages of $k in $BUILD/obj; log: $log"
	info "$k: $(find "$dest" -name '*.deb' -printf '%f ' | sort)in $((secs / 60))m$((secs % 60))s"
done
step "packages in $out; install and boot: docs/hardware.md"
