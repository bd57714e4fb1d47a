#!/usr/bin/env bash
# kill_test.sh GOODPUT SCENARIO SWEEP_SCENARIO WORKDIR
# SIGKILLs `goodput run` and `goodput sweep` at random moments and at the exact steps of a
# report's replacement (GOODPUT_TEST_CRASH_AT), and checks that the path always holds the
# previous report intact or the new one complete, that a crashed writer's leftovers are put
# back or cleaned up by the next run, and that `sweep --resume` after a kill finishes
# byte-identical to an uninterrupted sweep without redoing the points it had finished.
set -u
g=$1; scenario=$2; sweep_scenario=$3; work=$4
rm -rf "$work"; mkdir -p "$work"; cd "$work" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
same() { diff -r "$1" "$2" >/dev/null; }

# Two reference reports of the same scenario with different seeds.
"$g" run "$scenario" --quiet --threads 1 --set /seed=1 --out ref-old || fail "reference run"
"$g" run "$scenario" --quiet --threads 1 --set /seed=2 --out ref-new || fail "reference run"
same ref-old ref-new && fail "the two reference reports should differ"
"$g" run "$scenario" --quiet --threads 1 --set /seed=2 --out again || fail "repeat run"
same ref-new again || fail "the same run twice gave different bytes"

fresh_target() { rm -rf target .target.goodput-*; cp -r ref-old target; }
# previous intact or new complete (a kill in the last steps may leave goodput's role file in it,
# which the next run removes: tested after each rerun below)
check_target() {
  diff -r -x '.goodput-role*' target ref-old >/dev/null || diff -r -x '.goodput-role*' target ref-new >/dev/null ||
    fail "$1: target is neither the old nor the new report"
}

# Exact steps of a replacement.
for step in staged marked swapped; do
  fresh_target
  GOODPUT_TEST_CRASH_AT=$step "$g" run "$scenario" --quiet --threads 1 --set /seed=2 --out target
  [ $? = 137 ] || fail "crash at $step did not happen"
  check_target "killed at $step"
  "$g" run "$scenario" --quiet --threads 1 --set /seed=2 --out target || fail "run after crash at $step"
  same target ref-new || fail "run after crash at $step"
  [ -z "$(ls -A -d .target.* 2>/dev/null)" ] || fail "leftovers after the run that followed a crash at $step"
done
# Without an atomic exchange the old report is renamed aside first: a kill then leaves it
# beside the path, and the next claim of the path puts it back before replacing it.
fresh_target
GOODPUT_TEST_NO_EXCHANGE=1 GOODPUT_TEST_CRASH_AT=aside "$g" run "$scenario" --quiet --threads 1 --set /seed=2 --out target
[ $? = 137 ] || fail "crash at aside did not happen"
old=$(ls -d .target.goodput-displaced-* 2>/dev/null | head -1)
[ -n "$old" ] && diff -r -x '.goodput-role*' "$old" ref-old >/dev/null || fail "the previous report is not intact beside the path"
GOODPUT_TEST_NO_EXCHANGE=1 "$g" run "$scenario" --quiet --threads 1 --set /seed=2 --out target || fail "run after aside"
same target ref-new || fail "run after the crash at aside"
[ -z "$(ls -A -d .target.* 2>/dev/null)" ] || fail "leftovers after the crash at aside"

# Random moments.
for i in 1 2 3 4 5 6; do
  fresh_target
  "$g" run "$scenario" --quiet --threads 1 --set /seed=2 --out target &
  pid=$!
  sleep "0.$((RANDOM % 40))"
  kill -9 $pid 2>/dev/null
  wait $pid 2>/dev/null
  check_target "random kill $i"
done

# A second writer of the same folder fails with exit 2 instead of mixing files.
fresh_target
GOODPUT_TEST_HOLD_S=3 "$g" run "$scenario" --quiet --threads 1 --set /seed=2 --out target &
pid=$!
sleep 1
"$g" run "$scenario" --quiet --threads 1 --set /seed=1 --out target/ >second.log 2>&1
code=$?
wait $pid || fail "the first writer failed"
[ $code = 2 ] && grep -q "another goodput process is writing" second.log || fail "second writer: exit $code: $(cat second.log)"
same target ref-new || fail "concurrent writers mixed the report"

# Sweeps: killed at random, then --resume; and killed while publishing.
axis=/job/step_s=10,11,12,13,14,15,16,17
"$g" sweep "$sweep_scenario" --axis $axis --threads 1 --quiet --out sweep-ref || fail "reference sweep"
for i in 1 2 3; do
  rm -rf sweep .sweep.goodput-*
  "$g" sweep "$sweep_scenario" --axis $axis --threads 1 --quiet --out sweep &
  pid=$!
  sleep "0.$((RANDOM % 90 + 10))"
  kill -9 $pid 2>/dev/null
  wait $pid 2>/dev/null
  if [ -d sweep ]; then diff -r -x '.goodput-role*' sweep sweep-ref >/dev/null || fail "killed sweep published a wrong report"; continue; fi
  had=$(ls .sweep.goodput-records-*/records/*.json 2>/dev/null | wc -l)
  out=$("$g" sweep "$sweep_scenario" --axis $axis --threads 1 --resume --out sweep) || fail "resume $i"
  grep -q "$((8 - had)) run now" <<<"$out" || fail "resume $i redid finished points ($had on disk): $out"
  same sweep sweep-ref || fail "resumed sweep $i differs from the uninterrupted one"
  [ -z "$(ls -A -d .sweep.goodput-* 2>/dev/null)" ] || fail "records left after a complete sweep"
done
rm -rf sweep .sweep.goodput-*
GOODPUT_TEST_CRASH_AT=staged "$g" sweep "$sweep_scenario" --axis $axis --threads 1 --quiet --out sweep
[ $? = 137 ] || fail "sweep crash at staged did not happen"
out=$("$g" sweep "$sweep_scenario" --axis $axis --threads 1 --resume --out sweep) || fail "resume after publish crash"
grep -q "0 run now, 8 resumed" <<<"$out" || fail "a kill while publishing lost the finished points: $out"
same sweep sweep-ref || fail "sweep resumed after a publish crash differs"
echo "kill tests: all passed"
