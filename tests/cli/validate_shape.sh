#!/usr/bin/env bash
# validate_shape.sh GOODPUT DATA_DIR: `goodput validate` prints what a scenario resolves to, checked
# against closed forms on data/validate-shape.json: 9 HGX-8 domains (8 for a TP8 x DP8 job, 1
# spare) = 72 GPUs; one GPU class, MTBF 1000 h per GPU, fixed 20 h repair. Faults touching the
# job: 64 GPUs / 1000 h = 0.064 per hour (6.4 per 100 h run); domains down at any time (Little's
# law) L = 0.064 x 20 = 1.28; a fault finds no spare free with P(Poisson(1.28) >= 1) =
# 1 - e^-1.28 = 72.2%, and 1 < 1.28 warns. With 3 spares: P(>= 3) = 1 - e^-1.28 (1 + 1.28 +
# 1.28^2 / 2) = 13.8%, no warning.
set -u
bin=$1; data=$2
fail() { echo "FAIL: $*"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
has() { grep -qE -- "$1" "$2" || { cat "$2"; fail "no /$1/ in $(basename "$2")"; }; }

"$bin" validate "$data/validate-shape.json" >"$tmp/out" 2>"$tmp/err" || fail "exit $? on a valid scenario"
has 'validate-shape.json: ok \(validate-shape: time mode, 100 h, 1 seed, 1 strategy\)$' "$tmp/out"
has '^  cluster: 72 H100 GPUs \(hgx-8\) in 9 domains of 8: 8 for the job, 1 spare$' "$tmp/out"
has '^  job: TP 8 x PP 1 x DP 8 = 64 GPUs in 8 domains \(0 GPUs of them idle\)$' "$tmp/out"
has '^  faults touching the job: 0\.064 per hour \(job MTBF 15\.6 h\), 6\.4 per 100 h run; mean repair 20 h$' "$tmp/out"
has '^  job domains down at any time: mean 1\.28 ' "$tmp/out"
has '^  spare pool: 1 domain; a fault that needs a spare domain finds none free 72\.2% of the time' "$tmp/out"
has '^warning: .*validate-shape.json: the spare pool \(1 domain\) is smaller than the mean number of the job.s domains down at any time \(1\.28\)' "$tmp/err"
[ "$(wc -l <"$tmp/err")" = 1 ] || { cat "$tmp/err"; fail "expected one warning"; }

sed 's/"spare_domains": 1/"spare_domains": 3/' "$data/validate-shape.json" >"$tmp/three-spares.json"
"$bin" validate "$tmp/three-spares.json" >"$tmp/out" 2>"$tmp/err" || fail "exit $? with 3 spares"
has '^  spare pool: 3 domains; a fault that needs a spare domain finds none free 13\.8% of the time' "$tmp/out"
[ ! -s "$tmp/err" ] || { cat "$tmp/err"; fail "a warning with 3 spares"; }

# A 5 h horizon: 0.32 faults per run, under one: the second warning.
sed 's/"horizon_hours": 100/"horizon_hours": 5/' "$data/validate-shape.json" >"$tmp/short.json"
"$bin" validate "$tmp/short.json" >"$tmp/out" 2>"$tmp/err" || fail "exit $? with a 5 h horizon"
has '0\.32 per 5 h run' "$tmp/out"
has '^warning: .*short.json: fewer than one fault touching the job per run expected \(0\.32\)' "$tmp/err"

# Snapshot mode: the GPUs down instead of fault rates (5% of 72 = 3.6, rounded up to 4).
sed 's/"horizon_hours": 100,/"mode": "snapshot",/; s/"model": "statistical",/"failed_fraction": 0.05,/' \
  "$data/validate-shape.json" >"$tmp/snapshot.json"
"$bin" validate "$tmp/snapshot.json" >"$tmp/out" 2>"$tmp/err" || { cat "$tmp/err"; fail "exit $? in snapshot mode"; }
has 'snapshot.json: ok \(validate-shape: snapshot mode, 1 seed, 1 strategy\)$' "$tmp/out"
has '^  snapshot: 5\.0% of the GPUs down \(4\)' "$tmp/out"
grep -q 'faults touching' "$tmp/out" && fail "fault rates in snapshot mode"

# A bad file among good ones: exit 2, its error named, the good one still shown.
"$bin" validate "$data/bad-unknown-key.json" "$data/validate-shape.json" >"$tmp/out" 2>"$tmp/err"
[ $? = 2 ] || fail "a bad file did not exit 2"
has 'bad-unknown-key.json: /job/tpp: unknown key' "$tmp/err"
has 'validate-shape.json: ok' "$tmp/out"
echo "ok: validate prints the resolved shape"
