#!/usr/bin/env bash
# Print "kvm" when KVM really works on this host, else "tcg" (with a one-line
# note on stderr). /dev/kvm opening is not enough: on nested setups guests hang
# at "Decompressing Linux", so the probe boots KERNEL under KVM with a short
# timeout. The answer is cached per host boot. CGSCALE_ACCEL=kvm|tcg skips it.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

usage() {
	cat <<'EOF'
usage: scripts/probe-kvm.sh BZIMAGE
Print "kvm" when KVM really works on this host (a short boot of BZIMAGE
under KVM reaches user space), else "tcg" with a note on stderr. The
answer is cached per host boot (build/accel-probe); CGSCALE_ACCEL=kvm|tcg
skips the probe.
EOF
}
only_operands "$@"
[ $# -le 1 ] || usage_error "want BZIMAGE, got $# arguments"
case ${CGSCALE_ACCEL:-auto} in
kvm|tcg) echo "$CGSCALE_ACCEL"; exit 0 ;;
auto) ;;
*) die "CGSCALE_ACCEL must be kvm, tcg or auto" ;;
esac
[ $# -eq 1 ] || usage_error "no BZIMAGE given"
kernel=$1
cache=$BUILD/accel-probe
boot=$(cat /proc/sys/kernel/random/boot_id)
if [ -f "$cache" ] && [ "$(head -n 1 "$cache")" = "$boot" ]; then
	sed -n 2p "$cache"
	exit 0
fi
result=tcg
why="no /dev/kvm access"
if [ -r /dev/kvm ] && [ -w /dev/kvm ]; then
	why="a KVM guest did not boot within ${CGSCALE_KVM_PROBE_SECS:-40}s"
	mkdir -p "$LOGS"
	timeout -k 5 "${CGSCALE_KVM_PROBE_SECS:-40}" "$VENV/bin/vng" --run "$kernel" \
		--exec "echo cgscale-kvm-ok" </dev/null >"$LOGS/kvm-probe.log" 2>&1 || true
	if grep -q cgscale-kvm-ok "$LOGS/kvm-probe.log"; then
		result=kvm
	fi
fi
if [ "$result" = tcg ]; then
	echo "note: KVM not usable ($why, log: $LOGS/kvm-probe.log); guests run under QEMU TCG (software emulation)" >&2
fi
printf '%s\n%s\n' "$boot" "$result" >"$cache"
echo "$result"
