#!/usr/bin/env bash
# Fuzz smoke run: builds the libFuzzer harnesses of fuzz/ (preset fuzz: clang, ASan + UBSan,
# -fno-sanitize-recover=all) and fuzzes each one for a bounded time from its seed corpus and
# dictionary. Fails on any crash, sanitizer report, leak, per-input timeout, out-of-memory or
# broken invariant, and leaves the input in build/fuzz/artifacts/<harness>/ (fix the bug, then
# add the input to tests/fuzz/regressions/<harness>/, which CTest replays: fuzz.*.replay).
# Environment: FUZZ_SECONDS (per harness, default 60), FUZZ_ONLY (regex of harness names),
# FUZZ_TIMEOUT (seconds per input, default 25), FUZZ_SKIP_BUILD=1 (use the existing build),
# FUZZ_RUNS / FUZZ_SEED (a fixed number of inputs from a fixed seed: reproducible, for CI).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-60}
build=build/fuzz
if [[ "${FUZZ_SKIP_BUILD:-0}" != 1 ]]; then
  launcher=()
  if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
  cmake --preset fuzz "${launcher[@]}" >/dev/null
  mapfile -t targets < <(cut -d' ' -f1 "$build/fuzzers.txt")
  cmake --build --preset fuzz -j "$(nproc)" --target "${targets[@]}"
fi
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=()
while read -r name dict dirs; do
  if [[ -n "${FUZZ_ONLY:-}" && ! "$name" =~ ${FUZZ_ONLY} ]]; then continue; fi
  read -ra seeds <<<"$dirs"
  artifacts="$build/artifacts/$name"
  mkdir -p "$work/$name" "$artifacts"
  args=(-max_total_time="$seconds" -timeout="${FUZZ_TIMEOUT:-25}" -rss_limit_mb=2048
        -print_final_stats=1 -artifact_prefix="$artifacts/")
  # FUZZ_RUNS: a fixed number of inputs from a fixed seed (FUZZ_SEED, default 1), so CI
  # explores the same inputs as the developer who last ran it (max_total_time stays a cap).
  if [[ -n "${FUZZ_RUNS:-}" ]]; then args+=(-runs="$FUZZ_RUNS" -seed="${FUZZ_SEED:-1}"); fi
  if [[ "$dict" != - ]]; then args+=(-dict="$dict"); fi
  log="$build/artifacts/$name.log"
  # New inputs go to the scratch corpus (first folder); the seed folders are only read.
  if "$build/fuzz/$name" "${args[@]}" "$work/$name" "${seeds[@]}" >"$log" 2>&1 </dev/null; then
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1)
    echo "fuzz-smoke: $name ok: ${execs:-?} executions in ${seconds} s, ${cov:-cov: ?}"
  else
    echo "fuzz-smoke: $name FAILED (log: $log, input in $artifacts/):"
    grep -E '==ERROR|runtime error|==goodput-fuzz==|SUMMARY|Test unit written' "$log" | head -20 || tail -30 "$log"
    failed+=("$name")
  fi
done <"$build/fuzzers.txt"
if ((${#failed[@]})); then
  echo "fuzz-smoke: ${#failed[@]} harness(es) failed: ${failed[*]}"
  exit 1
fi
echo "fuzz-smoke: all harnesses ran ${seconds} s without a finding"
