#!/usr/bin/env bash
# Benchmarks/compare.sh BASE_SITEGEN NEW_SITEGEN SITE_FOLDER [RUNS]
#
# Cold builds of one site by two sitegen binaries, alternating (base, new, base, new, …) so
# that a busy machine slows both alike; prints wall, user and system time and peak memory of
# every run and the medians. For a refactoring that must not change speed (issue #18), e.g.:
#
#   git worktree add /tmp/base <commit> && (cd /tmp/base && swift build -c release --product sitegen)
#   swift build -c release --product sitegen
#   python3 Benchmarks/generate.py 10000 Benchmarks/work/n10000
#   Benchmarks/compare.sh /tmp/base/.build/release/sitegen .build/release/sitegen Benchmarks/work/n10000/sitegen
#
# Outputs go beside the site and are renamed aside between runs (Benchmarks/aside.sh).
set -euo pipefail
base=$(readlink -f "$1") new=$(readlink -f "$2") site=$(readlink -f "$3") runs=${4:-3}
here=$(cd "$(dirname "$0")" && pwd)
trash="$site/../compare-trash"
log=$(mktemp)
for i in $(seq "$runs"); do
    for which in base new; do
        bin=$base; [ "$which" = new ] && bin=$new
        "$here/aside.sh" "$trash" "$site/compare-output" "$site/.compare-output.sitegen-state.json"
        (cd "$site" && /usr/bin/time -f "$which %e %U %S %M" "$bin" build --output compare-output --quiet) 2>&1 >/dev/null \
            | tail -1 | tee -a "$log" | awk '{ printf "%-4s run: wall %6.2f s  user %6.2f s  sys %6.2f s  peak %4.0f MB\n", $1, $2, $3, $4, $5 / 1024 }'
    done
done
for which in base new; do
    grep "^$which " "$log" | awk -v w="$which" '
        { wall[NR] = $2; user[NR] = $3; sys[NR] = $4; peak[NR] = $5 }
        function median(a, n,   i, j, t) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
                                           return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
        END { printf "%-4s median of %d: wall %6.2f s  user %6.2f s  sys %6.2f s  peak %4.0f MB\n", w, NR, median(wall, NR), median(user, NR), median(sys, NR), median(peak, NR) / 1024 }'
done
rm -f "$log"
echo "(renamed outputs are in $trash; remove it when done)"
