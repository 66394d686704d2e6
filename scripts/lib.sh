# shellcheck shell=bash
# Common paths and helpers for the cgscale harness. Source it, don't run it.

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${CGSCALE_BUILD:-$TOP/build}
LOGS=$BUILD/logs
SHARED=${CGSCALE_SHARED:-$TOP/../shared}

BASE_PKG=linux-source-7.3
BASE_VERSION=7.3~rc7-1~exp1
BASE_DEB=${BASE_PKG}_${BASE_VERSION}_all.deb
BASE_TARBALL=linux-source-7.3.tar.xz
# The pristine unpacked base tree (read-only cache) and the git work tree.
BASE_TREE=$BUILD/base/linux-source-7.3
SRC=${CGSCALE_SRC:-$BUILD/linux}
# One kernel build at a time on this machine (2 cores): every script that
# builds a kernel takes this lock first, also from another clone's build
# area.
KERNEL_BUILD_LOCK=${TMPDIR:-/tmp}/cgscale-kernel-build.$(id -u).lock
VENV=$BUILD/venv
export PATH="$VENV/bin:$PATH"

# Fixed identity and date for the base commit, so that its hash (and the
# base-commit: line of the exported series) is the same on every machine.
BASE_COMMIT_ENV=(
	GIT_AUTHOR_NAME="Debian linux-source-7.3"
	GIT_AUTHOR_EMAIL="debian-kernel@lists.debian.org"
	GIT_COMMITTER_NAME="Debian linux-source-7.3"
	GIT_COMMITTER_EMAIL="debian-kernel@lists.debian.org"
	GIT_AUTHOR_DATE="2026-10-16T02:51:00Z"
	GIT_COMMITTER_DATE="2026-10-16T02:51:00Z"
)

step() { printf '==> %s\n' "$*"; }
info() { printf '    %s\n' "$*"; }
warn() { printf 'warning: %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# Command lines. Every script defines usage(), which prints its usage to
# stdout, and reads its arguments before it does anything else.
# usage_error MSG: a command line the script does not take: the usage and
# "error: SCRIPT: MSG" on stderr, exit status 2; nothing was done.
usage_error() {
	usage >&2
	printf 'error: %s: %s\n' "$(basename "$0")" "$*" >&2
	exit 2
}
# only_operands ARG...: for a script that takes no options: -h or --help
# prints the usage and exits 0; any other ARG that starts with "-" is
# refused with usage_error.
only_operands() {
	local a
	for a in "$@"; do
		case $a in
		-h|--help) usage; exit 0 ;;
		-?*) usage_error "unknown option '$a'" ;;
		esac
	done
}

# run_logged STEP LOGFILE CMD...: run CMD with output in LOGFILE; on failure
# show the tail of the log and name it.
run_logged() {
	local what=$1 log=$2
	shift 2
	mkdir -p "$(dirname "$log")"
	if ! "$@" >"$log" 2>&1; then
		tail -n 30 "$log" >&2
		die "$what failed; full log: $log"
	fi
}

# need_disk STEP GIB WHAT: die, naming STEP, unless the file system of the
# build area has GIB GiB free (gcc writes its temporaries to $TMPDIR, /tmp,
# on the same disk here). A full disk makes gcc fail in the middle of a
# build with "No space left on device"; this says so before anything is
# written.
need_disk() {
	local what=$1 gib=$2 why=$3 free_kib
	mkdir -p "$BUILD"
	free_kib=$(df -Pk "$BUILD" | awk 'NR == 2 { print $4 }')
	[ "$free_kib" -ge $((gib * 1024 * 1024)) ] && return 0
	die "$what: only $((free_kib / 1024 / 1024)) GiB free on the disk of $BUILD; $why needs about $gib GiB. Free space (old build/obj/<name-config> directories, old clones and their build/ areas) and run it again; nothing was changed."
}

# missing_packages PKG...: print those of the Debian packages PKG that are
# not installed, one a line
missing_packages() {
	local p
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep "ok installed" >/dev/null || echo "$p"
	done
}

need_cmd() {
	local c
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 ||
			die "'$c' is not installed; run 'make deps' (or scripts/install-deps.sh)"
	done
}

# series_config_options: the Kconfig options the series declares ("+config
# NAME" lines in patches/, e.g. patch 40's KERNFS_KUNIT_TEST), joined by |
series_config_options() {
	sed -n 's/^+config \([A-Za-z0-9_]*\)$/\1/p' "$TOP"/patches/*.patch | sort -u | paste -sd'|'
}

# same_config_but_series_options BASE_CONFIG SERIES_CONFIG: whether the two
# .config files set the same, apart from the options the series declares,
# which only the series' tree knows
same_config_but_series_options() {
	local added
	added=$(series_config_options)
	cmp -s <(grep -v -E "^(# )?CONFIG_(${added:-^})[= ]" "$1" || true) \
		<(grep -v -E "^(# )?CONFIG_(${added:-^})[= ]" "$2" || true)
}
