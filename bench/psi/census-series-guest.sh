#!/bin/bash
# psi mirror census, guest side: census-series-guest.sh BINDIR OUT.jsonl [ROUNDS]
# Runs workloads on a kernel with bench/psi/mirror-census-series.diff (the
# series with counters, see its header) and writes, for each, what
# /proc/psi_census counted during it: task changes and switches that walk,
# group updates and groups passed in mirroring runs (all, and those within
# task changes), mirroring begins and ends, and the distributions of
# groups updated and passed per task change (index 16: 16 or more).
bin=$1 out=$2 rounds=${3:-20000}
[ -r /proc/psi_census ] || { echo "psi census: no /proc/psi_census (kernel without the census diff?)" >&2; exit 1; }
snap() { cat /proc/psi_census; }
diffjson() {	# NAME DEPTH FILE0 FILE1
	awk -v name="$1" -v depth="$2" '
		FNR == NR { a[$1] = $0; next }
		{
			split(a[$1], o, " ")
			if ($1 ~ /^hist_/) {
				s = "["
				for (i = 2; i <= NF; i++)
					s = s (i > 2 ? ", " : "") ($i - o[i])
				v[$1] = s "]"
			} else
				v[$1] = $2 - o[2]
			k[++n] = $1
		}
		END {
			printf "{\"workload\": \"%s\", \"depth\": %d", name, depth
			for (i = 1; i <= n; i++)
				printf ", \"%s\": %s", k[i], v[k[i]]
			print "}"
		}' "$3" "$4"
}
run() {	# NAME DEPTH COMMAND...
	local name=$1 depth=$2
	shift 2
	snap >/tmp/census0
	"$@" >/dev/null || { echo "psi census: $name at depth $depth failed" >&2; exit 1; }
	snap >/tmp/census1
	diffjson "$name" "$depth" /tmp/census0 /tmp/census1 >>"$out"
}
for d in 4 8 16; do
	run pingpong "$d" "$bin/pingpong" /sys/fs/cgroup "$d" "$rounds"
done
for d in 8 16; do
	run lone "$d" "$bin/pingpong" /sys/fs/cgroup "$d" "$rounds" lone
	run apart "$d" "$bin/pingpong" /sys/fs/cgroup "$d" "$rounds" apart
done
run messaging 4 "$bin/messaging" /sys/fs/cgroup 4 8 "$((rounds / 10))"
# A Kubernetes node's tree: 2 classes x 8 pods x 3 containers, 3 services
# (48 containers on the CPUs), then the same tree with one pod of two
# containers a class (4 containers: a sparse node)
run kubepods 4 "$bin/kubepods" /sys/fs/cgroup 8 3 "$((rounds / 10))"
run kubepods-sparse 4 "$bin/kubepods" /sys/fs/cgroup 1 2 "$((rounds / 10))"
