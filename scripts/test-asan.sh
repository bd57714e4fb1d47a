#!/usr/bin/env bash
# Builds the suite under AddressSanitizer + UndefinedBehaviorSanitizer and runs it through
# CTest; any sanitizer report aborts its test (-fno-sanitize-recover=all), so it fails.
# Usage: scripts/test-asan.sh [preset]   preset asan (default: the default compiler, usually
# gcc) or fuzz (clang; also builds the fuzz harnesses and replays their regression inputs).
# Needs the test dependencies (scripts/install-deps.sh --test); the CUDA harness is not built.
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:-asan}
launcher=()
if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
cmake --preset "$preset" "${launcher[@]}" >/dev/null
cmake --build --preset "$preset" -j "$(nproc)"
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
ctest --preset "$preset" -j "$(nproc)"
