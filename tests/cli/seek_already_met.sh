#!/usr/bin/env bash
# seek_already_met.sh GOODPUT REPO_ROOT WORKDIR
# A goal seek over spares answered "already met at the minimum" says why (issue 29 item 2), from
# the scenario: on GB200 NVL72 under llama3 no fault takes more than the 8 idle GPUs of a rack;
# under llama3-correlated a rack (72 GPUs) or the fleet does, and the sentence says so instead.
set -euo pipefail
g=$1 root=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
seek() {  # seek OUT [--set ...]: a target every value meets, 48 h, 2 seeds
  local out=$1
  shift
  "$g" sweep "$root/scenarios/gb200-nvl72-tp64.json" --seek /cluster/spare_domains --min 0 \
    --max 2 --strategy hot_spares --target 'goodput>=0.5' --seeds 2 --set /horizon_hours=48 \
    --strategies hot_spares "$@" --quiet --out "$work/$out"
}
seek inside
grep -Fq '**0**, already met at the minimum (why: no failure in this scenario takes out more than the in-domain idle GPUs: the widest blast radius is 4 GPUs (class host, scope node) and each domain of the job keeps 8 idle GPUs' \
  "$work/inside/report.md" || fail "no reason in report.md: $(grep -F already "$work/inside/report.md")"
python3 - "$work/inside/sweep.json" <<'PY' || fail "sweep.json lacks already_met_reason"
import json, sys
seek = json.load(open(sys.argv[1]))["seek"]
assert seek["answer"] == 0, seek["answer"]
assert seek["already_met_reason"].startswith("no failure in this scenario"), seek
PY
seek wider --set /failures/preset=llama3-correlated
grep -Fq 'more than the 8 idle GPUs of a domain of the job, yet the target is met at the minimum' \
  "$work/wider/report.md" || fail "no wider-fault reason: $(grep -F already "$work/wider/report.md")"
# Not met at the minimum: no reason.
"$g" sweep "$root/scenarios/gb200-nvl72-tp64.json" --seek /cluster/spare_domains --min 0 --max 2 \
  --strategy hot_spares --target 'goodput>=0.999' --seeds 2 --set /horizon_hours=48 \
  --strategies hot_spares --quiet --out "$work/missed"
python3 -c "import json,sys; assert 'already_met_reason' not in json.load(open(sys.argv[1]))['seek']" \
  "$work/missed/sweep.json" || fail "a reason without an already-met answer"
echo "already met at the minimum: the reason is given"
