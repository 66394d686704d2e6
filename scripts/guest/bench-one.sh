#!/bin/bash
# Runs inside the guest: bench-one.sh BENCHDIR BINDIR OUTFILE [ENVFILE]
# Runs one benchmark's guest.sh with its parameters and writes its JSON
# lines to OUTFILE, plus the kernel's uname to OUTFILE.uname.
bench=$1 bin=$2 outfile=$3 envfile=${4:-}
if [ -n "$envfile" ]; then
	set -a
	. "$envfile"
	set +a
fi
uname -a >"$outfile.uname"
"$bench/guest.sh" "$bin" >"$outfile"
