#!/usr/bin/env bash
# expect.sh CODE REGEX COMMAND...: runs COMMAND, passes if it exits with CODE and its combined
# output matches the extended regular expression REGEX (empty: any output).
set -u
want=$1; pattern=$2; shift 2
out=$("$@" 2>&1); got=$?
if [ "$got" != "$want" ]; then
  echo "expected exit $want, got $got from: $*"; echo "$out"; exit 1
fi
if [ -n "$pattern" ] && ! grep -Eq -- "$pattern" <<<"$out"; then
  echo "output does not match /$pattern/:"; echo "$out"; exit 1
fi
echo "ok: exit $got"
