#!/usr/bin/env bash
# secret_not_echoed.sh GOODPUT SCENARIO_DIR OUT: a scenario naming a file that holds anything (here a
# secret-looking line) as its calibration profile or its JSON trace is refused (exit 2) with the
# file and position named, and no byte of the file's content in the message.
set -uo pipefail
bin=$1; scenarios=$2; out=$3
rm -rf "$out"; mkdir -p "$out"
secret="$out/secret"
printf '"SECRET-TOKEN-123 root:$6$salt$hash:19000:0:99999:7:::\n' > "$secret"
printf '[{"time_hours": 1, SECRET-TOKEN-123}]\n' > "$out/secret2"
status=0
check() {  # check NAME COMMAND...: exit 2, the file named, the marker absent
  local name=$1; shift
  "$@" >"$out/$name.out" 2>"$out/$name.err"; local rc=$?
  if [ "$rc" != 2 ]; then echo "$name: expected exit 2, got $rc"; cat "$out/$name.err"; status=1; fi
  if grep -q "SECRET-TOKEN" "$out/$name.out" "$out/$name.err"; then
    echo "$name: the file's content is echoed:"; cat "$out/$name.err"; status=1
  fi
  if ! grep -q "$out/secret" "$out/$name.err"; then echo "$name: the file is not named"; cat "$out/$name.err"; status=1; fi
}
check profile "$bin" run "$scenarios/default.json" --set /cost/profile="$secret" --out "$out/r1"
check trace "$bin" run "$scenarios/trace-example.json" --set /failures/trace/path="$secret" \
  --set /failures/trace/format=json --out "$out/r2"
check trace2 "$bin" run "$scenarios/trace-example.json" --set /failures/trace/path="$out/secret2" \
  --set /failures/trace/format=json --out "$out/r3"
# The same file as a CSV or LANL trace: every field read is described, never quoted.
check trace_csv "$bin" run "$scenarios/trace-example.json" --set /failures/trace/path="$secret" \
  --set /failures/trace/format=csv --out "$out/r4"
printf 'time_hours,component,event,class\n1,SECRET-TOKEN-123,fault_start,x\n' > "$out/secret3"
check trace_csv_component "$bin" run "$scenarios/trace-example.json" \
  --set /failures/trace/path="$out/secret3" --set /failures/trace/format=csv --out "$out/r5"
printf 'time_hours,SECRET-TOKEN-123,event,class\n' > "$out/secret4"
check trace_csv_header "$bin" run "$scenarios/trace-example.json" \
  --set /failures/trace/path="$out/secret4" --set /failures/trace/format=csv --out "$out/r6"
[ "$status" = 0 ] && echo "ok: no content echoed"
exit $status
