#!/usr/bin/env bash
# Runs on the GPU machine (nvcc, cmake, ninja, cuBLAS, NCCL; no Debian packages, no network),
# from anywhere inside the repository, with third_party/ carried over from a machine where
# calibrate/tools/vendor-headers.sh ran. Writes into $OUT:
#   device-run.log        everything below, with timestamps
#   build.log, ctest.log  the standalone build and the test run (GPU tests included)
#   h200-<scenario>.json  a full calibration per shipped scenario that exists
#   h200-measured.json    the built-in standard set (NTP paper 480B + 70B-like), when no
#                         shipped scenario exists (or BUILTIN=1)
# Budget: about 10 minutes in all (DEADLINE_S, default 540); each step has its own timeout and
# a calibration is skipped when it could not finish in time. Never touches clocks or power.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
OUT="${OUT:?set OUT to the output folder}"
build="${BUILD_DIR:-$root/build-calib-device}"
arch="${CUDA_ARCH:-90}"          # H200 = sm_90; one architecture keeps the build short
gpu="${GPU_TAG:-h200}"
mkdir -p "$OUT"
exec > >(tee -a "$OUT/device-run.log") 2>&1

t0=$(date +%s)
step() { echo "== [$(( $(date +%s) - t0 ))s] $*"; }
status=0

step "environment"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu \
  --format=csv 2>/dev/null || echo "nvidia-smi unavailable"
command -v nvcc >/dev/null && nvcc --version | tail -n 2 || echo "nvcc not on PATH (CMake will look in /usr/local/cuda)"
cmake --version | head -n 1
if [[ ! -f "$root/third_party/include/nlohmann/json.hpp" ]]; then
  echo "third_party/include/nlohmann missing: run calibrate/tools/vendor-headers.sh where the headers exist and carry third_party/" >&2
  exit 2
fi

step "configure (standalone, sm_$arch)"
timeout 180 cmake -S "$root/calibrate" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CUDA_ARCHITECTURES="$arch" > "$OUT/configure.log" 2>&1 || { cat "$OUT/configure.log"; exit 1; }
grep -E "goodput|NCCL|CUDA" "$OUT/configure.log" || true

step "build"
if ! timeout 360 cmake --build "$build" -j"$(nproc)" > "$OUT/build.log" 2>&1; then
  tail -n 60 "$OUT/build.log"
  exit 1
fi
grep -c "warning" "$OUT/build.log" | sed 's/^/compiler warnings: /' || true

step "tests (CPU + GPU; the no-GPU exit-code test is excluded here)"
if ! timeout 240 ctest --test-dir "$build" --output-on-failure -E "no_gpu" > "$OUT/ctest.log" 2>&1; then
  status=1
  echo "TESTS FAILED"
fi
tail -n 5 "$OUT/ctest.log"
"$build/test_calibration_gpu" --success=false 2>&1 | grep -E "MESSAGE|ceiling|test cases" | head -n 20 || true

deadline="${DEADLINE_S:-540}"
calibrate() {  # $1 output name, rest: extra arguments
  local name="$1"; shift
  local left=$(( deadline - ($(date +%s) - t0) ))
  if (( left < 90 )); then
    echo "skipping calibration $name: only ${left}s left of the ${deadline}s budget"
    status=1
    return
  fi
  step "calibrate $name (at most ${left}s)"
  if timeout "$left" "$build/goodput-calibrate" "$@" --out "$OUT/$name.json"; then
    echo "wrote $OUT/$name.json"
  else
    local rc=$?
    echo "goodput-calibrate failed for $name (exit $rc)"
    status=1
  fi
}

found=0
for scenario in "$root/scenarios/default.json" "$root/scenarios/ntp-paper-nvl32.json"; do
  if [[ -f "$scenario" ]]; then
    found=1
    calibrate "$gpu-$(basename "$scenario" .json)" --scenario "$scenario"
  else
    echo "skipping $scenario (not in this tree)"
  fi
done
if (( found == 0 )) || [[ "${BUILTIN:-0}" == 1 ]]; then
  calibrate "$gpu-measured"
fi

step "clocks after"
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv 2>/dev/null || true
step "done (status $status)"
exit "$status"
