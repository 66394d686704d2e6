#!/bin/bash
# seed-shrinker benchmark, guest side: guest.sh BINDIR
# The shrink-slab experiment (bench/shrink-slab/guest.sh: drop_caches time
# against N memcgs, each with its own tmpfs) on a geometric ladder of N,
# booted on the base ("on": per-memcg shrinker bitmaps) and on the
# shrinker-loop ablation ("off", bench/ablations/shrinker-loop.diff). The
# ablation is quadratic in N, so the ladder stops at the largest N whose
# boot stays under about 3 minutes under icount (docs/benchmarks.md).
export SS_COUNTS=${SS_COUNTS:-"125 250 500 1000 2000"}
export SS_REPEATS=${SS_REPEATS:-1}
exec "$(dirname "$0")/../shrink-slab/guest.sh" "$@"
