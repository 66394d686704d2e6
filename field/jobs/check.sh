#!/bin/sh
# field/jobs/check.sh: the field check, run as root in the field image by
# field-job.service (field/boot.sh). Prints "pass|fail field:NAME" lines;
# exits 1 if any failed. Not a --help command: it runs in the guest only.
#  - systemd reaches "running" (no failed unit);
#  - podman runs a container of the local busybox image with memory and
#    CPU limits (crun, cgroup v2, the systemd cgroup manager), and it
#    leaves no cgroup behind;
#  - every stat and pressure file of every cgroup reads.
fails=0
result() { # pass|fail NAME [WHY]
	echo "$1 field:$2${3:+ ($3)}"
	[ "$1" = pass ] || fails=$((fails + 1))
}

state=$(systemctl is-system-running --wait 2>/dev/null)
failed=$(systemctl --failed --no-legend --plain | awk '{print $1}' | tr '\n' ' ')
if [ "$state" = running ]; then
	result pass systemd-running
else
	result fail systemd-running "state $state; failed units: ${failed:-none}"
fi
echo "kernel: $(uname -r); systemd $(systemctl --version | head -n 1)"

if podman image exists localhost/busybox 2>/dev/null ||
	podman import /opt/field/busybox.tar localhost/busybox >/tmp/import.log 2>&1; then
	result pass podman-import
else
	result fail podman-import "$(tail -n 1 /tmp/import.log)"
fi
if out=$(podman --cgroup-manager systemd run --rm --network none --memory 64m --cpus 0.5 \
	localhost/busybox sh -c 'cat /proc/self/cgroup; echo ok' 2>&1); then
	result pass podman-run
else
	result fail podman-run "$(echo "$out" | tail -n 1)"
fi
left=$(find /sys/fs/cgroup -type d -name 'libpod-*' | wc -l)
if [ "$left" -eq 0 ]; then
	result pass podman-no-cgroup-left
else
	result fail podman-no-cgroup-left "$left libpod-* cgroups left"
fi

n=0 bad=0
for f in $(find /sys/fs/cgroup \( -name '*.stat' -o -name '*.pressure' -o -name 'memory.numa_stat' \) -type f); do
	n=$((n + 1))
	cat "$f" >/dev/null 2>&1 || { bad=$((bad + 1)); echo "unreadable: $f"; }
done
if [ "$n" -gt 0 ] && [ "$bad" -eq 0 ]; then
	result pass "stat-files($n files)"
else
	result fail stat-files "$bad of $n files did not read"
fi
echo "$fails failed"
[ "$fails" -eq 0 ]
