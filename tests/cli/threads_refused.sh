#!/usr/bin/env bash
# threads_refused.sh GOODPUT SCENARIO OUT: when the system refuses to create threads (simulated
# with GOODPUT_TEST_THREAD_LIMIT), `goodput run` and `goodput sweep` go on with the threads they
# got, warn once, and write the same bytes as with every thread.
set -euo pipefail
bin=$1; scenario=$2; out=$3
rm -rf "$out"; mkdir -p "$out"
"$bin" run "$scenario" --threads 4 --seeds 6 --no-break-even --quiet --out "$out/all"
for limit in 0 1; do
  GOODPUT_TEST_THREAD_LIMIT=$limit "$bin" run "$scenario" --threads 4 --seeds 6 --no-break-even \
    --quiet --out "$out/run-$limit" 2>"$out/run-$limit.err"
  grep -q "warning: could not start thread" "$out/run-$limit.err"
  for f in runs.csv report.json report.md; do cmp "$out/all/$f" "$out/run-$limit/$f"; done
done
"$bin" sweep "$scenario" --threads 4 --seeds 2 --axis /job/step_s=10,20,30 --quiet --out "$out/sweep-all"
GOODPUT_TEST_THREAD_LIMIT=1 "$bin" sweep "$scenario" --threads 4 --seeds 2 --axis /job/step_s=10,20,30 \
  --quiet --out "$out/sweep-1" 2>"$out/sweep-1.err"
grep -q "warning: could not start thread" "$out/sweep-1.err"
for f in points.csv sweep.json report.md; do cmp "$out/sweep-all/$f" "$out/sweep-1/$f"; done
echo "ok: same bytes with threads refused"
