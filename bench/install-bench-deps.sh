#!/usr/bin/env bash
# Installs the Debian packages bench/run.sh needs, if any is missing (needs root or sudo):
# the build chain and libraries of the simulator, Google Benchmark, valgrind (callgrind),
# GNU time (peak RSS) and python3 (the reference model).
set -euo pipefail
pkgs=(cmake ninja-build g++ nlohmann-json3-dev libcli11-dev libboost-graph-dev libbenchmark-dev
      valgrind time python3)
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
