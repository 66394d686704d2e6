#!/usr/bin/env bash
# Count the guest kernel's instructions per function while a command runs.
#
#   profile-insns.sh --kernel BZIMAGE --vmlinux VMLINUX --funcs REGEX
#                    --out DIR [--between FUNC] [--append KERNEL_ARG]... -- CMD...
#
# Boots BZIMAGE under QEMU TCG with the icount clock, one guest instruction
# per translation block (-singlestep), no block chaining and "-d exec"
# restricted (-dfilter) to the functions of VMLINUX whose names match the
# extended regular expression REGEX, then runs CMD in the guest
# (scripts/run-guest.sh). Every executed instruction in those functions is
# one trace line; bench/bin/profile-insns.py maps them to functions and
# writes DIR/insns.json ({function: instructions over the whole boot}) and
# DIR/pcs.json ({pc: executions}).
# The boot is slow (every instruction is its own block): minutes, not
# seconds. With --between FUNC only the instructions from the first call
# of FUNC to the last are counted (FUNC must match REGEX): a benchmark that
# calls it right before and after its timed part (bench/psi/pingpong.c
# with PSI_MARK=/proc/pressure/cpu calls psi_cpu_show) gets its part alone.
# Without it the whole boot is counted; two boots with different rounds
# and "profile-insns.py diff A B ROUNDS" then give the instructions per
# round, up to the boots' own differences (I/O timing moves interrupts
# even under -icount). For finding where a benchmark's instructions go;
# the numbers reported are the benchmark's own (bench/bench.sh).
set -euo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"

usage() {
	cat <<'EOF'
usage: bench/bin/profile-insns.sh --kernel BZIMAGE --vmlinux VMLINUX
                                  --funcs REGEX --out DIR [--between FUNC]
                                  [--append KERNEL_ARG]... -- CMD...
Count the guest kernel's instructions per function while CMD runs: boot
BZIMAGE under TCG with the icount clock and QEMU's instruction trace
restricted to the functions of VMLINUX matching the extended regex REGEX,
then write DIR/insns.json ({function: instructions}) and DIR/pcs.json
(bench/bin/profile-insns.py). Slow: minutes per boot.
  --between FUNC       count only from the first call of FUNC to the last
  --append KERNEL_ARG  add a kernel command line argument
EOF
}
kernel='' vmlinux='' funcs='' out='' between=()
append=()
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernel=$2; shift 2 ;;
	--vmlinux) vmlinux=$2; shift 2 ;;
	--funcs) funcs=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--between) between=(--between "$2"); shift 2 ;;
	--append) append+=(--append "$2"); shift 2 ;;
	-h|--help) usage; exit 0 ;;
	--) shift; break ;;
	*) usage_error "unknown option '$1'" ;;
	esac
done
[ -n "$kernel" ] && [ -n "$vmlinux" ] && [ -n "$funcs" ] && [ -n "$out" ] && [ $# -gt 0 ] ||
	usage_error "--kernel, --vmlinux, --funcs, --out and -- CMD... are all needed"
[ -f "$vmlinux" ] || die "no vmlinux at $vmlinux (the one built with $kernel)"
need_cmd nm
mkdir -p "$out"
out=$(cd "$out" && pwd)
ranges=$(nm -S --defined-only "$vmlinux" |
	awk -v re="$funcs" 'NF == 4 && $3 ~ /^[tTwW]$/ && $4 ~ re { printf "%s0x%s+0x%s", sep, $1, $2; sep = "," }')
[ -n "$ranges" ] || die "no function of $vmlinux matches '$funcs'"
info "tracing $(tr ',' '\n' <<<"$ranges" | wc -l) functions matching '$funcs'"
rm -f "$out/exec.log"
step "booting with the instruction trace (log: $out/guest/console.log)"
CGSCALE_ACCEL=tcg "$TOP/scripts/run-guest.sh" --kernel "$kernel" --out "$out/guest" \
	--clock icount --timeout 3600 "${append[@]}" \
	--qemu-extra "-singlestep -d nochain,exec -dfilter $ranges -D $out/exec.log" -- "$@" ||
	die "the profiled boot failed; logs: $out/guest"
[ -s "$out/exec.log" ] || die "QEMU wrote no trace ($out/exec.log); see $out/guest/vng-cmdline.txt"
step "counting ($(du -h "$out/exec.log" | cut -f1) of trace)"
"$TOP/bench/bin/profile-insns.py" count "${between[@]}" "$vmlinux" "$out/exec.log" "$out/pcs.json" >"$out/insns.json"
rm -f "$out/exec.log"
info "instructions per function: $out/insns.json"
