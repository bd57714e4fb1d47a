#!/usr/bin/env bash
# csv_formula.sh GOODPUT SCENARIO OUT: a sweep over a text axis whose values a spreadsheet would
# evaluate as formulas writes them to points.csv as "'=..." (quoted, a single quote in front).
set -euo pipefail
bin=$1; scenario=$2; out=$3
rm -rf "$out"
"$bin" sweep "$scenario" --seeds 1 --axis '/description==1+1,@SUM(A1),-2+3' --quiet --out "$out"
grep -qF ",\"'=1+1\"," "$out/points.csv"
grep -qF ",\"'@SUM(A1)\"," "$out/points.csv"
grep -qF ",\"'-2+3\"," "$out/points.csv"
! grep -qE ',(=1\+1|@SUM|-2\+3)' "$out/points.csv"
echo "ok: formulas quoted"
