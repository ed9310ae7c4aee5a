#!/usr/bin/env bash
# Benchmarks/cards-callgrind.sh [N]      (default: 200)
#
# What a link preview card costs in instructions (issue #17), counted by valgrind's
# callgrind: the same binary and inputs give the same counts whatever else the machine is
# doing, so a change to the card code can be judged on a busy machine, where wall and CPU
# times move by ±15% from run to run. Instructions are not time: a change that saves
# instructions can still wait on memory or mispredicted branches (docs/performance.md), so
# a change found here is confirmed with `ONLY=previews Benchmarks/run.sh 10000`.
#
# Builds sitegen in release mode (or takes SITEGEN_BIN), strips its debug information
# (valgrind 3.19 cannot read the DWARF 5 that Swift 6.3 writes), generates a corpus of N
# polls (N × 1.1 cards), builds it with previews under callgrind, and prints the whole
# build's instructions and, per card, those of the card functions (inclusive, then
# exclusive). Installs valgrind from Debian when missing. About a minute for N = 200.
#
# Environment: SITEGEN_BIN= (else a release build of this checkout), WORK= (default
# Benchmarks/work).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/.." && pwd)
N=${1:-200}
WORK=${WORK:-$HERE/work}
say() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }
die() { printf 'cards-callgrind.sh: error: %s\n' "$*" >&2; exit 1; }
[[ $N =~ ^[1-9][0-9]*$ ]] || die "N must be a positive integer, got '$N'"

if ! command -v valgrind >/dev/null; then
    say "Installing valgrind"
    apt-get -o DPkg::Lock::Timeout=600 update >/dev/null
    apt-get -o DPkg::Lock::Timeout=600 install -y valgrind >/dev/null
fi
mkdir -p "$WORK"
BIN=$("$HERE/sitegen-bin.sh" "$WORK/cards-build.log") || die "no sitegen to time"
STRIPPED=$WORK/sitegen-nodebug
objcopy --strip-debug "$BIN" "$STRIPPED"

CORPUS=$WORK/cards-n$N
if [ ! -f "$CORPUS/sitegen/site-previews.yml" ]; then
    say "Generating $N polls into $CORPUS"
    python3 "$HERE/generate.py" "$N" "$CORPUS" --templates "$REPO/Templates" >/dev/null
fi
OUT=$WORK/cards-n$N-callgrind.out
say "Building $N polls with previews under callgrind"
rm -rf "$CORPUS/sitegen/Output" "$CORPUS/sitegen"/.Output.sitegen-*
(cd "$CORPUS/sitegen" && valgrind --tool=callgrind --callgrind-out-file="$OUT" "$STRIPPED" build --config site-previews.yml --quiet) \
    2>"$WORK/cards-callgrind.log" || die "the build failed under callgrind (see $WORK/cards-callgrind.log)"
CARDS=$(find "$CORPUS/sitegen/Output" -name preview.png | wc -l)

echo "- sitegen: $(git -C "$REPO" rev-parse --short HEAD 2>/dev/null || echo '?'); $N polls, $CARDS cards"
echo "- instructions, whole build: $(grep -o 'refs: *[0-9,]*' "$WORK/cards-callgrind.log" | sed 's/refs: *//')"
PATTERN='PreviewImageO3png|EncoderC3add4rows|EncoderC4runs|RunDeflateV|PalettePNGO0C0C3add|Canvas.*clear|CardDrawingO8draw|cairo_show_text \[|cairo_fill \[|cairo_stroke \[|cairo_text_extents \['
for mode in yes no; do
    echo
    [ $mode = yes ] && echo "Per card, inclusive (millions of instructions):" || echo "Per card, exclusive:"
    callgrind_annotate --inclusive=$mode "$OUT" 2>/dev/null | grep -E "$PATTERN" | python3 -c '
import re, sys
cards = int(sys.argv[1])
for line in sys.stdin:
    match = re.match(r"\s*([\d,]+)\s+\([^)]*\)\s+\S*?:(\S+)", line)
    if match:
        name = re.sub(r"^\$s13SitegenRender\d+", "", match.group(2))[:70]
        print("  %7.2f  %s" % (int(match.group(1).replace(",", "")) / cards / 1e6, name))
' "$CARDS"
done
