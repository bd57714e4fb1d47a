#!/usr/bin/env bash
# Installs the Debian packages goodput builds with, if any is missing (needs root or sudo).
# --test also installs chromium, for the test that renders report.html headless (~100 MB,
# about a minute; without it that one test is skipped).
set -euo pipefail
pkgs=(cmake ninja-build g++ nlohmann-json3-dev libcli11-dev doctest-dev libboost-graph-dev)
[ "${1:-}" = "--test" ] && pkgs+=(chromium)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""
  [ "$(id -u)" = 0 ] || sudo=sudo
  echo "installing: ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
