#!/usr/bin/env bash
# Boot the field image (field/image.sh) with a kernel of the harness under
# QEMU TCG, systemd as PID 1 on a virtio disk, and run one job in it: the
# job script is shared over 9p, field-job.service runs it once the system
# is up and powers off. The image itself is never written (snapshot=on).
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"

usage() {
	cat <<'EOF'
usage: field/boot.sh --kernel BZIMAGE --out DIR [--image IMG] [--cpus N]
                     [--memory SIZE] [--timeout S] JOB
Boot IMG (default build/field/bookworm.ext4, made by field/image.sh) with
BZIMAGE under QEMU TCG (root=/dev/vda, systemd as PID 1; writes go to a
snapshot), run the shell script JOB in it as root once the system is up
(field-job.service), then power off. DIR gets console.log (the kernel's
and systemd's console), job.log, status (the job's exit status) and the
job's own files in DIR/share/out/. Exit status: the job's; 3 if the
console has a kernel splat; 4 if the job did not finish in S seconds
(default 1200).
  --cpus N        vCPUs (default 2), --memory SIZE (default 2G)
EOF
}
kernel= out= img= cpus=2 mem=2G timeout=1200 job=
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) [ $# -ge 2 ] || usage_error "--kernel needs a bzImage"; kernel=$2; shift 2 ;;
	--out) [ $# -ge 2 ] || usage_error "--out needs a directory"; out=$2; shift 2 ;;
	--image) [ $# -ge 2 ] || usage_error "--image needs a file"; img=$2; shift 2 ;;
	--cpus) [ $# -ge 2 ] || usage_error "--cpus needs a number"; cpus=$2; shift 2 ;;
	--memory) [ $# -ge 2 ] || usage_error "--memory needs a size"; mem=$2; shift 2 ;;
	--timeout) [ $# -ge 2 ] || usage_error "--timeout needs seconds"; timeout=$2; shift 2 ;;
	-h|--help) usage; exit 0 ;;
	-*) usage_error "unknown option '$1'" ;;
	*) [ -z "$job" ] || usage_error "one JOB only (got '$job' and '$1')"; job=$1; shift ;;
	esac
done
[ -n "$kernel" ] && [ -n "$out" ] && [ -n "$job" ] || usage_error "--kernel, --out and JOB are needed"
img=${img:-$BUILD/field/bookworm.ext4}
[ -f "$kernel" ] || die "field/boot.sh: no kernel $kernel (scripts/build-kernel.sh builds one)"
[ -f "$img" ] || die "field/boot.sh: no image $img; build it with field/image.sh"
[ -f "$job" ] || die "field/boot.sh: no job script $job"
need_cmd qemu-system-x86_64

mkdir -p "$out/share/out"
out=$(realpath "$out")
cp "$job" "$out/share/job.sh"
rm -f "$out/share/out/status" "$out/console.log"
step "booting $(basename "$img") with $kernel ($cpus vCPUs, TCG; console: $out/console.log)"
start=$(date +%s)
rc=0
timeout "$timeout" qemu-system-x86_64 -accel tcg -cpu max -smp "$cpus" -m "$mem" \
	-nographic -no-reboot -monitor none -serial "file:$out/console.log" \
	-kernel "$kernel" \
	-append "root=/dev/vda rw console=ttyS0 field.job=1 panic=-1 systemd.show_status=1" \
	-drive "file=$img,format=raw,if=virtio,snapshot=on" \
	-virtfs "local,path=$out/share,mount_tag=field,security_model=none,id=field" \
	-nic none </dev/null >"$out/qemu.log" 2>&1 || rc=$?
secs=$(($(date +%s) - start))
cp "$out/share/out/job.log" "$out/job.log" 2>/dev/null || : >"$out/job.log"
status=$(cat "$out/share/out/status" 2>/dev/null || echo none)
echo "$status" >"$out/status"
info "guest ran $((secs / 60)) min $((secs % 60)) s; job exit status: $status"
splat=0
"$TOP/scripts/check-splats.py" "$out/console.log" >"$out/splats.txt" 2>&1 || splat=1
if [ "$rc" -eq 124 ] || [ "$status" = none ]; then
	tail -n 20 "$out/console.log" >&2 || true
	warn "the job did not finish (qemu exit $rc after $secs s); console: $out/console.log"
	exit 4
fi
if [ "$splat" -eq 1 ]; then
	cat "$out/splats.txt" >&2
	exit 3
fi
exit "$status"
