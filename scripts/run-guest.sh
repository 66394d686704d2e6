#!/usr/bin/env bash
# Boot a kernel under virtme-ng and run one command in it.
#
#   run-guest.sh [--kernel BZIMAGE] [--out DIR] [--timeout SECS]
#                [--clock icount|wall] [--mttcg] [--cpus SMP] [--memory SIZE] [--numa]
#                [--append KERNEL_ARG]... [--qemu-extra OPTS]
#                -- CMD...
#
# The guest sees the host's root file system (copy-on-write) and DIR read-write.
# Results in DIR: console.log (everything the guest printed), guest.log (the
# command's output), dmesg.txt, status (the command's exit status).
# --cpus takes QEMU's -smp argument: a number of vCPUs, or e.g. "2,maxcpus=64".
# Exit status: the command's, or 124 on timeout, or 3 when a kernel splat was
# found in the guest's logs.
#
# Acceleration: KVM when a short probe boot under KVM works (cached per host
# boot), else QEMU TCG. CGSCALE_ACCEL=kvm|tcg overrides the probe.
# --clock icount (TCG only) adds "-icount shift=0,sleep=off": guest time then
# counts retired instructions, which repeats to ~0.05% between boots.
# --mttcg (TCG, wall clock only) asks for multi-threaded TCG: each vCPU gets
# a host thread, so the vCPUs really run at the same time.
# --qemu-extra adds options to QEMU's command line (TCG only), e.g. the
# instruction trace of bench/bin/profile-insns.sh.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

usage() {
	cat <<'EOF'
usage: scripts/run-guest.sh [--kernel BZIMAGE] [--out DIR] [--timeout SECS]
                            [--clock icount|wall] [--mttcg] [--cpus SMP]
                            [--memory SIZE] [--numa] [--append KERNEL_ARG]...
                            [--qemu-extra OPTS] -- CMD...
Boot a kernel under virtme-ng (KVM if it works, else QEMU TCG) and run CMD
in it. The guest sees the host's root file system (copy-on-write) and DIR
read-write. Results in DIR (default: a new build/guest.XXXXXX):
console.log, guest.log, dmesg.txt, status. Exit status: CMD's, 124 on
timeout, 3 when the guest's logs show a kernel splat.
  --kernel BZIMAGE      default: build/obj/patched-test/arch/x86/boot/bzImage
  --timeout SECS        default 600
  --clock icount|wall   icount (TCG only): guest time counts instructions
  --mttcg               multi-threaded TCG (wall clock only)
  --cpus SMP            QEMU's -smp argument (default 2)
  --memory SIZE         default 2G
  --numa                two NUMA nodes, one vCPU each (needs --cpus 2)
  --append KERNEL_ARG   add a kernel command line argument
  --qemu-extra OPTS     more QEMU options (TCG only)
EOF
}
kernel=$BUILD/obj/patched-test/arch/x86/boot/bzImage
out=
timeout=600
clock=wall
cpus=2
memory=2G
numa=0
mttcg=0
qemu_extra=
append=()
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernel=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--clock) clock=$2; shift 2 ;;
	--cpus) cpus=$2; shift 2 ;;
	--memory) memory=$2; shift 2 ;;
	--numa) numa=1; shift ;;
	--mttcg) mttcg=1; shift ;;
	--append) append+=(--append "$2"); shift 2 ;;
	--qemu-extra) qemu_extra=$2; shift 2 ;;
	-h|--help) usage; exit 0 ;;
	--) shift; break ;;
	*) usage_error "unknown option '$1'" ;;
	esac
done
[ $# -gt 0 ] || usage_error "no command given (use -- CMD...)"
[ -f "$kernel" ] || die "no kernel image at $kernel; build it first (scripts/build-kernel.sh)"
brk=$(dirname "$kernel")/../../../.prove-break
[ ! -f "$brk" ] || warn "$kernel is built with the deliberate break $(cat "$brk") of checks/heavy/prove-selftests.sh (a run of it was cut short); rebuild it (scripts/build-kernel.sh test) before trusting a result"
vng=$VENV/bin/vng
[ -x "$vng" ] || die "virtme-ng is not installed in $VENV; run scripts/install-deps.sh"
need_cmd qemu-system-x86_64 timeout
[ -d /lib/udev ] || die "udev is not installed on the host (virtme-ng needs it for its script I/O ports): apt-get install udev"
[ -n "$out" ] || out=$(mktemp -d "$BUILD/guest.XXXXXX")
mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -f "$out/status" "$out/dmesg.txt" "$out/guest.log"

smp=$cpus
if [ "$numa" -eq 1 ]; then
	# Two nodes, one CPU each. Give each vCPU its own socket: with QEMU's
	# default topology both share an LLC across nodes and the guest warns
	# (topology_sane() in arch/x86/kernel/smpboot.c).
	[ "$cpus" = 2 ] || die "--numa needs --cpus 2"
	smp="2,sockets=2,cores=1,threads=1"
fi
accel=$("$TOP/scripts/probe-kvm.sh" "$kernel")
vng_args=(--run "$kernel" --cpus "$smp" --memory "$memory" --rwdir "$out" --verbose --force-9p
	--append "panic=-1" "${append[@]}")
if [ "$accel" = tcg ]; then
	vng_args+=(--disable-kvm)
	qopts=$qemu_extra
	if [ "$clock" = icount ]; then
		[ "$mttcg" -eq 0 ] || die "--mttcg and --clock icount don't go together: icount runs one vCPU at a time"
		qopts="-icount shift=0,sleep=off${qopts:+ $qopts}"
	elif [ "$mttcg" -eq 1 ]; then
		qopts="-accel tcg,thread=multi${qopts:+ $qopts}"
	fi
	[ -z "$qopts" ] || vng_args+=("--qemu-opts=$qopts")
elif [ "$clock" = icount ]; then
	die "--clock icount needs TCG (CGSCALE_ACCEL=tcg); under KVM use --clock wall"
elif [ -n "$qemu_extra" ]; then
	die "--qemu-extra is for TCG (this host runs guests under KVM); set CGSCALE_ACCEL=tcg"
fi
if [ "$numa" -eq 1 ]; then
	half=$(( ${memory%G} * 512 ))M
	vng_args+=(--numa "$half,cpus=0" --numa "$half,cpus=1")
fi

"$vng" "${vng_args[@]}" --dry-run >"$out/vng-cmdline.txt" 2>&1 || true
set +e
timeout --foreground -k 10 "$timeout" "$vng" "${vng_args[@]}" \
	--exec "$TOP/scripts/guest/exec.sh $out $(printf '%q ' "$@")" \
	</dev/null >"$out/console.log" 2>&1
rc=$?
set -e
if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
	tail -n 20 "$out/console.log" >&2
	echo "error: the guest did not finish within ${timeout}s (hang?); console: $out/console.log" >&2
	"$TOP/scripts/check-splats.py" "$out/console.log" || true
	exit 124
fi
if [ ! -f "$out/status" ]; then
	tail -n 30 "$out/console.log" >&2
	echo "error: the guest command did not complete (vng exit $rc); console: $out/console.log" >&2
	"$TOP/scripts/check-splats.py" "$out/console.log" || true
	exit 125
fi
status=$(cat "$out/status")
logs=("$out/dmesg.txt")
if ! "$TOP/scripts/check-splats.py" "${logs[@]}"; then
	echo "error: kernel splat in the guest (dmesg: $out/dmesg.txt)" >&2
	exit 3
fi
exit "$status"
