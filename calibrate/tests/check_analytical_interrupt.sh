#!/usr/bin/env bash
# check_analytical_interrupt.sh EXE WORKDIR: goodput-profile-analytical interrupted while writing
# its profile (Ctrl-C as soon as the temporary appears) finishes it: no temporary left, the
# profile either absent or byte-equal to an uninterrupted one, exit 130 (0 where the signal came
# after the process had ended). (goodput-calibrate writes the same way, write_file_atomic under
# the interrupt lock; it needs a GPU to get that far.)
set -u
exe=$1; work=$2
. "$(dirname "$0")/../../tests/cli/lib.sh"  # fail, interrupted_at_write
rm -rf "$work"; mkdir -p "$work"; cd "$work" || exit 1
set -m  # the background run in its own group, so it does not ignore SIGINT
"$exe" --gpu H100 --out ref.json >/dev/null || fail "reference profile"
interrupted_at_write p.json ref.json "$exe" --gpu H100 --out p.json
echo "analytical interrupt: all passed"
