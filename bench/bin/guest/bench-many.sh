#!/bin/bash
# Runs inside the guest: bench-many.sh LIST
# Runs several benchmarks in one boot, one after the other, each with
# bench/bin/guest/bench-one.sh in a subshell of its own (its parameters do
# not reach the next one). LIST has one line per benchmark:
#   BENCHDIR BINDIR OUTFILE [ENVFILE]
# A failing benchmark does not stop the others; "ok|FAIL BENCHDIR (N s)"
# lines on stdout, and the exit status is 1 if any failed. The smoke mode
# of bench/bench.sh uses it for the benchmarks whose variants boot with
# the same kernel command line and vCPUs.

usage() {
	cat <<'EOF'
usage: bench/bin/guest/bench-many.sh LIST
Runs inside the guest (bench/bench.sh --smoke): for each line
"BENCHDIR BINDIR OUTFILE [ENVFILE]" of LIST, run bench-one.sh with those
arguments, one after the other; prints "ok|FAIL BENCHDIR (N s)" per line
and exits 1 if any failed.
EOF
}
case ${1:-} in
-h|--help) usage; exit 0 ;;
-*) usage >&2; echo "error: bench-many.sh: unknown option '$1'" >&2; exit 2 ;;
esac
[ $# -eq 1 ] && [ -r "$1" ] || { usage >&2; echo "error: bench-many.sh: want one readable LIST" >&2; exit 2; }
here=$(dirname "$0")
failed=0
while read -r benchdir bindir outfile envfile; do
	[ -n "$benchdir" ] || continue
	echo "==> $(basename "$benchdir")"
	t=$(date +%s)
	if ("$here/bench-one.sh" "$benchdir" "$bindir" "$outfile" ${envfile:+"$envfile"}) </dev/null; then
		echo "ok $(basename "$benchdir") ($(($(date +%s) - t)) s)"
	else
		echo "FAIL $(basename "$benchdir") ($(($(date +%s) - t)) s)"
		failed=1
	fi
done <"$1"
exit "$failed"
