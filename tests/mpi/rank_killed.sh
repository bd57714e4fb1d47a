#!/usr/bin/env bash
# rank_killed.sh GOODPUT GOODPUT_MPI MPIEXEC WORKDIR
# A rank killed (SIGKILL) in the middle of an MPI sweep: mpirun ends the job, the points rank 0
# had already recorded stay, and the same command with --resume finishes the sweep with the
# single-process sweep's files, byte for byte, running only the missing points.
# Exit 0 on success, 1 with the first difference otherwise.
set -euo pipefail
gp=$1 gpm=$2 mpiexec=$3 work=$4
src=$(cd "$(dirname "$0")/../.." && pwd)
# Many points of the same size (a year, about a third of a second each), so that when the first
# is recorded most of the sweep is still to run and rank 1 is computing one of them. If the sweep
# still ends before the kill lands (a loaded machine can stall this script), the attempt is
# repeated with twice the seeds; only a kill that lands while the sweep runs is judged.
values=$(seq -s, 600 10 830)  # 24 restart times: the same work for each point
mpi=("$mpiexec" -n 3 --oversubscribe --allow-run-as-root)
export OMPI_MCA_rmaps_base_oversubscribe=1
records_of() { { ls -d "$work"/.killed.goodput-records-*/records 2>/dev/null || true; } | head -1; }
seeds=20
for attempt in 1 2 3; do
  args=("$src/scenarios/default.json" --set /horizon_hours=8760 --seeds "$seeds"
        --axis "/recovery/restart_s=$values" --quiet)
  rm -rf "$work" && mkdir -p "$work"
  "${mpi[@]}" "$gpm" sweep "${args[@]}" --out "$work/killed" &
  job=$!
  records=""
  for _ in $(seq 1 1200); do  # up to 60 s for the first record
    records=$(records_of)
    if [ -n "$records" ] && [ -n "$(ls -A "$records")" ]; then break; fi
    sleep 0.05
  done
  # Rank 1 of this job only: its command line names this test's output folder (another MPI test
  # may be running beside this one, and its rank 1 is not ours to kill).
  victim=""
  for p in $(pgrep -f -- "$gpm sweep" || true); do
    tr '\0' '\n' <"/proc/$p/cmdline" 2>/dev/null | grep -qxF -- "$work/killed" || continue
    if tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx 'OMPI_COMM_WORLD_RANK=1'; then
      victim=$p
    fi
  done
  if [ -n "$victim" ] && [ ! -e "$work/killed/report.md" ]; then
    kill -9 "$victim" 2>/dev/null || true
    if wait "$job"; then
      if [ -e "$work/killed/report.md" ]; then  # the sweep ended before the kill landed
        echo "attempt $attempt: the sweep ended before rank 1 was killed; again with more seeds" >&2
        seeds=$((seeds * 2)); continue
      fi
      echo "mpirun reported success after rank 1 was killed, and wrote no report" >&2
      exit 1
    fi
    killed=1; break
  fi
  wait "$job" || true
  echo "attempt $attempt: the sweep ended before a rank could be killed (records: $(ls "$records" 2>/dev/null | wc -l))" >&2
  seeds=$((seeds * 2))
done
if [ -z "${killed:-}" ]; then
  echo "no attempt killed rank 1 while the sweep ran" >&2
  exit 1
fi
kept=$(ls "$records" | wc -l)
if [ "$kept" -lt 1 ] || [ -e "$work/killed/report.md" ]; then
  echo "after the kill: $kept records kept, report written: $([ -e "$work/killed/report.md" ] && echo yes || echo no)" >&2
  exit 1
fi
"$gp" sweep "${args[@]}" --threads 2 --out "$work/single"
"${mpi[@]}" "$gpm" sweep "${args[@]}" --out "$work/killed" --resume
diff -r "$work/single" "$work/killed"
echo "identical: single process, and mpirun -n 3 with rank 1 killed after $kept recorded points, then --resume"
