#!/usr/bin/env bash
# Benchmarks/run.sh [N ...]      (default: 1000 10000)
#
# One command: installs Hugo, hyperfine and GNU time from Debian when missing, builds
# sitegen in release mode, generates a corpus of N polls and its Hugo twin for each N,
# times cold builds of both side by side, the no-change rebuild, the `cp -r` write floor
# and what warnings and link preview images add, measures peak memory, and prints one
# Markdown table (also written, with the raw hyperfine JSON, to Benchmarks/results/<UTC
# time>/). See Benchmarks/README.md.
#
# Environment:
#   RUNS=5            timed runs per command (hyperfine --runs)
#   WARMUP=1          untimed warm-up runs per command (hyperfine --warmup)
#   SETTLE=60         seconds to wait after deleting old output trees before the next N
#   HUGO_MAX_N=10000  skip Hugo above this N (its memory grows with the page count)
#   SITEGEN_SRC=..    the sitegen checkout to build (default: this repository)
#   SITEGEN_BIN=      benchmark this sitegen binary instead of building one
#   SITEGEN_REVISION= how to name that sitegen in the header (default: git commit of SITEGEN_SRC)
#   SCRATCH=          SwiftPM scratch path (default: $SITEGEN_SRC/.build-bench)
#   WORK=             corpora and outputs (default: Benchmarks/work, git-ignored)
#   RESULTS=          where results go (default: Benchmarks/results)
#   BENCH_SYNC=1      sync before each timed run (0 to skip)
#   ONLY=             `previews`: only the checking build (1) and the link preview images (7)
#   REBUILDS=1        then Benchmarks/rebuilds.sh for the same N and binary (0 to skip):
#                     one ballot, one poll, the poll template changed, files rewritten
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/.." && pwd)
SRC=$(cd "${SITEGEN_SRC:-$REPO}" && pwd)
RUNS=${RUNS:-5}
WARMUP=${WARMUP:-1}
SETTLE=${SETTLE:-60}
HUGO_MAX_N=${HUGO_MAX_N:-10000}
SCRATCH=${SCRATCH:-$SRC/.build-bench}
WORK=${WORK:-$HERE/work}
RESULTS=${RESULTS:-$HERE/results}
export BENCH_SYNC=${BENCH_SYNC:-1}
ONLY=${ONLY:-}
SIZES=("$@")
[ ${#SIZES[@]} -gt 0 ] || SIZES=(1000 10000)

say() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }
die() { printf 'run.sh: error: %s\n' "$*" >&2; exit 1; }

for n in "${SIZES[@]}"; do
    [[ $n =~ ^[1-9][0-9]*$ ]] || die "N must be a positive integer, got '$n'"
done
[[ $RUNS =~ ^[1-9][0-9]*$ ]] || die "RUNS must be a positive integer, got '$RUNS'"
[[ $WARMUP =~ ^[0-9]+$ ]] || die "WARMUP must be a non-negative integer, got '$WARMUP'"
[[ $ONLY =~ ^(previews)?$ ]] || die "ONLY must be empty or 'previews', got '$ONLY'"

# ---------------------------------------------------------------- tools

missing=()
command -v hugo >/dev/null || missing+=(hugo)
command -v hyperfine >/dev/null || missing+=(hyperfine)
[ -x /usr/bin/time ] || missing+=(time)
command -v python3 >/dev/null || missing+=(python3)
if [ ${#missing[@]} -gt 0 ]; then
    say "Installing ${missing[*]} from Debian"
    sudo=()
    if [ "$(id -u)" != 0 ]; then
        command -v sudo >/dev/null || die "need root (or sudo) to install: ${missing[*]}"
        sudo=(sudo)
    fi
    "${sudo[@]}" apt-get -o DPkg::Lock::Timeout=600 update
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y "${missing[@]}"
fi

# ---------------------------------------------------------------- sitegen

mkdir -p "$WORK"
if [ -n "${SITEGEN_BIN:-}" ]; then
    BIN=$(realpath "$SITEGEN_BIN")
    [ -x "$BIN" ] || die "SITEGEN_BIN=$SITEGEN_BIN is not an executable"
    say "Using sitegen binary $BIN"
else
    command -v swift >/dev/null || die "swift not found: install Swift 6 (see README.md), or set SITEGEN_BIN"
    say "Building sitegen (release) in $SRC, scratch path $SCRATCH"
    build_log=$WORK/sitegen-build.log
    if ! (cd "$SRC" && swift build -c release --product sitegen --scratch-path "$SCRATCH") >"$build_log" 2>&1; then
        tail -n 40 "$build_log" >&2
        die "sitegen's release build failed (full log: $build_log)"
    fi
    BIN=$(cd "$SRC" && swift build -c release --product sitegen --scratch-path "$SCRATCH" --show-bin-path)/sitegen
    [ -x "$BIN" ] || die "the build succeeded but $BIN does not exist"
fi
TEMPLATES=$SRC/Templates
[ -f "$TEMPLATES/layout.mustache" ] || die "$TEMPLATES is not a sitegen Templates folder"

# ---------------------------------------------------------------- results folder, machine

STAMP=$(date -u +%Y%m%dT%H%M%SZ)
# Written as <stamp>.partial and renamed when the run completes: a failed run leaves
# nothing that looks like a result.
FINAL=$RESULTS/$STAMP
OUT=$FINAL.partial
RAW=$OUT/raw
mkdir -p "$RAW"
TRASH=$WORK/trash
# Left over from an interrupted run: delete now, and let the disk settle before timing.
if [ -e "$TRASH" ]; then
    say "Deleting $TRASH (left by an interrupted run), then waiting ${SETTLE}s for the disk to settle"
    rm -rf "$TRASH"
    sync
    sleep "$SETTLE"
fi
cleanup() { rm -rf "$TRASH"; }
trap cleanup EXIT

revision=${SITEGEN_REVISION:-"(not a git checkout)"}
if [ -z "${SITEGEN_REVISION:-}" ] && git -C "$SRC" rev-parse --git-dir >/dev/null 2>&1; then
    revision=$(git -C "$SRC" rev-parse --short HEAD)
    git -C "$SRC" diff --quiet HEAD -- Sources Templates Package.swift 2>/dev/null || revision="$revision + uncommitted changes"
fi
cpu=$(grep -m1 '^model name' /proc/cpuinfo | sed 's/^model name[[:space:]]*:[[:space:]]*//' || echo unknown)
mem_gb=$(awk '/^MemTotal/ { printf "%.1f", $2 / 1048576 }' /proc/meminfo)
{
    echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "- machine: $(nproc) cores, $cpu, $mem_gb GiB RAM, $(uname -sr)"
    echo "- load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "- sitegen: $revision ($BIN)"
    echo "- $(hugo version | cut -d' ' -f1-2), hyperfine $(hyperfine --version | cut -d' ' -f2), $(swift --version 2>/dev/null | head -n1 | sed 's/ (.*//' || echo 'swift: n/a')"
    echo "- runs: $RUNS timed + $WARMUP warm-up per command; medians; cold = output folder renamed aside before each run"
} >"$OUT/header.md"
load1=$(cut -d' ' -f1 /proc/loadavg)
if awk -v l="$load1" 'BEGIN { exit !(l > 0.5) }'; then
    say "warning: load average is $load1: the machine is not quiet; compare only numbers from one run"
fi

# ---------------------------------------------------------------- helpers

q() { printf '%q' "$1"; }

# snapshot DIR FILE: every file's path, size and mtime, and its SHA-256.
snapshot() {
    (cd "$1" && find . -type f -printf '%P\t%s\t%T@\n' | LC_ALL=C sort) >"$2.stat"
    (cd "$1" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 -r sha256sum) >"$2.sha256"
}

# peak_rss LABEL OUTFILE COMMAND...: one run under /usr/bin/time -v; fails loudly.
peak_rss() {
    local label=$1 file=$2 status=0
    shift 2
    /usr/bin/time -v -o "$file" "$@" >"$file.stdout" 2>"$file.stderr" || status=$?
    if [ $status != 0 ]; then
        tail -n 40 "$file.stderr" >&2
        die "$label failed with exit status $status (output above; all of it in $file.stderr)"
    fi
}

# ensure_space BYTES WHAT: room for BYTES more on the work disk. When there is not, the
# trash is deleted and the disk left to settle first (deleting is what slows writes).
ensure_space() {
    local need=$1 what=$2 avail
    avail=$(df -P -B1 "$WORK" | awk 'NR == 2 { print $4 }')
    [ "$need" -gt "$avail" ] || return 0
    say "Not enough room for $what ($((need / 1000000)) MB, $((avail / 1000000)) MB free): deleting the trash, then waiting ${SETTLE}s"
    rm -rf "$TRASH"
    sync
    sleep "$SETTLE"
    avail=$(df -P -B1 "$WORK" | awk 'NR == 2 { print $4 }')
    [ "$need" -le "$avail" ] || die "$what needs about $((need / 1000000)) MB, only $((avail / 1000000)) MB free (lower RUNS)"
}

html_count() { find "$1" -type f -name '*.html' | wc -l; }

# ---------------------------------------------------------------- each N

first=1
for n in "${SIZES[@]}"; do
    corpus=$WORK/n$n
    sg=$corpus/sitegen
    hg=$corpus/hugo
    with_hugo=1
    [ "$n" -le "$HUGO_MAX_N" ] && [ -z "$ONLY" ] || with_hugo=0

    if [ $first = 0 ]; then
        say "Deleting the previous size's output trees, then waiting ${SETTLE}s for the disk to settle"
        rm -rf "$TRASH"
        sync
        sleep "$SETTLE"
    fi
    first=0

    # Corpus: regenerated only when generate.py, N or the templates path changed.
    want="$(sha256sum "$HERE/generate.py" | cut -d' ' -f1) $n $TEMPLATES"
    # Earlier outputs are moved aside, not deleted (the trash goes after this size).
    "$HERE/aside.sh" "$TRASH" "$sg/Output" "$sg"/.Output.sitegen-* \
        "$hg/public" "$hg/resources" "$hg/.hugo-cache" "$corpus/cp-floor"
    if [ "$(cat "$corpus/.stamp" 2>/dev/null)" != "$want" ]; then
        say "N=$n: generating the corpus in $corpus"
        "$HERE/aside.sh" "$TRASH" "$corpus/sitegen" "$corpus/hugo"  # an older corpus: not deleted now either
        python3 "$HERE/generate.py" "$n" "$corpus" --templates "$TEMPLATES"
        echo "$want" >"$corpus/.stamp"
    else
        say "N=$n: reusing the corpus in $corpus"
    fi
    cp "$corpus/corpus.json" "$RAW/n$n-corpus.json"

    rm -rf "$corpus/snapshots"  # small files; not output trees
    sitegen_cmd="$(q "$BIN") build --config $(q "$sg/site.yml") --quiet"
    hugo_cmd="hugo --source $(q "$hg") --cacheDir $(q "$hg/.hugo-cache") --quiet"
    # Cold: the output and everything sitegen keeps beside it (staging folder, build state
    # for incremental publishing, lock) go; the glob is expanded when hyperfine runs it.
    sitegen_aside="$(q "$HERE/aside.sh") $(q "$TRASH") $(q "$sg/Output") $(q "$sg")/.Output.sitegen-*"
    hugo_aside="$(q "$HERE/aside.sh") $(q "$TRASH") $(q "$hg/public") $(q "$hg/resources") $(q "$hg/.hugo-cache")"
    floor_aside="$(q "$HERE/aside.sh") $(q "$TRASH") $(q "$corpus/cp-floor")"

    # 1. One cold build of each under /usr/bin/time -v: checks it works, peak memory, pages.
    say "N=$n: checking sitegen builds the corpus (peak memory run)"
    "$HERE/aside.sh" "$TRASH" "$sg/Output" "$sg"/.Output.sitegen-*
    peak_rss "sitegen build of $sg" "$RAW/n$n-sitegen.time" "$BIN" build --config "$sg/site.yml"
    tail -n 1 "$RAW/n$n-sitegen.time.stdout" >&2 || true
    warnings=$(grep -c 'warning:' "$RAW/n$n-sitegen.time.stderr" || true)
    [ "$warnings" = 0 ] || say "warning: sitegen reported $warnings warnings on the corpus (see $RAW/n$n-sitegen.time.stderr)"
    sitegen_pages=$(html_count "$sg/Output")
    sitegen_files=$(find "$sg/Output" -type f | wc -l)
    output_bytes=$(du -sb "$sg/Output" | cut -f1)
    hugo_pages=0
    hugo_files=0
    if [ $with_hugo = 1 ]; then
        say "N=$n: checking Hugo builds the twin site (peak memory run)"
        "$HERE/aside.sh" "$TRASH" "$hg/public" "$hg/resources" "$hg/.hugo-cache"
        peak_rss "hugo build of $hg" "$RAW/n$n-hugo.time" hugo --source "$hg" --cacheDir "$hg/.hugo-cache"
        hugo_pages=$(html_count "$hg/public")
        hugo_files=$(find "$hg/public" -type f | wc -l)
        echo "HTML pages: sitegen $sitegen_pages, Hugo $hugo_pages (files: sitegen $sitegen_files, Hugo $hugo_files)" >&2
        if ! awk -v a="$sitegen_pages" -v b="$hugo_pages" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a > 0 && d <= a / 100) }'; then
            die "page counts differ by more than 1%: sitegen $sitegen_pages, Hugo $hugo_pages (sitegen's page rules changed? update generate.py)"
        fi
    else
        if [ -n "$ONLY" ]; then why="ONLY=$ONLY"; else why="N > HUGO_MAX_N=$HUGO_MAX_N"; fi
        say "N=$n: skipping Hugo ($why)"
    fi

    hugo_bytes=0
    [ $with_hugo = 0 ] || hugo_bytes=$(du -sb "$hg/public" | cut -f1)

    runs_each=$((WARMUP + RUNS))
    if [ -z "$ONLY" ]; then
        # 2. Cold builds, side by side in this run: sitegen, then Hugo.
        ensure_space $((output_bytes * runs_each)) "N=$n cold sitegen builds"
        say "N=$n: cold sitegen builds (hyperfine, $WARMUP warm-up + $RUNS runs)"
        hyperfine --warmup "$WARMUP" --runs "$RUNS" --export-json "$RAW/n$n-cold-sitegen.json" \
            --prepare "$sitegen_aside" --command-name "sitegen build" "$sitegen_cmd" \
            || die "N=$n: a cold sitegen build failed under hyperfine (run it by hand: $sitegen_cmd)"
        if [ $with_hugo = 1 ]; then
            ensure_space $((hugo_bytes * runs_each)) "N=$n cold Hugo builds"
            say "N=$n: cold Hugo builds (hyperfine, $WARMUP warm-up + $RUNS runs)"
            hyperfine --warmup "$WARMUP" --runs "$RUNS" --export-json "$RAW/n$n-cold-hugo.json" \
                --prepare "$hugo_aside" --command-name "hugo" "$hugo_cmd" \
                || die "N=$n: a cold Hugo build failed under hyperfine (run it by hand: $hugo_cmd)"
        fi

        # 3. The write floor: copying sitegen's output tree.
        ensure_space $((output_bytes * runs_each)) "N=$n cp -r runs"
        say "N=$n: cp -r of sitegen's output (the write floor)"
        hyperfine --warmup "$WARMUP" --runs "$RUNS" --export-json "$RAW/n$n-floor.json" \
            --prepare "$floor_aside" --command-name "cp -r" "cp -r $(q "$sg/Output") $(q "$corpus/cp-floor")" \
            || die "N=$n: cp -r failed"

        # 4. No-change rebuild over the existing output; last, because a generator that
        #    deletes its previous output slows the disk down for what follows.
        ensure_space $((output_bytes * 2)) "N=$n rebuilds"
        say "N=$n: no-change rebuild"
        mkdir -p "$corpus/snapshots"
        snapshot "$sg/Output" "$corpus/snapshots/before"
        hyperfine --warmup "$WARMUP" --runs "$RUNS" --export-json "$RAW/n$n-rebuild.json" \
            --prepare "sync" --command-name "sitegen rebuild" "$sitegen_cmd" \
            || die "N=$n: the no-change rebuild failed"
        peak_rss "sitegen rebuild of $sg" "$RAW/n$n-rebuild.time" "$BIN" build --config "$sg/site.yml"
        snapshot "$sg/Output" "$corpus/snapshots/after"

        # 5. A rebuild after one ballot changed: what an organiser runs after a new export.
        #    Unchanged files are linked from the published site; the replaced site is removed
        #    by a detached process, which flip.sh waits for before each run.
        say "N=$n: rebuild with one ballot changed"
        votes=$(find "$sg/Data/votes" -name '*.json' | sort | sed -n 1p)
        cp "$votes" "$corpus/votes.original"
        python3 -c 'import json, sys
votes = json.load(open(sys.argv[1]))
votes[0]["rankings"] = votes[0]["rankings"][::-1]
json.dump(votes, open(sys.argv[2], "w"), indent=2)' "$votes" "$corpus/votes.changed"
        flip="$(q "$HERE/flip.sh") $(q "$corpus/votes.original") $(q "$corpus/votes.changed") $(q "$votes") $(q "$sg")"
        hyperfine --warmup "$WARMUP" --runs "$RUNS" --export-json "$RAW/n$n-incremental.json" \
            --prepare "$flip" --command-name "sitegen rebuild, one ballot changed" "$sitegen_cmd" \
            || die "N=$n: the one-ballot rebuild failed"
        "$HERE/flip.sh" "$corpus/votes.original" "$corpus/votes.changed" "$votes" "$sg"
        peak_rss "sitegen one-ballot rebuild of $sg" "$RAW/n$n-incremental.time" "$BIN" build --config "$sg/site.yml"
        cp "$corpus/votes.original" "$votes"

        # 6. The same site whose poll trips name only game ids that no catalog holds, a warning
        #    each (as when the app's trips name games its export lacks; generate.py writes it).
        #    Cold builds timed beside cold builds of the site itself, interleaved by hyperfine
        #    in one call, so both see the same machine; stderr lines and peak memory recorded.
        say "N=$n: cold builds with and without a warning per game id"
        warned_cmd="$(q "$BIN") build --config $(q "$sg/site-unlisted-games.yml") --output $(q "$sg/Output-warned") --quiet"
        warned_aside="$(q "$HERE/aside.sh") $(q "$TRASH") $(q "$sg/Output-warned") $(q "$sg")/.Output-warned.sitegen-*"
        ensure_space $((output_bytes * runs_each * 2)) "N=$n builds with warnings"
        hyperfine --warmup "$WARMUP" --runs "$RUNS" --export-json "$RAW/n$n-warnings.json" \
            --prepare "$sitegen_aside; $warned_aside" \
            --command-name "sitegen build" "$sitegen_cmd" \
            --command-name "sitegen build, a warning per game id" "$warned_cmd 2>$(q "$RAW/n$n-warned.stderr")" \
            || die "N=$n: a build with warnings failed (run it by hand: $warned_cmd)"
        "$HERE/aside.sh" "$TRASH" "$sg/Output-warned" "$sg"/.Output-warned.sitegen-*
        peak_rss "sitegen build with warnings of $sg" "$RAW/n$n-warned.time" "$BIN" build --config "$sg/site-unlisted-games.yml" --output "$sg/Output-warned"
        "$HERE/aside.sh" "$TRASH" "$sg/Output-warned" "$sg"/.Output-warned.sitegen-*

    fi

    # 7. Link preview images (issue #17): the same site with `previews: true`
    #    (site-previews.yml), cold builds alternating with cold builds of the site itself
    #    (which of the two goes first alternates too), each a whole process under
    #    /usr/bin/time: wall time, CPU time and peak memory of every run. On a shared
    #    machine CPU time is the steadier figure. Then the cards' sizes.
    say "N=$n: cold builds with and without link preview images ($WARMUP warm-up + $RUNS runs each, alternating)"
    previews_out=$sg/Output-previews
    ensure_space $((output_bytes * runs_each * 3)) "N=$n builds with previews"
    previews_tsv=$RAW/n$n-previews.tsv
    printf 'run\tsite\twall_s\tuser_s\tsys_s\tpeak_kb\n' >"$previews_tsv"
    for ((run = 1 - WARMUP; run <= RUNS; run++)); do
        order=(off on)
        [ $((run % 2)) = 0 ] && order=(on off)
        for site in "${order[@]}"; do
            config=$sg/site.yml
            out=$sg/Output
            if [ "$site" = on ]; then config=$sg/site-previews.yml; out=$previews_out; fi
            "$HERE/aside.sh" "$TRASH" "$out" "$(dirname "$out")/.$(basename "$out").sitegen-"*
            /usr/bin/time -f '%e\t%U\t%S\t%M' -o "$RAW/n$n-previews.run" \
                "$BIN" build --config "$config" --output "$out" --quiet \
                || die "N=$n: a cold build with previews $site failed (run it by hand: $BIN build --config $config)"
            [ $run -lt 1 ] || printf '%s\t%s\t%s\n' "$run" "$site" "$(tail -n 1 "$RAW/n$n-previews.run")" >>"$previews_tsv"
        done
    done
    rm -f "$RAW/n$n-previews.run"
    find "$previews_out" -name preview.png -printf '%s\n' >"$corpus/card-sizes.txt"
    "$HERE/aside.sh" "$TRASH" "$previews_out" "$sg"/.Output-previews.sitegen-*

    python3 "$HERE/report.py" summarize --n "$n" --raw "$RAW" --snapshots "$corpus/snapshots" \
        --sitegen-pages "$sitegen_pages" --hugo-pages "$hugo_pages" \
        --sitegen-files "$sitegen_files" --hugo-files "$hugo_files" \
        --output-bytes "$output_bytes" --warnings "$warnings" \
        --card-sizes "$corpus/card-sizes.txt" >"$OUT/n$n.json"
done

echo "- load average at end: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$OUT/header.md"
python3 "$HERE/report.py" table "$OUT" >"$OUT/table.md"
mv "$OUT" "$FINAL"
echo
cat "$FINAL/table.md"
echo
say "Results: $FINAL"

if [ "${REBUILDS:-1}" = 1 ] && [ -z "$ONLY" ]; then
    say "Rebuilds that cost what changed (Benchmarks/rebuilds.sh)"
    SITEGEN_BIN="$BIN" WORK="$WORK" RUNS="$RUNS" "$HERE/rebuilds.sh" "${SIZES[@]}"
fi
