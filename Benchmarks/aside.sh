#!/usr/bin/env bash
# Benchmarks/aside.sh TRASH PATH...
#
# Moves each PATH that exists into the folder TRASH under a unique name, then flushes
# dirty pages (sync) so the next timed run does not pay for the previous run's writes.
# Used as hyperfine's --prepare command: output trees are renamed aside, never deleted
# between timed runs, because deleting tens of thousands of files makes writes on the
# same disk several times slower for the next 30–60 s (see Benchmarks/README.md).
set -euo pipefail
trash=$1
shift
mkdir -p "$trash"
for path in "$@"; do
    if [ -e "$path" ] || [ -L "$path" ]; then
        mv "$path" "$(mktemp -u "$trash/$(basename "$path").XXXXXXXX")"
    fi
done
if [ "${BENCH_SYNC:-1}" = 1 ]; then sync; fi
