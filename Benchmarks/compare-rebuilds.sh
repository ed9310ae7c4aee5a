#!/usr/bin/env bash
# Benchmarks/compare-rebuilds.sh BASE_SITEGEN NEW_SITEGEN [N] [RUNS]
#
# One-ballot and no-change rebuilds of the rebuilds.sh corpus of N polls (default 10,000;
# run `Benchmarks/rebuilds.sh N` once first) by two sitegen binaries, alternating (base,
# new, base, new, …). Separate sittings of rebuilds.sh disagreed by more than the changes
# they were to compare (the same cold build took 77 s of CPU in one and 100 s in the next),
# and the kernel's caches move a rebuild's time as much (docs/performance.md, issue #16).
#
# Each binary gets its own copy of the site, since a build by another binary is always a
# full one (the binary is part of the build's fingerprint). Both copies are built once, the
# kernel's dentry and inode caches are dropped when it is allowed (root), and both are
# rebuilt once more before anything is timed. Each timed one-ballot rebuild first swaps
# the first vote file of its copy between its two versions (rebuilds.sh makes them).
# Prints every run and the medians of wall, user and system time and peak memory.
#
#   git worktree add /tmp/base <commit> && (cd /tmp/base && swift build -c release --product sitegen)
#   swift build -c release --product sitegen
#   Benchmarks/compare-rebuilds.sh /tmp/base/.build/release/sitegen .build/release/sitegen
set -euo pipefail
base=$(readlink -f "$1") new=$(readlink -f "$2") n=${3:-10000} runs=${4:-15}
here=$(cd "$(dirname "$0")" && pwd)
corpus=$here/work/rebuilds-n$n-f${PER_FILE:-100}
[ -f "$corpus/votes.original" ] || { echo "no corpus in $corpus: run Benchmarks/rebuilds.sh $n first" >&2; exit 2; }
log=$(mktemp)
trap 'rm -f "$log" "$log.run"' EXIT

# Beside the site, so that its relative paths (the templates) hold.
for which in base new; do
    rm -rf "$corpus/corpus/compare-$which"
    cp -a "$corpus/corpus/sitegen" "$corpus/corpus/compare-$which"
done
# The first vote file, as rebuilds.sh chose it, in each copy.
votes=$(cd "$corpus/corpus/sitegen" && find Data/votes -name '*.json' | sort | sed -n 1p)

# one WHICH KIND: one rebuild by WHICH's binary in its copy, after one changed ballot
# (KIND "ballot") or with nothing changed; appends "WHICH KIND wall user sys peak" to $log.
one() {
    local bin=$base; [ "$1" = new ] && bin=$new
    local site=$corpus/corpus/compare-$1
    if [ "$2" = ballot ]; then
        if cmp -s "$site/$votes" "$corpus/votes.original"; then cp "$corpus/votes.changed" "$site/$votes"
        else cp "$corpus/votes.original" "$site/$votes"; fi
    fi
    # A failed build stops the comparison with sitegen's own message.
    if ! (cd "$site" && /usr/bin/time -f "$1 $2 %e %U %S %M" -o "$log.run" "$bin" build --quiet >/dev/null); then
        echo "$1 ($bin) failed in $site" >&2
        exit 1
    fi
    cat "$log.run" >>"$log"
}

for which in base new; do one "$which" warm-up; done
sync
if [ -w /proc/sys/vm/drop_caches ]; then echo 2 >/proc/sys/vm/drop_caches; fi
for which in base new; do one "$which" ballot; done
: >"$log"
for _ in $(seq "$runs"); do for which in base new; do one "$which" ballot; done; done
for _ in $(seq $(( (runs + 1) / 2 ))); do for which in base new; do one "$which" same; done; done

python3 - "$log" "$n" <<'PY'
import statistics, sys
runs = [line.split() for line in open(sys.argv[1]) if line.strip()]
print(f"{int(sys.argv[2]):,} polls; medians (every run's wall time in brackets)")
for kind, label in (("ballot", "one ballot changed"), ("same", "nothing changed")):
    for which in ("base", "new"):
        rows = [[float(x) for x in r[2:6]] for r in runs if r[0] == which and r[1] == kind]
        wall, user, system, peak = (statistics.median(r[i] for r in rows) for i in range(4))
        print(f"{label:18} {which:4}: wall {wall:5.2f} s  user {user:5.2f} s  sys {system:5.2f} s  "
              f"peak {peak:,.0f} KB  {sorted(r[0] for r in rows)}")
PY
rm -rf "$corpus/corpus/compare-base" "$corpus/corpus/compare-new"
