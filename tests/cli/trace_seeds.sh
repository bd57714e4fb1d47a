#!/usr/bin/env bash
# trace_seeds.sh GOODPUT REPO_ROOT WORKDIR
# What a trace replay's seeds vary, end to end (issue 29 item 3): scenarios/trace-example.json's
# trace is no longer than its run, so with the default seeds_vary (window) its replay is
# deterministic: --seeds 20 shows one run, no CI, no significance, in report.json, report.md and
# the verdict; --seeds auto stops at one run. A 24 h horizon gives the 48 h trace windows to draw:
# then the CIs come from the runs.
set -euo pipefail
g=$1 root=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
scenario="$root/scenarios/trace-example.json"
"$g" run "$scenario" --seeds 20 --no-break-even --quiet --out "$work/det"
grep -q '^The trace replay is deterministic: all 20 seeds replay the same faults' "$work/det/report.md" \
  || fail "no deterministic verdict in report.md"
grep -Eq '\(significant at 95%|yes, (ahead|behind)' "$work/det/report.md" \
  && fail "a significance claim on one run"
grep -q '| no: one deterministic run |' "$work/det/report.md" || fail "baseline table: no reason"
grep -q '^- Trace statistics: The replay is deterministic' "$work/det/report.md" \
  || fail "no trace statistics line"
[ "$(wc -l <"$work/det/runs.csv")" -eq 4 ] || fail "runs.csv: not one run per strategy"
python3 - "$work/det/report.json" <<'PY' || fail "report.json does not say deterministic"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["trace"]["deterministic"] and j["verdict"]["deterministic"], j["verdict"]
assert not j["verdict"]["significant"]
assert j["verdict"]["statement"].startswith("deterministic replay"), j["verdict"]["statement"]
for s in j["strategies"].values():
    assert s["goodput"]["ci95"] == 0, s["goodput"]
PY
"$g" run "$scenario" --seeds auto --no-break-even --quiet --out "$work/auto"
grep -q '^- Seeds: 1, chosen by the auto rule (`--seeds auto`.*the trace replay is deterministic' \
  "$work/auto/report.md" || fail "--seeds auto did not stop at one run"
"$g" run "$scenario" --seeds 20 --set /horizon_hours=24 --no-break-even --quiet --out "$work/win"
python3 - "$work/win/report.json" <<'PY' || fail "windows: no CI from the runs"
import json, sys
j = json.load(open(sys.argv[1]))
t = j["trace"]
assert t["windows_vary"] and not t["deterministic"] and t["window_offset_max_hours"] == 24, t
assert t["independent_windows"] == 2, t
assert not j["verdict"]["deterministic"]
assert any(s["goodput"]["ci95"] > 0 for s in j["strategies"].values())
PY
grep -q 'moving-block bootstrap' "$work/win/report.md" || fail "windows: how the CIs are made"
echo "deterministic replays show one run; windows give CIs"
