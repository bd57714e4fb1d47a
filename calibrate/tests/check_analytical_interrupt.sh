#!/usr/bin/env bash
# check_analytical_interrupt.sh EXE WORKDIR: goodput-profile-analytical interrupted while writing
# its profile (Ctrl-C as soon as the temporary appears) finishes it: no temporary left, the
# profile either absent or byte-equal to an uninterrupted one, exit 130 (0 where the signal came
# after the process had ended). (goodput-calibrate writes the
# same way, save_profile under the interrupt lock; it needs a GPU to get that far.)
set -u
exe=$1; work=$2
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$work"; mkdir -p "$work"; cd "$work" || exit 1
set -m  # the background run in its own group, so it does not ignore SIGINT
"$exe" --gpu H100 --out ref.json >/dev/null || fail "reference profile"
caught=0
for i in $(seq 10); do
  rm -f p.json p.json.tmp.*
  "$exe" --gpu H100 --out p.json >/dev/null 2>err.log &
  pid=$!
  for _ in $(seq 30000); do compgen -G 'p.json.tmp.*' >/dev/null && break; done
  kill -s INT "$pid"
  wait "$pid"
  code=$?
  [ -z "$(ls p.json.tmp.* 2>/dev/null)" ] || fail "interrupted profile $i left $(ls p.json.tmp.*)"
  [ ! -e p.json ] || cmp -s p.json ref.json || fail "interrupted profile $i is partial"
  # 130; or 0 where the signal came after the process had ended (the profile then written).
  if [ "$code" = 130 ]; then
    caught=$((caught + 1))
  elif [ "$code" != 0 ] || ! cmp -s p.json ref.json; then
    fail "interrupted profile $i: exit $code: $(cat err.log)"
  fi
done
[ "$caught" -gt 0 ] || fail "no signal reached the tool while it wrote (all 10 came after it ended)"
echo "analytical interrupt: all passed"
