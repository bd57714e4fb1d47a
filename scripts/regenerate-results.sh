#!/usr/bin/env bash
# Regenerates the reference reports under results/ from the shipped scenarios.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build/release -G Ninja -DCMAKE_BUILD_TYPE=Release -DGOODPUT_BUILD_TESTS=OFF >/dev/null
cmake --build build/release --target goodput
for s in default llama3-16k-h100 trace-example infinitehbd-replay; do
  ./build/release/sim/goodput run "scenarios/$s.json" --out "results/$s" --quiet
  echo "results/$s"
done
