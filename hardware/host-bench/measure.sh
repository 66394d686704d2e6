#!/bin/bash
# hardware/host-bench/measure.sh: run one benchmark command on the running kernel and
# add perf's cycles and instructions of the whole command (user + kernel,
# every task it forks), per operation, to the JSON row they belong to.
# hardware/host-bench.sh calls it in two ways:
#
#   BINDIR/PROG ARGS...
#       BINDIR/PROG is a symlink to this file, one per program host-bench.sh
#       builds (the binary is BINDIR/real/PROG), so that the emulator's
#       bench/*/guest.sh run unchanged and each of their commands is
#       measured. The operations per command: from the program's arguments
#       (statread, cpuscale read, pingpong, messaging, chainread: the timed
#       loop plus its warm-up), from its row ("ops"; hostscrape: cgroups x
#       (passes + 1)), or none (the row then has no cycles). Two programs
#       are stood in for: "fleetscrape scrape" runs hardware/host-bench/hostscrape
#       once per metric, so that each metric has its own counts, and
#       fleetbpf (fleet-scrape's BPF route, not built on the host) prints
#       nothing.
#   measure.sh --metric NAME --ops-each N [--instances K] -- CMD...
#       CMD prints the text of K "perf bench sched" runs (pipe: "usecs/op";
#       messaging: "Total time", N messages each); one JSON row NAME: ns per
#       op (mean over the runs), counts divided by K x N.
#
# Environment (set by host-bench.sh): HB_PERF, the perf binary (empty: wall
# clock only, no counts); HB_REPEAT, runs of the command per measurement
# (perf stat -r; values and counts are means), default 1; HB_TMP, scratch.
# Exit status: the command's. Its stdout lines that are not JSON rows are
# passed on.
set -uo pipefail

usage() {
	cat <<'EOF'
usage: hardware/host-bench/measure.sh --metric NAME --ops-each N [--instances K] -- CMD...
       BINDIR/PROG ARGS...   (as a symlink named after a benchmark program)
Run one benchmark command with perf stat's cycles and instructions (when
HB_PERF names perf) and print its JSON row(s) with the counts per operation.
EOF
}

perf=${HB_PERF:-}
repeat=${HB_REPEAT:-1}
prog=$(basename "$0")
bindir=$(cd "$(dirname "$0")" && pwd)

if [ "$prog" = measure.sh ]; then
	metric='' ops_each='' instances=1
	while [ $# -gt 0 ]; do
		case $1 in
		-h|--help) usage; exit 0 ;;
		--metric) metric=${2:?}; shift 2 ;;
		--ops-each) ops_each=${2:?}; shift 2 ;;
		--instances) instances=${2:?}; shift 2 ;;
		--) shift; break ;;
		*) usage >&2; echo "error: measure.sh: unknown option '$1'" >&2; exit 2 ;;
		esac
	done
	if [ -z "$metric" ] || ! [[ $ops_each =~ ^[1-9][0-9]*$ && $instances =~ ^[1-9][0-9]*$ ]] ||
		[ $# -eq 0 ]; then
		usage >&2
		echo "error: measure.sh: want --metric NAME --ops-each N [--instances K] -- CMD..." >&2
		exit 2
	fi
	mode=text
else
	mode=json
	case $prog in
	fleetscrape)
		if [ "${1:-}" = scrape ] && [ $# -eq 4 ]; then
			echo "measure.sh: fleetscrape scrape $3 runs as one hostscrape per metric" >&2
			for kind in scrape memory.stat cpu.stat io.stat cpu.pressure memory.pressure \
				io.pressure openclose openat; do
				"$bindir/hostscrape" "$2" "$3" "$4" "$kind" || exit 1
			done
			exit 0
		fi ;;
	fleetbpf)
		echo "measure.sh: fleetbpf $*: the BPF route is not built on the host; no rows" >&2
		exit 0 ;;
	esac
	real=$bindir/real/$prog
	[ -x "$real" ] || { echo "measure.sh: no program $real" >&2; exit 1; }
	num() { [[ ${1:-} =~ ^[0-9]+$ ]]; }
	# operations of the whole command: the timed loop and its warm-up
	ops=row
	case $prog in
	statread) num "${3:-}" && ops=$(($3 + 10)) ;;
	cpuscale) [ "${1:-}" = read ] && num "${4:-}" && ops=$(($4 + 10)) || ops=none ;;
	pingpong) num "${3:-}" && ops=$(($3 + 1000)) ;;
	messaging) num "${3:-}" && num "${4:-}" && ops=$(($3 * ($4 + 200))) ;;
	chainread) num "${3:-}" && ops=$(($3 + 100)) ;;
	hostscrape) ops=fields ;;
	esac
	set -- "$real" "$@"
fi

tmp=$(mktemp -d "${HB_TMP:-${TMPDIR:-/tmp}}/measure.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

# CMD's stdout (all runs) to $tmp/out, perf's CSV to $tmp/perf.csv
status=0
if [ -n "$perf" ]; then
	r=()
	[ "$repeat" -gt 1 ] && r=(-r "$repeat")
	"$perf" stat -x, -o "$tmp/perf.csv" -e cycles,instructions "${r[@]}" -- "$@" >"$tmp/out" ||
		status=$?
else
	: >"$tmp/out"
	for ((i = 0; i < repeat; i++)); do
		"$@" >>"$tmp/out" || { status=$?; break; }
	done
fi

# "CYCLES INSTRUCTIONS", perf's means per run (summed over a hybrid CPU's
# PMUs), or nothing when either was not counted
counts=
if [ -s "$tmp/perf.csv" ]; then
	counts=$(awk -F, '/^#/ || NF < 3 { next }
		{ ev = $3; sub(/\/$/, "", ev); sub(/^.*\//, "", ev); sub(/:.*/, "", ev)
		  if ($1 ~ /^[0-9]+(\.[0-9]+)?$/) { n[ev] += $1; seen[ev] = 1 } }
		END { if (seen["cycles"] && seen["instructions"] && n["cycles"] > 0)
			printf "%.0f %.0f\n", n["cycles"], n["instructions"] }' "$tmp/perf.csv")
fi

if [ "$mode" = text ]; then
	if [ "$status" -ne 0 ]; then
		cat "$tmp/out" >&2
		exit "$status"
	fi
	awk -v metric="$metric" -v ops_each="$ops_each" -v k="$instances" -v want=$((instances * repeat)) \
		-v counts="$counts" '
	/usecs\/op/ { u += $1; nu++ }
	/Total time:/ { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9.]+$/) { t += $i; nt++; break } }
	END {
		if (nt != want) {
			printf "measure.sh: %s: %d of %d perf bench runs reported a time\n", metric, nt, want > "/dev/stderr"
			exit 1
		}
		v = nu ? u / nu * 1000 : t / nt * 1e9 / ops_each
		line = sprintf("{\"metric\": \"%s\", \"unit\": \"ns\", \"better\": \"lower\", \"value\": %.1f, \"instances\": %d, \"ops_each\": %d",
			       metric, v, k, ops_each)
		if (counts != "") {
			split(counts, c, " ")
			ops = ops_each * k
			line = line sprintf(", \"cycles\": %.1f, \"instructions\": %.1f, \"ops\": %.0f", c[1] / ops, c[2] / ops, ops)
		}
		print line "}"
	}' "$tmp/out" || { cat "$tmp/out" >&2; exit 1; }
	exit 0
fi

awk -v opsmode="$ops" -v counts="$counts" '
function num(line, name,   re, m) {
	re = "\"" name "\": *-?[0-9.]+([eE][-+]?[0-9]+)?"
	if (!match(line, re))
		return ""
	m = substr(line, RSTART, RLENGTH)
	sub(/^[^:]*: */, "", m)
	return m + 0
}
/^[ \t]*\{.*"metric"/ {
	if (!match($0, /"metric": *"[^"]*"/)) { print; next }
	m = substr($0, RSTART, RLENGTH)
	sub(/^"metric": *"/, "", m)
	sub(/"$/, "", m)
	if (!(m in first)) { order[++n] = m; first[m] = $0 }
	vsum[m] += num($0, "value")
	cnt[m]++
	if (opsmode == "fields")
		o = num($0, "cgroups") * (num($0, "passes") + 1)
	else
		o = num($0, "ops")
	if (o != "" && o > 0) { osum[m] += o; hasops[m] = 1 }
	next
}
{ print }
END {
	target = ""
	if (counts != "") {
		if (opsmode ~ /^[0-9]+$/) {
			if (n == 1) { target = order[1]; tops = opsmode + 0 }
		} else if (opsmode == "row" || opsmode == "fields") {
			k = 0
			for (i = 1; i <= n; i++)
				if (hasops[order[i]]) { k++; t = order[i] }
			if (k == 1) { target = t; tops = osum[t] / cnt[t] }
		}
	}
	split(counts, c, " ")
	for (i = 1; i <= n; i++) {
		m = order[i]
		line = first[m]
		if (cnt[m] > 1) {
			mean = vsum[m] / cnt[m]
			sub(/"value": *-?[0-9.]+([eE][-+]?[0-9]+)?/, sprintf("\"value\": %.1f", mean), line)
		}
		if (m == target && tops > 0) {
			add = sprintf(", \"cycles\": %.1f, \"instructions\": %.1f", c[1] / tops, c[2] / tops)
			if (num(line, "ops") == "")
				add = add sprintf(", \"ops\": %.0f", tops)
			sub(/\}[ \t]*$/, add "}", line)
		}
		print line
	}
}' "$tmp/out"
exit "$status"
