#!/usr/bin/env bash
# Rewrites the generated tables of README.md and calibrate/README.md between the
# <!-- describe:TOPIC --> markers from `goodput describe TOPIC`, and the scenario JSON Schema
# sim/report/schema/scenario.schema.json from `goodput describe schema --json`: the same
# declarations the loaders use. Usage: SCRIPT GOODPUT_BINARY [--check] (check: exit 1 if a README is out of
# date, change nothing).
set -euo pipefail
bin=$1; mode=${2:-write}
root="$(dirname "$0")/.."
status=0
for readme in "$root/README.md" "$root/calibrate/README.md"; do
  tmp=$(mktemp)
  python3 - "$bin" "$readme" "$tmp" <<'PY'
import re, subprocess, sys
bin_, readme, out = sys.argv[1:4]
text = open(readme).read()
def repl(m):
    topic = m.group(1)
    body = subprocess.run([bin_, "describe", topic], check=True, capture_output=True, text=True).stdout
    return f"<!-- describe:{topic} -->\n{body}<!-- /describe:{topic} -->"
text = re.sub(r"<!-- describe:([a-z-]+) -->.*?<!-- /describe:\1 -->", repl, text, flags=re.S)
open(out, "w").write(text)
PY
  if [ "$mode" = "--check" ]; then
    if ! diff -q "$readme" "$tmp" >/dev/null; then
      echo "$(realpath --relative-to="$root" "$readme") generated tables are out of date: run scripts/update-readme-tables.sh $bin"
      diff "$readme" "$tmp" | head -20
      status=1
    fi
    rm -f "$tmp"
  else
    cat "$tmp" > "$readme"  # keeps the file's mode
    rm -f "$tmp"
  fi
done
# The scenario JSON Schema, from the same declarations.
schema="$root/sim/report/schema/scenario.schema.json"
tmp=$(mktemp)
"$bin" describe schema --json >"$tmp"
if [ "$mode" = "--check" ]; then
  if ! diff -q "$schema" "$tmp" >/dev/null 2>&1; then
    echo "sim/report/schema/scenario.schema.json is out of date: run scripts/update-readme-tables.sh $bin"
    diff "$schema" "$tmp" | head -20
    status=1
  fi
  rm -f "$tmp"
else
  cat "$tmp" >"$schema"
  rm -f "$tmp"
fi
if [ "$mode" = "--check" ] && [ "$status" = 0 ]; then echo "README tables and the scenario schema up to date"; fi
exit "$status"
