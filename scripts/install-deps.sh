#!/usr/bin/env bash
# Installs the Debian packages sitegen needs, only when missing:
#   libcmark-gfm-dev + libcmark-gfm-extensions-dev  (Markdown; both are needed, see docs)
#   default-jre-headless                             (only with --checks: the W3C HTML checker)
set -euo pipefail
packages=(libcmark-gfm-dev libcmark-gfm-extensions-dev)
if [ "${1:-}" = "--checks" ]; then
  packages+=(default-jre-headless python3-venv)
fi
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo_cmd apt-get -o DPkg::Lock::Timeout=600 update
  $sudo_cmd apt-get -o DPkg::Lock::Timeout=600 install -y "${missing[@]}"
fi
