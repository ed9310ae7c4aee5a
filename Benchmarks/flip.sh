#!/usr/bin/env bash
# Benchmarks/flip.sh ORIGINAL CHANGED TARGET SITE_FOLDER
#
# hyperfine's --prepare for the one-ballot rebuild: TARGET (a vote export) is swapped
# between ORIGINAL and CHANGED (the same file with one ballot's rankings reversed), so each
# timed build has exactly one changed input against the build before it. It then waits
# until the detached removal of the site that build replaced has finished (a user does
# not rebuild within seconds; the removal would otherwise compete with the timed run for
# the disk), and flushes dirty pages.
set -euo pipefail
original=$1 changed=$2 target=$3 site=$4
if cmp -s "$target" "$original"; then cp "$changed" "$target"; else cp "$original" "$target"; fi
for _ in $(seq 600); do
    compgen -G "$site/.Output.sitegen-trash-*" >/dev/null || break
    sleep 0.5
done
if [ "${BENCH_SYNC:-1}" = 1 ]; then sync; fi
