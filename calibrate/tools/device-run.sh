#!/usr/bin/env bash
# The one command for a first GPU run. Runs on the GPU machine (nvcc, cmake, ninja, cuBLAS;
# no Debian packages, no network), from anywhere inside the repository, with third_party/
# carried over from a machine where calibrate/tools/vendor-headers.sh ran:
#   OUT=/some/folder calibrate/tools/device-run.sh
# Steps, each with its own timeout, all within DEADLINE_S (default 300 s = 5 minutes):
#   1. standalone build of calibrate/ for sm_$CUDA_ARCH (default 90: H100/H200);
#   2. the GPU suite with GOODPUT_EXPECT_GPU=1 (no GPU test may skip);
#   3. the full calibration of the built-in standard set (NTP paper 480B TP32 -> TP24 and a
#      Llama-3-70B-like GQA model TP8 -> TP6) into $OUT/$GPU_TAG-measured.json;
#   4. goodput-profile-check: every entry against the analytical profile and the measured
#      ceilings (large GEMMs >= 70 % of the GEMM ceiling, pack/unpack >= 70 % of the copy
#      bandwidth; flagged otherwise) into $OUT/check.md;
#   5. optional: further profiles for scenarios, EXTRA_SCENARIOS="tag=path.json ..." (each into
#      $OUT/$GPU_TAG-<tag>-measured.json, checked into $OUT/check-<tag>.md);
#   6. the CPU suite and exit-code checks (ctest -E no_gpu) with the time that is left
#      (CPU_TESTS=0 skips it: CI runs it anyway).
# Writes into $OUT: device-run.log (all of it, timestamped), configure.log, build.log,
# gpu-tests.log, calibrate.log, <gpu>-measured.json, check.md, ctest.log, nvidia-smi.txt.
# Exit 0 when everything passed and nothing was flagged; 1 otherwise (the log says which step).
# Never touches clocks or power. See calibrate/README.md, "First GPU run".
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
OUT="${OUT:?set OUT to the output folder}"
build="${BUILD_DIR:-$root/build-calib-device}"
arch="${CUDA_ARCH:-90}"
gpu="${GPU_TAG:-h200}"
deadline="${DEADLINE_S:-300}"
mkdir -p "$OUT"
exec > >(tee -a "$OUT/device-run.log") 2>&1

t0=$(date +%s)
elapsed() { echo $(( $(date +%s) - t0 )); }
left() { echo $(( deadline - $(elapsed) )); }
step() { echo "== [$(elapsed)s] $*"; }
status=0
fail() { echo "FAILED: $*"; status=1; }

step "environment"
nvidia-smi > "$OUT/nvidia-smi.txt" 2>&1 || echo "nvidia-smi unavailable" > "$OUT/nvidia-smi.txt"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu \
  --format=csv 2>/dev/null || echo "nvidia-smi unavailable"
command -v nvcc >/dev/null && nvcc --version | tail -n 2 || echo "nvcc not on PATH (CMake looks in /usr/local/cuda)"
cmake --version | head -n 1
for header in nlohmann/json.hpp CLI/CLI.hpp; do
  if [[ ! -f "$root/third_party/include/$header" ]] && ! [[ -f "/usr/include/$header" ]]; then
    echo "third_party/include/$header missing: run calibrate/tools/vendor-headers.sh where the headers exist and carry third_party/" >&2
    exit 2
  fi
done

step "configure (standalone, sm_$arch)"
if ! timeout 60 cmake -S "$root/calibrate" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
     -DCMAKE_CUDA_ARCHITECTURES="$arch" > "$OUT/configure.log" 2>&1; then
  cat "$OUT/configure.log"
  exit 1
fi
grep -E "goodput|NCCL|CUDA" "$OUT/configure.log" || true

step "build"
if ! timeout 150 cmake --build "$build" -j"$(nproc)" > "$OUT/build.log" 2>&1; then
  tail -n 60 "$OUT/build.log"
  exit 1
fi
echo "compiler warnings: $(grep -c 'warning' "$OUT/build.log" || true)"

step "GPU test suite (GOODPUT_EXPECT_GPU=1: a test that finds no GPU fails instead of skipping)"
export GOODPUT_EXPECT_GPU=1
if ! timeout 90 "$build/test_calibration_gpu" > "$OUT/gpu-tests.log" 2>&1; then
  fail "GPU tests (see gpu-tests.log)"
fi
grep -E "MESSAGE|ERROR|test cases|assertions" "$OUT/gpu-tests.log" | head -n 30 || true

profile="$OUT/$gpu-measured.json"
budget=$(( $(left) - 20 ))  # keep 20 s for the check
if (( budget < 60 )); then
  fail "calibration skipped: only ${budget}s left of the ${deadline}s budget"
else
  step "calibrate the standard set (at most ${budget}s)"
  if timeout "$budget" "$build/goodput-calibrate" --out "$profile" 2> "$OUT/calibrate.log"; then
    echo "wrote $profile"
    grep -E "ceiling|WARNING|fit" "$OUT/calibrate.log" | head -n 10 || true
  else
    fail "goodput-calibrate exit $? (see calibrate.log)"
    tail -n 20 "$OUT/calibrate.log"
  fi
fi

# check_profile PROFILE CHECK_MD: goodput-profile-check, failing the run on a flag or an error.
check_profile() {
  timeout 20 "$build/goodput-profile-check" "$1" --out "$2"
  local rc=$?
  if (( rc == 1 )); then
    fail "entries flagged in $1 (see $(basename "$2"))"
    grep -F "**" "$2" | head -n 30
  elif (( rc != 0 )); then
    fail "goodput-profile-check exit $rc on $1"
  fi
}

if [[ -f "$profile" ]]; then
  step "check against the analytical model and the measured ceilings"
  check_profile "$profile" "$OUT/check.md"
  head -n 12 "$OUT/check.md"
fi

# Optional further profiles, each "tag=scenario.json", while at least 60 s are left; each
# goes to $OUT/$GPU_TAG-<tag>-measured.json with its check in $OUT/check-<tag>.md.
for extra in ${EXTRA_SCENARIOS:-}; do
  tag="${extra%%=*}"
  scenario="${extra#*=}"
  budget=$(( $(left) - 20 ))
  if (( budget < 60 )); then
    fail "calibration of $scenario skipped: only ${budget}s left"
    continue
  fi
  extra_profile="$OUT/$gpu-$tag-measured.json"
  step "calibrate $scenario (at most ${budget}s)"
  if timeout "$budget" "$build/goodput-calibrate" --scenario "$scenario" --out "$extra_profile" \
       2> "$OUT/calibrate-$tag.log"; then
    echo "wrote $extra_profile"
    check_profile "$extra_profile" "$OUT/check-$tag.md"
  else
    fail "goodput-calibrate exit $? on $scenario (see calibrate-$tag.log)"
    tail -n 20 "$OUT/calibrate-$tag.log"
  fi
done

if [[ "${CPU_TESTS:-1}" == 0 ]]; then
  step "CPU test suite skipped (CPU_TESTS=0; CI runs it)"
elif (( $(left) >= 20 )); then
  step "CPU test suite and exit-code checks (ctest, the no-GPU checks excluded)"
  if ! timeout "$(left)" ctest --test-dir "$build" --output-on-failure -E "no_gpu|^calibrate[.]gpu[.]" > "$OUT/ctest.log" 2>&1; then
    fail "CPU tests (see ctest.log)"
  fi
  tail -n 3 "$OUT/ctest.log"
else
  fail "CPU tests skipped: out of time (CI runs them too)"
fi

step "clocks after"
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv 2>/dev/null || true
step "done in $(elapsed)s (status $status)"
exit "$status"
