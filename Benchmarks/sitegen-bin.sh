#!/usr/bin/env bash
# Benchmarks/sitegen-bin.sh LOG
#
# Prints the sitegen binary a benchmark script times: SITEGEN_BIN when set, else a release
# build of this checkout in .build-bench (its own build folder, so it never disturbs a
# .build someone else is using), whose output goes to LOG. Exits non-zero, naming LOG, when
# the build fails. Used by rebuilds.sh and cards-callgrind.sh.
set -euo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [ -n "${SITEGEN_BIN:-}" ]; then
    realpath "$SITEGEN_BIN"
    exit 0
fi
printf '\033[1m==> %s\033[0m\n' "Building sitegen (release)" >&2
if ! (cd "$REPO" && swift build -c release --product sitegen --scratch-path "$REPO/.build-bench") >"$1" 2>&1; then
    printf 'release build failed (see %s)\n' "$1" >&2
    exit 1
fi
echo "$(cd "$REPO" && swift build -c release --product sitegen --scratch-path "$REPO/.build-bench" --show-bin-path)/sitegen"
