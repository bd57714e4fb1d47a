#!/usr/bin/env bash
# The verdict analysis's cost: CPU seconds (user+sys) of `goodput run` with and without it
# (--no-break-even), single-threaded, for each given binary on each given scenario.
# usage: bench/verdict_cost.sh "BIN [BIN...]" [SCENARIO...]
# (default scenarios: scenarios/default.json and both bench scenarios)
set -euo pipefail
read -r -a bins <<<"${1:?usage: bench/verdict_cost.sh \"BIN [BIN...]\" [SCENARIO...]}"
shift
scenarios=("$@")
((${#scenarios[@]})) || scenarios=(scenarios/default.json bench/scenarios/bench-131k.json
                                   bench/scenarios/bench-hgx-131k.json)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cpu() {
  rm -rf "$out/r"
  /usr/bin/time -f "%U %S" -o "$out/t" "$@" --quiet --threads 1 --out "$out/r" >/dev/null
  awk '{print $1 + $2}' "$out/t"
}
for s in "${scenarios[@]}"; do
  for b in "${bins[@]}"; do
    with=$(cpu "$b" run "$s")
    without=$(cpu "$b" run "$s" --no-break-even)
    echo "$s $b: with $with s, without $without s, ratio $(awk -v a="$with" -v b="$without" 'BEGIN{printf "%.2f", a/b}')"
  done
done
