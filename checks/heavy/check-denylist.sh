#!/usr/bin/env bash
# Show that every entry of config/selftests.deny fails on the unpatched base
# kernel too, i.e. that the denylist hides no regression of the series.
#
#   check-denylist.sh [CONFIG]   (default: bench; builds base-CONFIG if needed)
#
# Boots the base kernel, runs the denylisted programs from the base tree's
# selftests and prints "pass|fail denylist:ENTRY" (pass = fails on base).
set -euo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"

usage() {
	cat <<'EOF'
usage: checks/heavy/check-denylist.sh [CONFIG]
Show that every entry of config/selftests.deny fails on the unpatched base
too: build the base kernel of config CONFIG (default: bench) and its cgroup
selftests if needed, boot it, run the denylisted programs and print
"pass|fail denylist:ENTRY" (pass: it fails on base). Exits 1 if any entry
passes on base. Logs: build/denylist-check/.
EOF
}
only_operands "$@"
[ $# -le 1 ] || usage_error "want [CONFIG], got $# arguments"
cfg=${1:-bench}
obj=$BUILD/obj/base-$cfg
"$TOP/scripts/get-base.sh"
"$TOP/scripts/build-kernel.sh" "$cfg" "$BASE_TREE" base
"$TOP/scripts/build-selftests.sh" "$BASE_TREE" "$obj"
mapfile -t entries < <(grep -v '^\s*#' "$TOP/config/selftests.deny" | awk 'NF { print $1 }')
[ "${#entries[@]}" -gt 0 ] || { info "the denylist is empty"; exit 0; }
progs=$(printf '%s\n' "${entries[@]}" | cut -d: -f1 | sort -u | tr '\n' ' ')
out=$BUILD/denylist-check
rm -rf "$out"
step "booting base-$cfg to run the denylisted programs: $progs"
"$TOP/scripts/run-guest.sh" --kernel "$obj/arch/x86/boot/bzImage" --out "$out" -- \
	"$TOP/scripts/guest/run-selftests.sh" "$obj/kselftest/cgroup" "$TOP/config/selftests.list" \
	"$out/selftests" $progs >/dev/null || true
"$TOP/scripts/summarize-selftests.py" "$out/selftests" /dev/null >"$out/summary.txt" || true
failed=0
for e in "${entries[@]}"; do
	if grep -qE "^  $e +FAIL" "$out/summary.txt"; then
		echo "pass denylist:$e (fails on base too)"
	else
		echo "fail denylist:$e (does not fail on base: $(grep -E "^  $e " "$out/summary.txt" | awk '{print $NF}'))"
		failed=1
	fi
done
exit "$failed"
