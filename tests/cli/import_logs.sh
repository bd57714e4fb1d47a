#!/usr/bin/env bash
# import_logs.sh GOODPUT SOURCE_DIR WORKDIR CASE: `goodput import` and scenarios replaying
# operator logs (issue 29 item 4), one case per test.
#   roundtrip  each shipped example (iso-events-csv, slurm-events, k8s-events-json) imports to a
#              goodput CSV whose replay gives the same faults as the log replayed directly (the
#              trace records and faults in report.json, runs.csv); --out - writes the same CSV
#              to stdout; the resolved scenarios of both replays load again
#   refuse     an existing --out goodput import did not write is refused (exit 2) and kept
#              byte for byte; one it wrote is replaced; a symlink and a folder are refused
#   errors     an unknown host, a bad row, an unmatched end: exit 2 naming the file and line (or
#              JSON pointer); bad --host-pattern / --time-zone / --start name the flag; host
#              options for a format without hosts are refused; overlaps are noted by line
#   scenario   the scenario keys: hosts for a format without hosts, a missing host map, a bad
#              host_pattern or time_zone, no map and no pattern: exit 2 naming the pointer
set -u
g=$1; src=$2; work=$3; case=$4
EXPECT_TIMEOUT=60
. "$(dirname "$0")/lib.sh"  # fail, expect
rm -rf "$work"; mkdir -p "$work"; cd "$work" || exit 1
traces=$src/scenarios/traces
pat='gpu-node-0*([0-9]+)'
# scenario FILE TRACE FORMAT EXTRA: 64 HGX-8 nodes, the trace block with EXTRA keys.
scenario() {
  cat >"$1" <<JSON
{
  "name": "import-logs", "horizon_hours": 504, "seeds": 1,
  "cluster": { "preset": "hgx-8", "domains": 64, "nodes_per_rack": 8, "nodes_per_leaf": 8 },
  "job": { "tp": 8, "pp": 4, "dp": 14, "step_s": 6 },
  "failures": { "model": "trace",
                "trace": { "path": "$2", "format": "$3"$4 } },
  "checkpoint": { "interval": "fixed", "interval_s": 1800, "save_s": 30 },
  "strategies": { "checkpoint_restart": {}, "dp_drop": {} }
}
JSON
}
# trace_counts REPORT_DIR: the trace's records, merged records and faults in report.json.
trace_counts() {
  python3 -c 'import json,sys; t=json.load(open(sys.argv[1]))["trace"]; print(t["records"], t["merged_records"], t["faults"])' "$1/report.json"
}

case $case in
roundtrip)
  set -f  # the patterns in the flags stay as written
  while IFS='|' read -r name file fmt extra flags; do
    expect 0 "goodput import: [0-9]+ events" import --format "$fmt" $flags "$traces/$file" --out "$name.csv"
    head -1 "$name.csv" | grep -q '^# written by goodput import' || fail "$name.csv lacks the marker line"
    "$g" import --format "$fmt" $flags "$traces/$file" --out - 2>/dev/null >"$name-stdout.csv" ||
      fail "--out - failed"
    cmp -s "$name.csv" "$name-stdout.csv" || fail "--out - differs from the file for $name"
    cp "$traces/$file" "$traces/example-hosts.csv" .
    scenario "$name-log.json" "$file" "$fmt" "$extra"
    scenario "$name-csv.json" "$name.csv" csv ""
    expect 0 "" run "$name-log.json" --no-break-even --quiet --out "$name-log" --threads 2
    expect 0 "" run "$name-csv.json" --no-break-even --quiet --out "$name-csv" --threads 2
    a=$(trace_counts "$name-log"); b=$(trace_counts "$name-csv")
    [ "$a" = "$b" ] || fail "$name: the log replays as $a (records merged faults), its CSV as $b"
    [ "${a%% *}" -ge 10 ] || fail "$name: only $a"
    cmp -s "$name-log/runs.csv" "$name-csv/runs.csv" || fail "$name: runs.csv differs between the log and its CSV"
    # The resolved scenario (every key, defaults included) loads again, for the log and the CSV.
    for v in log csv; do
      python3 -c 'import json,sys; json.dump(json.load(open(sys.argv[1]))["scenario"], open(sys.argv[2], "w"))' \
        "$name-$v/report.json" "$name-$v-resolved.json"
      expect 0 "ok" validate "$name-$v-resolved.json"
    done
  done <<EOF2
iso|example-iso-events.csv|iso-events-csv|, "hosts": "example-hosts.csv"|--hosts $traces/example-hosts.csv
slurm|example-slurm-events.txt|slurm-events|, "host_pattern": "$pat", "host_index_offset": -1|--host-pattern=$pat --host-offset=-1
k8s|example-k8s-events.json|k8s-events-json|, "host_pattern": "$pat", "host_index_offset": -1|--host-pattern=$pat --host-offset=-1
EOF2
  ;;
refuse)
  args=(import --format slurm-events --host-pattern "$pat" --host-offset=-1 "$traces/example-slurm-events.txt")
  printf 'my notes\n' >notes.csv
  expect 2 "^error: --out: notes.csv exists and goodput import did not write it" "${args[@]}" --out notes.csv
  [ "$(cat notes.csv)" = "my notes" ] || fail "notes.csv was changed"
  expect 0 "goodput import" "${args[@]}" --out mine.csv
  printf 'stale\n' >>mine.csv
  expect 0 "goodput import" "${args[@]}" --out mine.csv
  grep -q stale mine.csv && fail "mine.csv (written by goodput import) was not replaced"
  ln -s notes.csv link.csv
  expect 2 "link.csv is a symbolic link" "${args[@]}" --out link.csv
  mkdir folder
  expect 2 "folder exists and is not a regular file" "${args[@]}" --out folder
  expect 2 "the folder nowhere does not exist" "${args[@]}" --out nowhere/x.csv
  ;;
errors)
  printf 'timestamp,host,event,class\n2026-03-01T00:00:00Z,gpu-node-001,start,X\n# c\n2026-03-01T01:00:00Z,login-1,end,X\n' >unknown.csv
  expect 2 "^error: unknown.csv: line 4: unknown host" import --format iso-events-csv --host-pattern "$pat" unknown.csv --out u.csv
  [ -e u.csv ] && fail "u.csv written despite the error"
  printf 'timestamp,host,event,class\n2026-03-01T00:00:00+01:00,gpu-node-001,stop,X\n' >badrow.csv
  expect 2 "^error: badrow.csv: line 2: expected event start or end" import --format iso-events-csv --host-pattern "$pat" badrow.csv --out b.csv
  printf 'timestamp,host,event,class\n2026-03-01T00:00:00Z,gpu-node-001,end,X\n' >lone.csv
  expect 2 "^error: lone.csv: line 2: fault_end of class 'X' on node/1" import --format iso-events-csv --host-pattern "$pat" lone.csv --out l.csv
  printf '{"items": [{"reason": "NodeNotReady", "lastTimestamp": "2026-03-01", "involvedObject": {"kind": "Node", "name": "gpu-node-001"}}]}\n' >k.json
  expect 2 "^error: k.json: /items/0/lastTimestamp: expected lastTimestamp as an ISO 8601 time" import --format k8s-events-json --host-pattern "$pat" k.json --out k.csv
  expect 2 "^error: --host-pattern: expected a regular expression with exactly one capture group" import --format slurm-events --host-pattern 'gpu-node' "$traces/example-slurm-events.txt" --out x.csv
  expect 2 "^error: --time-zone: expected Z or an offset" import --format slurm-events --host-pattern "$pat" --time-zone CET "$traces/example-slurm-events.txt" --out x.csv
  expect 2 "^error: --start: expected an ISO 8601 time" import --format slurm-events --host-pattern "$pat" --start 'March 1' "$traces/example-slurm-events.txt" --out x.csv
  expect 2 "apply only to formats iso-events-csv" import --format csv --host-pattern "$pat" "$traces/example-trace.csv" --out x.csv
  expect 2 "names hosts: expected a host map file" import --format slurm-events "$traces/example-slurm-events.txt" --out x.csv
  expect 0 "note: .*example-slurm-events.txt: line [0-9]+: a fault on node/13 starts while the one of line [0-9]+ is open" import --format slurm-events --host-pattern "$pat" --host-offset=-1 "$traces/example-slurm-events.txt" --out ok.csv
  ;;
scenario)
  cp "$traces/example-slurm-events.txt" "$traces/example-hosts.csv" "$traces/example-trace.csv" .
  scenario s1.json example-trace.csv csv ', "hosts": "example-hosts.csv"'
  expect 2 "s1.json: /failures/trace/hosts: applies only to the formats that name hosts" validate s1.json
  scenario s2.json example-slurm-events.txt slurm-events ', "hosts": "no-such.csv"'
  expect 2 "s2.json: /failures/trace/hosts: host map file not found" validate s2.json
  scenario s3.json example-slurm-events.txt slurm-events ', "host_pattern": "(gpu"'
  expect 2 "s3.json: /failures/trace/host_pattern: expected an ECMAScript regular expression" validate s3.json
  scenario s4.json example-slurm-events.txt slurm-events ', "host_pattern": "gpu-node-0*([0-9]+)", "time_zone": "Europe/Berlin"'
  expect 2 "s4.json: /failures/trace/time_zone: expected Z or an offset" validate s4.json
  scenario s5.json example-slurm-events.txt slurm-events ''
  expect 2 "s5.json: /failures/trace/format: format slurm-events names hosts" validate s5.json
  scenario s6.json example-slurm-events.txt slurm-events ', "host_pattern": "gpu-node-0*([0-9]+)"'
  expect 2 "example-slurm-events.txt: line [0-9]+: expected a component id of this cluster, found unknown id 'node/64'" validate s6.json
  scenario s7.json example-slurm-events.txt slurm-events ', "hosts": "example-hosts.csv"'
  expect 2 "example-slurm-events.txt: line [0-9]+: unknown host" validate s7.json
  expect 0 "ok" validate "$src/scenarios/slurm-replay.json"
  ;;
*) fail "unknown case $case" ;;
esac
echo "ok: $case"
