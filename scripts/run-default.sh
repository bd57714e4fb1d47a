#!/usr/bin/env bash
# Builds goodput (Release) and runs the shipped default scenario; extra arguments go to
# `goodput run` (e.g. --seeds 5, --out DIR). The plotting libraries report.html inlines are
# fetched once from the npm registry (without them the report says so and has no charts).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/vendor-js.sh || echo "warning: could not vendor the plotting libraries: report.html will have no charts"
cmake -S . -B build/release -G Ninja -DCMAKE_BUILD_TYPE=Release -DGOODPUT_BUILD_TESTS=OFF >/dev/null
cmake --build build/release --target goodput
./build/release/sim/goodput run "$@"
