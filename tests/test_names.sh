#!/usr/bin/env bash
# Fails when a doctest test case's name holds ';': doctest_discover_tests registers the name cut
# there (a CMake list separator), and the CTest test then runs no test case at all, and passes.
# Usage: test_names.sh TEST_BINARY...
status=0
for bin in "$@"; do
  if bad=$("$bin" --list-test-cases --no-version | grep ';'); then
    echo "$bin: test case names with ';' (CTest would run none of them):"
    echo "$bad"
    status=1
  fi
done
exit $status
