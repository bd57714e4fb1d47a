#!/usr/bin/env bash
# three_questions.sh GOODPUT REPO_ROOT WORKDIR
# Issue 13's three questions, each answered by one documented command (shortened here: 240 h, 3
# seeds), checking that the answer is in report.md / sweep.json and agrees with runs.csv /
# points.csv:
#  1. How much does dp_drop gain over checkpoint_restart on the 16K-H100 job, and at what
#     checkpoint interval?  goodput run scenarios/llama3-16k-h100.json --strategies
#     checkpoint_restart,dp_drop   (report.md "Against the baseline", the intervals in Set-up)
#  2. How many spare racks keep 95% Goodput on GB200 NVL72 (hot_spares)?  goodput sweep
#     scenarios/gb200-nvl72-tp64.json --seek /cluster/spare_domains --strategy hot_spares
#     --target 'goodput>=0.95'
#  3. If failures were 3x Llama 3, how does ntp compare with dp_drop?  goodput run
#     scenarios/default.json --set /failures/rate_scale=3 --strategies dp_drop,ntp --baseline dp_drop
set -euo pipefail
g=$1 root=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
short=(--seeds 3 --set /horizon_hours=240)
fail() { echo "FAIL: $*" >&2; exit 1; }

# The paired mean of `strategy` minus `baseline` over runs.csv, against report.json.
paired_check() {  # DIR STRATEGY BASELINE
  python3 - "$1" "$2" "$3" <<'PY' || fail "$1: report.json disagrees with runs.csv"
import csv, json, sys
d, s, b = sys.argv[1:]
rows = list(csv.DictReader(open(f"{d}/runs.csv")))
g = {(r["run"], r["strategy"]): float(r["goodput"]) for r in rows}
runs = sorted({r["run"] for r in rows})
diff = sum(g[(r, s)] - g[(r, b)] for r in runs) / len(runs)
rep = json.load(open(f"{d}/report.json"))
assert rep["baseline"] == b, rep["baseline"]
got = rep["strategies"][s]["goodput_minus_baseline"]["mean"]
assert abs(got - diff) < 1e-9, (got, diff)
print(f"{d}: {s} - {b} = {100 * diff:+.2f} pp, as runs.csv gives")
PY
}

# 1
"$g" run "$root/scenarios/llama3-16k-h100.json" --strategies checkpoint_restart,dp_drop \
  "${short[@]}" --no-break-even --quiet --out "$work/q1"
grep -q '^## Against the baseline (checkpoint_restart)' "$work/q1/report.md" || fail "q1: no baseline"
grep -Eq '^\| dp_drop \| [+-][0-9.]+ ± [0-9.]+ \|' "$work/q1/report.md" || fail "q1: no dp_drop row"
grep -Eq '^  - dp_drop: [0-9]+ s( \([^)]*\))? — ' "$work/q1/report.md" || fail "q1: no dp_drop interval"
paired_check "$work/q1" dp_drop checkpoint_restart
# The scenario prices its time to train: the verdict says the days and money saved, as
# report.json's time_to_train gives them (to the digits printed).
python3 - "$work/q1" <<'PY' || fail "q1: no days and money saved, or they disagree with report.json"
import json, re, sys
d = sys.argv[1]
text = open(f"{d}/report.md").read()
m = re.search(r"dp_drop finishes ([0-9.]+) days sooner than checkpoint_restart and saves "
              r"([0-9.]+)M USD", text)
assert m, "no sentence"
t = {s: v["time_to_train"] for s, v in json.load(open(f"{d}/report.json"))["strategies"].items()}
days = (t["checkpoint_restart"]["wall_hours"]["mean"] - t["dp_drop"]["wall_hours"]["mean"]) / 24
money = (t["checkpoint_restart"]["cost"]["mean"] - t["dp_drop"]["cost"]["mean"]) / 1e6
assert abs(days - float(m.group(1))) <= 0.05 + 1e-9, (days, m.group(1))
assert abs(money - float(m.group(2))) <= 0.05 + 1e-9, (money, m.group(2))
print(f"q1: {m.group(0)} (report.json: {days:.3f} days, {money:.3f}M USD)")
PY

# 2
"$g" sweep "$root/scenarios/gb200-nvl72-tp64.json" --seek /cluster/spare_domains --min 0 --max 32 \
  --strategy hot_spares --target 'goodput>=0.95' "${short[@]}" --quiet --out "$work/q2"
grep -Eq '^Smallest `/cluster/spare_domains` with hot_spares goodput >= 95% .*: \*\*[0-9]+\*\*' \
  "$work/q2/report.md" || fail "q2: no answer in report.md"
python3 - "$work/q2" <<'PY' || fail "q2: the answer disagrees with points.csv"
import csv, json, math, statistics, sys
d = sys.argv[1]
seek = json.load(open(f"{d}/sweep.json"))["seek"]
answer = seek["answer"]
rows = [r for r in csv.DictReader(open(f"{d}/points.csv")) if r["strategy"] == "hot_spares"]
t975 = {2: 4.302653, 3: 3.182446, 4: 2.776445}  # Student's t, 0.975, by n - 1
for e in seek["evaluated"]:
    x = [float(r["goodput"]) for r in rows if float(r["/cluster/spare_domains"]) == e["value"]]
    lower = statistics.mean(x) - t975[len(x) - 1] * statistics.stdev(x) / math.sqrt(len(x))
    assert abs(lower - e["bound"]) < 1e-9, (e, lower)
    assert (lower >= 0.95) == e["meets"], e
    if e["value"] == answer: assert e["meets"]
    if e["value"] < answer: assert not e["meets"]
print(f"q2: {answer} spare racks, consistent with points.csv")
PY

# 3
"$g" run "$root/scenarios/default.json" --set /failures/rate_scale=3 --strategies dp_drop,ntp \
  --baseline dp_drop "${short[@]}" --no-break-even --quiet --out "$work/q3"
grep -q '^## Against the baseline (dp_drop)' "$work/q3/report.md" || fail "q3: no baseline"
grep -Eq '^\| ntp \| [+-][0-9.]+ ± [0-9.]+ \| (yes, ahead|yes, behind|no) \|' "$work/q3/report.md" \
  || fail "q3: no ntp row"
paired_check "$work/q3" ntp dp_drop
echo "three questions answered"
