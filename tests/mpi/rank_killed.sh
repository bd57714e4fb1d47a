#!/usr/bin/env bash
# rank_killed.sh GOODPUT GOODPUT_MPI MPIEXEC WORKDIR
# A rank killed (SIGKILL) in the middle of an MPI sweep: mpirun ends the job, the points rank 0
# had already recorded stay, and the same command with --resume finishes the sweep with the
# single-process sweep's files, byte for byte, running only the missing points.
# Exit 0 on success, 1 with the first difference otherwise.
set -euo pipefail
gp=$1 gpm=$2 mpiexec=$3 work=$4
src=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$work" && mkdir -p "$work"
# Points long enough (a year, about half a second each) that the sweep is still running when
# the first of them is recorded.
args=("$src/scenarios/default.json" --set /horizon_hours=8760 --seeds 20
      --axis /cluster/spare_domains=0,1,2,3,4,6,8,12 --quiet)
mpi=("$mpiexec" -n 3 --oversubscribe --allow-run-as-root)
export OMPI_MCA_rmaps_base_oversubscribe=1
"$gp" sweep "${args[@]}" --threads 2 --out "$work/single"
records="$work/killed.partial/records"
"${mpi[@]}" "$gpm" sweep "${args[@]}" --out "$work/killed" &
job=$!
for _ in $(seq 1 1200); do  # up to 60 s for the first record
  if [ -d "$records" ] && [ -n "$(ls -A "$records")" ]; then break; fi
  sleep 0.05
done
victim=""
for p in $(pgrep -f -- "$gpm sweep" || true); do
  if tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx 'OMPI_COMM_WORLD_RANK=1'; then
    victim=$p
  fi
done
if [ -z "$victim" ] || [ -e "$work/killed/report.md" ]; then
  echo "the sweep ended before a rank could be killed (records: $(ls "$records" 2>/dev/null | wc -l))" >&2
  wait "$job" || true
  exit 1
fi
kill -9 "$victim"
if wait "$job"; then
  echo "mpirun reported success after rank 1 was killed" >&2
  exit 1
fi
kept=$(ls "$records" | wc -l)
if [ "$kept" -lt 1 ] || [ -e "$work/killed/report.md" ]; then
  echo "after the kill: $kept records kept, report written: $([ -e "$work/killed/report.md" ] && echo yes || echo no)" >&2
  exit 1
fi
"${mpi[@]}" "$gpm" sweep "${args[@]}" --out "$work/killed" --resume
diff -r "$work/single" "$work/killed"
echo "identical: single process, and mpirun -n 3 with rank 1 killed after $kept recorded points, then --resume"
