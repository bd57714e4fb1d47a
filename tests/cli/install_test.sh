#!/usr/bin/env bash
# install_test.sh CMAKE BUILD_DIR SOURCE_DIR WORKDIR
# `cmake --install` into a temporary prefix, then the installed goodput, run from an unrelated
# folder, finds and runs the installed default scenario (and its calibration profile, and the
# plotting libraries when they were vendored), and validates the installed scenarios; the
# installed scenario JSON Schema is the installed binary's.
set -euo pipefail
cmake=$1 build=$2 src=$3 work=$4
rm -rf "$work" && mkdir -p "$work/elsewhere"
fail() { echo "FAIL: $*" >&2; exit 1; }
prefix="$work/prefix"
"$cmake" --install "$build" --prefix "$prefix" >/dev/null
g="$prefix/bin/goodput"
[ -x "$g" ] || fail "no $g"
data="$prefix/share/goodput"
cd "$work/elsewhere"
"$g" validate "$data/scenarios/default.json" "$data/scenarios/trace-example.json" \
  "$data/scenarios/ntp-paper-nvl32.json" >/dev/null || fail "the installed scenarios do not validate"
"$g" run --seeds 2 --set /horizon_hours=48 --no-break-even --out out >run.log 2>&1 \
  || fail "the installed goodput failed: $(cat run.log)"
grep -qF "\"scenario_file\": \"$data/scenarios/default.json\"" out/report.json \
  || fail "did not run the installed default scenario: $(grep scenario_file out/report.json)"
grep -qF "\"path\": \"$data/" out/report.json || fail "did not use the installed calibration profile"
if [ -f "$src/third_party/js/vega.min.js" ]; then
  grep -q "report.html has no charts" run.log && fail "the installed goodput found no plotting libraries"
  [ -f "$data/js/vega.min.js" ] || fail "the plotting libraries were not installed"
fi
# The installed scenario schema is the installed binary's own.
"$g" describe schema --json | cmp -s - "$data/schema/scenario.schema.json" ||
  fail "the installed scenario.schema.json differs from goodput describe schema --json"
echo "installed into $prefix; the installed goodput ran its default scenario"
