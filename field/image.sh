#!/usr/bin/env bash
# The field image: a Debian bookworm system as the people who boot this
# kernel run it (systemd as PID 1, systemd-oomd, podman with crun, the
# workloads' tools), built with mmdebstrap from this machine's Debian
# mirror into an ext4 disk image under the build area. Rebuilt only when
# this script changes (or with --force). Booting it: field/boot.sh.
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"

usage() {
	cat <<'EOF'
usage: field/image.sh [--force] [--out FILE]
Build the field image: Debian bookworm (mmdebstrap, the machine's own
Debian mirror from /etc/apt/sources.list.d/debian.sources) with systemd as
PID 1, systemd-oomd, podman and crun, rt-tests (hackbench), linux-perf,
stress-ng, and a busybox root file system for a local container image
(/opt/field/busybox.tar, for "podman import": no registry is reachable).
Root has no password; the serial console logs in; field-job.service runs
the job of field/boot.sh (field.job=1 on the kernel command line). A sparse
ext4 image, label "field" (default build/field/bookworm.ext4), rebuilt
only when this script changed since the last build (--force: always).
Log: build/logs/field-image.log.
EOF
}
force=0 img=
while [ $# -gt 0 ]; do
	case $1 in
	--force) force=1; shift ;;
	--out) [ $# -ge 2 ] || usage_error "--out needs a file"; img=$2; shift 2 ;;
	-h|--help) usage; exit 0 ;;
	*) usage_error "unknown argument '$1'" ;;
	esac
done
img=${img:-$BUILD/field/bookworm.ext4}
log=$LOGS/field-image.log
sources=/etc/apt/sources.list.d/debian.sources
[ -r "$sources" ] || die "field/image.sh: no Debian sources entry at $sources to take the mirror from; nothing was built"
[ "$(id -u)" -eq 0 ] || die "field/image.sh: mmdebstrap's root mode needs root (sudo field/image.sh); nothing was built"

# What goes into the image; a change here (or anywhere in this script)
# rebuilds it.
PKGS=(systemd systemd-sysv systemd-oomd dbus udev kmod procps iproute2 less
	podman crun conmon catatonit fuse-overlayfs uidmap
	rt-tests linux-perf stress-ng busybox-static e2fsprogs)
stamp=$img.stamp
want=$(sha256sum "$0" | cut -d' ' -f1)
if [ "$force" -eq 0 ] && [ -f "$img" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
	info "field image up to date: $img"
	exit 0
fi

"$TOP/scripts/install-deps.sh" mmdebstrap e2fsprogs
need_disk "field/image.sh" 4 "the image's root tree and its ext4 image"
mkdir -p "$(dirname "$img")" "$LOGS"
root=$(dirname "$img")/root.tmp
rm -rf "$root"
start=$(date +%s)
step "building the Debian bookworm root tree with mmdebstrap (log: $log)"
# The customize hook runs on the host with the root tree as $1.
run_logged "mmdebstrap (is the mirror of $sources reachable?)" "$log" \
	mmdebstrap --mode=root --variant=apt --format=directory \
	--aptopt='APT::Install-Recommends "false"' \
	--include="$(IFS=,; echo "${PKGS[*]}")" \
	--customize-hook='echo field >"$1/etc/hostname"' \
	--customize-hook='printf "LABEL=field / ext4 defaults 0 1\n" >"$1/etc/fstab"' \
	--customize-hook='chroot "$1" passwd -d root' \
	--customize-hook='mkdir -p "$1/etc/systemd/system/serial-getty@ttyS0.service.d" && printf "[Service]\nExecStart=\nExecStart=-/sbin/agetty --autologin root --keep-baud 115200,57600,38400,9600 %%I \$TERM\n" >"$1/etc/systemd/system/serial-getty@ttyS0.service.d/autologin.conf"' \
	--customize-hook='d=$(mktemp -d) && mkdir -p "$d/bin" && cp "$1/bin/busybox" "$d/bin/" && for a in sh sleep cat true dd head; do ln -s busybox "$d/bin/$a"; done && mkdir -p "$1/opt/field" && tar -C "$d" -cf "$1/opt/field/busybox.tar" . && rm -rf "$d"' \
	--customize-hook='rm -f "$1/etc/machine-id" && touch "$1/etc/machine-id"' \
	--customize-hook='cat >"$1/etc/systemd/system/field-job.service" <<UNIT
[Unit]
Description=the job of field/boot.sh, from the host share "field"
ConditionKernelCommandLine=field.job=1
After=multi-user.target

[Service]
Type=simple
ExecStart=/bin/sh -c "mkdir -p /run/field && mount -t 9p -o trans=virtio,version=9p2000.L field /run/field && mkdir -p /run/field/out && { sh /run/field/job.sh >/run/field/out/job.log 2>&1; echo \$\$? >/run/field/out/status; }; systemctl poweroff"
StandardOutput=journal+console

[Install]
WantedBy=multi-user.target
UNIT
chroot "$1" systemctl enable field-job.service' \
	bookworm "$root" "$sources"
step "writing the ext4 image $img"
size_mib=$(( $(du -sm "$root" | cut -f1) * 3 / 2 + 1024 ))
rm -f "$img.tmp"
run_logged "mkfs.ext4 -d" "$log.mkfs" mkfs.ext4 -q -F -L field -d "$root" "$img.tmp" "${size_mib}M"
rm -rf "$root"
mv "$img.tmp" "$img"
echo "$want" >"$stamp"
secs=$(($(date +%s) - start))
info "built $img ($size_mib MiB, $(du -sm "$img" | cut -f1) MiB used) in $((secs / 60)) min $((secs % 60)) s"
