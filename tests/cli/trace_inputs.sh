#!/usr/bin/env bash
# trace_inputs.sh GOODPUT WORKDIR CASE: traces as logs really are (issue 31), one case per test.
#   duplicates  a trace listing each fault 5 times, and one nesting records, give runs.csv and
#               job_faults_per_hour byte-identical to the trace listed once; the merge is reported
#   utf8        invalid UTF-8 in a trace (CSV, JSON), a scenario (its text or file name), a
#               calibration profile, a --set or --axis value: exit 2 naming the file (flag) and
#               the line (pointer), from validate and run alike
#   special     /dev/zero, a FIFO and a folder as the trace: exit 2 at once, naming the field; the
#               same for the scenario file and a calibration profile
#   budget      a trace with many faults is refused by a small --max-events
# Every goodput call runs under `timeout`, so a regression fails instead of hanging.
set -u
g=$1; work=$2; case=$3
. "$(dirname "$0")/lib.sh"  # fail, expect (30 s)
rm -rf "$work"; mkdir -p "$work"; cd "$work" || exit 1
# scenario FILE TRACE [FORMAT]: a trace replay on 4 HGX-8 nodes, Daly checkpoints.
scenario() {
  cat >"$1" <<JSON
{
  "name": "trace-logs", "horizon_hours": 200, "seeds": 2,
  "cluster": { "preset": "hgx-8", "domains": 4, "nodes_per_rack": 4, "nodes_per_leaf": 2 },
  "job": { "tp": 8, "pp": 1, "dp": 3, "step_s": 5 },
  "failures": { "model": "trace",
                "trace": { "path": "$2", "format": "${3:-csv}", "restart_only_classes": ["Software"] } },
  "checkpoint": { "interval": "daly", "save_s": 60, "load_s": 300 },
  "strategies": { "checkpoint_restart": {}, "dp_drop": {}, "hot_spares": { "scope": "node" }, "ntp": {} }
}
JSON
}
# trace TIMES NESTED: seven faults, each record listed TIMES times, NESTED=1 adds a shorter
# record of the same class inside each.
trace() {
  echo "time_hours,component,event,class"
  while read -r a b c k; do
    for _ in $(seq "$1"); do echo "$a,$c,fault_start,$k"; echo "$b,$c,fault_end,$k"; done
    [ "$2" = 1 ] && echo "$(awk "BEGIN{print $a+($b-$a)/4}"),$c,fault_start,$k" &&
      echo "$(awk "BEGIN{print $a+($b-$a)/2}"),$c,fault_end,$k"
  done <<'T' | sort -t, -s -g -k1,1
2 30 gpu/3 GPU
10 12 node/1 Software
40 90 node/2 GPU
41 45 gpu/9 GPU
95 96 gpu/3 Software
120 150 leaf/0 Network
160 400 gpu/20 GPU
T
}
# The header sorts after the numbers; put it back on top.
header_first() { { grep '^time_hours' "$1"; grep -v '^time_hours' "$1"; } >"$1.tmp" && mv "$1.tmp" "$1"; }

case $case in
duplicates)
  for v in "once 1 0" "five 5 0" "nested 1 1" "five-nested 5 1"; do
    set -- $v
    trace "$2" "$3" >"$1.csv"; header_first "$1.csv"
    scenario "$1.json" "$1.csv"
    expect 0 "report:" run "$1.json" --threads 2 --no-break-even --out "out-$1"
  done
  for v in five nested five-nested; do
    cmp out-once/runs.csv "out-$v/runs.csv" || fail "$v: runs.csv differs from the trace listed once"
    [ "$(grep -h job_faults_per_hour out-once/report.json)" = \
      "$(grep -h job_faults_per_hour "out-$v/report.json")" ] || fail "$v: job_faults_per_hour differs"
  done
  grep -q '"merged_records": 0' out-once/report.json || fail "once: merged_records is not 0"
  grep -q '"merged_records": 28' out-five/report.json || fail "five: merged_records is not 28"
  grep -q '"merged_records": 7' out-nested/report.json || fail "nested: merged_records is not 7"
  grep -q '35 fault records, 28 merged into an overlapping record of the same component: 7 faults' \
    out-five/report.md || fail "five: report.md does not say what was merged"
  ;;
utf8)
  trace 1 0 >ok.csv; header_first ok.csv
  { cat ok.csv; printf '400,gpu/1,fault_start,Ger\xe4t\n'; } >bad.csv
  scenario bad.json bad.csv
  printf '[{"time_hours": 1, "component": "gpu/1",\n "event": "fault_start", "class": "\xff"}]\n' >bad-trace.json
  scenario badj.json bad-trace.json json
  for cmd in validate run; do
    expect 2 "bad.csv: line 16: expected UTF-8 text, found the byte 0xE4 at column 26" $cmd bad.json
    expect 2 "bad-trace.json: line 2: expected UTF-8" $cmd badj.json
  done
  scenario s.json ok.csv
  LC_ALL=C sed "s/\"trace-logs\"/\"trace-$(printf '\xff')\"/" s.json >name.json
  expect 2 "name.json: line 2: not valid JSON" validate name.json
  expect 2 "name.json: line 2: not valid JSON" run name.json
  cp s.json "$(printf 'latin1-\xe9.json')"
  expect 2 "expected a scenario file name in UTF-8" validate "$(printf 'latin1-\xe9.json')"
  expect 2 "expected a scenario file name in UTF-8" run "$(printf 'latin1-\xe9.json')"
  printf '{\n "name": "\xff"\n}\n' >profile.json  # a calibration profile
  expect 2 "^error: profile.json: line 2: expected UTF-8 text, found the byte 0xFF at column 11" \
    run s.json --set /cost/model=iteration --set /job/model/preset=llama3-405b --set /cost/profile=profile.json
  expect 2 "^error: --set: the assignment is not valid UTF-8" run s.json --set "$(printf '/name=\xff')"
  expect 2 "^error: --axis: .*not valid UTF-8" sweep s.json --axis "$(printf '/name=a,\xff')"
  ;;
special)
  mkfifo fifo; mkdir folder
  for t in /dev/zero fifo folder; do
    scenario s.json "$t"
    for cmd in validate run; do
      expect 2 "s.json: /failures/trace/path: expected the trace file to be a regular file, found" $cmd s.json
    done
  done
  trace 1 0 >ok.csv; header_first ok.csv; scenario ok.json ok.csv
  expect 2 "--set: /failures/trace/path: expected the trace file to be a regular file, found a character device" \
    run ok.json --set /failures/trace/path=/dev/zero
  # The scenario itself and a calibration profile, likewise.
  expect 2 "^error: fifo: expected the scenario file to be a regular file, found a FIFO" validate fifo
  expect 2 "^error: /dev/zero: expected the scenario file to be a regular file, found a character device" run /dev/zero
  expect 2 "--set: /cost/profile: expected the profile to be a regular file, found a character device" \
    run ok.json --set /cost/model=iteration --set /cost/profile=/dev/zero
  ;;
budget)
  awk 'BEGIN { print "time_hours,component,event,class";
               for (i = 0; i < 5000; i++) { printf "%g,gpu/0,fault_start,GPU\n%g,gpu/0,fault_end,GPU\n", i * 0.02, i * 0.02 + 0.01 } }' >many.csv
  scenario many.json many.csv
  expect 2 "many.json: this scenario asks for about [0-9]+ events .* 5000 failures per run" \
    run many.json --max-events 1000 --out out
  [ ! -e out ] || fail "a refused run wrote a report"
  ;;
*) fail "unknown case $case" ;;
esac
echo "ok: $case"
