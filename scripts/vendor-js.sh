#!/usr/bin/env bash
# Fetches the plotting libraries report.html inlines (Vega, Vega-Lite, vega-embed: UMD builds)
# from the npm registry into the git-ignored third_party/js/, once. goodput reads them from there
# when it writes report.html (or from $GOODPUT_JS_DIR), and inlines each only if its SHA-256 is
# the one pinned in scripts/vendor-js.sha256 (compiled into goodput); this script checks the
# same hashes and refuses a download that differs. Installs nodejs/npm via apt if missing.
set -euo pipefail
cd "$(dirname "$0")/.."
dest=third_party/js
declare -A pkgs=([vega]=6.2.0 [vega-lite]=6.4.0 [vega-embed]=7.0.2)
hashes=$PWD/scripts/vendor-js.sha256
have=1
for p in "${!pkgs[@]}"; do [ -s "$dest/$p.min.js" ] || have=0; done
[ "$have" = 0 ] || (cd "$dest" && sha256sum -c --quiet "$hashes" >/dev/null 2>&1) || have=0
if [ "$have" = 1 ] && [ "$(cat "$dest/VERSIONS" 2>/dev/null)" = "$(for p in vega vega-lite vega-embed; do echo "$p@${pkgs[$p]}"; done)" ]; then
  exit 0
fi
if ! command -v npm >/dev/null; then
  sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
  echo "installing: nodejs npm"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq nodejs npm >/dev/null
fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$dest"
for p in vega vega-lite vega-embed; do
  (cd "$tmp" && npm pack --silent "$p@${pkgs[$p]}" >/dev/null)
  tar -xzf "$tmp/$p-${pkgs[$p]}.tgz" -C "$tmp" "package/build/$p.min.js"
  mv "$tmp/package/build/$p.min.js" "$dest/$p.min.js"
done
if ! (cd "$dest" && sha256sum -c --quiet "$hashes"); then
  echo "error: the downloaded plotting libraries differ from scripts/vendor-js.sha256" >&2
  exit 1
fi
for p in vega vega-lite vega-embed; do echo "$p@${pkgs[$p]}"; done > "$dest/VERSIONS"
echo "vendored into $dest: $(tr '\n' ' ' < "$dest/VERSIONS")"
