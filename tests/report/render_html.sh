#!/usr/bin/env bash
# Renders report.html pages (and a sensitivity.html) in headless Chromium and checks the charts drew: each chart
# container holds an <svg>, the page logged no console error, and each chart drew one mark per
# datum (points, bars, cells, timeline bars, seek points; counted in the rendered SVG). Usage: SCRIPT GOODPUT_BINARY
# SCENARIO_DIR TEST_DATA_DIR OUT_DIR. Exits 77 (CTest: skipped) where Chromium or the vendored
# plotting libraries are missing.
set -euo pipefail
bin=$1; scenarios=$2; data=$3; out=$4
browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [ -z "$browser" ]; then
  echo "SKIP: Chromium not installed (Debian: apt-get install chromium); report.html not rendered"; exit 77
fi
rm -rf "$out"; mkdir -p "$out"
"$bin" run "$scenarios/trace-example.json" --out "$out/run" --quiet 2>"$out/run.err"
if grep -q "no charts" "$out/run.err"; then
  echo "SKIP: plotting libraries not vendored (bash scripts/vendor-js.sh)"; exit 77
fi
"$bin" sweep "$data/small-stat.json" --axis /cluster/spare_domains=0,2,4 --axis /job/step_s=10,20 \
  --set /report/train_hours=50 --set /report/gpu_hour_price=2 --out "$out/sweep" --quiet
# Goal seek with no answer in range: its page shows the target, the reason and a chart.
"$bin" sweep "$data/small-stat.json" --seek /cluster/spare_domains --min 0 --max 2 --seeds 4 \
  --target 'goodput>=0.99' --strategy dp_drop --out "$out/seek" --quiet
# Goal seek with an answer: the chart is zoomed to it.
"$bin" sweep "$data/small-stat.json" --seek /cluster/spare_domains --min 0 --max 16 --seeds 4 \
  --target 'goodput>=0.9' --strategy hot_spares --out "$out/seek2" --quiet
# sensitivity.html: a tornado chart per rival.
"$bin" sensitivity "$data/small-stat.json" --seeds 3 --robustness-points 4 --out "$out/sens" --quiet
status=0
for page in run sweep seek seek2 sens; do
  html="$out/$page/report.html"
  [ "$page" = sens ] && html="$out/sens/sensitivity.html"
  charts=$(grep -o '<div class="chart" id="[a-z0-9]*"></div>' "$html" | wc -l)
  timeout 120 "$browser" --headless --disable-gpu --no-sandbox --no-first-run --user-data-dir="$out/profile-$page" \
    --enable-logging=stderr --v=0 --virtual-time-budget=15000 --dump-dom "file://$html" \
    >"$out/$page.dom.html" 2>"$out/$page.log" || true
  drawn=$(python3 - "$out/$page.dom.html" <<'PY'
import re, sys
dom = open(sys.argv[1], encoding="utf-8", errors="replace").read()
# a chart container: <div class="chart" id=...> whose content (up to the next heading) has an <svg
n = 0
for m in re.finditer(r'<div class="chart[^"]*" id="[a-z0-9]+"', dom):
    rest = dom[m.end():]
    cut = rest.find("<h2")
    if "<svg" in (rest if cut < 0 else rest[:cut]):
        n += 1
print(n)
PY
)
  errors=$(grep -E "CONSOLE" "$out/$page.log" | grep -iE "error|uncaught" || true)
  echo "$page: $drawn of $charts charts drew"
  if [ "$charts" -eq 0 ] || [ "$drawn" -ne "$charts" ]; then status=1; fi
  if [ -n "$errors" ]; then echo "console errors:"; echo "$errors"; status=1; fi
done
# The seek chart draws one point per evaluated value in its zoomed view (a <path> in its symbol
# mark), and its view (the x scale's domain) is narrower than the searched range when it has an
# answer.
for page in seek seek2; do
  python3 - "$out/$page.dom.html" "$out/$page/report.html" "$out/$page/sweep.json" <<'PY' || status=1
import json, re, sys
dom = open(sys.argv[1], encoding="utf-8", errors="replace").read()
page = open(sys.argv[2], encoding="utf-8").read()
seek = json.load(open(sys.argv[3]))["seek"]
opening = '<script id="chart-specs" type="application/json">'
a = page.find(opening)
spec = json.loads(page[a + len(opening):page.find("</script>", a)])["seek"]
at = dom.find('id="seek"')
chart = dom[at:dom.find("<h2", at)] if at >= 0 else ""
m = re.search(r'<g class="mark-symbol[^"]*"[^>]*>(.*?)</g>', chart, re.S)
points = len(re.findall(r"<path", m.group(1))) if m else 0
shown = len(spec["layer"][1]["data"]["values"])
lo, hi = spec["layer"][1]["encoding"]["x"]["scale"]["domain"]
print(f"seek: {points} points drawn for {shown} evaluated values in view (of "
      f"{len(seek['evaluated'])}); view {lo}..{hi} of {seek['min']}..{seek['max']}, answer {seek['answer']}")
ok = points == shown and shown > 0
if seek["answer"] is not None:
    ok = ok and lo < seek["answer"] < hi and hi - lo < seek["max"] - seek["min"]
sys.exit(0 if ok else 1)
PY
done
# The timeline chart draws one rect per cell in its spec (a phase's share of a column, a <path>
# in its strategy row's rect mark) and a line for the failed GPUs.
read -r bars spans line <<<"$(python3 - "$out/run.dom.html" "$out/run/report.html" <<'PY'
import json, re, sys
dom = open(sys.argv[1], encoding="utf-8", errors="replace").read()
page = open(sys.argv[2], encoding="utf-8").read()
opening = '<script id="chart-specs" type="application/json">'
a = page.find(opening)
specs = json.loads(page[a + len(opening):page.find("</script>", a)])
at = dom.find('id="timeline"')
chart = dom[at:dom.find("<h2", at)] if at >= 0 else ""
# One rect group per strategy row (the chart is faceted by strategy).
groups = re.findall(r'<g class="mark-rect[^"]*"[^>]*>(.*?)</g>', chart, re.S)
bars = sum(len(re.findall(r"<path", g)) for g in groups)
spans = len(specs["timeline"]["vconcat"][0]["data"]["values"]) if "timeline" in specs else -1
print(bars, spans, 1 if re.search(r'<g class="mark-line', chart) else 0)
PY
)"
echo "timeline: $bars bars drawn for $spans phase spans, failed-GPU line: $line"
{ [ "$bars" -eq "$spans" ] && [ "$spans" -gt 0 ] && [ "$line" -eq 1 ]; } || status=1
# Every chart draws one mark per datum: per strategy (Goodput points), per strategy and bucket or
# state (stacked bars), per point and strategy (sweep lines' symbols), per point (best cell).
python3 - "$out" <<'PY' || status=1
import json, re, sys
out = sys.argv[1]
def marks(page):
    dom = open(f"{out}/{page}.dom.html", encoding="utf-8", errors="replace").read()
    found = {}
    for m in re.finditer(r'<div class="chart[^"]*" id="([a-z0-9]+)"', dom):
        rest = dom[m.end():]
        cut = rest.find("<h2")
        section = rest if cut < 0 else rest[:cut]
        counts = {}
        for g in re.finditer(r'<g class="(mark-[a-z]+) role-mark[^"]*"[^>]*>(.*?)</g>', section, re.S):
            counts[g.group(1)] = counts.get(g.group(1), 0) + len(re.findall(r"<(?:path|text)", g.group(2)))
        # legend entries: one label per strategy that ran (or per value of another axis)
        counts["legend"] = sum(len(re.findall(r"<text", g.group(1))) for g in re.finditer(
            r'<g class="mark-text role-legend-label[^"]*"[^>]*>(.*?)</g>', section, re.S))
        found[m.group(1)] = counts
    return found
run = json.load(open(f"{out}/run/report.json"))
sweep = json.load(open(f"{out}/sweep/sweep.json"))
n = len(run["strategies"])
points = len(sweep["points"])
swept = len(sweep["points"][0]["strategies"])
buckets = len(next(iter(run["strategies"].values()))["badput"])  # one bar per bucket
want = {
    ("run", "goodput", "mark-symbol"): n,
    ("run", "badput", "mark-rect"): n * buckets,
    ("run", "states", "mark-rect"): n * 4,
    ("sweep", "axis0", "mark-symbol"): points * swept,
    ("sweep", "axis1", "mark-symbol"): points * swept,
    ("sweep", "best", "mark-rect"): points,
    ("sweep", "best", "mark-text"): points,  # a label per cell (they fit: 3 x 2 cells)
    ("sweep", "axis0", "legend"): swept,  # the strategies that ran, no others
    # the cost trade-off: a line per strategy and value of the other axis (2), a point per cell
    ("sweep", "cost", "mark-line"): swept * 2,
    ("sweep", "cost", "mark-symbol"): points * swept,
    ("sweep", "cost", "legend"): swept + 2,
    ("sweep", "badput", "mark-rect"): points * swept * buckets,
    ("sweep", "states", "mark-rect"): points * swept * 4,
}
drawn = {"run": marks("run"), "sweep": marks("sweep")}
bad = 0
for (page, chart, mark), expected in want.items():
    got = drawn[page].get(chart, {}).get(mark, 0)
    print(f"{page}/{chart}: {got} {mark} drawn, {expected} expected")
    bad += got != expected
sys.exit(1 if bad else 0)
PY
grep -q 'id="seek-reason"' "$out/seek/report.html" || { echo "seek: no reason shown"; status=1; }
# Every chart's Save SVG and Save PNG buttons are enabled once it drew, and its export gives an
# SVG with the chart's marks (a harness page calls the page's chartImage, as the button does).
for page in run sweep sens; do
  html="$out/$page/report.html"
  [ "$page" = sens ] && html="$out/sens/sensitivity.html"
  charts=$(grep -o '<div class="chart" id="[a-z0-9]*"></div>' "$html" | wc -l)
  enabled=$(grep -oE '<button type="button" data-chart="[a-z0-9]+" data-format="(svg|png)">' \
    "$out/$page.dom.html" | wc -l)
  echo "$page: $enabled export buttons enabled for $charts charts"
  [ "$enabled" -eq $((2 * charts)) ] || status=1
  cat >"$out/export-$page.html" <<HTML
<!doctype html><html><body><iframe id="f" src="file://$html" width="1200" height="800"></iframe>
<pre id="result">pending</pre><script>
const frame = document.getElementById('f');
function check(tries) {
  const d = frame.contentDocument, ids = [...d.querySelectorAll('div.chart')].map(c => c.id);
  if (ids.length === 0 || d.querySelector('.export button[disabled]')) {
    if (tries > 0) setTimeout(() => check(tries - 1), 200);
    return;
  }
  const w = frame.contentWindow;
  Promise.all(ids.map(id => Promise.all([w.chartImage(id, 'svg'), w.chartImage(id, 'png')])
      .then(([svg, png]) => id + ' ' + (svg.startsWith('<svg') && svg.includes('role-mark') ? 'svg' : 'nosvg') + ' ' +
                            (png.startsWith('data:image/png;base64,') ? 'png' : 'nopng'))))
    .then(lines => document.getElementById('result').textContent = lines.join(' '))
    .catch(e => document.getElementById('result').textContent = 'error ' + e);
}
frame.addEventListener('load', () => check(50));
</script></body></html>
HTML
  timeout 120 "$browser" --headless --disable-gpu --no-sandbox --no-first-run --allow-file-access-from-files \
    --user-data-dir="$out/profile-export-$page" --virtual-time-budget=20000 --dump-dom \
    "file://$out/export-$page.html" >"$out/export-$page.dom.html" 2>/dev/null || true
  exported=$(python3 - "$out/export-$page.dom.html" <<'PY'
import html, re, sys
dom = open(sys.argv[1], encoding="utf-8", errors="replace").read()
m = re.search(r'<pre id="result">(.*?)</pre>', dom, re.S)
lines = html.unescape(m.group(1)).split() if m else []
print(sum(1 for i in range(0, len(lines) - 2, 3) if lines[i + 1:i + 3] == ["svg", "png"]))
PY
)
  echo "$page: $exported of $charts charts exported as SVG and PNG"
  [ "$exported" -eq "$charts" ] || { status=1; grep -A3 'id="result"' "$out/export-$page.dom.html" | head -5; }
done
exit $status
