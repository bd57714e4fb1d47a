#!/usr/bin/env bash
# sweep_identical.sh GOODPUT GOODPUT_MPI MPIEXEC WORKDIR
# A small sweep run by `goodput sweep` (one process) and by `mpirun -n 3 goodput-mpi sweep`
# must give the same files, byte for byte; so must an MPI sweep stopped after two points and
# finished with --resume, one with --seeds auto, and a goal seek (--seek), also stopped after two
# values and resumed from their records. Exit 0 on success, 1 with the first difference otherwise.
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
# --seeds auto: each point grows its seeds on the rank running it.
auto=("$src/scenarios/default.json" --set /horizon_hours=240 --seeds auto --ci-target 0.02
      --max-seeds 6 --axis /cluster/spare_domains=0,4,16 --quiet)
"$gp" sweep "${auto[@]}" --threads 2 --out "$work/auto-single"
"${mpi[@]}" "$gpm" sweep "${auto[@]}" --out "$work/auto-mpi"
diff -r "$work/auto-single" "$work/auto-mpi"
# Goal seek: the ranks compute the values bisection may ask next; it asks and records the same.
seek_loud=("$src/scenarios/default.json" --set /horizon_hours=240 --set /failures/rate_scale=3
           --seeds 1 --seek /cluster/spare_domains --min 0 --max 32 --target 'goodput>=0.02'
           --strategy checkpoint_restart)
seek=("${seek_loud[@]}" --quiet)
"$gp" sweep "${seek[@]}" --threads 2 --out "$work/seek-single"
"${mpi[@]}" "$gpm" sweep "${seek[@]}" --out "$work/seek-mpi"
diff -r "$work/seek-single" "$work/seek-mpi"
steps=$(grep -o '"meets"' "$work/seek-single/sweep.json" | wc -l)
if [ "$steps" -lt 5 ]; then echo "the seek evaluated only $steps values" >&2; exit 1; fi
# The goal seek stopped after 2 values, then resumed from their records: same bytes.
"${mpi[@]}" "$gpm" sweep "${seek[@]}" --out "$work/seek-resumed" --stop-after 2
out=$("${mpi[@]}" "$gpm" sweep "${seek_loud[@]}" --out "$work/seek-resumed" --resume 2>/dev/null)
grep -q "resumed: 2 values from records, $((steps - 2)) evaluated now" <<<"$out" ||
  { echo "the resumed seek redid finished values: $out" >&2; exit 1; }
diff -r "$work/seek-single" "$work/seek-resumed"
echo "identical: single process, mpirun -n 3, mpirun -n 3 interrupted + --resume, --seeds auto,"
echo "and a goal seek of $steps steps (also interrupted + --resume)"
