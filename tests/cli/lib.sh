# Helpers the CLI test scripts source (`. "$(dirname "$0")/lib.sh"`), after setting g (the
# goodput binary) and, optionally, EXPECT_TIMEOUT (seconds, default 30).
# fail MESSAGE: print it and end the test.
fail() { echo "FAIL: $*"; exit 1; }
# expect CODE REGEX ARGS...: goodput ARGS exits CODE (within EXPECT_TIMEOUT s) and prints REGEX.
expect() {
  local want=$1 pattern=$2 out got; shift 2
  out=$(timeout "${EXPECT_TIMEOUT:-30}" "$g" "$@" 2>&1); got=$?
  [ "$got" = "$want" ] || fail "expected exit $want, got $got from: goodput $*"$'\n'"$out"
  grep -Eq -- "$pattern" <<<"$out" || fail "output of goodput $* does not match /$pattern/:"$'\n'"$out"
}
# wait_for GLOB: up to 60 s for a path matching GLOB (in the working folder) to exist.
wait_for() {
  for _ in $(seq 600); do
    compgen -G "$1" >/dev/null && return 0
    sleep 0.1
  done
  return 1
}
# interrupted_sweep_kept NAME POINTS LOG: the sweep into NAME, interrupted with POINTS points
# done, published nothing, left neither its lock nor its staging folder, kept the POINTS point
# records for --resume and said so in LOG (its stderr).
interrupted_sweep_kept() {
  local name=$1 points=$2 log=$3
  [ ! -e "$name" ] || fail "the interrupted sweep published"
  [ -z "$(ls -A -d ".$name.goodput-lock" ".$name".goodput-staging-* 2>/dev/null)" ] ||
    fail "the interrupted sweep left its lock or staging folder: $(ls -A -d ".$name".goodput-* 2>/dev/null)"
  [ "$(ls ".$name".goodput-records-*/records/*.json 2>/dev/null | wc -l)" = "$points" ] ||
    fail "the interrupted sweep did not keep its $points finished points"
  grep -q -- "--resume" "$log" || fail "the interrupted sweep does not say how to go on: $(cat "$log")"
}
# interrupted_at_write OUT REF COMMAND...: 10 times, runs COMMAND (which writes OUT through
# OUT.tmp.<pid>, write_file_atomic) in the background and sends it SIGINT as soon as the
# temporary appears. Each time no temporary is left, OUT is absent or byte-equal to REF, and the
# exit status is 130, or 0 where the signal came after the process had ended (OUT then whole);
# at least one signal must land while it writes. Needs `set -m` (so the job takes SIGINT).
interrupted_at_write() {
  local out=$1 ref=$2 i pid code caught=0; shift 2
  for i in $(seq 10); do
    rm -f "$out" "$out".tmp.*
    "$@" >/dev/null 2>err.log &
    pid=$!
    for _ in $(seq 30000); do compgen -G "$out.tmp.*" >/dev/null && break; done
    kill -s INT "$pid"
    wait "$pid"
    code=$?
    [ -z "$(ls "$out".tmp.* 2>/dev/null)" ] || fail "interrupted write $i left $(ls "$out".tmp.*)"
    [ ! -e "$out" ] || cmp -s "$out" "$ref" || fail "interrupted write $i left a partial $out"
    if [ "$code" = 130 ]; then
      caught=$((caught + 1))
    elif [ "$code" != 0 ] || ! cmp -s "$out" "$ref"; then
      fail "interrupted write $i: exit $code: $(cat err.log)"
    fi
  done
  [ "$caught" -gt 0 ] || fail "no signal reached $1's writer while it wrote (all 10 came after it ended)"
}
