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
