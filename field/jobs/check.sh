#!/bin/sh
# field/jobs/check.sh: the field check, run as root in the field image by
# field-job.service (field/boot.sh). Prints "pass|fail field:NAME" lines;
# exits 1 if any failed. Not a --help command: it runs in the guest only.
#  - systemd reaches "running" (no failed unit);
#  - podman runs a container of the local busybox image with memory and
#    CPU limits (crun, cgroup v2, the systemd cgroup manager), and it
#    leaves no cgroup behind;
#  - systemd-oomd kills a memory hog in a slice with
#    ManagedOOMMemoryPressure=kill and spares a quiet one;
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

# systemd-oomd on a slice that asks for it: a memory hog under a tight
# memory.high must be killed on memory pressure within oomd's window; a
# quiet unit in a slice of the same kind must not be.
mkdir -p /run/systemd/system /etc/systemd/oomd.conf.d
printf '[OOM]\nDefaultMemoryPressureDurationSec=5s\n' >/etc/systemd/oomd.conf.d/field.conf
for s in field-hog field-quiet; do
	printf '[Slice]\nManagedOOMMemoryPressure=kill\nManagedOOMMemoryPressureLimit=20%%\n' >/run/systemd/system/$s.slice
done
systemctl daemon-reload
systemctl restart systemd-oomd
systemd-run -q --unit=field-quiet --slice=field-quiet.slice sleep 600
systemd-run -q --unit=field-hog --slice=field-hog.slice -p MemoryHigh=32M \
	stress-ng --vm 1 --vm-bytes 256M --vm-keep --timeout 300s
t0=$(date +%s) killed=
while [ $(($(date +%s) - t0)) -lt 120 ]; do
	if [ "$(systemctl show -P Result field-hog)" = oom-kill ] ||
		journalctl -q -u systemd-oomd --since "-5min" | grep -q 'Killed .*field-hog'; then
		killed=$(($(date +%s) - t0))
		break
	fi
	sleep 2
done
if [ -n "$killed" ]; then
	result pass "oomd-kills-the-hog(after ${killed} s)"
else
	result fail oomd-kills-the-hog "not killed in 120 s; memory.pressure: $(cat /sys/fs/cgroup/field.slice/field-hog.slice/memory.pressure 2>/dev/null | head -n 1)"
fi
if [ "$(systemctl is-active field-quiet)" = active ]; then
	result pass oomd-spares-the-quiet-slice
else
	result fail oomd-spares-the-quiet-slice "field-quiet is $(systemctl is-active field-quiet)"
fi
journalctl -q -u systemd-oomd --no-pager | tail -n 5
systemctl stop field-hog field-quiet 2>/dev/null

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
