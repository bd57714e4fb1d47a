#!/usr/bin/env python3
"""validate_schema.py GOODPUT SOURCE_DIR WORKDIR

Every report.json and sweep.json validates against the shipped JSON Schemas
(sim/report/schema/): fresh outputs of goodput run (time mode with break-even and time to train,
trace replay, snapshot mode), goodput sweep (axes and a goal seek without an answer), and the committed
references in results/. The schemas are strict (required keys, no unknown keys), checked here by
renaming a field in a valid report and expecting the validation to fail. Exits 77 (CTest: skipped)
without python3-jsonschema."""
import glob
import json
import os
import shutil
import subprocess
import sys

try:
    from jsonschema import Draft202012Validator
except ImportError:
    print("SKIP: python3-jsonschema not installed (scripts/install-deps.sh --test)")
    sys.exit(77)

goodput, src, work = sys.argv[1:4]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
small = os.path.join(src, "tests/report/data/small-stat.json")
snapshot = os.path.join(src, "scenarios/ntp-paper-nvl32.json")
runs = {
    "run": ["run", small, "--seeds", "3"],
    "train": ["run", small, "--seeds", "2", "--no-break-even", "--set", "/report/train_hours=100",
              "--set", "/report/gpu_hour_price=2", "--set", "/report/gpu_power_kw=1.0",
              "--set", "/report/energy_price_per_kwh=0.1"],
    "capex": ["run", small, "--seeds", "2", "--no-break-even", "--set", "/report/train_hours=100",
              "--set", "/report/gpu_capex=30000", "--set", "/report/spare_gpu_hour_price=0.5"],
    "trace": ["run", os.path.join(src, "scenarios/trace-example.json"), "--no-break-even"],
    "snapshot": ["run", snapshot, "--set", "/mode=snapshot", "--set",
                 "/failures/failed_fraction=0.002", "--seeds", "2"],
    "sweep": ["sweep", small, "--axis", "/cluster/spare_domains=0,2", "--seeds", "2"],
    "seek": ["sweep", small, "--seek", "/cluster/spare_domains", "--min", "0", "--max", "2",
             "--target", "goodput>=0.99", "--strategy", "dp_drop", "--seeds", "4"],
}
for name, args in runs.items():
    subprocess.run([goodput, *args, "--out", os.path.join(work, name), "--quiet"], check=True)

schema_dir = os.path.join(src, "sim/report/schema")
validators = {}
for kind in ("report", "sweep"):
    with open(os.path.join(schema_dir, kind + ".schema.json")) as f:
        schema = json.load(f)
    Draft202012Validator.check_schema(schema)
    validators[kind] = Draft202012Validator(schema)


def problems(kind, doc):
    return [f"{e.json_path}: {e.message}" for e in validators[kind].iter_errors(doc)]


failed = 0
checked = {"report": 0, "sweep": 0}
for root in (work, os.path.join(src, "results")):
    for kind in ("report", "sweep"):
        for path in sorted(glob.glob(f"{root}/**/{kind}.json", recursive=True)):
            with open(path) as f:
                doc = json.load(f)
            checked[kind] += 1
            for p in problems(kind, doc)[:5]:
                print(f"FAIL {path}: {p}")
                failed += 1
if checked["report"] < 5 or checked["sweep"] < 2:
    print(f"FAIL: too few files checked: {checked}")
    failed += 1

# Strictness: a renamed field (a strategy's goodput, a top-level key, a seek key) must fail.
with open(os.path.join(work, "run/report.json")) as f:
    report = json.load(f)
strategy = next(iter(report["strategies"].values()))
strategy["goodput_mean"] = strategy.pop("goodput")
report["scenario_path"] = report.pop("scenario_file")
with open(os.path.join(work, "seek/sweep.json")) as f:
    seek = json.load(f)
seek["seek"]["result"] = seek["seek"].pop("answer")
for kind, doc in (("report", report), ("sweep", seek)):
    if not problems(kind, doc):
        print(f"FAIL: the {kind} schema accepts renamed fields")
        failed += 1

print(f"checked {checked['report']} report.json and {checked['sweep']} sweep.json files")
sys.exit(1 if failed else 0)
