#!/usr/bin/env bash
# interrupt.sh GOODPUT SCENARIO LONG_SCENARIO SWEEP_SCENARIO WORKDIR
# Ctrl-C (SIGINT), kill (SIGTERM) and a closed terminal (SIGHUP) end `goodput run` and
# `goodput sweep` with exit status 128 + the signal, say so on stderr, leave the earlier report
# exactly as it was and nothing of goodput's beside it (no lock file, no staging folder), and
# keep a sweep's finished points, which `--resume` then takes without redoing them, whenever the
# signal comes. A signal the caller ignores (nohup) stays ignored. `goodput import` finishes the
# file it is writing.
set -u
g=$1; scenario=$2; long_scenario=$3; sweep_scenario=$4; work=$5
rm -rf "$work"; mkdir -p "$work"; cd "$work" || exit 1
set -m  # background jobs in their own group, so they do not ignore SIGINT
. "$(dirname "$0")/lib.sh"  # fail, wait_for, interrupted_sweep_kept, interrupted_at_write
same() { diff -r "$1" "$2" >/dev/null; }
leftovers() { ls -A -d ."$1".goodput-* 2>/dev/null; }
# signal_run SIG: sends SIG to the background goodput $pid and sets $code to its exit status
signal_run() {
  kill -s "$1" "$pid"
  wait "$pid"
  code=$?
}

"$g" run "$scenario" --quiet --threads 1 --set /seed=1 --out ref-old || fail "reference run"

# Interrupted with its files staged (held before publishing), by each signal: the earlier
# report stays, the staging folder and the lock go.
for sig in INT TERM HUP; do
  rm -rf target .target.goodput-*
  cp -r ref-old target
  GOODPUT_TEST_HOLD_S=60 "$g" run "$scenario" --quiet --threads 1 --set /seed=2 --out target 2>err.log &
  pid=$!
  wait_for '.target.goodput-staging-*/report.json' || fail "SIG$sig: no staged report appeared"
  signal_run "$sig"
  want=$((128 + $(kill -l "$sig")))
  [ "$code" = "$want" ] || fail "SIG$sig: exit $code, expected $want: $(cat err.log)"
  same target ref-old || fail "SIG$sig: the earlier report changed"
  [ -z "$(leftovers target)" ] || fail "SIG$sig left $(leftovers target)"
  grep -q "interrupted (SIG$sig)" err.log && grep -q "target was left as it was" err.log ||
    fail "SIG$sig: stderr does not say what happened: $(cat err.log)"
done

# Interrupted while its files are being staged (as soon as the first one appears, so most
# signals land among the writes of the others): still nothing left. Before the staged writes
# took the interrupt lock, some such signals left the staging folder behind.
for i in $(seq 20); do
  rm -rf target .target.goodput-*
  cp -r ref-old target
  GOODPUT_TEST_HOLD_S=60 "$g" run "$scenario" --quiet --threads 1 --set /seed=2 --out target 2>err.log &
  pid=$!
  for _ in $(seq 30000); do compgen -G '.target.goodput-staging-*/report.json' >/dev/null && break; done
  signal_run TERM
  [ "$code" = 143 ] || fail "early SIGTERM $i: exit $code, expected 143: $(cat err.log)"
  same target ref-old || fail "early SIGTERM $i: the earlier report changed"
  [ -z "$(leftovers target)" ] || fail "early SIGTERM $i left $(leftovers target)"
done

# An inherited "ignore" (nohup) stays in force: the hang-up changes nothing.
"$g" run "$scenario" --quiet --threads 1 --set /seed=2 --out ref-new || fail "reference run"
rm -rf target .target.goodput-*
cp -r ref-old target
(trap '' HUP; GOODPUT_TEST_HOLD_S=2 exec "$g" run "$scenario" --quiet --threads 1 --set /seed=2 --out target) 2>err.log &
pid=$!
wait_for '.target.goodput-staging-*/report.json' || fail "nohup: no staged report appeared"
kill -s HUP $pid
wait $pid || fail "a run that ignores SIGHUP ended on one: $(cat err.log)"
same target ref-new || fail "nohup: the run did not publish its report"

# Interrupted while simulating a new report: nothing is written, nothing is left.
rm -rf fresh .fresh.goodput-*
"$g" run "$long_scenario" --quiet --threads 1 --out fresh 2>err.log &
pid=$!
wait_for '.fresh.goodput-lock' || fail "the long run never took its lock"
signal_run INT
[ "$code" = 130 ] || fail "interrupted run: exit $code, expected 130: $(cat err.log)"
[ ! -e fresh ] && [ -z "$(leftovers fresh)" ] || fail "interrupted run left $(ls -A -d fresh .fresh.* 2>/dev/null)"
grep -q "fresh was not written" err.log || fail "interrupted run: $(cat err.log)"

# A sweep interrupted after its points (held before publishing) keeps them for --resume.
axis=/job/step_s=10,11,12,13
"$g" sweep "$sweep_scenario" --axis $axis --threads 1 --quiet --out sweep-ref || fail "reference sweep"
rm -rf sweep .sweep.goodput-*
GOODPUT_TEST_HOLD_S=60 "$g" sweep "$sweep_scenario" --axis $axis --threads 1 --quiet --out sweep 2>err.log &
pid=$!
wait_for '.sweep.goodput-staging-*/sweep.json' || fail "the sweep staged nothing"
signal_run INT
[ "$code" = 130 ] || fail "interrupted sweep: exit $code: $(cat err.log)"
interrupted_sweep_kept sweep 4 err.log
out=$("$g" sweep "$sweep_scenario" --axis $axis --threads 1 --resume --out sweep) || fail "resume"
grep -q "0 run now, 4 resumed" <<<"$out" || fail "resume redid finished points: $out"
same sweep sweep-ref || fail "the resumed sweep differs from the uninterrupted one"
[ -z "$(leftovers sweep)" ] || fail "leftovers after the resumed sweep: $(leftovers sweep)"
# `goodput import` interrupted while writing its CSV (as soon as its temporary appears) finishes
# the file: no temporary is left, the CSV is either absent or whole, and the exit status is 130
# (0 where the signal came after the process had ended). Before import took the interrupt lock
# around the write, every such signal left `out.csv.tmp.<pid>`.
python3 -c '
print("time_hours,component,event,class")
for i in range(100000):
    print(f"{i / 100:.2f},gpu/{i % 4096},fault_start,GPU\n{i / 100 + 0.005:.3f},gpu/{i % 4096},fault_end,GPU")
' >big-log.csv
"$g" import --format csv big-log.csv --out ref.csv --quiet || fail "reference import"
interrupted_at_write out.csv ref.csv "$g" import --format csv big-log.csv --out out.csv --quiet
echo "interrupt tests: all passed"
