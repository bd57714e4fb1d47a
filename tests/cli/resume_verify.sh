#!/usr/bin/env bash
# resume_verify.sh GOODPUT TRACE_SCENARIO SWEEP_SCENARIO WORKDIR
# --resume verifies before it trusts: a sweep over a trace scenario stopped part-way, then the
# trace edited, refuses to resume (exit 2 naming the record and the trace); a tampered record
# is named with its first bad field and its point runs again (the same files as an
# uninterrupted sweep); a goal seek stopped part-way resumes from its records, evaluating only
# the values it had not finished, and writes the same files as an uninterrupted seek.
set -u
g=$1; trace_scenario=$2; sweep_scenario=$3; work=$4
rm -rf "$work"; mkdir -p "$work"; cd "$work" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
same() { diff -r "$1" "$2" >/dev/null; }
# The records of the report folder $1 named like $2, wherever its records folder lies.
records() { find . -name "$2" -type f | grep -E "^\./\.?$1[.]" | sort; }

# A trace edited between the interruption and the resume.
mkdir -p data/traces
cp "$trace_scenario" data/trace.json
cp "$(dirname "$trace_scenario")/traces/example-trace.csv" data/traces/
axis=/job/step_s=5,6,7
"$g" sweep data/trace.json --axis $axis --threads 1 --quiet --out tr-ref || fail "reference trace sweep"
"$g" sweep data/trace.json --axis $axis --threads 1 --quiet --stop-after 1 --out tr || fail "stopped sweep"
[ -z "$(records tr 'point-*.json')" ] && fail "the stopped sweep left no record"
sed -i 's/^10,node\/1,/11,node\/1,/' data/traces/example-trace.csv
"$g" sweep data/trace.json --axis $axis --threads 1 --resume --out tr >out.log 2>err.log
code=$?
[ $code = 2 ] || fail "resume after a trace edit: exit $code (expected 2): $(cat out.log err.log)"
grep -q "point-[0-9]*\.json: /inputs/0/sha256: .*example-trace.csv (/failures/trace/path) changed since this point was run; rerun without --resume" err.log ||
  fail "resume after a trace edit does not name the record and the trace: $(cat err.log)"

# A tampered record: named, and its point runs again.
"$g" sweep "$sweep_scenario" --axis /job/step_s=10,20,30 --threads 1 --quiet --out sw-ref || fail "reference sweep"
"$g" sweep "$sweep_scenario" --axis /job/step_s=10,20,30 --threads 1 --quiet --stop-after 2 --out sw ||
  fail "stopped sweep"
rec=$(records sw 'point-*.json' | head -1)
[ -n "$rec" ] || fail "the stopped sweep left no record"
grep -q '"strategy":"dp_drop"' "$rec" || fail "no dp_drop in the record"
sed -i 's/"strategy":"dp_drop"/"strategy":"dp_dorp"/' "$rec"
out=$("$g" sweep "$sweep_scenario" --axis /job/step_s=10,20,30 --threads 1 --resume --out sw 2>err.log) ||
  fail "resume with a tampered record: $(cat err.log)"
grep -q "^note: .*$(basename "$rec"): /runs/[0-9]/strategy: expected dp_drop .*; this point runs again" err.log ||
  fail "the tampered record is not named with its field: $(cat err.log)"
grep -q "3 points, 2 run now, 1 resumed" <<<"$out" || fail "resume with a tampered record: $out"
same sw sw-ref || fail "the sweep resumed past a tampered record differs from the uninterrupted one"

# A goal seek stopped after two values resumes from their records.
seek=(sweep "$sweep_scenario" --seek /cluster/spare_domains --min 0 --max 8 --target-goodput 0.9
      --strategy hot_spares --seeds 3 --threads 1)
out=$("$g" "${seek[@]}" --out seek-ref) || fail "reference seek"
total=$(sed -n 's/.*(\([0-9]*\) values evaluated;.*/\1/p' <<<"$out")
[ -n "$total" ] && [ "$total" -gt 2 ] || fail "reference seek: $out"
out=$("$g" "${seek[@]}" --stop-after 2 --out seek) || fail "stopped seek"
grep -q "2 values evaluated, unfinished: rerun with --resume" <<<"$out" || fail "stopped seek: $out"
[ ! -e seek ] || fail "a stopped seek published a report"
[ "$(records seek 'value*.json' | wc -l)" = 2 ] || fail "the stopped seek did not keep 2 records"
out=$("$g" "${seek[@]}" --resume --out seek) || fail "resumed seek"
grep -q "resumed: 2 values from records, $((total - 2)) evaluated now" <<<"$out" ||
  fail "the resumed seek redid finished values ($total in all): $out"
same seek seek-ref || fail "the resumed seek differs from the uninterrupted one"
[ -z "$(records seek 'value*.json')" ] || fail "records left after a finished seek"
# Without --resume a seek starts over (its old records are dropped first).
"$g" "${seek[@]}" --stop-after 1 --quiet --out seek2 || fail "stopped seek 2"
out=$("$g" "${seek[@]}" --out seek2) || fail "seek 2 without --resume"
same seek2 seek-ref || fail "seek 2 differs"
echo "resume verify tests: all passed"
