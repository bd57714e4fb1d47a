#!/usr/bin/env bash
# interrupted.sh GOODPUT GOODPUT_MPI MPIEXEC WORKDIR
# Ctrl-C on mpirun during an MPI sweep (held with its points done, before publishing): mpirun
# passes a signal on, rank 0 removes its lock and staging folder, keeps the finished points and
# says how to go on; the same command with --resume runs none again and writes the
# single-process sweep's files, byte for byte.
set -u
gp=$1 gpm=$2 mpiexec=$3 work=$4
src=$(cd "$(dirname "$0")/../.." && pwd)
. "$src/tests/cli/lib.sh"  # fail, wait_for, interrupted_sweep_kept
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
set -m  # mpirun in its own process group, so it does not ignore SIGINT
export OMPI_MCA_rmaps_base_oversubscribe=1
mpi=("$mpiexec" -n 2 --oversubscribe --allow-run-as-root)
args=("$src/tests/report/data/small-stat.json" --axis /job/step_s=10,11,12,13 --seeds 2)
GOODPUT_TEST_HOLD_S=60 "${mpi[@]}" -x GOODPUT_TEST_HOLD_S "$gpm" sweep "${args[@]}" --quiet \
  --out sweep 2>err.log &
job=$!
wait_for '.sweep.goodput-staging-*/sweep.json' || fail "the sweep staged nothing"
kill -s INT "$job"
wait "$job" && fail "mpirun reported success after Ctrl-C"
interrupted_sweep_kept sweep 4 err.log
"$gp" sweep "${args[@]}" --quiet --threads 2 --out single || fail "single-process sweep"
out=$("${mpi[@]}" "$gpm" sweep "${args[@]}" --out sweep --resume) || fail "resume: $out"
grep -q "0 run now, 4 resumed" <<<"$out" || fail "resume redid finished points: $out"
diff -r single sweep >/dev/null || fail "the resumed MPI sweep differs from the single-process one"
echo "identical: single process, and mpirun -n 2 interrupted with its points done, then --resume"
