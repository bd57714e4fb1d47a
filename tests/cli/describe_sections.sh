#!/usr/bin/env bash
# describe_sections.sh GOODPUT: `goodput describe` covers every key of a scenario. Each table row
# of an object (or list of objects) under a section `### `P`` of `describe schema` or `describe
# failure-models` (which `describe schema` refers /failures to) has its own section there, `P/key`
# (a list: `P/key/N`); /strategies has its own topic (one section per strategy). /report in
# particular: its section lists the report keys (train_hours ... baseline), one row each.
set -u
bin=$1
fail() { echo "FAIL: $*"; exit 1; }
schema=$("$bin" describe schema) || fail "describe schema"
all=$schema$'\n'$("$bin" describe failure-models) || fail "describe failure-models"
python3 - "$all" <<'PY' || fail "a declared object has no section"
import re, sys
text = sys.argv[1]
heads = set(re.findall(r"^### `([^`]+)`", text, re.M))
missing = []
pointer = None
for line in text.splitlines():
    m = re.match(r"^### `([^`]+)`", line)
    if m:
        pointer = m.group(1) if m.group(1).startswith("/") else None
        continue
    m = re.match(r"^\| `([^`]+)` \| (object|list of objects)( or null)? \|", line)
    if m and pointer:
        base = "" if pointer == "/" else pointer
        want = base + "/" + m.group(1) + ("/N" if m.group(2) == "list of objects" else "")
        # /strategies's sections are per strategy ("### `dp_drop`"), under "## Strategies".
        if want not in heads and want != "/strategies":
            missing.append(f"{pointer} declares {m.group(1)} ({m.group(2)}) but no section {want}")
if missing:
    print("\n".join(missing)); sys.exit(1)
print(f"{len(heads)} sections, every declared object has one")
PY
grep -q '^### `/report`' <<<"$schema" || fail "describe schema has no /report section"
report=$(awk '/^### `\/report`/ {on = 1; next} on && /^###/ {exit} on' <<<"$schema")
for key in failed_gpu_thresholds train_hours train_steps train_tokens gpu_hour_price gpu_capex \
  gpu_lifetime_years spare_gpu_hour_price gpu_power_kw idle_power_fraction pue \
  energy_price_per_kwh baseline; do
  grep -q "^| \`$key\` |" <<<"$report" || fail "describe schema's /report lacks $key"
done
echo "ok: describe covers every declared section, /report's keys included"
