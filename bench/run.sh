#!/usr/bin/env bash
# bench/run.sh — issue 6's benchmarks, one command: builds build/bench (Release + -g, with
# -DGOODPUT_BUILD_BENCH=ON) and runs, each against a baseline measured in the same run:
#   1. engine events/s vs a bare heap loop (Google Benchmark), one simulate() per strategy
#   2. bench/scenarios/bench-131k.json end to end (wall, peak RSS, events/s, GPU-years/s)
#   3. 1-thread vs 2-thread report.json byte-identity
#   2b. bench/scenarios/bench-hgx-131k.json end to end (16,384 HGX-8 servers; issue 14)
#   4. scaling curves (GPUs 8K..1M at 1 year; years 0.1..10 at 131K)
#   4b. cost per simulated failure, 8K..1M GPUs on hgx-8, nvl32 and gb200-nvl72 (issue 14)
#   5. the Python reference model (same faults, Goodput agreement, time per event ratio)
#   6. callgrind instruction counts on a small fixed workload, top functions; 6b. instructions
#      per failure per strategy on both bench scenarios (issue 32's target table)
#   7. MPI sweep efficiency: a 64-point sweep with 1, 2 and 4 ranks (when goodput-mpi is built)
# Prints a markdown block for bench/RESULTS.md (also left in $OUT/results.md).
# Knobs (env): FULL_TIMEOUT (s, full 100-seed run; default 60), MEASURE_SEEDS (seeds of the
# measured 131K run; 2), POINT_TIMEOUT (s per scaling point; 40), SCALE_SEEDS (1),
# DET_HOURS/DET_SEEDS (determinism check; 720/4), SKIP (space-separated step numbers),
# OUT (output folder; build/bench/out), COMMIT (label when not run from a git checkout),
# B (build folder; build/bench) with NO_BUILD=1 to use binaries already built there (e.g. a
# Release build/dev configured with -DGOODPUT_BUILD_BENCH=ON).
set -uo pipefail
cd "$(dirname "$0")/.."
B=${B:-build/bench}
OUT=${OUT:-$B/out}
FULL_TIMEOUT=${FULL_TIMEOUT:-60} MEASURE_SEEDS=${MEASURE_SEEDS:-2} POINT_TIMEOUT=${POINT_TIMEOUT:-40}
SCALE_SEEDS=${SCALE_SEEDS:-1} DET_HOURS=${DET_HOURS:-720} DET_SEEDS=${DET_SEEDS:-4} SKIP=${SKIP:-}
SCEN=bench/scenarios/bench-131k.json
skip() { [[ " $SKIP " == *" $1 "* ]]; }
log() { echo ">> $*" >&2; }

if [[ -z ${NO_BUILD:-} ]]; then
  bash scripts/install-deps.sh --bench
  cmake -S . -B $B -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="-O3 -DNDEBUG -g" \
    -DGOODPUT_BUILD_BENCH=ON -DGOODPUT_BUILD_TESTS=OFF -DGOODPUT_BUILD_CALIBRATION=OFF >/dev/null || exit 1
  ninja -C $B goodput goodput_engine_bench goodput_workload goodput_export_faults >&2 || exit 1
  ninja -C $B goodput-mpi >&2 2>/dev/null || true  # only where MPI is installed
fi
rm -rf "$OUT" && mkdir -p "$OUT"
GP=$B/sim/goodput WL=$B/bench/goodput_workload
MD=$OUT/results.md
md() { echo "$*" >>"$MD"; }
kv() { sed -n "s/.*\b$1=\([^ ]*\).*/\1/p" "$2" | tail -1; }  # last value of key=value in a file
timed() {  # timed LIMIT LOGFILE CMD...: runs under timeout and GNU time; echo "wall_s rss_kb cpu_s" or "timeout"
  local limit=$1 logf=$2; shift 2
  timeout "$limit" /usr/bin/time -f "TIME %e %M %U %S" "$@" >"$logf" 2>&1
  local rc=$?
  if ((rc == 124 || rc == 137)); then echo "timed out"; elif ((rc != 0)); then echo "failed($rc)"; else
    grep '^TIME' "$logf" | tail -1 | awk '{printf "%s %s %.2f\n", $2, $3, $4 + $5}'; fi
}
md "### Measured $(date -u +%Y-%m-%dT%H:%MZ), commit ${COMMIT:-$(git rev-parse --short HEAD 2>/dev/null)$(git diff --quiet HEAD -- sim models 2>/dev/null || echo '+dirty')}, $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
md ""
md "Load average at start: $(cut -d' ' -f1-3 /proc/loadavg) (other processes on the machine skew wall times)."
md ""

if ! skip 1; then
  log "1. engine bench"
  $B/bench/goodput_engine_bench --benchmark_filter='BM_(Engine|BareHeap|PriorityQueue)' \
    --benchmark_min_time=0.3 --benchmark_format=json >"$OUT/engine.json" 2>/dev/null
  $B/bench/goodput_engine_bench --benchmark_filter='BM_Simulate' --benchmark_min_time=0.01 \
    --benchmark_format=json >"$OUT/simulate.json" 2>/dev/null
  python3 - "$OUT/engine.json" "$OUT/simulate.json" >"$OUT/merged.json" <<'PY'
import json, sys
a = json.load(open(sys.argv[1])); a["benchmarks"] += json.load(open(sys.argv[2]))["benchmarks"]; print(json.dumps(a))
PY
  md "#### 1. Engine (Google Benchmark, CPU time; \`$B/bench/goodput_engine_bench\`)"
  md ""
  python3 bench/python/engine_table.py "$OUT/merged.json" >>"$MD"
  md ""
  md "BM_Simulate: scenarios/default.json at one year (32,760 GPUs), run 0's fault list."
  md ""
fi

if ! skip 2; then
  log "2. bench-131k end to end (timeout ${FULL_TIMEOUT}s)"
  full=$(timed "$FULL_TIMEOUT" "$OUT/full2.log" $GP run $SCEN --threads 2 --quiet --no-break-even --out "$OUT/full2")
  meas=$(timed 3600 "$OUT/measure.log" $WL $SCEN --threads 2 --set /seeds="$MEASURE_SEEDS")
  L=$OUT/measure.log
  sim=$(kv sim_s $L) plan=$(kv plan_s $L)
  extra=$(python3 -c "print(f'{$plan + $sim * 100 / $MEASURE_SEEDS:.0f}')")
  md "#### 2. End to end: \`$GP run $SCEN --threads 2 --quiet --no-break-even\` (131,040 GPUs, 1 year, 5 strategies, 100 seeds)"
  md ""
  md "| measure | value |"
  md "|---|---|"
  if [[ $full == "timed out" ]]; then md "| full 100-seed run, wall | **timed out at ${FULL_TIMEOUT} s** |"
  else read -r fw frss fcpu <<<"$full"; md "| full 100-seed run, wall / CPU / peak RSS | **$fw s** / $fcpu s / $((frss / 1024)) MiB |"; fi
  md "| measured: $MEASURE_SEEDS seeds via goodput_workload, plan / simulate wall | $plan s / $sim s |"
  md "| extrapolated 100-seed wall (plan + simulate x 100/$MEASURE_SEEDS) | **$extra s** (target 5 s) |"
  read -r mw mrss mcpu <<<"$meas"
  md "| measured run: process wall / CPU (user+sys) | $mw s / $mcpu s |"
  md "| peak RSS ($MEASURE_SEEDS seeds, 2 threads) | $((mrss / 1024)) MiB (target 1024 MiB) |"
  md "| engine events ($MEASURE_SEEDS seeds x 5 strategies) | $(kv events $L) |"
  md "| events/s (simulate wall) | $(kv events_per_s $L) |"
  md "| simulated GPU-years per wall second | $(kv gpu_years_per_s $L) |"
  md ""
fi

if ! skip 2b; then
  H=bench/scenarios/bench-hgx-131k.json
  log "2b. bench-hgx-131k end to end (timeout ${FULL_TIMEOUT}s)"
  full=$(timed "$FULL_TIMEOUT" "$OUT/hgx-full2.log" $GP run $H --threads 2 --quiet --no-break-even --out "$OUT/hgx-full2")
  meas=$(timed 3600 "$OUT/hgx-measure.log" $WL $H --threads 2 --set /seeds="$MEASURE_SEEDS")
  L=$OUT/hgx-measure.log
  extra=$(python3 -c "print(f'{$(kv plan_s $L) + $(kv sim_s $L) * 100 / $MEASURE_SEEDS:.1f}')")
  md "#### 2b. End to end: \`$GP run $H --threads 2 --quiet --no-break-even\` (16,384 HGX-8 servers = 131,072 GPUs, 1 year, 5 strategies, 100 seeds)"
  md ""
  md "| measure | value |"
  md "|---|---|"
  if [[ $full == "timed out" ]]; then md "| full 100-seed run, wall | **timed out at ${FULL_TIMEOUT} s** |"
  else read -r fw frss fcpu <<<"$full"; md "| full 100-seed run, wall / CPU / peak RSS | **$fw s** / $fcpu s / $((frss / 1024)) MiB (target 3 s, 1024 MiB) |"; fi
  md "| measured: $MEASURE_SEEDS seeds via goodput_workload, plan / simulate wall / simulate CPU | $(kv plan_s $L) s / $(kv sim_s $L) s / $(kv sim_cpu_s $L) s |"
  md "| extrapolated 100-seed wall (plan + simulate x 100/$MEASURE_SEEDS) | $extra s |"
  md "| failures simulated; CPU per failure per strategy | $(kv failures $L); $(kv us_per_failure $L) us |"
  md ""
fi

if ! skip 3; then
  log "3. determinism"
  d="--set /horizon_hours=$DET_HOURS --seeds $DET_SEEDS --quiet"
  t1=$(timed 900 "$OUT/det1.log" $GP run $SCEN $d --threads 1 --out "$OUT/det1")
  t2=$(timed 900 "$OUT/det2.log" $GP run $SCEN $d --threads 2 --out "$OUT/det2")
  same=$(cmp -s "$OUT/det1/report.json" "$OUT/det2/report.json" && echo "byte-identical" || echo "**DIFFERENT**")
  md "#### 3. Determinism: \`$GP run $SCEN $d --threads 1\` vs \`--threads 2\`"
  md ""
  md "report.json: $same (wall / CPU: 1 thread ${t1%% *} s / ${t1##* } s, 2 threads ${t2%% *} s / ${t2##* } s)."
  md ""
fi

if ! skip 4; then
  log "4. scaling (timeout ${POINT_TIMEOUT}s per point)"
  FAST='{"checkpoint_restart":{},"dp_drop":{"batch_policy":"shrink"},"hot_spares":{"scope":"domain","fallback":"dp_drop"}}'
  md "#### 4. Scaling ($SCALE_SEEDS seed(s), 2 threads, goodput_workload; cost = simulate wall / (GPUs x years), relative to the first row; linear = 1.0)"
  md ""
  md "| GPUs | years | plan s | all 5 strategies: simulate s | events | rel. cost | cr+dp_drop+hot_spares: simulate s | rel. cost |"
  md "|---|---|---|---|---|---|---|---|"
  point() {  # dp hours
    local dp=$1 h=$2 spare=$(( $1 / 8 > 0 ? $1 / 8 : 1 )) row=""
    local s="--set /seeds=$SCALE_SEEDS --set /job/dp=$dp --set /cluster/spare_domains=$spare --set /horizon_hours=$h"
    local gpus=$(( (dp * 8 + spare) * 72 )) years=$(python3 -c "print($h / 8760)")
    row="| $gpus | $years | PLAN "
    for which in all fast; do
      local extra=() logf="$OUT/scale-$dp-$h-$which.log"
      [[ $which == fast ]] && extra=(--set "/strategies=$FAST")
      [[ -f $logf.r ]] || timed "$POINT_TIMEOUT" "$logf" $WL $SCEN --threads 2 $s "${extra[@]}" >"$logf.r"
      local r=$(cat "$logf.r")
      if [[ $r != [0-9]* ]]; then row+="| $r (limit $POINT_TIMEOUT s) | – "; [[ $which == all ]] && row+="| – "
      else
        local w=$(kv sim_s "$logf") c=$(python3 -c "print($(kv sim_s "$logf") / ($gpus * $years))")
        local base_var=BASE_$which; [[ -z ${!base_var:-} ]] && printf -v "$base_var" %s "$c"
        local rel=$(python3 -c "print(f'{$c / ${!base_var}:.2f}')")
        if [[ $which == all ]]; then row+="| $w | $(kv events "$logf") | $rel "; else row+="| $w | $rel "; fi
      fi
    done
    local plan=$(kv plan_s "$OUT/scale-$dp-$h-fast.log")
    md "${row/PLAN/${plan:-over the limit}}|"
  }
  BASE_all="" BASE_fast=""
  for dp in 14 56 224 448 1792; do point $dp 8760; done
  BASE_all="" BASE_fast=""
  md ""
  md "| (years at 131K; rel. cost vs the 0.1-year row) | | | | | | | |"
  for h in 876 2628 8760 26280 87600; do point 224 $h; done
  md ""
fi

if ! skip 4b; then
  log "4b. cost per failure on three presets (timeout ${POINT_TIMEOUT}s per point)"
  md "#### 4b. Cost per simulated failure, 8K to 1M GPUs, 1 year, all 5 strategies, 1 thread (goodput_workload; CPU time, so other load on the machine inflates it less than wall)"
  md ""
  md "| preset | GPUs | domains | seeds | failures | plan s | simulate CPU s | us per failure per strategy | vs 8K |"
  md "|---|---|---|---|---|---|---|---|---|"
  NVL32="--set /cluster/preset=nvl32 --set /job/tp=32 --set /strategies/ntp/min_tp=24 --set /strategies/ntp_boost/min_tp=24"
  for preset in hgx-8 nvl32 gb200-nvl72; do
    base=""
    for size in 8k 32k 131k 1m; do
      case $preset/$size in  # dp, spare domains, GPUs per domain, seeds (about the same failures per point)
        hgx-8/8k) dp=63 sp=16 g=8 n=16 ;; hgx-8/32k) dp=252 sp=64 g=8 n=4 ;; hgx-8/131k) dp=1008 sp=256 g=8 n=1 ;; hgx-8/1m) dp=8064 sp=2048 g=8 n=1 ;;
        nvl32/8k) dp=31 sp=8 g=32 n=16 ;; nvl32/32k) dp=124 sp=32 g=32 n=4 ;; nvl32/131k) dp=496 sp=128 g=32 n=1 ;; nvl32/1m) dp=3968 sp=1024 g=32 n=1 ;;
        gb200-nvl72/8k) dp=14 sp=1 g=72 n=16 ;; gb200-nvl72/32k) dp=56 sp=7 g=72 n=4 ;; gb200-nvl72/131k) dp=224 sp=28 g=72 n=1 ;; gb200-nvl72/1m) dp=1792 sp=224 g=72 n=1 ;;
      esac
      scen=bench/scenarios/bench-131k.json extra=()
      [[ $preset == hgx-8 ]] && scen=bench/scenarios/bench-hgx-131k.json
      [[ $preset == nvl32 ]] && extra=($NVL32)
      logf="$OUT/cost-$preset-$size.log"
      r=$(timed "$POINT_TIMEOUT" "$logf" $WL $scen --threads 1 --set /seeds=$n --set /job/dp=$dp --set /cluster/spare_domains=$sp "${extra[@]}")
      if [[ $r != [0-9]* ]]; then md "| $preset | $size | | $n | | | $r (limit $POINT_TIMEOUT s) | | |"; continue; fi
      u=$(kv us_per_failure "$logf"); [[ -z $base ]] && base=$u
      pp=8; [[ $preset == hgx-8 ]] && pp=16
      md "| $preset | $(kv gpus "$logf") | $((dp * pp + sp)) | $n | $(kv failures "$logf") | $(kv plan_s "$logf") | $(kv sim_cpu_s "$logf") | $u | **$(python3 -c "print(f'{$u / $base:.2f}')")x** |"
    done
  done
  md ""
fi

if ! skip 5; then
  log "5. python reference"
  $B/bench/goodput_export_faults bench/scenarios/python-small.json "$OUT/python-small.csv" --runs 5
  python3 bench/python/reference_sim.py "$OUT/python-small.csv" >"$OUT/python.log"
  prc=$?
  L=$OUT/python.log
  md "#### 5. Python reference (\`bench/python/reference_sim.py\`, bench/scenarios/python-small.json, 5 runs x 2 strategies)"
  md ""
  md "| measure | value |"
  md "|---|---|"
  md "| events: reference model / C++ (equal in every run?) | $(kv events $L) / $(kv cpp_events $L) ($(kv events_match $L)) |"
  md "| largest Goodput difference | $(kv max_goodput_diff $L) $([[ $prc == 0 ]] && echo '(within 1e-9)' || echo '**OUT OF TOLERANCE**') |"
  md "| Python time per event | $(kv python_ns_per_event $L) ns |"
  md "| C++ time per reference event (simulate() on the same faults) | $(kv cpp_ns_per_event $L) ns |"
  md "| **C++ speed-up per event** | **$(kv ratio $L)x** (target 100x) |"
  md ""
  md "Per-run lines (Goodput and events side by side): $L."
  md ""
fi

if ! skip 6; then
  log "6. callgrind"
  cg="$GP run scenarios/default.json --seeds 2 --threads 1 --quiet --no-break-even --out $OUT/cg"
  valgrind --tool=callgrind --callgrind-out-file="$OUT/callgrind.out" $cg >"$OUT/callgrind.log" 2>&1
  callgrind_annotate --inclusive=no "$OUT/callgrind.out" 2>/dev/null >"$OUT/callgrind-self.txt"
  callgrind_annotate --inclusive=yes "$OUT/callgrind.out" 2>/dev/null >"$OUT/callgrind-incl.txt"
  total=$(grep -m1 'PROGRAM TOTALS' "$OUT/callgrind-self.txt" | awk '{print $1}')
  md "#### 6. callgrind: \`valgrind --tool=callgrind $cg\` (32,760 GPUs, 30 days, 2 seeds x 5 strategies)"
  md ""
  md "Total instructions: **$total**. Top functions by self cost (full: $OUT/callgrind-*.txt):"
  md ""
  md '```'
  grep -A 16 -m1 '^Ir' "$OUT/callgrind-self.txt" | tail -n +3 | cut -c1-160 >>"$MD"
  md '```'
  md ""
  # Issue 32's target table: marginal instructions per failure per strategy on both benches.
  md "#### 6b. Instructions per failure per strategy, marginal (\`tests/perf/callgrind_budget.py GOODPUT tests/perf/budget.json DIR --scenario BENCH --seeds 4 --horizon-hours 4380 --pilot-runs 2\`: 4,380 h against 8,760 h; target <= 1,000)"
  md ""
  md "| scenario | simulation | whole run |"
  md "|---|---|---|"
  fig() { grep -m1 "^$1:" "$2" | awk '{print $2}'; }  # fig NAME LOG: "NAME: N instructions ..."
  for s in bench-131k bench-hgx-131k; do
    L="$OUT/item3-$s.log"
    python3 tests/perf/callgrind_budget.py "$GP" tests/perf/budget.json "$OUT/item3-$s" \
      --scenario "bench/scenarios/$s.json" --seeds 4 --horizon-hours 4380 --pilot-runs 2 >"$L" 2>&1
    md "| $s | $(fig simulation "$L") | $(fig whole_run "$L") |"
  done
  md ""
fi
if ! skip 7 && [[ -x $B/sim/goodput-mpi ]] && command -v mpirun >/dev/null; then
  log "7. MPI sweep efficiency"
  sw=(bench/scenarios/bench-131k.json --seeds 4 --quiet
      --axis /cluster/spare_domains=$(seq -s, 0 4 60) --axis /failures/rate_scale=1,2,3,4)
  t1=$(timed 900 "$OUT/mpi1.log" mpirun -n 1 --allow-run-as-root $B/sim/goodput-mpi sweep "${sw[@]}" --out "$OUT/mpi1")
  md "#### 7. MPI sweep: 64 points (bench-131k, 1 year, 4 seeds each), \`mpirun -n N --oversubscribe $B/sim/goodput-mpi sweep ...\`"
  md ""
  md "| ranks | wall s | CPU s (all ranks) | wall per point s | efficiency vs 1 rank (T1 / (N x TN)) | files identical to 1 rank |"
  md "|---|---|---|---|---|---|"
  read -r w1 _ c1 <<<"$t1"
  md "| 1 | $w1 | $c1 | $(python3 -c "print(f'{$w1 / 64:.3f}')") | 1.00 | (reference) |"
  for n in 2 4; do
    tn=$(timed 900 "$OUT/mpi$n.log" mpirun -n $n --oversubscribe --allow-run-as-root $B/sim/goodput-mpi sweep "${sw[@]}" --out "$OUT/mpi$n")
    read -r wn _ cn <<<"$tn"
    same=$(diff -r "$OUT/mpi1" "$OUT/mpi$n" >/dev/null && echo yes || echo "**NO**")
    md "| $n | $wn | $cn | $(python3 -c "print(f'{$wn / 64:.3f}')") | $(python3 -c "print(f'{$w1 / ($n * $wn):.2f}')") | $same |"
  done
  md ""
  md "On $(nproc) cores, N ranks can at best reach an efficiency of min(1, $(nproc)/N)."
  md ""
fi
cat "$MD"
