#!/bin/bash
# Runs inside the guest: bench-one.sh BENCHDIR BINDIR OUTFILE [ENVFILE]
# Runs one benchmark's guest.sh with its parameters and writes its JSON
# lines to OUTFILE, plus the kernel's uname to OUTFILE.uname.

usage() {
	cat <<'EOF'
usage: bench/bin/guest/bench-one.sh BENCHDIR BINDIR OUTFILE [ENVFILE]
Runs inside the guest (bench/bench.sh): run BENCHDIR/guest.sh BINDIR with
the parameters of ENVFILE, its JSON lines to OUTFILE and the kernel's
uname to OUTFILE.uname.
EOF
}
case ${1:-} in
-h|--help) usage; exit 0 ;;
-*) usage >&2; echo "error: bench-one.sh: unknown option '$1'" >&2; exit 2 ;;
esac
[ $# -ge 3 ] || { usage >&2; echo "error: bench-one.sh: want BENCHDIR BINDIR OUTFILE [ENVFILE], got $# arguments" >&2; exit 2; }
bench=$1 bin=$2 outfile=$3 envfile=${4:-}
if [ -n "$envfile" ]; then
	set -a
	. "$envfile"
	set +a
fi
uname -a >"$outfile.uname"
"$bench/guest.sh" "$bin" >"$outfile"
