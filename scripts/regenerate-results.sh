#!/usr/bin/env bash
# Regenerates the reference reports under results/ from the shipped scenarios: each scenario's
# report (report.md / .html / .json, runs.csv, timeline.json of run 0), the NTP paper's
# throughput-loss-vs-failed-fraction sweep, and its spare domains vs Goodput (sweep and seek).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/vendor-js.sh
# GOODPUT_BIN=path/to/goodput uses an existing build instead of building build/release.
g=${GOODPUT_BIN:-}
if [ -z "$g" ]; then
  cmake -S . -B build/release -G Ninja -DCMAKE_BUILD_TYPE=Release -DGOODPUT_BUILD_TESTS=OFF >/dev/null
  cmake --build build/release --target goodput
  g=./build/release/sim/goodput
fi
# goodput never writes into results/ itself (its reports there carry no .goodput-report marker,
# so `goodput run --out results/...` is refused): each report is written under build/, then
# this script, which owns results/, swaps it in.
stage=build/regenerate
rm -rf "$stage"
mkdir -p "$stage"
publish() {  # publish NAME: build/regenerate/NAME -> results/NAME, without goodput's marker
  rm -f "$stage/$1/.goodput-report"
  rm -rf "results/$1"
  mv "$stage/$1" "results/$1"
  echo "results/$1"
}
for s in default llama3-16k-h100 trace-example infinitehbd-replay lanl-system20 ntp-paper-nvl32; do
  $g run "scenarios/$s.json" --out "$stage/$s" --quiet
  publish "$s"
done
# The NTP paper's question: throughput loss vs the fraction of failed GPUs (snapshot mode).
$g sweep scenarios/ntp-paper-nvl32.json --set /mode=snapshot --seeds 100 \
  --axis /failures/failed_fraction=0,0.0005,0.001,0.0015,0.002,0.0025,0.003,0.0035,0.004 \
  --out "$stage/ntp-paper-nvl32-snapshot" --quiet
publish ntp-paper-nvl32-snapshot
# Spare NVL32 domains vs Goodput over 30 days, seeds added until every CI is within 0.2 pp.
$g sweep scenarios/ntp-paper-nvl32.json --axis /cluster/spare_domains=0,8,16,32,48,64,96 \
  --seeds auto --ci-target 0.002 --max-seeds 40 --out "$stage/ntp-paper-nvl32-spares" --quiet
publish ntp-paper-nvl32-spares
# The fewest spare domains that keep dp_drop's Goodput at 93%, by bisection.
$g sweep scenarios/ntp-paper-nvl32.json --seek /cluster/spare_domains --min 0 --max 128 \
  --target-goodput 0.93 --strategy dp_drop --out "$stage/ntp-paper-nvl32-seek-spares" --quiet
publish ntp-paper-nvl32-seek-spares
