# Sourced by bench/*/guest.sh (guest side).
#
# make_parent PARENT CONTROLLERS
#   Enables CONTROLLERS ("+memory +io") in the root and creates PARENT with
#   them enabled for its children.
make_parent() {
	echo "$2" >/sys/fs/cgroup/cgroup.subtree_control &&
		mkdir -p "$1" &&
		echo "$2" >"$1/cgroup.subtree_control"
}

# io_loop TAG
#   Sets up an 8M loop device on /tmp/TAG-io.img; its path goes to IO_LOOP.
io_loop() {
	truncate -s 8M "/tmp/$1-io.img" &&
		IO_LOOP=$(losetup -f --show "/tmp/$1-io.img")
}

# direct_io
#   A little direct I/O to IO_LOOP, so that io.stat has a line for it (a
#   STEP for start_children).
direct_io() {
	dd if=/dev/zero of="$IO_LOOP" bs=4k count=4 oflag=direct status=none
	dd if="$IO_LOOP" of=/dev/null bs=4k count=4 iflag=direct status=none
}

# start_children PARENT N TAG [STEP]
#   Creates PARENT/c1 .. PARENT/cN, and in each a task that writes 4M of
#   random data to /tmp/TAG.<i> and reads it back (anon and page cache
#   memory charged to the child), runs STEP if given (a function name),
#   then sleeps, so the children are idle while the parent is measured.
#   Their pids go to CHILD_PIDS; stop_children kills them and removes the
#   cgroups and files.
start_children() {
	local parent=$1 n=$2 tag=$3 step=${4:-} i
	CHILD_PIDS=()
	for i in $(seq 1 "$n"); do
		mkdir -p "$parent/c$i" || return 1
		(echo $BASHPID >"$parent/c$i/cgroup.procs"
		 head -c 4M /dev/urandom >"/tmp/$tag.$i"
		 cat "/tmp/$tag.$i" >/dev/null
		 [ -z "$step" ] || "$step"
		 exec sleep 1000) &
		CHILD_PIDS+=($!)
	done
	sleep 1
}

# stop_children PARENT N TAG
stop_children() {
	local parent=$1 n=$2 tag=$3 i
	kill "${CHILD_PIDS[@]}" 2>/dev/null
	wait "${CHILD_PIDS[@]}" 2>/dev/null
	for i in $(seq 1 "$n"); do
		rmdir "$parent/c$i"
		rm -f "/tmp/$tag.$i"
	done
}
