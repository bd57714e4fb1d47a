#!/usr/bin/env bash
# Installs the Debian packages goodput builds with, if any is missing (needs root or sudo).
# --test also installs chromium, for the test that renders report.html headless (~100 MB,
# about a minute; without it that one test is skipped), OpenMPI (libopenmpi-dev, openmpi-bin:
# goodput-mpi and its mpirun test; both are skipped without it), and clang with its sanitizer
# and libFuzzer runtimes, clang-format and clang-tidy (the ASan + UBSan suite, the lint and the
# fuzz smoke run of scripts/test.sh), python3-jsonschema (the report schema test; skipped
# without it) and valgrind (the callgrind budget tests, tests/perf/; skipped without it).
# --bench adds what bench/run.sh needs:
# Google Benchmark, valgrind (callgrind), GNU time (peak RSS) and python3 (the reference model).
set -euo pipefail
pkgs=(cmake ninja-build g++ nlohmann-json3-dev libcli11-dev doctest-dev libboost-graph-dev libssl-dev)
for flag in "$@"; do
  case "$flag" in
    --test) pkgs+=(chromium libopenmpi-dev openmpi-bin clang libclang-rt-dev clang-format clang-tidy
                   python3 python3-jsonschema valgrind) ;;
    --bench) pkgs+=(libbenchmark-dev valgrind time python3) ;;
    *) echo "install-deps.sh: unknown flag $flag (--test, --bench)" >&2; exit 2 ;;
  esac
done
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
