#!/usr/bin/env bash
# The generated code of every object the series changes, base against
# series: the objects of the .c files patches/ touches (psi.c is built as
# kernel/sched/build_utility.o; KUnit and selftest files left out), built
# with GCC from the base tree and from the work tree in one config, then
# compared with the kernel's own scripts/bloat-o-meter. Not part of the
# test command: it builds two object sets (docs/heavy-checks.md).
set -euo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"

usage() {
	cat <<'EOF'
usage: checks/heavy/code-size.sh [--config CONFIG] [--out DIR]
The objects the series changes, built from the base (build/base, name
"base") and from the series (build/linux, or CGSCALE_SRC, name "patched")
in config CONFIG (default bench) with GCC, into build/obj/NAME-CONFIG
(make of the objects only), and scripts/bloat-o-meter of each pair.
  --config CONFIG  a config of config/configs (default bench)
  --out DIR        results (default build/code-size/CONFIG): OBJECT.txt
                   (bloat-o-meter's output), REPORT.md (the totals)
EOF
}
cfg=bench out=
while [ $# -gt 0 ]; do
	case $1 in
	--config) [ $# -ge 2 ] || usage_error "--config needs a name"; cfg=$2; shift 2 ;;
	--out) [ $# -ge 2 ] || usage_error "--out needs a directory"; out=$2; shift 2 ;;
	-h|--help) usage; exit 0 ;;
	*) usage_error "unknown argument '$1'" ;;
	esac
done
awk -v c="$cfg" '$1 == c { found = 1 } END { exit !found }' "$TOP/config/configs" ||
	usage_error "unknown config '$cfg' (see config/configs)"
[ -f "$SRC/Makefile" ] || die "no work tree at $SRC; run scripts/make-worktree.sh first"
[ -f "$BASE_TREE/Makefile" ] || "$TOP/scripts/get-base.sh"
out=${out:-$BUILD/code-size/$cfg}
mkdir -p "$out"

# the objects: each .c file the series changes, as kbuild names its object
mapfile -t objs < <(sed -n 's#^diff --git a/\([^ ]*\)\.c b/.*#\1#p' "$TOP"/patches/0*.patch | sort -u |
	grep -vE '^tools/|/tests/|_test$|kunit' |
	sed 's#^kernel/sched/psi$#kernel/sched/build_utility#; s#$#.o#' | sort -u)
[ ${#objs[@]} -gt 0 ] || die "no .c file in patches/0*.patch"
targets=()
for o in "${objs[@]}"; do targets+=(--target "$o"); done
info "objects: ${objs[*]}"

start=$(date +%s)
"$TOP/scripts/build-kernel.sh" "${targets[@]}" "$cfg" "$BASE_TREE" base
"$TOP/scripts/build-kernel.sh" "${targets[@]}" "$cfg" "$SRC" patched
bom=$SRC/scripts/bloat-o-meter
[ -x "$bom" ] || die "no scripts/bloat-o-meter in $SRC"

base_obj=$BUILD/obj/base-$cfg patched_obj=$BUILD/obj/patched-$cfg
{
	echo "# Code size of the objects the series changes, config $cfg"
	echo
	echo "\`scripts/bloat-o-meter\` of each object, v7.3-rc7 against the series,"
	echo "patches/ of repo commit $(git -C "$TOP" rev-parse --short HEAD) ($(gcc -dumpfullversion | sed 's/^/GCC /'), $(date -u +%Y-%m-%d));"
	echo "bytes of text and data symbols. Per object: \`OBJECT.txt\` has every symbol."
	echo
	echo "| object | base | series | change | grown / shrunk / added / removed symbols |"
	echo "|---|---|---|---|---|"
} >"$out/REPORT.md"
for o in "${objs[@]}"; do
	f=$out/$(echo "$o" | tr / _).txt
	if [ ! -f "$base_obj/$o" ] || [ ! -f "$patched_obj/$o" ]; then
		echo "| \`$o\` | not built in config $cfg | | | |" >>"$out/REPORT.md"
		continue
	fi
	"$bom" "$base_obj/$o" "$patched_obj/$o" >"$f"
	# add/remove: 3/1 grow/shrink: 10/4 up/down: 933/-301 (632)
	sum=$(sed -n 's#^add/remove: \([0-9]*\)/\([0-9]*\) grow/shrink: \([0-9]*\)/\([0-9]*\) up/down: [^(]*(\(-*[0-9]*\))#\5 \3 \4 \1 \2#p' "$f")
	read -r delta grow shrink add rm <<<"$sum"
	tb=$(sed -n 's/^Total: Before=\([0-9]*\), After=\([0-9]*\),.*/\1 \2/p' "$f")
	read -r before after <<<"$tb"
	echo "| \`$o\` | ${before:-?} | ${after:-?} | ${delta:-?} | ${grow:-?} / ${shrink:-?} / ${add:-?} / ${rm:-?} |" >>"$out/REPORT.md"
done
info "$(($(date +%s) - start)) s; report: $out/REPORT.md"
cat "$out/REPORT.md"
