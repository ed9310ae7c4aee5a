#!/usr/bin/env bash
# Validates every GPX route file of a built site against the GPX 1.1 schema
# (scripts/schemas/gpx-1.1.xsd, the published schema kept in the repository) with xmllint
# from Debian's libxml2-utils. A site without routes passes: there is nothing to check.
# Usage: scripts/check-gpx.sh OUTPUT_DIR
set -euo pipefail
output="${1:?usage: check-gpx.sh OUTPUT_DIR}"
schema="$(dirname "$0")/schemas/gpx-1.1.xsd"
mapfile -t routes < <(find "$output" -name '*.gpx' | sort)
if [ ${#routes[@]} -eq 0 ]; then echo "No GPX files in $output"; exit 0; fi
xmllint --noout --nonet --schema "$schema" "${routes[@]}"
echo "${#routes[@]} GPX files valid against the GPX 1.1 schema"
