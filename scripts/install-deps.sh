#!/usr/bin/env bash
# Installs the Debian packages sitegen needs to build, only when missing:
#   libcmark-gfm-dev + libcmark-gfm-extensions-dev  (Markdown; both are needed)
#   libcairo2-dev + zlib1g-dev + fonts-dejavu-core   (link preview images: drawing, compressing, the font)
#   libpango1.0-dev + fonts-noto-core + fonts-noto-cjk + fonts-noto-color-emoji
#                                                    (card text in other scripts and emoji: layout and fonts)
#   tzdata                                           (time zone abbreviations: "BST", "JST"; slim images lack it)
# The page checkers `make test` uses are installed by setup-check-tools.sh.
set -euo pipefail
packages=(libcmark-gfm-dev libcmark-gfm-extensions-dev libcairo2-dev zlib1g-dev fonts-dejavu-core
          libpango1.0-dev fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji tzdata)
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
