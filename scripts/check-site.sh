#!/usr/bin/env bash
# Checks a built site the way CI does: the W3C HTML checker over every page, the
# calendar files read back by an independent parser and compared with the exports, and
# the GPX route files validated against the GPX 1.1 schema.
# Usage: scripts/check-site.sh SITE_DIR OUTPUT_DIR
set -euo pipefail
site="${1:?usage: check-site.sh SITE_DIR OUTPUT_DIR}"
output="${2:?usage: check-site.sh SITE_DIR OUTPUT_DIR}"
venv="${VENV_DIR:-.venv-tools}"
here="$(dirname "$0")"
"$here/validate-html.sh" "$output"
"$venv/bin/python" -c "import icalendar" 2>/dev/null || "$venv/bin/pip" install -q icalendar
"$venv/bin/python" "$here/check-calendars.py" "$site" "$output"
"$here/check-gpx.sh" "$output"
