#!/usr/bin/env bash
# syscall_faults.sh GOODPUT RUN_SCENARIO SWEEP_SCENARIO WORKDIR [STRIDE]
# Kills `goodput run`, `sweep` and `sensitivity` at every file-system call they make (strace
# fault injection: SIGKILL at the k-th call of each syscall, for every k), and fails each write
# in turn with ENOSPC. After every kill the output path holds the previous report intact or the
# new one complete, and the next run (`--resume` for a sweep) finishes byte-identical with no
# leftover beside it; after every failed write goodput exits non-zero naming the file and the
# previous report is intact. Skipped (exit 0, says so) where strace cannot trace. STRIDE n > 1
# (the sanitizer builds, where each run is slow) kills at every n-th of those moments only and
# injects no ENOSPC: the sanitizer runtime's own writes (its pipes) cannot take injected errors.
# Every injected run is bounded (timeout), so a hang fails the test instead of stalling it.
set -u
g=$1; scenario=$2; sweep_scenario=$3; work=$4; stride=${5:-1}
if ! command -v strace >/dev/null || ! strace -f -o /dev/null true 2>/dev/null; then
  echo "skipped: strace is not available or cannot trace here"; exit 0
fi
# LeakSanitizer cannot run under ptrace; every other test checks for leaks.
export ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}detect_leaks=0"
rm -rf "$work"; mkdir -p "$work"; cd "$work" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
same() { diff -r "$1" "$2" >/dev/null; }
calls=openat,mkdir,mkdirat,rename,renameat,renameat2,unlink,unlinkat,rmdir,fsync,ftruncate,pwrite64,fchmodat,chmod,write,close
leftovers() { ls -A -d .target.* 2>/dev/null; }

# Every (syscall, k) the command makes, one per line.
points() {
  rm -f trace.log
  strace -f -qq -o trace.log -e trace=$calls "$@" >/dev/null 2>&1 || { echo "FAIL: traced run: $*" >&2; return 1; }
  sed -E 's/^[0-9]+ +//; s/\(.*//' trace.log | grep -E "^(${calls//,/|})$" | sort | uniq -c |
    while read -r n name; do for k in $(seq 1 "$n"); do echo "$name $k"; done; done
}

sweep_cmd=("$g" sweep "$sweep_scenario" --axis /job/step_s=10,11,12 --threads 1 --quiet)
run_cmd=("$g" run "$scenario" --quiet --threads 1 --no-break-even)
sens_cmd=("$g" sensitivity "$sweep_scenario" --param /recovery/restart_s=0:600 --quiet --threads 1)
total=0
for kind in run sensitivity sweep; do
  case $kind in
    run) cmd=("${run_cmd[@]}") ;;
    sensitivity) cmd=("${sens_cmd[@]}") ;;
    sweep) cmd=("${sweep_cmd[@]}") ;;
  esac
  rm -rf ref-old ref-new
  "${cmd[@]}" --set /seed=1 --out ref-old || fail "$kind: reference"
  "${cmd[@]}" --set /seed=2 --out ref-new || fail "$kind: reference"
  same ref-old ref-new && fail "$kind: the two references should differ"
  rm -rf target .target.*; cp -r ref-old target
  points "${cmd[@]}" --set /seed=2 --out target >todo.txt || exit 1
  mapfile -t todo <todo.txt
  [ "${#todo[@]}" -gt 20 ] || fail "$kind: only ${#todo[@]} file-system calls traced"
  for i in "${!todo[@]}"; do
    ((i % stride == 0)) || continue
    read -r name k <<<"${todo[$i]}"
    rm -rf target .target.*; cp -r ref-old target
    (timeout -s KILL 300 strace -f -qq -o /dev/null -e trace=$calls -e inject="$name":signal=SIGKILL:when="$k" \
      "${cmd[@]}" --set /seed=2 --out target >/dev/null 2>&1; :) 2>/dev/null
    # (goodput's role file may stay in the report until the next run, checked below)
    diff -r -x '.goodput-role*' target ref-old >/dev/null || diff -r -x '.goodput-role*' target ref-new >/dev/null ||
      fail "$kind killed at $name #$k: neither report"
    again=("${cmd[@]}" --set /seed=2 --out target)
    [ $kind = sweep ] && again+=(--resume)
    "${again[@]}" >/dev/null 2>err.log || fail "$kind after a kill at $name #$k: $(cat err.log)"
    same target ref-new || fail "$kind after a kill at $name #$k: not the new report"
    [ -z "$(leftovers)" ] || fail "$kind after a kill at $name #$k: left $(leftovers)"
    total=$((total + 1))
  done
  # A full disk at each write: an error naming the file, the previous report intact.
  writes=$(printf '%s\n' "${todo[@]}" | grep -c '^write ')
  ((stride == 1)) || writes=0
  for k in $(seq 1 "$writes"); do
    rm -rf target .target.*; cp -r ref-old target
    timeout -s KILL 300 strace -f -qq -o /dev/null -e trace=write -e inject=write:error=ENOSPC:when="$k" \
      "${cmd[@]}" --set /seed=2 --out target >/dev/null 2>err.log
    code=$?
    [ $code = 137 ] && fail "$kind, ENOSPC at write #$k: did not finish"
    if [ $code = 0 ]; then
      same target ref-new || fail "$kind, ENOSPC at write #$k: exit 0 but not the new report"
    else
      grep -q "No space left on device" err.log || fail "$kind, ENOSPC at write #$k: $(cat err.log)"
      same target ref-old || fail "$kind, ENOSPC at write #$k: the previous report was changed"
    fi
    # (a sweep keeps its records folder for --resume)
    [ -z "$(leftovers | grep -v goodput-records)" ] || fail "$kind, ENOSPC at write #$k: left $(leftovers)"
    total=$((total + 1))
  done
done
echo "syscall faults: $total injected runs, all passed"
