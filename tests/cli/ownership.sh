#!/usr/bin/env bash
# ownership.sh GOODPUT SCENARIO WORKDIR
# What goodput keeps, replaces and refuses in a report folder and beside it (README, "Where
# reports go"), and scenario names used as labels, never as paths.
set -u
g=$1; scenario=$2; work=$3
rm -rf "$work"; mkdir -p "$work/cwd"; cd "$work/cwd" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
run() { "$g" run "$scenario" --quiet --threads 1 --no-break-even "$@"; }

run --out rep || fail "first run"
# A user's files in the report folder: refused with exit 2 naming them; nothing touched.
echo "my notes" >rep/notes.md; mkdir rep/plots; echo "<svg/>" >rep/plots/fig.svg
run --out rep 2>err.log; code=$?
[ $code = 2 ] || fail "a report folder with a user's files: exit $code"
grep -q "notes.md" err.log && grep -q "plots/" err.log || fail "the refusal names no entry: $(cat err.log)"
[ "$(cat rep/notes.md)" = "my notes" ] && [ -f rep/plots/fig.svg ] && [ -f rep/report.md ] ||
  fail "a refused folder was changed"
rm -r rep/notes.md rep/plots
run --out rep || fail "rerun once the user's files are moved out"
# Siblings named like old leftovers are a user's: they survive reruns.
for s in old-january staging-1 partial old-9; do cp -r rep "rep.$s"; done
echo "mine" >.rep.lock
run --out rep && run --out rep || fail "reruns beside look-alike folders"
for s in old-january staging-1 partial old-9; do [ -f "rep.$s/report.md" ] || fail "rep.$s was removed"; done
[ "$(cat .rep.lock)" = mine ] || fail ".rep.lock was touched"
# A report asked for under such a name is an ordinary report.
run --out exp.old-settings && run --out rep && [ -f exp.old-settings/report.md ] || fail "exp.old-settings"
# --out - is refused: a report is a folder.
run --out - 2>err.log; [ $? = 2 ] && [ ! -e ./- ] || fail "--out - was accepted"

# Scenario names are labels: the default folder stays under goodput-out/.
mkdir -p ../outside
run --set '/name="../../outside/final-results"' || fail "a name with ../"
[ -f goodput-out/outside-final-results/report.md ] || fail "sanitised name: $(ls goodput-out)"
[ -z "$(ls -A ../outside)" ] || fail "a name wrote outside goodput-out/"
run --set '/name="."' 2>err.log; code=$?
[ $code = 2 ] && grep -q "/name" err.log || fail "name '.': exit $code: $(cat err.log)"
[ -z "$(ls -A goodput-out | grep -v outside-final-results)" ] || fail "name '.' wrote $(ls goodput-out)"
echo "ownership: all passed"
