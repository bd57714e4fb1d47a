#!/usr/bin/env bash
# diff_reports.sh GOODPUT DATA_DIR WORK_DIR: issue 30 item 3 on the small statistical scenario.
#  - `goodput diff A B` of two single-strategy reports (dp_drop, hot_spares) reproduces the paired
#    difference (and its CI) a single run with both strategies reports as goodput_minus_winner;
#    the per-strategy rows of two reports of the same failures are paired, of different failures
#    unpaired, and the differing keys are named.
#  - Bad input exits 2 naming the file and the field.
#  - The report's intro follows --set /horizon_hours: the file's "200 hours" description is left
#    out, the intro says 365 days (8,760 h), and the terminal counts "1 seed".
set -u
g=$1; data=$2; work=$3
. "$(dirname "$0")/lib.sh"
small=$data/small-stat.json
rm -rf "$work" && mkdir -p "$work" || fail "cannot create $work"
run() { "$g" run "$small" --seeds 5 --no-break-even --quiet --threads 2 "$@" || fail "goodput run $*"; }
run --strategies dp_drop --out "$work/a"
run --strategies hot_spares --out "$work/b"
run --strategies dp_drop,hot_spares --out "$work/both"
run --strategies dp_drop,hot_spares --set /recovery/restart_s=1800 --out "$work/slow-restart"
run --strategies dp_drop,hot_spares --set /failures/rate_scale=20 --out "$work/more-failures"

"$g" diff "$work/a" "$work/b/report.json" --json >"$work/ab.json" || fail "diff --json a b"
"$g" diff "$work/a" "$work/b" >"$work/ab.md" || fail "diff a b"
python3 - "$work" <<'PY' || fail "goodput diff does not reproduce the single run's paired difference"
import json, sys
w = sys.argv[1]
d = json.load(open(f"{w}/ab.json"))
both = json.load(open(f"{w}/both/report.json"))
lead = d["leaders"]
assert (lead["a"], lead["b"]) == ("dp_drop", "hot_spares"), lead
diff = lead["difference"]
assert diff["paired"] and diff["n"] == 5, diff
# The single run: the non-winner's goodput_minus_winner is it minus the winner.
ref = both["strategies"]["hot_spares"]["goodput_minus_winner"]
sign = 1
if both["winner"] == "hot_spares":
    ref, sign = both["strategies"]["dp_drop"]["goodput_minus_winner"], -1
assert abs(diff["mean"] - sign * ref["mean"]) < 1e-8, (diff, ref)
assert abs(diff["ci95"] - ref["ci95"]) < 1e-8, (diff, ref)
assert d["same_failures"] and not d["same_scenario"], d["scenario_differences"]
assert d["strategies"] == {}, "no strategy is in both"
print(f"hot_spares - dp_drop = {100 * diff['mean']:+.4f} ± {100 * diff['ci95']:.4f} pp, as the single run")
PY
grep -q 'paired over 5 runs with the same failures' "$work/ab.md" || { cat "$work/ab.md"; fail "ab.md: not paired"; }
grep -q '^Only in A: dp_drop' "$work/ab.md" || fail "ab.md: no 'Only in A'"

# Same failures, a different restart price: per-strategy rows paired, the key named.
"$g" diff "$work/both" "$work/slow-restart" >"$work/restart.md" || fail "diff both slow-restart"
grep -Eq '^\| `/recovery/restart_s` \| 600(\.0)? \| 1800(\.0)? \|$' "$work/restart.md" || { cat "$work/restart.md"; fail "restart.md: the differing key"; }
grep -Eq '^\| dp_drop \| .* \| paired over 5 runs with the same failures \|$' "$work/restart.md" || fail "restart.md: dp_drop not paired"
grep -q '^| INFRASTRUCTURE_RECOVERY_FROM_DISRUPTION |' "$work/restart.md" || fail "restart.md: no badput rows"
# Different failures: unpaired.
"$g" diff "$work/both" "$work/more-failures" >"$work/rate.md" || fail "diff both more-failures"
grep -q 'the failures differ, so differences are unpaired' "$work/rate.md" || { cat "$work/rate.md"; fail "rate.md"; }
grep -Eq '^\| hot_spares \| .* \| unpaired, Welch.s CI \|$' "$work/rate.md" || fail "rate.md: hot_spares row"

# Time and cost to train: a slower restart costs days and money, B - A signed, in the currency.
priced=(--set /report/train_hours=100 --set /report/gpu_hour_price=2 --set '/report/currency="$"')
run --strategies checkpoint_restart "${priced[@]}" --out "$work/priced-a"
run --strategies checkpoint_restart "${priced[@]}" --set /recovery/restart_s=7200 --out "$work/priced-b"
"$g" diff "$work/priced-a" "$work/priced-b" >"$work/priced.md" || fail "diff priced"
grep -Eq '^\| checkpoint_restart \| .* \| \+[0-9].* \| \+\$[0-9.,]+k? \|$' "$work/priced.md" || { cat "$work/priced.md"; fail "priced.md: no signed time and cost to train"; }

# Bad input: exit 2, the file and the field named.
expect 2 'nosuch: no such file or folder' diff "$work/nosuch" "$work/b"
mkdir -p "$work/bad" "$work/badcsv"
python3 - "$work" <<'PY'
import json, shutil, sys
w = sys.argv[1]
r = json.load(open(f"{w}/a/report.json"))
del r["strategies"]["dp_drop"]["goodput"]["mean"]
json.dump(r, open(f"{w}/bad/report.json", "w"))
shutil.copy(f"{w}/a/report.json", f"{w}/badcsv/report.json")
rows = open(f"{w}/a/runs.csv").read().splitlines()
cells = rows[1].split(",")
cells[3] = "lots"
rows[1] = ",".join(cells)
open(f"{w}/badcsv/runs.csv", "w").write("\n".join(rows) + "\n")
PY
expect 2 'bad/report.json: /strategies/dp_drop/goodput/mean: missing' diff "$work/bad" "$work/b"
expect 2 "badcsv/runs.csv: line 2: column 'goodput': expected a number, found 'lots'" diff "$work/a" "$work/badcsv"
expect 2 'small-stat.json: .*(JSON|expected|report)' diff "$small" "$work/b"
mkdir -p "$work/empty"
expect 2 'empty: a folder without report.json' diff "$work/empty" "$work/b"

# The intro follows --set: a year, not the file's 200 hours; one seed, not "1 seeds".
out=$("$g" run "$small" --seeds 1 --no-break-even --threads 2 --strategies dp_drop,hot_spares \
  --set /horizon_hours=8760 --out "$work/year") || fail "the year run"
grep -q '1 seed' <<<"$out" || fail "terminal: no '1 seed': $out"
md=$work/year/report.md
grep -q '200 hours' "$md" && fail "report.md repeats the file's '200 hours'"
grep -q '^This run: .*1 run of 365 days (8,760 h)' "$md" || { head -8 "$md"; fail "report.md: intro without the year"; }
grep -q 'this run changes /horizon_hours (200 -> 8760)' "$md" || fail "report.md: no note on the override"
grep -q 'over 1 run of 365 days' "$md" || true  # one seed: the verdict names no winner
echo "ok"
