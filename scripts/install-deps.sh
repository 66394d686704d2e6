#!/usr/bin/env bash
# Install what the harness needs on a Debian host: kernel build tools, QEMU,
# udev (virtme-ng's script I/O ports), clang/llvm and static zlib (the bench
# suite's BPF programs), python3-ply and python3-git (checkpatch's
# spdxcheck.py, which runs when checkpatch runs in the tree, as under b4
# prep --check), and virtme-ng and b4 (pinned; b4 makes the per-tree
# submissions, submit/prepare-submission.sh) in a venv under the build area,
# stress-ng (the guest load of checks/stress.sh) and trinity (the system-call
# fuzzer of checks/fuzz-smoke.sh and checks/heavy/fuzz-campaign.sh).
# Installs only what is missing. Arguments: further apt packages.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

usage() {
	cat <<'EOF'
usage: scripts/install-deps.sh [APT-PACKAGE...]
Install what the harness needs on a Debian host, only what is missing: the
kernel build tools, QEMU, clang/llvm, stress-ng, trinity and the other apt
packages, plus the APT-PACKAGEs given; virtme-ng, b4, pytest and matplotlib
(pinned) in the venv build/venv. Logs: build/logs/apt.log, pip.log.
EOF
}
only_operands "$@"
VIRTME_NG_VERSION=1.42
B4_VERSION=0.16.0
MATPLOTLIB_VERSION=3.9.2
PYTEST_VERSION=8.3.3
APT_PKGS=(build-essential flex bison bc libelf-dev libssl-dev dwarves ccache
	qemu-system-x86 udev python3-venv cpio kmod rsync
	busybox-static zstd xz-utils perl git python3-ply python3-git
	clang llvm zlib1g-dev stress-ng trinity)
# Extra packages a heavy check asks for (check-build-matrix.sh: clang-19 ...)
APT_PKGS+=("$@")

mapfile -t missing < <(missing_packages "${APT_PKGS[@]}")
mkdir -p "$LOGS"
if [ "${#missing[@]}" -gt 0 ]; then
	step "installing ${missing[*]} (apt, log: $LOGS/apt.log)"
	sudo=
	[ "$(id -u)" -eq 0 ] || sudo=sudo
	command -v apt-get >/dev/null || die "apt-get not found: this harness needs a Debian-based host"
	run_logged "apt-get update" "$LOGS/apt.log" $sudo apt-get update -q
	DEBIAN_FRONTEND=noninteractive run_logged "apt-get install (no apt access? check the mirror in /etc/apt/sources.list.d)" \
		"$LOGS/apt.log" $sudo env DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

if [ "$("$VENV/bin/vng" --version 2>/dev/null)" != "virtme-ng $VIRTME_NG_VERSION" ]; then
	step "installing virtme-ng $VIRTME_NG_VERSION into $VENV (pip, log: $LOGS/pip.log)"
	run_logged "python3 -m venv" "$LOGS/pip.log" python3 -m venv "$VENV"
	run_logged "pip install virtme-ng==$VIRTME_NG_VERSION (no PyPI access?)" "$LOGS/pip.log" \
		"$VENV/bin/pip" install -q "virtme-ng==$VIRTME_NG_VERSION"
fi
if [ "$("$VENV/bin/b4" --version 2>/dev/null)" != "$B4_VERSION" ]; then
	step "installing b4 $B4_VERSION into $VENV (pip, log: $LOGS/pip.log)"
	run_logged "pip install b4==$B4_VERSION (no PyPI access?)" "$LOGS/pip.log" \
		"$VENV/bin/pip" install -q "b4==$B4_VERSION"
fi
if ! "$VENV/bin/python" -c "import matplotlib, pytest" 2>/dev/null; then
	step "installing pytest $PYTEST_VERSION and matplotlib $MATPLOTLIB_VERSION into $VENV"
	run_logged "pip install pytest matplotlib (no PyPI access?)" "$LOGS/pip.log" \
		"$VENV/bin/pip" install -q "pytest==$PYTEST_VERSION" "matplotlib==$MATPLOTLIB_VERSION"
fi
info "host tools ready (virtme-ng $VIRTME_NG_VERSION, b4 $B4_VERSION, $(qemu-system-x86_64 --version | head -n 1))"
