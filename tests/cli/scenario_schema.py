#!/usr/bin/env python3
"""scenario_schema.py GOODPUT SOURCE_DIR WORKDIR

The scenario JSON Schema (`goodput describe schema --json`, committed as
sim/report/schema/scenario.schema.json) is a valid draft 2020-12 schema whose every default lies
in its own key's type and range; it never refuses a file
the loader accepts (every shipped scenario and every JSON file under scenarios/, bench/, tests/
and validation/ that `goodput validate` accepts, with and without a "$schema" key); and it refuses
what the loader refuses key by key (unknown keys at each level, wrong types, out-of-range values,
unknown choices and strategies, missing required keys). Exits 77 (CTest: skipped) without
python3-jsonschema."""
import copy
import glob
import json
import os
import subprocess
import sys

try:
    from jsonschema import Draft202012Validator
except ImportError:
    print("SKIP: python3-jsonschema not installed (scripts/install-deps.sh --test)")
    sys.exit(77)

goodput, src, work = sys.argv[1:4]
os.makedirs(work, exist_ok=True)
failed = 0


def fail(msg):
    global failed
    failed += 1
    print("FAIL:", msg)


text = subprocess.run([goodput, "describe", "schema", "--json"], check=True,
                      capture_output=True, text=True).stdout
schema = json.loads(text)
Draft202012Validator.check_schema(schema)
validator = Draft202012Validator(schema)
with open(os.path.join(src, "sim/report/schema/scenario.schema.json")) as f:
    if f.read() != text:
        fail("sim/report/schema/scenario.schema.json is out of date: run "
             "scripts/update-readme-tables.sh GOODPUT")


# Every declared default lies in its key's own declared type and range (the loader never checks a
# default, so a declaration could contradict itself unseen).
def check_defaults(node, path):
    if isinstance(node, dict):
        if "default" in node:
            own = {k: v for k, v in node.items() if k != "default"}
            errors = list(Draft202012Validator(own).iter_errors(node["default"]))
            if errors:
                fail(f"{path}: the default {node['default']!r} breaks its own declaration: "
                     + errors[0].message)
        for k, v in node.items():
            check_defaults(v, f"{path}/{k}")
    elif isinstance(node, list):
        for i, v in enumerate(node):
            check_defaults(v, f"{path}/{i}")


check_defaults(schema, "")


def schema_ok(doc):
    return not any(True for _ in validator.iter_errors(doc))


def loader_ok(path):
    return subprocess.run([goodput, "validate", path], capture_output=True).returncode == 0


# Every file the loader accepts, the schema accepts (also with "$schema" added, at its place).
accepted = 0
candidates = sorted(set(
    glob.glob(os.path.join(src, "scenarios/*.json")) +
    glob.glob(os.path.join(src, "bench/scenarios/*.json")) +
    glob.glob(os.path.join(src, "tests/**/*.json"), recursive=True) +
    glob.glob(os.path.join(src, "validation/**/*.json"), recursive=True)))
for path in candidates:
    if "/regressions/" in path or "/corpus/" in path:
        continue
    try:
        with open(path) as f:
            doc = json.load(f)
    except (ValueError, UnicodeDecodeError):
        continue
    if not isinstance(doc, dict) or not loader_ok(path):
        continue
    accepted += 1
    errors = [f"{e.json_path}: {e.message}" for e in validator.iter_errors(doc)]
    if errors:
        fail(f"{os.path.relpath(path, src)}: the loader accepts it, the schema refuses it: "
             + "; ".join(errors[:3]))
    # The same file naming its schema: both still accept it (written beside the original, so
    # relative paths in it resolve the same way).
    named = os.path.join(os.path.dirname(path), ".schema-test-" + os.path.basename(path))
    try:
        with open(named, "w") as f:
            json.dump({"$schema": "scenario.schema.json", **doc}, f)
        if not loader_ok(named):
            fail(f"{os.path.relpath(path, src)} with \"$schema\": the loader refuses it")
    finally:
        os.remove(named)
    if not schema_ok({"$schema": "scenario.schema.json", **doc}):
        fail(f"{os.path.relpath(path, src)} with \"$schema\": the schema refuses it")
if accepted < 15:
    fail(f"only {accepted} scenario files found to check")

# What the loader refuses key by key, the schema refuses too.
with open(os.path.join(src, "tests/report/data/small-stat.json")) as f:
    base = json.load(f)
if not schema_ok(base):
    fail("small-stat.json should validate")


def edit(pointer, value):
    doc = copy.deepcopy(base)
    parts = pointer.strip("/").split("/")
    node = doc
    for p in parts[:-1]:
        node = node.setdefault(p, {})
    if value is DELETE:
        del node[parts[-1]]
    else:
        node[parts[-1]] = value
    return doc


DELETE = object()
first_strategy = next(iter(base["strategies"]))
mutations = {
    "unknown top-level key": ("/horizon_hourz", 10),
    "unknown key in /cluster": ("/cluster/domainz", 3),
    "unknown key in /job/model": ("/job/model", {"preset": "llama3-8b", "hiddn": 3}),
    "unknown failure-class key": ("/failures/classes",
                                  [{"name": "x", "mtbf_hours": 1000, "repair": {"kind": "restart"}, "nope": 1}]),
    "wrong type": ("/horizon_hours", "ten"),
    "out of range": ("/horizon_hours", 0),
    "not an integer": ("/job/dp", 2.5),
    "seeds: a word it does not know": ("/seeds", "autox"),
    "unknown choice": ("/mode", "sometimes"),
    "unknown strategy": ("/strategies/ntp_turbo", {}),
    "unknown strategy parameter": (f"/strategies/{first_strategy}/turbo", 1),
    "unknown strategy choice": ("/strategies/hot_spares/scope", "rack"),
    "missing required key": ("/job/tp", DELETE),
    "missing model key (no preset)": ("/job/model", {"hidden": 1024}),
    "missing failure-class key": ("/failures/classes", [{"name": "x"}]),
    "missing job": ("/job", DELETE),
    "no strategies": ("/strategies", {}),
    "$schema not a string": ("/$schema", 3),
    "list item of the wrong type": ("/cost/curve_power", [1, "x"]),
}
for what, (pointer, value) in mutations.items():
    doc = edit(pointer, value)
    path = os.path.join(work, "mutated.json")
    with open(path, "w") as f:
        json.dump(doc, f)
    if loader_ok(path):
        fail(f"{what} ({pointer}): the loader accepts it (the test's mutation is wrong)")
    elif schema_ok(doc):
        fail(f"{what} ({pointer}): the loader refuses it, the schema accepts it")

print(f"scenario schema: {accepted} accepted files checked, {len(mutations)} refusals; "
      + ("all passed" if not failed else f"{failed} failed"))
sys.exit(1 if failed else 0)
