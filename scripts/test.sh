#!/usr/bin/env bash
# Builds everything (warnings are errors; the CUDA calibration harness too where nvcc exists)
# and runs the whole test suite through CTest. GPU tests skip cleanly without a GPU; the
# headless-browser test of report.html needs chromium (installed here) and the vendored
# plotting libraries (fetched here from the npm registry; skipped if that fails).
# Then the same suite again, built with clang under AddressSanitizer + UndefinedBehaviorSanitizer
# (any finding fails its test; the build also makes the libFuzzer harnesses and replays their
# regression inputs), the lint (clang-format and clang-tidy, scripts/lint.sh), and each fuzz
# harness for FUZZ_SECONDS (default 30) from its seed corpus.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh --test
bash scripts/vendor-js.sh || echo "warning: could not vendor the plotting libraries: report.html will have no charts"
cmake -S . -B build/test -G Ninja -DCMAKE_BUILD_TYPE=Release -DGOODPUT_WARNINGS_AS_ERRORS=ON >/dev/null
cmake --build build/test -j "$(nproc)"
ctest --test-dir build/test --output-on-failure -j "$(nproc)"
bash scripts/test-asan.sh fuzz
bash scripts/lint.sh build/fuzz
FUZZ_SKIP_BUILD=1 FUZZ_SECONDS=${FUZZ_SECONDS:-30} bash scripts/fuzz-smoke.sh
