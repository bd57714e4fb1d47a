#!/usr/bin/env bash
# Regenerates the reference reports under results/ from the shipped scenarios: each scenario's
# report (report.md / .html / .json, runs.csv, timeline.json of run 0), the NTP paper's
# throughput-loss-vs-failed-fraction sweep, and its spare domains vs Goodput (sweep and seek).
# The commands are the golden cases' (tests/golden/results-*/args), which CI re-runs and
# compares with these references (tests/golden/README.md).
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
# One command per reference, shared with the golden cases that check it in CI:
# tests/golden/results-NAME/args (goodput's arguments, one per line) makes results/NAME.
for dir in tests/golden/results-*/; do
  name=$(basename "$dir")
  name=${name#results-}
  mapfile -t args <"$dir/args"
  $g "${args[@]}" --out "$stage/$name" --quiet
  publish "$name"
done
