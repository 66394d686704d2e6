#!/usr/bin/env bash
# Obtain the pinned base (Debian linux-source-7.3 7.3~rc7-1~exp1), verify it
# against base/SHA256SUMS and unpack it once into $BUILD/base.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

usage() {
	cat <<'EOF'
usage: scripts/get-base.sh [-h|--help]
Obtain the pinned base (Debian linux-source-7.3 7.3~rc7-1~exp1: from
../shared/base/, CGSCALE_BASE_DEB, CGSCALE_BASE_TARBALL or apt), verify it
against base/SHA256SUMS and unpack it once into build/base. Takes no
arguments.
EOF
}
only_operands "$@"
[ $# -eq 0 ] || usage_error "unknown argument '$1' (it takes none)"
stamp=$BASE_TREE/.cgscale-unpacked
if [ -f "$stamp" ]; then
	info "base tree cached: $BASE_TREE"
	exit 0
fi

dl=$BUILD/base/download
mkdir -p "$dl"

want_sum() {
	awk -v f="$1" '$2 == f { print $1 }' "$TOP/base/SHA256SUMS"
}

verify() { # FILE NAME
	local got want
	want=$(want_sum "$2")
	got=$(sha256sum "$1" | cut -d' ' -f1)
	if [ "$got" != "$want" ]; then
		die "checksum mismatch for $1: got $got, base/SHA256SUMS pins $want.
       This is not $BASE_PKG $BASE_VERSION; remove or replace that file."
	fi
}

apt_download() {
	# Rewrite the machine's existing Debian sources entry into a private apt
	# configuration for the experimental suite; the system's apt setup stays
	# as it is.
	local src=/etc/apt/sources.list.d/debian.sources aptdir=$BUILD/base/apt uri
	[ -r "$src" ] || die "no deb822 Debian sources entry at $src to take the mirror from;
       put the .deb in ../shared/base/ or set CGSCALE_BASE_DEB / CGSCALE_BASE_TARBALL"
	uri=$(awk '/^URIs:/ && !seen { print $2; seen = 1 }' "$src")
	[ -n "$uri" ] || die "no URIs: line in $src"
	mkdir -p "$aptdir/lists/partial" "$aptdir/archives/partial" "$aptdir/sources.list.d"
	awk -v uri="$uri" '
		BEGIN { RS = ""; ORS = "\n\n" }
		$0 ~ ("URIs: " uri) && !done {
			n = split($0, l, "\n"); out = ""
			for (i = 1; i <= n; i++) {
				if (l[i] ~ /^Suites:/) l[i] = "Suites: experimental"
				out = out l[i] "\n"
			}
			printf "%s\n", out; done = 1
		}' "$src" >"$aptdir/sources.list.d/experimental.sources"
	local opts=(-o "Dir::Etc::SourceList=/dev/null"
		-o "Dir::Etc::SourceParts=$aptdir/sources.list.d"
		-o "Dir::State::Lists=$aptdir/lists"
		-o "Dir::Cache::Archives=$aptdir/archives")
	info "apt: fetching $BASE_PKG=$BASE_VERSION from the experimental suite of $uri"
	run_logged "apt-get update (experimental)" "$LOGS/base-apt.log" \
		apt-get "${opts[@]}" update
	(cd "$dl" && apt-get "${opts[@]}" download "$BASE_PKG=$BASE_VERSION") \
		>>"$LOGS/base-apt.log" 2>&1 ||
		die "apt could not download $BASE_PKG=$BASE_VERSION (log: $LOGS/base-apt.log).
       Check the network/mirror, or put the .deb in ../shared/base/"
	# apt escapes ':' and '~' in file names
	mv "$dl"/"${BASE_PKG}"_*_all.deb "$dl/$BASE_DEB" 2>/dev/null || true
}

tarball=
if [ -n "${CGSCALE_BASE_TARBALL:-}" ]; then
	[ -f "$CGSCALE_BASE_TARBALL" ] || die "CGSCALE_BASE_TARBALL=$CGSCALE_BASE_TARBALL does not exist"
	verify "$CGSCALE_BASE_TARBALL" "$BASE_TARBALL"
	tarball=$CGSCALE_BASE_TARBALL
else
	deb=${CGSCALE_BASE_DEB:-}
	if [ -z "$deb" ] && [ -f "$SHARED/base/$BASE_DEB" ]; then
		deb=$SHARED/base/$BASE_DEB
	fi
	if [ -z "$deb" ] && [ -f "$dl/$BASE_DEB" ]; then
		deb=$dl/$BASE_DEB
	fi
	if [ -z "$deb" ]; then
		need_cmd apt-get
		apt_download
		deb=$dl/$BASE_DEB
	fi
	[ -f "$deb" ] || die "base package $deb not found"
	step "verifying $deb"
	verify "$deb" "$BASE_DEB"
	tarball=$dl/$BASE_TARBALL
	dpkg-deb --fsys-tarfile "$deb" | tar -xO "./usr/src/$BASE_TARBALL" >"$tarball.tmp"
	verify "$tarball.tmp" "$BASE_TARBALL"
	mv "$tarball.tmp" "$tarball"
fi

step "unpacking $BASE_TARBALL into $BUILD/base"
rm -rf "$BASE_TREE" "$BASE_TREE.tmp"
mkdir -p "$BASE_TREE.tmp"
tar -xJf "$tarball" -C "$BASE_TREE.tmp" --strip-components=1
[ -f "$BASE_TREE.tmp/Makefile" ] || die "$tarball does not hold a kernel tree"
mv "$BASE_TREE.tmp" "$BASE_TREE"
touch "$stamp"
[ "$tarball" = "$dl/$BASE_TARBALL" ] && rm -f "$tarball"
info "base tree: $BASE_TREE ($(sed -n 's/^\(VERSION\|PATCHLEVEL\|EXTRAVERSION\) = //p' "$BASE_TREE/Makefile" | tr '\n' ' '))"
