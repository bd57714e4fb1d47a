#!/usr/bin/env bash
# progress_and_table.sh GOODPUT SCENARIO WORKDIR
# --progress writes progress lines to stderr only (never stdout, never a file); --quiet silences
# them; a sweep ends with its result table on stdout. Exit 0 on success, 1 otherwise.
set -euo pipefail
g=$1 scenario=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
"$g" run "$scenario" --seeds 4 --progress --out "$work/run" >"$work/out" 2>"$work/err"
grep -Eq '^  runs 4/4 \[#+\] 0s left' "$work/err" || fail "no final progress line on stderr: $(cat "$work/err")"
grep -q 'runs [0-9]' "$work/out" && fail "progress on stdout"
grep -rq 'runs [0-9]*/4' "$work/run" && fail "progress in an output file"
"$g" run "$scenario" --seeds 4 --progress --quiet --out "$work/run" >"$work/out" 2>"$work/err"
[ ! -s "$work/out" ] && [ ! -s "$work/err" ] || fail "--quiet --progress printed something"
"$g" sweep "$scenario" --axis /cluster/spare_domains=0,3 --seeds 3 --progress --out "$work/sweep" \
  >"$work/out" 2>"$work/err"
grep -Eq '^  points 2/2 ' "$work/err" || fail "no sweep progress on stderr"
grep -Eq '^point +/cluster/spare_domains +checkpoint_restart +dp_drop +hot_spares +best$' \
  "$work/out" || fail "no sweep table header: $(cat "$work/out")"
# One row per point: its number, axis value, a Goodput per strategy and a strategy name.
[ "$(grep -Ec '^00[01] +[03] +([0-9.]+% +){3}(checkpoint_restart|dp_drop|hot_spares)' "$work/out")" = 2 ] \
  || fail "the sweep table lacks its two rows: $(cat "$work/out")"
# Sensitivity: progress on stderr too, an upper bound ("at most"), nothing with --quiet.
"$g" sensitivity "$scenario" --param /recovery/restart_s=300:900 --seeds 2 --progress \
  --out "$work/sens" >"$work/out" 2>"$work/err"
grep -Eq 'runs of the scenario [0-9]+ \(at most [0-9]+\)' "$work/err" \
  || fail "no sensitivity progress on stderr: $(cat "$work/err")"
grep -q 'runs of the scenario' "$work/out" && fail "sensitivity progress on stdout"
"$g" sensitivity "$scenario" --param /recovery/restart_s=300:900 --seeds 2 --progress --quiet \
  --out "$work/sens" >"$work/out" 2>"$work/err"
[ ! -s "$work/out" ] && [ ! -s "$work/err" ] || fail "sensitivity --quiet --progress printed something"
echo "progress on stderr only; sweep table on stdout"
