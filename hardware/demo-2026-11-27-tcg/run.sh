#!/usr/bin/env bash
# The command that produced this directory (README.md here): each
# bench-config kernel booted in a QEMU guest, multi-threaded TCG, 4 vCPUs,
# no icount; hardware/host-bench.sh --quick in it, as root; then
# hardware/host-compare.py of the two result files (table and plot).
# A functional demonstration under emulation, not a result.
# Run from anywhere; it needs build/obj/{base,patched}-bench (bench/bench.sh
# builds them) and boots them one after the other.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# PATH with build/venv (matplotlib for the plot), as the harness's scripts
. "$top/scripts/lib.sh"
d=$top/hardware/demo-2026-11-27-tcg
cd "$top"
echo "repository HEAD: $(git rev-parse --short HEAD)"
for k in base series; do
	case $k in base) obj=build/obj/base-bench ;; series) obj=build/obj/patched-bench ;; esac
	g=$top/build/host-demo-$k
	rm -rf "$g"
	start=$(date +%s)
	# --max-load 8: the 1-minute load average of a freshly booted TCG guest
	# is 1.4-2.0 (the boot's own emulated work; 2026-11-27), near or above
	# host-bench's default limit of 0.5 x 4 CPUs; a real machine keeps it
	scripts/run-guest.sh --kernel "$obj/arch/x86/boot/bzImage" --mttcg --cpus 4 --timeout 3600 \
		--out "$g" -- "$top/hardware/host-bench.sh" --quick --runs 3 --label "$k" --max-load 8 \
		--out "$g/$k.json"
	echo "$k: $(($(date +%s) - start)) s on the host (boot, cc, the runs)"
	cp "$g/$k.json" "$g/$k.log" "$d/"
	sed '1s/ virtme\.exec=`[^`]*`//' "$g/guest.log" >"$d/$k-guest.log"
done
hardware/host-compare.py --plot "$d/compare.png" --md "$d/compare.md" "$d/base.json" "$d/series.json"
