#!/usr/bin/env bash
# Accessibility check of a built site, as CI runs it: axe-core (WCAG 2 A/AA and best
# practice), the keyboard path and the heading levels, in the light and the dark scheme,
# over one page of each kind found in the folder. Exits non-zero on any violation.
# Usage: scripts/check-accessibility.sh OUTPUT_DIR
set -euo pipefail
root="${1:?usage: check-accessibility.sh OUTPUT_DIR}"
venv="${VENV_DIR:-.venv-tools}"
here="$(dirname "$0")"
[ -d "$root" ] || { echo "check-accessibility: no folder $root" >&2; exit 2; }
"$venv/bin/python" -c "import selenium, axe_selenium_python" 2>/dev/null \
  || "$venv/bin/pip" install -q selenium axe-selenium-python   # normally installed by setup-check-tools.sh

pages=()
add() { [ -n "$1" ] && [ -f "$1" ] && pages+=("$1"); return 0; }
# The first entry of a folder in byte order (the same on every machine), or nothing.
first() { find "$1" -mindepth 1 -maxdepth 1 -type d 2>/dev/null | LC_ALL=C sort | head -n 1 || true; }

add "$root/index.html"
add "$root/404.html"
poll="$(first "$root/polls")"
if [ -n "$poll" ]; then
  add "$poll/index.html"
  add "$poll/trips/1/index.html"
  add "$poll/most-miles/index.html"
fi
options="$(first "$root/options")"
[ -n "$options" ] && add "$options/most-games/index.html"
trip="$(first "$root/trips")"
[ -n "$trip" ] && add "$trip/index.html"
while IFS= read -r convoy; do add "$convoy/index.html"; done \
  < <(find "$root/convoys" -mindepth 1 -maxdepth 1 -type d 2>/dev/null | LC_ALL=C sort)
add "$root/tips/index.html"
# The first Markdown page: a top-level folder that is not one of the site's own.
while IFS= read -r folder; do
  case "$(basename "$folder")" in
    polls|trips|options|convoys|tips|assets) continue ;;
  esac
  if [ -f "$folder/index.html" ]; then add "$folder/index.html"; break; fi
done < <(find "$root" -mindepth 1 -maxdepth 1 -type d | LC_ALL=C sort)

[ ${#pages[@]} -gt 0 ] || { echo "check-accessibility: no pages found under $root" >&2; exit 1; }
echo "Checking accessibility of ${#pages[@]} pages under $root (light and dark)"
"$venv/bin/python" "$here/check-accessibility.py" --scheme both "${pages[@]}"
