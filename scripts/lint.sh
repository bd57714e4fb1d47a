#!/usr/bin/env bash
# Style and static checks, as CI runs them: clang-format (the repository's .clang-format) must
# leave every tracked C++/CUDA file unchanged, and clang-tidy (.clang-tidy: a small set of checks
# the tree passes) must report nothing on any translation unit of a compile database.
# Usage: scripts/lint.sh [BUILD_DIR]   (default build/fuzz, made by scripts/test-asan.sh fuzz)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/fuzz}
mapfile -t sources < <(git ls-files '*.cpp' '*.hpp' '*.cu' '*.cuh' '*.h' | grep -v '^third_party/')
bad=()
for f in "${sources[@]}"; do clang-format --dry-run -Werror "$f" >/dev/null 2>&1 || bad+=("$f"); done
if ((${#bad[@]})); then
  echo "lint: ${#bad[@]} file(s) not clang-formatted (run: clang-format -i FILE):"
  printf '  %s\n' "${bad[@]}"
  exit 1
fi
echo "lint: clang-format ok (${#sources[@]} files)"
[[ -f "$build/compile_commands.json" ]] || { echo "lint: no $build/compile_commands.json" >&2; exit 2; }
mapfile -t units < <(grep -o '"file": *"[^"]*"' "$build/compile_commands.json" |
  sed 's/.*"file": *"//; s/"$//' | sort -u | grep -v '/third_party/')
printf '%s\n' "${units[@]}" |
  xargs -P "$(nproc)" -n 4 clang-tidy -p "$build" --quiet >build/clang-tidy.log 2>/dev/null || true
if grep -q 'error:\|warning:' build/clang-tidy.log; then
  echo "lint: clang-tidy found problems (build/clang-tidy.log)"
  exit 1
fi
echo "lint: clang-tidy ok (${#units[@]} translation units)"
