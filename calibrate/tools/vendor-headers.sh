#!/usr/bin/env bash
# Copies the header-only dependencies of calibrate/ into the git-ignored third_party/ folder
# at the repository root, so a bare GPU machine (CUDA, cmake, ninja; no Debian packages, no
# network) can build it standalone:  cmake -S calibrate -B build-calib -G Ninja
#   third_party/include/nlohmann/   <- nlohmann/json (required)
#   third_party/include/CLI/        <- CLI11, the tools' argument parser (required)
#   third_party/include/doctest/    <- doctest (for the tests)
#   third_party/cmake/doctest/      <- doctest.cmake + doctestAddTests.cmake (test discovery)
# Sources default to the Debian locations; override with NLOHMANN_DIR, CLI11_DIR, DOCTEST_DIR,
# DOCTEST_CMAKE_DIR.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
nlohmann_dir="${NLOHMANN_DIR:-/usr/include/nlohmann}"
cli11_dir="${CLI11_DIR:-/usr/include/CLI}"
doctest_dir="${DOCTEST_DIR:-/usr/include/doctest}"
doctest_cmake_dir="${DOCTEST_CMAKE_DIR:-/usr/lib/cmake/doctest}"
dest="$root/third_party"

if [[ ! -f "$nlohmann_dir/json.hpp" ]]; then
  echo "vendor-headers: $nlohmann_dir/json.hpp not found (apt install nlohmann-json3-dev, or set NLOHMANN_DIR)" >&2
  exit 1
fi
if [[ ! -f "$cli11_dir/CLI.hpp" ]]; then
  echo "vendor-headers: $cli11_dir/CLI.hpp not found (apt install libcli11-dev, or set CLI11_DIR)" >&2
  exit 1
fi

mkdir -p "$dest/include" "$dest/cmake"
rm -rf "$dest/include/nlohmann" "$dest/include/CLI" "$dest/include/doctest" "$dest/cmake/doctest"
cp -R "$nlohmann_dir" "$dest/include/nlohmann"
echo "vendor-headers: nlohmann/json -> $dest/include/nlohmann"
cp -R "$cli11_dir" "$dest/include/CLI"
echo "vendor-headers: CLI11 -> $dest/include/CLI"

if [[ -f "$doctest_dir/doctest.h" ]]; then
  cp -R "$doctest_dir" "$dest/include/doctest"
  echo "vendor-headers: doctest -> $dest/include/doctest"
  if [[ -f "$doctest_cmake_dir/doctest.cmake" && -f "$doctest_cmake_dir/doctestAddTests.cmake" ]]; then
    mkdir -p "$dest/cmake/doctest"
    cp "$doctest_cmake_dir/doctest.cmake" "$doctest_cmake_dir/doctestAddTests.cmake" "$dest/cmake/doctest/"
    echo "vendor-headers: doctest.cmake -> $dest/cmake/doctest"
  fi
else
  echo "vendor-headers: doctest not found at $doctest_dir; standalone builds will skip the tests" >&2
fi
