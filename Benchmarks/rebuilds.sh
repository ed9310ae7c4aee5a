#!/usr/bin/env bash
# Benchmarks/rebuilds.sh [N ...]      (default: 1000 10000)
#
# Rebuilds that cost what changed (issue #16): for each N, a corpus from generate.py (with
# its own copy of the templates), one cold build, then three kinds of rebuild, each RUNS
# times: one ballot changed, one poll edited, the poll template edited. Each run flips the
# input between its original and changed bytes, so every timed build has exactly one change
# against the build before it. Whole-process wall and CPU time (user + system, from
# /usr/bin/time), peak memory, and the files rewritten (new inode or modification time in
# the published folder); medians printed as a Markdown table and kept in
# Benchmarks/results/rebuilds-<UTC time>.md.
#
# Environment: RUNS=5, SITEGEN_BIN= (else a release build of this checkout), WORK=
# (default Benchmarks/work), PER_FILE=100 (polls per export file).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/.." && pwd)
RUNS=${RUNS:-5}
WORK=${WORK:-$HERE/work}
PER_FILE=${PER_FILE:-100}
SIZES=("$@")
[ ${#SIZES[@]} -gt 0 ] || SIZES=(1000 10000)
say() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }
die() { printf 'rebuilds.sh: error: %s\n' "$*" >&2; exit 1; }
[ -x /usr/bin/time ] || die "needs GNU time (apt-get install time)"

mkdir -p "$WORK"
BIN=$("$HERE/sitegen-bin.sh" "$WORK/rebuilds-build.log") || die "no sitegen to time"
mkdir -p "$HERE/results"
RESULT=$HERE/results/rebuilds-$(date -u +%Y%m%dT%H%M%SZ).md
# A binary given with SITEGEN_BIN may be another commit's: say so rather than name the checkout.
built=$(git -C "$REPO" rev-parse --short HEAD 2>/dev/null || echo '?')
[ -z "${SITEGEN_BIN:-}" ] || built="the binary $SITEGEN_BIN (checkout at $built)"
{
    echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC'); machine: $(nproc) cores, $(grep -m1 '^model name' /proc/cpuinfo | sed 's/^.*: //'), load average at start $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "- sitegen: $built; $RUNS runs per rebuild, medians; $PER_FILE polls per export file"
    echo
    echo "| polls | build | wall s | CPU s | peak MB | files rewritten | of files |"
    echo "|---:|---|---:|---:|---:|---:|---:|"
} >"$RESULT"

# timed LABEL: one build under /usr/bin/time; appends "wall cpu rss rewritten" to $samples.
timed() {
    local before=$WORK/rebuilds-before after=$WORK/rebuilds-after
    (cd "$site/Output" && find . -type f -printf '%P %i %T@\n' | LC_ALL=C sort) >"$before"
    /usr/bin/time -f '%e %U %S %M' -o "$WORK/rebuilds-time" "$BIN" build --config "$site/site.yml" --quiet \
        || die "$1: the build failed"
    (cd "$site/Output" && find . -type f -printf '%P %i %T@\n' | LC_ALL=C sort) >"$after"
    local rewritten
    rewritten=$(LC_ALL=C comm -13 "$before" "$after" | wc -l)
    read -r wall user system rss <"$WORK/rebuilds-time"
    echo "$wall $(echo "$user + $system" | bc) $rss $rewritten" >>"$samples"
    # Let the detached removal of the replaced site finish before the next run.
    for _ in $(seq 600); do compgen -G "$site/.Output.sitegen-trash-*" >/dev/null || break; sleep 0.5; done
}

# row N LABEL FILES: the medians of $samples as a table row.
row() {
    python3 - "$samples" "$1" "$2" "$3" >>"$RESULT" <<'PY'
import statistics, sys
rows = [list(map(float, line.split())) for line in open(sys.argv[1])]
wall, cpu, rss, rewritten = (statistics.median(column) for column in zip(*rows))
print(f"| {int(sys.argv[2]):,} | {sys.argv[3]} | {wall:.2f} | {cpu:.2f} | {rss / 1024:.0f} | {rewritten:.0f} | {int(sys.argv[4]):,} |")
PY
}

# flip FILE ORIGINAL CHANGED: swaps FILE between two versions.
flip() { if cmp -s "$1" "$2"; then cp "$3" "$1"; else cp "$2" "$1"; fi; }

for n in "${SIZES[@]}"; do
    corpus=$WORK/rebuilds-n$n-f$PER_FILE
    site=$corpus/sitegen
    if [ ! -f "$corpus/.done" ]; then
        say "N=$n: generating the corpus"
        rm -rf "$corpus"
        mkdir -p "$corpus"
        cp -r "$REPO/Templates" "$corpus/Templates"
        sed "s/^POLLS_PER_FILE = .*/POLLS_PER_FILE = $PER_FILE/" "$HERE/generate.py" >"$corpus/generate.py"
        python3 "$corpus/generate.py" "$n" "$corpus/gen" --templates "$corpus/Templates" >/dev/null
        mv "$corpus/gen" "$corpus/corpus"
        touch "$corpus/.done"
    fi
    site=$corpus/corpus/sitegen
    rm -rf "$site/Output" "$site"/.Output.sitegen-*
    samples=$WORK/rebuilds-samples
    say "N=$n: cold build"
    # One run: run.sh times cold builds properly; this row is the yardstick for the rebuilds.
    /usr/bin/time -f '%e %U %S %M' -o "$WORK/rebuilds-time" "$BIN" build --config "$site/site.yml" --quiet
    read -r wall user system rss <"$WORK/rebuilds-time"
    files=$(find "$site/Output" -type f | wc -l)
    echo "$wall $(echo "$user + $system" | bc) $rss $files" >"$samples"
    row "$n" "cold build" "$files"

    # sed reads to the end: `head -n 1` closed the pipe early, and under pipefail sort's
    # SIGPIPE (a 500-file folder at 50,000 polls) stopped the script without a word.
    votes=$(find "$site/Data/votes" -name '*.json' | sort | sed -n 1p)
    polls=$(find "$site/Data/polls" -name '*.json' | sort | sed -n 1p)
    template=$corpus/Templates/poll.mustache
    python3 -c 'import json, sys
votes = json.load(open(sys.argv[1])); votes[0]["rankings"] = votes[0]["rankings"][::-1]
json.dump(votes, open(sys.argv[2], "w"), indent=2)' "$votes" "$corpus/votes.changed"
    python3 -c 'import json, sys
polls = json.load(open(sys.argv[1])); polls[0]["title"] += " (edited)"
json.dump(polls, open(sys.argv[2], "w"), indent=2)' "$polls" "$corpus/polls.changed"
    cp "$votes" "$corpus/votes.original"
    cp "$polls" "$corpus/polls.original"
    cp "$template" "$corpus/template.original"
    { cat "$template"; echo "<!-- edited -->"; } >"$corpus/template.changed"

    for kind in "one ballot changed:$votes:votes" "one poll edited:$polls:polls" "poll template edited:$template:template"; do
        IFS=: read -r label file name <<<"$kind"
        say "N=$n: rebuild, $label ($RUNS runs)"
        : >"$samples"
        for _ in $(seq "$RUNS"); do
            flip "$file" "$corpus/$name.original" "$corpus/$name.changed"
            timed "$label"
        done
        cp "$corpus/$name.original" "$file"
        row "$n" "rebuild, $label" "$files"
        # Back to the original inputs, so the next kind starts from one change.
        "$BIN" build --config "$site/site.yml" --quiet
    done
    say "N=$n: no-change rebuild ($RUNS runs)"
    : >"$samples"
    for _ in $(seq "$RUNS"); do timed "no change"; done
    row "$n" "rebuild, nothing changed" "$files"
done
echo >>"$RESULT"
echo "- load average at end: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$RESULT"
cat "$RESULT"
