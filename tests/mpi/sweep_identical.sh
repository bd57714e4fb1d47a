#!/usr/bin/env bash
# sweep_identical.sh GOODPUT GOODPUT_MPI MPIEXEC WORKDIR
# A small sweep run by `goodput sweep` (one process) and by `mpirun -n 3 goodput-mpi sweep`
# must give the same files, byte for byte; so must an MPI sweep stopped after two points and
# finished with --resume. Exit 0 on success, 1 with the first difference otherwise.
set -euo pipefail
gp=$1 gpm=$2 mpiexec=$3 work=$4
src=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$work" && mkdir -p "$work"
args=("$src/scenarios/default.json" --set /horizon_hours=240 --seeds 3
      --axis /cluster/spare_domains=0,2,4,8,16,32 --axis /recovery/restart_s=300,900 --quiet)
# The same arguments in another order: the recorded command (sweep.json, report.md) is canonical.
margs=(--quiet --seeds 3 --axis /cluster/spare_domains=0,2,4,8,16,32 --set /horizon_hours=240
       "$src/scenarios/default.json" --axis /recovery/restart_s=300,900)
mpi=("$mpiexec" -n 3 --oversubscribe --allow-run-as-root)
export OMPI_MCA_rmaps_base_oversubscribe=1  # older OpenMPI spellings of the same request
"$gp" sweep "${args[@]}" --threads 2 --out "$work/single"
"${mpi[@]}" "$gpm" sweep "${margs[@]}" --out "$work/mpi"
diff -r "$work/single" "$work/mpi"
grep -qF '"line": "goodput sweep '"$src"'/scenarios/default.json --axis' "$work/mpi/sweep.json"
# Interrupted after 2 points (the others' records stay), then resumed: same bytes again.
"${mpi[@]}" "$gpm" sweep "${margs[@]}" --out "$work/resumed" --stop-after 2
if [ -e "$work/resumed/report.md" ]; then echo "an unfinished sweep wrote its report" >&2; exit 1; fi
"${mpi[@]}" "$gpm" sweep "${margs[@]}" --out "$work/resumed" --resume
diff -r "$work/single" "$work/resumed"
echo "identical: single process, mpirun -n 3, and mpirun -n 3 interrupted + --resume"
