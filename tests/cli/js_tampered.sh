#!/usr/bin/env bash
# js_tampered.sh GOODPUT SCENARIO OUT: report.html inlines a plotting library only if its SHA-256
# is the one recorded at build time. A $GOODPUT_JS_DIR whose scripts differ (here: each holds a
# marker) gives a page with no script inlined, a visible note and a warning on stderr.
set -euo pipefail
bin=$1; scenario=$2; out=$3
rm -rf "$out"; mkdir -p "$out/js"
for f in vega.min.js vega-lite.min.js vega-embed.min.js; do
  echo "window.TAMPERED_MARKER_31 = 1;" > "$out/js/$f"
done
GOODPUT_JS_DIR="$out/js" "$bin" run "$scenario" --seeds 2 --no-break-even --quiet --out "$out/run" 2>"$out/err"
grep -q "does not match the SHA-256 recorded when goodput was built" "$out/err"
! grep -q TAMPERED_MARKER_31 "$out/run/report.html"
grep -q 'id="charts-missing"' "$out/run/report.html"
grep -q "does not match the SHA-256" "$out/run/report.html"
# One genuine script among tampered ones is not inlined either.
src=$(dirname "$0")/../../third_party/js
if [ -s "$src/vega.min.js" ]; then
  cp "$src/vega.min.js" "$out/js/vega.min.js"
  GOODPUT_JS_DIR="$out/js" "$bin" run "$scenario" --seeds 2 --no-break-even --quiet --out "$out/run2" 2>"$out/err2"
  ! grep -q TAMPERED_MARKER_31 "$out/run2/report.html"
  [ "$(grep -c '<script>' "$out/run2/report.html")" = 1 ]  # the page's own script only
fi
echo "ok: tampered scripts not inlined"
