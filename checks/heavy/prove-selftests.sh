#!/usr/bin/env bash
# Show that the series' selftests can fail: for each tests/breaks/TEST.diff
# (a kernel change that breaks the behaviour TEST pins down), apply it to the
# work tree, rebuild the test kernel, run TEST in the guest and require that
# it fails. A TEST that is not a program of config/selftests.list names a
# KUnit suite built into config "test" by its part before the first "-"
# (seq_buf-keyed-no-nul: suite seq_buf); the guest is booted and a case of
# that suite must fail. TEST-VARIANT.diff is one more break of program TEST.
# A TEST that names a program of config/selftests-sysfs.list (sysfs_perm,
# which build-selftests.sh installs from filesystems/sysfs) is run from
# there with its timeout; not built, it fails without a boot.
# The work tree is restored afterwards (also on
# error) and the kernel rebuilt from the clean tree.
#
#   prove-selftests.sh [TEST...]
set -euo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"
. "$(dirname "$0")/../../scripts/series.sh"

usage() {
	cat <<'EOF'
usage: checks/heavy/prove-selftests.sh [TEST...]
Show that the series' selftests can fail: for each tests/breaks/TEST.diff
(default: all), apply it to the work tree (which must be clean), rebuild
the test kernel, run TEST (a selftest program, or a KUnit suite) in the
guest and require that it fails. The work tree is restored afterwards and
the kernel rebuilt from it. Prints "pass|fail prove:TEST"; exits 1 if a
TEST still passed. Logs: build/prove/TEST/.
EOF
}
only_operands "$@"
[ -z "$(sgit status --porcelain --untracked-files=no)" ] ||
	die "the work tree $SRC has uncommitted changes; commit or stash them first"
obj=$BUILD/obj/patched-test
tests=("$@")
if [ "${#tests[@]}" -eq 0 ]; then
	for d in "$TOP"/tests/breaks/*.diff; do tests+=("$(basename "$d" .diff)"); done
fi
restore() { sgit checkout -q -- . ; }
trap restore EXIT
failed=0
for t in "${tests[@]}"; do
	diff=$TOP/tests/breaks/$t.diff
	[ -f "$diff" ] || die "no $diff"
	step "$t: applying $(basename "$diff") and rebuilding"
	sgit apply "$diff" || die "$diff does not apply to the work tree"
	"$TOP/scripts/build-kernel.sh" test >/dev/null
	# until the clean rebuild at the end: run-guest.sh warns that this
	# kernel is broken on purpose, should the run be cut short
	echo "$t" >"$obj/.prove-break"
	out=$BUILD/prove/$t
	rm -rf "$out"
	# TEST-variant.diff: another break of the same program
	prog=$t
	ksft=$obj/kselftest/cgroup
	list=$TOP/config/selftests.list
	if grep -qE "^${t%%-*}([[:space:]]|$)" "$list"; then
		prog=${t%%-*}
	elif grep -qE "^${t%%-*}([[:space:]]|$)" "$TOP/config/selftests-sysfs.list"; then
		prog=${t%%-*}
		ksft=$obj/kselftest/filesystems/sysfs
		list=$TOP/config/selftests-sysfs.list
		if [ ! -x "$ksft/$prog" ]; then
			echo "fail prove:$t ($prog is not built: no $ksft/$prog; does $SRC have tools/testing/selftests/filesystems/sysfs?)"
			failed=1
			restore
			continue
		fi
	fi
	if ! grep -qE "^$prog([[:space:]]|$)" "$list"; then
		suite=${t%%-*}
		"$TOP/scripts/run-guest.sh" --out "$out" -- true >/dev/null || true
		"$TOP/checks/kunit-results.py" "$out/dmesg.txt" "$suite" >"$out/summary.txt" || true
		grep '^fail' "$out/summary.txt" | sed 's/^/    /'
		if grep -q "^fail kunit:$suite\." "$out/summary.txt"; then
			echo "pass prove:$t (KUnit suite $suite fails with the behaviour broken)"
		else
			echo "fail prove:$t (KUnit suite $suite still passes with the behaviour broken)"
			failed=1
		fi
		restore
		continue
	fi
	"$TOP/scripts/run-guest.sh" --out "$out" -- "$TOP/scripts/guest/run-selftests.sh" \
		"$ksft" "$list" "$out/st" "$prog" >/dev/null || true
	"$TOP/scripts/summarize-selftests.py" "$out/st" /dev/null >"$out/summary.txt" || true
	grep -E '^  \S+ +(FAIL|PASS|SKIP)' "$out/summary.txt" | sed 's/^/    /'
	if grep -qE '^  \S+ +FAIL' "$out/summary.txt"; then
		echo "pass prove:$t (fails with the behaviour broken)"
	else
		echo "fail prove:$t (still passes with the behaviour broken)"
		failed=1
	fi
	restore
done
step "rebuilding the test kernel from the clean work tree"
"$TOP/scripts/build-kernel.sh" test >/dev/null
exit "$failed"
