#!/usr/bin/env bash
# seeds_auto_scenario.sh GOODPUT SCENARIO WORKDIR
# A scenario that says "seeds": "auto" (issue 32, item 1) runs exactly as `--seeds auto` on the
# same scenario with a count: the same runs.csv and report.json (but for the recorded command) for
# goodput run, the same points.csv and sweep.json for goodput sweep, and the same files at 1 and
# 2 threads. --seeds N overrides the file's auto, --ci-target and --max-seeds apply to it, --set
# /seeds=auto does the same as the file; validate says "seeds: auto", another string is refused
# naming the file and /seeds, and sensitivity runs the rule's first batch with a note.
# SCENARIO has an integer /seeds. Exit 0 on success, 1 with the first problem otherwise.
set -uo pipefail  # not -e: lib.sh's expect reads the exit code itself
g=$1 scenario=$2 work=$3
. "$(dirname "$0")/lib.sh"
ok() {  # ok ARGS...: goodput ARGS succeeds (its stderr only shown when it does not)
  local err
  err=$("$g" "$@" 2>&1 >/dev/null) || fail "goodput $* failed: $err"
}
rm -rf "$work" && mkdir -p "$work" || fail "cannot make $work"
s="$work/s.json"  # one path for both forms, so report.json's scenario_file is the same
as_auto() {       # as_auto VALUE: the scenario with /seeds = VALUE (JSON)
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["seeds"]=json.loads(sys.argv[2]); print(json.dumps(d))' \
    "$scenario" "$1" >"$s" || fail "cannot write $s"
}
# report.json without its "command" (which records the flags), sorted, one line.
sans_command() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d.pop("command"); print(json.dumps(d, sort_keys=True))' "$1"; }
same_report() {  # same_report DIR1 DIR2 WHAT
  cmp "$1/runs.csv" "$2/runs.csv" || fail "$3: runs.csv differs"
  [ "$(sans_command "$1/report.json")" = "$(sans_command "$2/report.json")" ] ||
    fail "$3: report.json differs beyond its command"
}

# goodput run: --seeds auto on a counted scenario, then the file's auto at 1 and 2 threads.
cp "$scenario" "$s" || fail "cannot copy $scenario"
ok run "$s" --seeds auto --threads 2 --out "$work/flag" --quiet
as_auto '"auto"'
ok run "$s" --threads 1 --out "$work/file1" --quiet
ok run "$s" --threads 2 --out "$work/file2" --quiet
same_report "$work/flag" "$work/file1" '"seeds": "auto" vs --seeds auto'
diff -r "$work/file1" "$work/file2" >/dev/null || fail '"seeds": "auto": 1 and 2 threads differ'
python3 - "$work/file1" <<'PY' || fail "report of the file's auto"
import csv, json, sys
d = sys.argv[1]
r = json.load(open(d + "/report.json"))
a, n = r["seeds_auto"], r["seeds"]
assert a["max_seeds"] == 1000 and a["batch"] == 8, a  # the defaults
assert n % 8 == 0 and n >= 8, n
assert r["scenario"]["seeds"] == n, r["scenario"]["seeds"]
per = {}
for row in csv.DictReader(open(d + "/runs.csv")):
    per.setdefault(row["strategy"], set()).add(row["run"])
assert per and all(len(v) == n for v in per.values()), {k: len(v) for k, v in per.items()}
md = open(d + "/report.md").read()
assert "- Seeds: %d, chosen by" % n in md and a["reason"] in md, "report.md: seeds and why"
PY

# --seeds 3 overrides the file's auto: three seeds, no rule.
ok run "$s" --seeds 3 --out "$work/three" --quiet
python3 - "$work/three" <<'PY' || fail "--seeds 3 did not override the file's auto"
import csv, json, sys
r = json.load(open(sys.argv[1] + "/report.json"))
assert r["seeds"] == 3 and "seeds_auto" not in r and r["scenario"]["seeds"] == 3, r["seeds"]
assert len({row["run"] for row in csv.DictReader(open(sys.argv[1] + "/runs.csv"))}) == 3
PY

# The rule's flags apply to the file's auto; --set /seeds=auto on a counted file is the same.
ok run "$s" --ci-target 0.05 --max-seeds 16 --out "$work/capped" --quiet
python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); a=r["seeds_auto"]; assert a["ci_target"]==0.05 and a["max_seeds"]==16 and r["seeds"]<=16, a' \
  "$work/capped/report.json" || fail "--ci-target/--max-seeds not applied to the file's auto"
cp "$scenario" "$s" || fail "cannot copy $scenario"
ok run "$s" --set /seeds=auto --ci-target 0.05 --max-seeds 16 --out "$work/set" --quiet
same_report "$work/capped" "$work/set" "--set /seeds=auto vs the file's auto"
expect 2 "^error: --ci-target: applies to --seeds auto only" run "$s" --ci-target 0.05 --out "$work/refused"

# goodput sweep: the file's auto per point as --seeds auto.
ok sweep "$s" --axis /job/step_s=10,20 --seeds auto --max-seeds 16 --threads 2 --out "$work/sw-flag" --quiet
as_auto '"auto"'
ok sweep "$s" --axis /job/step_s=10,20 --max-seeds 16 --threads 1 --out "$work/sw-file" --quiet
cmp "$work/sw-flag/points.csv" "$work/sw-file/points.csv" || fail "sweep: points.csv differs"
[ "$(sans_command "$work/sw-flag/sweep.json")" = "$(sans_command "$work/sw-file/sweep.json")" ] ||
  fail "sweep: sweep.json differs beyond its command"

# validate and describe show it; another string is refused naming the file and /seeds.
expect 0 "seeds: auto" validate "$s"
expect 0 '^\| `seeds` \| integer or auto \|' describe schema
as_auto '"fast"'
expect 2 "^error: $s: /seeds: expected an integer in \[1, 1e\+06\] or \"auto\", found a string \(\"fast\"\)" validate "$s"
expect 2 "^error: $s: /seeds: expected an integer" run "$s" --out "$work/fast"

# sensitivity: the rule's first batch, said on stderr and in its report.
as_auto '"auto"'
expect 0 'note: .*/seeds is "auto": sensitivity runs 8 seeds per value' \
  sensitivity "$s" --param /checkpoint/save_s --robustness-points 0 --out "$work/sens"
grep -q "^Scenario \`.*\`, 8 seeds" "$work/sens/sensitivity.md" || fail "sensitivity: not 8 seeds"
echo "ok"
