#!/usr/bin/env bash
# command_recorded.sh GOODPUT SCENARIO WORKDIR
# report.json, sweep.json, report.md and report.html record the command that reproduces them: the subcommand,
# the scenario as given and the options that change results, in a canonical order. The same
# arguments in another order, with other --threads / --out / --progress, give the same bytes; a
# different result-changing option gives a different command. Exit 0 on success, 1 otherwise.
set -euo pipefail
g=$1 scenario=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
line="goodput run $scenario --seeds 3 --set /seed=7 --set /job/step_s=12"
"$g" run "$scenario" --set /seed=7 --set /job/step_s=12 --seeds 3 --threads 1 --out "$work/a" --quiet
"$g" run --threads 3 --seeds=3 --out "$work/b" --progress --set /seed=7 --set /job/step_s=12 \
  --quiet "$scenario"
cmp "$work/a/report.json" "$work/b/report.json" || fail "argument order or --threads changed report.json"
cmp "$work/a/report.md" "$work/b/report.md" || fail "argument order or --threads changed report.md"
grep -qF "\"line\": \"$line\"" "$work/a/report.json" || fail "report.json lacks: $line"
grep -qF "\`$line\`" "$work/a/report.md" || fail "report.md lacks: $line"
grep -qF "<code>$line</code>" "$work/a/report.html" || fail "report.html lacks: $line"
"$g" run "$scenario" --set /seed=7 --set /job/step_s=12 --seeds 4 --out "$work/c" --quiet
tr -d '\n ' <"$work/c/report.json" | grep -qF '"command":{"args":["goodput","run",' \
  || fail "report.json lacks command.args"
grep -qF -- "--seeds 4" "$work/c/report.json" || fail "--seeds 4 not recorded"
# Sweeps: the same, in sweep.json and the sweep's report.md.
sline="goodput sweep $scenario --axis /job/step_s=10,20 --seeds 2"
"$g" sweep "$scenario" --axis /job/step_s=10,20 --seeds 2 --threads 1 --out "$work/s1" --quiet
"$g" sweep --seeds 2 --threads 2 --quiet --out "$work/s2" "$scenario" --axis /job/step_s=10,20
cmp "$work/s1/sweep.json" "$work/s2/sweep.json" || fail "argument order or --threads changed sweep.json"
grep -qF "\"line\": \"$sline\"" "$work/s1/sweep.json" || fail "sweep.json lacks: $sline"
grep -qF "\`$sline\`" "$work/s1/report.md" || fail "the sweep's report.md lacks: $sline"
grep -qF "<code>$sline</code>" "$work/s1/report.html" || fail "the sweep's report.html lacks: $sline"
# Sensitivity: the same, in sensitivity.json and sensitivity.md.
pline="goodput sensitivity $scenario --param /recovery/restart_s=300:900 --seeds 2"
"$g" sensitivity "$scenario" --param /recovery/restart_s=300:900 --seeds 2 --threads 1 \
  --out "$work/p1" --quiet
"$g" sensitivity --seeds 2 --quiet --threads 2 --out "$work/p2" "$scenario" \
  --param /recovery/restart_s=300:900
cmp "$work/p1/sensitivity.json" "$work/p2/sensitivity.json" \
  || fail "argument order or --threads changed sensitivity.json"
grep -qF "\"line\": \"$pline\"" "$work/p1/sensitivity.json" || fail "sensitivity.json lacks: $pline"
grep -qF "\`$pline\`" "$work/p1/sensitivity.md" || fail "sensitivity.md lacks: $pline"
echo "command recorded: $line"
