#!/usr/bin/env bash
# Builds everything (warnings are errors; the CUDA calibration harness too where nvcc exists)
# and runs the whole test suite through CTest. GPU tests skip cleanly without a GPU.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build/test -G Ninja -DCMAKE_BUILD_TYPE=Release -DGOODPUT_WARNINGS_AS_ERRORS=ON >/dev/null
cmake --build build/test -j "$(nproc)"
ctest --test-dir build/test --output-on-failure -j "$(nproc)"
