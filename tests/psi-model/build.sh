#!/bin/sh
# tests/psi-model/build.sh: build the differential PSI model.
#
#   build.sh OUT PSI_C PSI_TYPES_H BASE_PSI_C  ->  OUT/model
#
# The mirror universe M is extracted from PSI_C (the psi.c under test), the
# reference universe R from BASE_PSI_C (the base's); both are compiled
# with the enums and struct psi_group_cpu of PSI_TYPES_H (the tree's
# include/linux/psi_types.h). Generated sources and objects go to OUT/gen.
# checks/heavy/check-psi-model.sh runs it; see README.
set -e
[ $# -eq 4 ] || { echo "usage: $0 OUT PSI_C PSI_TYPES_H BASE_PSI_C" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
out=$1 src=$2 types=$3 base=$4
gen=$out/gen
mkdir -p "$gen"
# The tree's PSI types: psi_task_count up to the end of struct psi_group_cpu
sed -n '/^enum psi_task_count {/,/^} ____cacheline_aligned_in_smp;/p' "$types" >"$gen/psi_types_extract.h"
grep -q '^struct psi_group_cpu {' "$gen/psi_types_extract.h" ||
	{ echo "build.sh: no enum psi_task_count ... struct psi_group_cpu in $types" >&2; exit 1; }
# The kernel's fixed-width integer types, from the same tree
inc=$(dirname "$types")/..
{
	echo '#define __signed__ signed'
	grep -h '^typedef ' "$inc/uapi/asm-generic/int-ll64.h" "$inc/asm-generic/int-ll64.h"
} >"$gen/int_types.h"
python3 "$here/extract.py" "$src" "$gen/mirror.c" M_ test_states psi_chain_times psi_chain_read \
  get_recent_times psi_avgs_cpu_done record_times psi_avgs_mark_cpu psi_avgs_mark_kick \
  psi_avgs_mark_cpus macro:for_each_group psi_chain_times_now percpu:psi_mirror_gen \
  psi_mirror_ok psi_mirrors struct:psi_chain? psi_mirror_begin psi_mirror_end psi_mirror_skip \
  psi_mirror_above enum:psi_woke psi_group_change psi_oncpu_decode psi_groups_change \
  task_psi_group psi_flags_change psi_task_change psi_task_switch psi_account_irqtime psi_memstall_enter \
  psi_memstall_leave psi_unmirror cgroup_move_task psi_cgroup_restart psi_cgroup_exclude \
  psi_cgroup_release
echo '#include "wrap_mirror.h"' >>"$gen/mirror.c"
python3 "$here/extract.py" "$base" "$gen/ref.c" R_ test_states get_recent_times record_times \
  macro:for_each_group psi_group_change task_psi_group psi_flags_change psi_task_change \
  psi_task_switch psi_account_irqtime psi_memstall_enter psi_memstall_leave cgroup_move_task psi_cgroup_restart
echo '#include "wrap_ref.h"' >>"$gen/ref.c"
# -iquote: the generated int_types.h and psi_types_extract.h (included by
# shim.h) first
CFLAGS="-O1 -g -iquote $gen -I$here -Wall -Wno-unused-function -Wno-unused-variable -Wno-unused-but-set-variable ${EXTRA_CFLAGS:-}"
nice -n 19 gcc $CFLAGS -c "$gen/mirror.c" -o "$gen/mirror.o"
nice -n 19 gcc $CFLAGS -c "$gen/ref.c" -o "$gen/ref.o"
nice -n 19 gcc $CFLAGS -c "$here/driver.c" -o "$gen/driver.o"
nice -n 19 gcc -o "$out/model" "$gen/driver.o" "$gen/mirror.o" "$gen/ref.o"
echo "built $out/model"
