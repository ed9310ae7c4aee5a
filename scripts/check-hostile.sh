#!/usr/bin/env bash
# Builds a site whose every free-text field carries an injection payload and checks every
# page in headless Chromium: no payload may run and no live vector (on* attribute,
# javascript:/data: URL, <script>) may reach the DOM. Also crawls its links from the home
# page (scripts/check-links.py), checks that every page fits a 360 px phone screen, runs the
# W3C checker on it and validates its GPX routes.
# Usage: scripts/check-hostile.sh SITEGEN_BINARY
set -euo pipefail
sitegen="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
venv="$(pwd)/${VENV_DIR:-.venv-tools}"
here="$(cd "$(dirname "$0")" && pwd)"
site="$(pwd)/.build/hostile-site"
rm -rf "$site"
python3 "$here/make-hostile-site.py" "$site"
cp -r Templates "$site/Templates"
(cd "$site" && "$sitegen" build > "$site/build.log" 2>&1) || { cat "$site/build.log"; exit 1; }
if grep -rl "_priv_" "$site/Output"; then echo "private values leaked into the files above"; exit 1; fi
mapfile -t pages < <(find "$site/Output" -name '*.html' | sort)
echo "XSS check over ${#pages[@]} hostile pages"
status=0
"$venv/bin/python" "$here/browser/xss_check.py" "${pages[@]}" > "$site/xss.log" 2>&1 || status=$?
grep -v "executed=False hits=\[\] static_vectors=\[\]" "$site/xss.log" || true
if [ "$status" -ne 0 ]; then echo "XSS check failed"; exit 1; fi
echo "No payload ran and no live vector reached the DOM."
"$venv/bin/python" "$here/browser/overflow_check.py" "${pages[@]}" > "$site/overflow.log" 2>&1 || { cat "$site/overflow.log"; echo "Pages wider than a phone's screen"; exit 1; }
tail -n 1 "$site/overflow.log"
"$here/check-links.py" "$site/Output" --base-url "$(sed -n 's/^baseURL: //p' "$site/site.yml")"
"$here/validate-html.sh" "$site/Output"
"$here/check-gpx.sh" "$site/Output"
