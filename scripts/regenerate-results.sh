#!/usr/bin/env bash
# Regenerates the reference reports under results/ from the shipped scenarios.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build/release -G Ninja -DCMAKE_BUILD_TYPE=Release -DGOODPUT_BUILD_TESTS=OFF >/dev/null
cmake --build build/release --target goodput
for s in default llama3-16k-h100 trace-example infinitehbd-replay lanl-system20 ntp-paper-nvl32; do
  ./build/release/sim/goodput run "scenarios/$s.json" --out "results/$s" --quiet
  echo "results/$s"
done
# The NTP paper's question: throughput loss vs the fraction of failed GPUs (snapshot mode).
./build/release/sim/goodput sweep scenarios/ntp-paper-nvl32.json --set /mode=snapshot --seeds 100 \
  --axis /failures/failed_fraction=0,0.0005,0.001,0.0015,0.002,0.0025,0.003,0.0035,0.004 \
  --out results/ntp-paper-nvl32-snapshot --quiet
echo results/ntp-paper-nvl32-snapshot
