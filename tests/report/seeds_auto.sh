#!/usr/bin/env bash
# seeds_auto.sh GOODPUT SCENARIO WORKDIR
# `goodput run --seeds auto` gives the same files at 1 and 2 threads; report.json says how many
# seeds and why it stopped (seeds_auto), runs.csv holds that many seeds per strategy, report.md's
# set-up says the same, and the count is whole batches of 8 or the cap.
# Exit 0 on success, 1 with the first problem otherwise.
set -euo pipefail
gp=$1 scenario=$2 work=$3
schema=$(cd "$(dirname "$0")/../.." && pwd)/sim/report/schema/report.schema.json
rm -rf "$work" && mkdir -p "$work"
args=(run "$scenario" --seeds auto --ci-target 0.01 --tie-margin 0.002 --max-seeds 40 --quiet)
"$gp" "${args[@]}" --threads 1 --out "$work/t1"
"$gp" "${args[@]}" --threads 2 --out "$work/t2"
diff -r "$work/t1" "$work/t2"
python3 - "$work/t1" "$schema" <<'PY'
import csv, json, sys
d = sys.argv[1]
r = json.load(open(d + "/report.json"))
try:  # python3-jsonschema (installed by the test dependencies); the field's shape too
    import jsonschema
    jsonschema.validate(r, json.load(open(sys.argv[2])))
except ImportError:
    pass
a = r["seeds_auto"]
n = r["seeds"]
assert a["ci_target"] == 0.01 and a["tie_margin"] == 0.002 and a["max_seeds"] == 40, a
assert n % a["batch"] == 0 or n == a["max_seeds"], (n, a)
assert a["settled"] or n == a["max_seeds"], a
assert r["scenario"]["seeds"] == n, r["scenario"]["seeds"]
rows = list(csv.DictReader(open(d + "/runs.csv")))
per = {}
for row in rows:
    per.setdefault(row["strategy"], set()).add(row["run"])
assert per and all(len(v) == n for v in per.values()), {k: len(v) for k, v in per.items()}
md = open(d + "/report.md").read()
assert "- Seeds: %d, chosen by the auto rule (`--seeds auto`" % n in md, "report.md does not say the seeds"
assert a["reason"] in md
print("seeds auto: %d seeds, settled=%s: %s" % (n, a["settled"], a["reason"]))
PY
