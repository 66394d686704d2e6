#!/usr/bin/env bash
# The build matrix: what the 0-day bot would build before a maintainer
# applies the series. For each entry of config/matrix (x86_64, i386, options
# switched on and off, clang):
#   1. the patched tree (the work tree, branch "series") builds vmlinux;
#   2. every object the series changes that this config builds (a .c file of
#      the series, or the file that #includes it, like kernel/sched/psi.c in
#      build_utility.c) is compiled again with W=1, in the patched tree and in
#      the unpatched base tree (build/base, same .config);
#   3. the W=1 warnings in the files the series touches are compared
#      (checks/heavy/compare-warnings.py): a warning counts as new if the patched
#      build has it more often than the base build (keyed by file and
#      message, not line number).
# An entry passes if vmlinux builds and there is no new warning. If the
# patched vmlinux fails, the base tree is built too, to tell a failure the
# series adds from one that was there before.
# sparse: Debian's 0.6.4 fails the kernel's own scripts/checker-valid.sh
# (it does not know __typeof_unqual__), and "make C=1" then checks nothing;
# the script says so and skips. With a sparse that passes, it runs C=1 on the
# same objects and compares its warnings the same way.
# Per patch: checks/heavy/check-bisect.sh builds every patch alone on config test.
#
#   check-build-matrix.sh [NAME...]     (default: every entry)
#
# Entries with the same arch and compiler share one object directory,
# build/obj/matrix-{patched,base}-ARCH[-llvm]: switching an option there
# rebuilds only what depends on it (kbuild's fixdep records which CONFIG_
# symbols each object used), which is how a developer moves between
# configs and several times faster than a fresh directory. A missing x86_64
# gcc directory starts as a copy of the bench build (config "bench" is the
# matrix config without kunit.config). Logs in
# build/logs/matrix/, each entry's result in build/matrix/NAME.result and
# the last result of every entry in build/matrix/results.txt. Prints a
# "pass matrix:NAME ..." or "fail matrix:NAME ..." line per entry and
# exits 1 if any failed. Not part of the test command (README gives its
# time); needs clang-19, lld-19, llvm-19 and sparse (installed if missing).
set -euo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"
. "$(dirname "$0")/../../scripts/series.sh"

usage() {
	cat <<'EOF'
usage: checks/heavy/check-build-matrix.sh [NAME...]
The build matrix (config/matrix; default: every entry): for each entry the
patched tree must build vmlinux, and the objects the series changes,
compiled again with W=1 in the patched and the base tree, must have no new
warning in the files the series touches (checks/heavy/compare-warnings.py).
Prints "pass|fail matrix:NAME" per entry; exits 1 if any failed. Installs
clang-19, lld-19, llvm-19 and sparse if missing. Logs: build/logs/matrix/,
results: build/matrix/.
EOF
}
only_operands "$@"
"$TOP/scripts/install-deps.sh" clang-19 lld-19 llvm-19 sparse >/dev/null
need_cmd make gcc clang-19 ld.lld-19 flex bison bc pahole
[ -e "$SRC/.git" ] || die "no work tree; run scripts/make-worktree.sh first"
[ "$(sgit rev-parse --abbrev-ref HEAD)" = series ] ||
	die "the work tree $SRC is not on branch 'series' (a check-bisect run?); check it out first"
[ -z "$(sgit status --porcelain --untracked-files=no)" ] ||
	die "the work tree $SRC has uncommitted changes; commit or stash them first"
[ -f "$BASE_TREE/Makefile" ] || "$TOP/scripts/get-base.sh"
src=$(cd "$SRC" && pwd)
base=$(cd "$BASE_TREE" && pwd)

matrix=$TOP/config/matrix
names=$(awk '!/^#/ && NF { print $1 }' "$matrix")
[ $# -gt 0 ] || set -- $names
for n in "$@"; do
	grep -qxF "$n" <<<"$names" || die "unknown matrix entry '$n'; entries: $(echo $names)"
done

mlogs=$LOGS/matrix
out=$BUILD/matrix
mkdir -p "$mlogs" "$out"

export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache}
export CCACHE_BASEDIR=$BUILD CCACHE_NOHASHDIR=1
export KBUILD_BUILD_TIMESTAMP="2026-10-16" KBUILD_BUILD_USER=cgscale KBUILD_BUILD_HOST=cgscale
jobs=$(($(nproc) + 1))

# The .c files the series changes (not tools/ or scripts/), and the object
# each is compiled into.
changed_c=$(sgit diff --name-only base series -- '*.c' ':!tools' ':!scripts')
sgit diff --name-only base series -- '*.c' '*.h' ':!tools' ':!scripts' >"$out/touched-files"
objects=
for f in $changed_c; do
	o=${f%.c}.o
	d=$(dirname "$f")
	# A .c file that is #included by another one (kernel/sched/build_*.c)
	if ! grep -qE "(^|[[:space:]])$(basename "$o")([[:space:]]|$)" "$src/$d/Makefile"; then
		inc=$(grep -l "^#[[:space:]]*include \"$(basename "$f")\"" "$src/$d"/*.c | head -n 1)
		[ -n "$inc" ] || die "cannot tell which object $f is compiled into"
		o=${inc#"$src/"}
		o=${o%.c}.o
	fi
	grep -qxF "$o" <<<"$objects" || objects+="$o"$'\n'
done
objects=$(grep . <<<"$objects")

# One kernel build at a time on this machine.
exec 9>"$KERNEL_BUILD_LOCK"
if ! flock -n 9; then
	info "another kernel build is running; waiting for it"
	flock 9
fi

# kmake NAME TREE-SRC OBJ ARGS...: make for a matrix entry
kmake() {
	local name=$1 tsrc=$2 obj=$3 arch margs cc
	shift 3
	read -r arch margs < <(awk -v n="$name" '$1 == n { print $2, $3 }' "$matrix")
	cc="ccache gcc"
	[ "$margs" = LLVM=-19 ] && cc="ccache clang-19"
	[ "$margs" = - ] && margs=
	# shellcheck disable=SC2086 # margs is a list of make arguments
	make -C "$tsrc" O="$obj" ARCH="$arch" CC="$cc" HOSTCC="$cc" $margs -j"$jobs" "$@"
}

# objname NAME: the object directory suffix of an entry: ARCH, plus -llvm
# for an LLVM build
objname() {
	awk -v n="$1" '$1 == n { print $2 ($3 ~ /^LLVM=/ ? "-llvm" : "") }' "$matrix"
}

# configure NAME TREE-SRC OBJ: bench + kunit fragments, then the options
configure() {
	local name=$1 tsrc=$2 obj=$3 opts f line opt val
	opts=$(awk -v n="$name" '$1 == n { for (i = 4; i <= NF; i++) if ($i != "-") print $i }' "$matrix")
	mkdir -p "$obj"
	printf '%s\n' "$opts" | grep . >"$obj/matrix.config" || : >"$obj/matrix.config"
	kmake "$name" "$tsrc" "$obj" KCONFIG_CONFIG=.config allnoconfig
	local frags=()
	for f in base.config cgroup.config tracing.config kunit.config; do frags+=("$TOP/config/$f"); done
	(cd "$obj" && "$tsrc/scripts/kconfig/merge_config.sh" -m -O "$obj" .config "${frags[@]}" matrix.config)
	kmake "$name" "$tsrc" "$obj" olddefconfig
	while IFS= read -r line; do
		[ -n "$line" ] || continue
		opt=${line%%=*} val=${line#*=}
		if [ "$val" = n ]; then
			! grep -q "^$opt=" "$obj/.config" || { echo "$line did not stick"; return 1; }
		else
			grep -qxF "$line" "$obj/.config" || { echo "$line did not stick"; return 1; }
		fi
	done <"$obj/matrix.config"
}

# seed_objdir OBJ FROM: a missing x86_64 gcc object directory starts as a
# copy of the bench build of the same tree (config "bench" is the matrix
# config without kunit.config), so that the first entry rebuilds only what
# depends on the options it changes, as the following entries do.
seed_objdir() {
	[ ! -e "$1" ] && [ -f "$2/.config" ] && [ -f "$2/vmlinux" ] || return 0
	info "starting $1 from a copy of $2"
	cp -a "$2" "$1.tmp" && mv "$1.tmp" "$1"
}

sparse_ok=$(sh "$src/scripts/checker-valid.sh" sparse 2>/dev/null || echo 0)
if [ "$sparse_ok" != 1 ]; then
	echo "skip matrix:sparse (sparse $(sparse --version 2>&1 | head -n 1) fails the kernel's scripts/checker-valid.sh: no __typeof_unqual__, so make C=1 would check nothing)" |
		tee "$out/sparse.result"
fi

failed=0
total_start=$(date +%s)
for name in "$@"; do
	start=$(date +%s)
	pobj=$BUILD/obj/matrix-patched-$(objname "$name")
	bobj=$BUILD/obj/matrix-base-$(objname "$name")
	log=$mlogs/$name
	results=$out/$name.result
	rm -f "$log".*.log "$results"
	if [ "$(objname "$name")" = x86_64 ]; then
		seed_objdir "$pobj" "$BUILD/obj/patched-bench"
		seed_objdir "$bobj" "$BUILD/obj/base-bench"
	fi
	step "matrix $name: configuring (log: $log.config.log)"
	if ! configure "$name" "$src" "$pobj" >"$log.config.log" 2>&1; then
		echo "fail matrix:$name (configuring: $(tail -n 1 "$log.config.log"); log: $log.config.log)" | tee -a "$results"
		failed=1
		continue
	fi
	step "matrix $name: building the patched vmlinux (log: $log.vmlinux.log)"
	if ! kmake "$name" "$src" "$pobj" vmlinux >"$log.vmlinux.log" 2>&1; then
		grep -E 'error|Error' "$log.vmlinux.log" | head -n 10 >&2
		step "matrix $name: the patched tree failed; building the base to compare (log: $log.base-vmlinux.log)"
		configure "$name" "$base" "$bobj" >"$log.base-config.log" 2>&1 &&
			kmake "$name" "$base" "$bobj" vmlinux >"$log.base-vmlinux.log" 2>&1 &&
			was="the base builds" || was="the base fails too"
		echo "fail matrix:$name (vmlinux does not build, $was; log: $log.vmlinux.log)" | tee -a "$results"
		failed=1
		continue
	fi
	# The changed objects this config builds: members of vmlinux.a (the thin
	# archive of every built-in object) or of a lib.a. A .cmd file is not
	# enough: entries share object directories, and an object that an
	# earlier entry built (block/blk-cgroup.o before blk-cgroup-off) keeps
	# its .cmd file.
	# (ar prints a thin archive's members with the path it was given, so
	# it is given relative ones)
	built=$(cd "$pobj" && {
		ar t vmlinux.a
		for a in lib/lib.a arch/x86/lib/lib.a; do
			[ ! -f "$a" ] || ar t "$a"
		done
	} | sort -u)
	objs=()
	for o in $objects; do
		grep -qxF "$o" <<<"$built" && objs+=("$o")
	done
	step "matrix $name: W=1 on ${#objs[@]} changed objects, patched and base (logs: $log.{patched,base}-w1.log)"
	if [ "${#objs[@]}" -gt 0 ] &&
		! kmake "$name" "$src" "$pobj" W=1 "${objs[@]}" >"$log.patched-w1.log" 2>&1; then
		echo "fail matrix:$name (W=1 build of ${objs[*]} failed; log: $log.patched-w1.log)" | tee -a "$results"
		failed=1
		continue
	fi
	# files the series adds (patch 40's fs/kernfs/kernfs_test.c) have no
	# base object; every warning of theirs counts as new
	bobjs=()
	for o in ${objs[@]+"${objs[@]}"}; do
		[ -f "$base/${o%.o}.c" ] || [ -f "$base/${o%.o}.S" ] && bobjs+=("$o")
	done
	: >"$log.base-w1.log"
	if [ "${#bobjs[@]}" -gt 0 ]; then
		cp "$pobj/.config" "$log.base.config"
		if ! { mkdir -p "$bobj" && cp "$log.base.config" "$bobj/.config" &&
			kmake "$name" "$base" "$bobj" olddefconfig &&
			same_config_but_series_options "$bobj/.config" "$pobj/.config" &&
			kmake "$name" "$base" "$bobj" prepare &&
			kmake "$name" "$base" "$bobj" W=1 "${bobjs[@]}"; } >"$log.base-w1.log" 2>&1; then
			echo "fail matrix:$name (W=1 build of the base failed or its .config differs; log: $log.base-w1.log)" | tee -a "$results"
			failed=1
			continue
		fi
	fi
	new=$(python3 "$TOP/checks/heavy/compare-warnings.py" --files "$out/touched-files" \
		"$log.base-w1.log" "$log.patched-w1.log") && cmp_rc=0 || cmp_rc=$?
	[ "$cmp_rc" -le 1 ] || die "compare-warnings.py failed on $log.*-w1.log"
	counts=$(head -n 1 <<<"$new")
	new=$(tail -n +2 <<<"$new")
	if [ "$sparse_ok" = 1 ] && [ "${#objs[@]}" -gt 0 ]; then
		kmake "$name" "$src" "$pobj" C=2 "${objs[@]}" >"$log.patched-sparse.log" 2>&1 || true
		kmake "$name" "$base" "$bobj" C=2 "${objs[@]}" >"$log.base-sparse.log" 2>&1 || true
		sp=$(python3 "$TOP/checks/heavy/compare-warnings.py" --files "$out/touched-files" \
			"$log.base-sparse.log" "$log.patched-sparse.log" || true)
		counts+="; sparse: $(head -n 1 <<<"$sp")"
		new=$(printf '%s\n%s\n' "$new" "$(tail -n +2 <<<"$sp")" | grep . || true)
	fi
	secs=$(($(date +%s) - start))
	counts="W=1 warnings in touched files: $counts; ${#objs[@]} objects; $((secs / 60))m$((secs % 60))s"
	if [ -n "$new" ]; then
		echo "fail matrix:$name (new warnings: $(grep -c . <<<"$new"); $counts)" | tee -a "$results"
		sed 's/^/    /' <<<"$new" | tee -a "$results"
		failed=1
	else
		echo "pass matrix:$name (vmlinux builds, no new warning; $counts)" | tee -a "$results"
	fi
done
secs=$(($(date +%s) - total_start))
for n in sparse $names; do
	[ ! -f "$out/$n.result" ] || cat "$out/$n.result"
done >"$out/results.txt"
info "matrix done in $((secs / 60))m$((secs % 60))s; last result of every entry: $out/results.txt"
exit "$failed"
