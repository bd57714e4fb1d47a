#!/usr/bin/env python3
"""The callgrind budget (issue 32): instructions per failure per strategy, checked on any host.

callgrind_budget.py GOODPUT BUDGET_JSON WORKDIR [--compiler TEXT] [--expect-exceeded] [--record]
callgrind_budget.py GOODPUT BUDGET_JSON WORKDIR --scenario FILE [--seeds S] [--horizon-hours H]
                    [--pilot-runs P]      (measure another scenario: the figures only)

Runs `GOODPUT run SCENARIO --seeds S --threads 1 --no-break-even --quiet` under
`valgrind --tool=callgrind` at the scenario's horizon H and at 2H (same seeds) and computes two
marginal figures, each

    (Ir(2H) - Ir(H)) / ((failures(2H) - failures(H)) x strategies)

where failures is the `failures` column of runs.csv (faults that started within the horizon)
summed over the runs (seeds) of one strategy (every strategy sees the same faults), plus those
of the first `pilot_runs` runs again when the budget file says the plan's checkpoint pilot
simulates them (an adaptive interval: 2 runs; the budget scenario's fixed interval has none),
and Ir is
  - simulation: the instructions inside `goodput::simulate_all` (callgrind_annotate, inclusive):
    the Monte Carlo's runs, every strategy reacting to every fault (issue 32's target);
  - whole_run: callgrind's total for the process, which adds the writers' share (timeline.json
    of run 0 grows with the horizon).
What does not grow with the horizon (start-up, the plan, the cost model's fit, the fixed part
of the report) cancels in the difference. BUDGET_JSON (tests/perf/budget.json) names the
scenario (relative to the repository root), optionally `seeds` and `horizon_hours` in place of
the scenario's and `pilot_runs`, and holds the recorded figures.

Exit codes: 0 both figures at most `tolerance` (10 %) above the recorded ones (printed either
way); 1 one is more (both printed), or a run failed; 77 skipped: no valgrind, or this build's
compiler (`--compiler "ID VERSION BUILD_TYPE"`) is not the one the budget was recorded with.
--expect-exceeded inverts the verdict (the canary test: a build that burns extra instructions
per fault must be caught). --record writes the figures, the date, the commit and --compiler
into BUDGET_JSON.
--scenario (a path, relative to the current directory) measures that scenario instead, with
--seeds, --horizon-hours and --pilot-runs in place of the budget file's (default: the
scenario's seeds and horizon, no pilot runs): it prints the two figures and exits 0 (1 if a run
failed); nothing is compared or recorded. bench/run.sh measures the bench scenarios this way
(issue 32's target table: 4 seeds, 4,380 h, 2 pilot runs for their adaptive interval).
"""
import argparse
import csv
import datetime
import json
import os
import shutil
import subprocess
import sys

SKIP = 77
SIMULATION = "goodput::simulate_all("  # the function whose inclusive cost is the simulation


def instructions(callgrind_out):
    """(instructions inside simulate_all, the process's total) from a callgrind output file."""
    r = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", callgrind_out],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    total = simulation = None
    for line in r.stdout.splitlines():
        fields = line.split()
        if not fields or not fields[0][:1].isdigit():
            continue
        count = int(fields[0].replace(",", ""))
        if "PROGRAM TOTALS" in line and total is None:
            total = count
        elif SIMULATION in line and simulation is None:
            simulation = count
    if r.returncode != 0 or total is None:
        raise RuntimeError(f"callgrind_annotate {callgrind_out} failed:\n{r.stdout[-2000:]}")
    if simulation is None:
        raise RuntimeError(f"{callgrind_out}: no {SIMULATION}...) in the profile (renamed? "
                           f"update SIMULATION in {__file__})")
    return simulation, total


def failures_and_strategies(out_dir, pilot_runs):
    """Faults simulated for each strategy (every strategy sees the same): over all runs, plus
    the first `pilot_runs` runs' again; and the number of strategies."""
    with open(os.path.join(out_dir, "runs.csv")) as f:
        rows = list(csv.DictReader(f))
    per_strategy = {}
    for r in rows:
        n = int(r["failures"]) * (2 if int(r["run"]) < pilot_runs else 1)
        per_strategy[r["strategy"]] = per_strategy.get(r["strategy"], 0) + n
    if not per_strategy or len(set(per_strategy.values())) != 1:
        raise RuntimeError(f"{out_dir}/runs.csv: strategies saw different failures: {per_strategy}")
    return next(iter(per_strategy.values())), len(per_strategy)


def measure(goodput, scenario, seeds, hours, pilot_runs, work, tag):
    """One run under callgrind: (simulation Ir, total Ir, failures, strategies)."""
    out = os.path.join(work, tag)
    cg = os.path.join(work, f"callgrind.{tag}.out")
    cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={cg}", goodput, "run", scenario,
           "--seeds", str(seeds), "--set", f"/horizon_hours={hours:g}", "--threads", "1",
           "--no-break-even", "--quiet", "--out", out]
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited {r.returncode}:\n{r.stdout[-2000:]}")
    return (*instructions(cg), *failures_and_strategies(out, pilot_runs))


def record(path, budget, figures, build, root):
    commit = subprocess.run(["git", "-C", root, "rev-parse", "--short", "HEAD"],
                            stdout=subprocess.PIPE, text=True).stdout.strip()
    budget.update({
        "instructions_per_failure_per_strategy": {k: round(v) for k, v in figures.items()},
        "measured": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%MZ"),
        "commit": commit,
        "build": build,
    })
    with open(path, "w") as f:
        json.dump(budget, f, indent=2)
        f.write("\n")
    print(f"recorded in {path}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("goodput")
    ap.add_argument("budget")
    ap.add_argument("work")
    ap.add_argument("--compiler", default="")
    ap.add_argument("--expect-exceeded", action="store_true")
    ap.add_argument("--record", action="store_true")
    ap.add_argument("--scenario", help="measure this scenario instead (figures only)")
    ap.add_argument("--seeds", type=int)
    ap.add_argument("--horizon-hours", type=float)
    ap.add_argument("--pilot-runs", type=int)
    a = ap.parse_args()
    overrides = a.seeds is not None or a.horizon_hours is not None or a.pilot_runs is not None
    if overrides and not a.scenario:
        ap.error("--seeds, --horizon-hours and --pilot-runs go with --scenario")
    if a.scenario and (a.record or a.expect_exceeded):
        ap.error("--scenario measures only: not with --record or --expect-exceeded")
    root = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    with open(a.budget) as f:
        budget = json.load(f)
    if shutil.which("valgrind") is None or shutil.which("callgrind_annotate") is None:
        print("SKIP: valgrind (callgrind) not found; Debian: apt-get install valgrind")
        return SKIP
    recorded_build = budget.get("build", "")
    if a.compiler and recorded_build and not a.record and not a.scenario and \
            a.compiler.split()[0] != recorded_build.split()[0]:
        print(f"SKIP: the budget was recorded with {recorded_build}; this build is {a.compiler} "
              "(instruction counts are not comparable across compilers)")
        return SKIP
    if a.scenario:
        budget = {"scenario": a.scenario}
        if a.seeds is not None:
            budget["seeds"] = a.seeds
        if a.horizon_hours is not None:
            budget["horizon_hours"] = a.horizon_hours
        if a.pilot_runs is not None:
            budget["pilot_runs"] = a.pilot_runs
    scenario = os.path.abspath(a.scenario) if a.scenario else os.path.join(root, budget["scenario"])
    try:
        with open(scenario) as f:
            scen = json.load(f)
        hours = float(budget.get("horizon_hours", scen["horizon_hours"]))
        seeds = int(budget.get("seeds", scen["seeds"]))
    except (OSError, ValueError) as e:
        print(f"FAIL: cannot read the scenario {scenario}: {e}")
        return 1
    except KeyError as e:
        print(f"FAIL: {scenario} has no {e}: give --horizon-hours and --seeds")
        return 1
    pilot_runs = int(budget.get("pilot_runs", 0))
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    try:
        sim1, all1, f1, s1 = measure(a.goodput, scenario, seeds, hours, pilot_runs, a.work, "h1")
        sim2, all2, f2, s2 = measure(a.goodput, scenario, seeds, 2 * hours, pilot_runs, a.work,
                                     "h2")
    except (RuntimeError, OSError) as e:
        print(f"FAIL: {e}")
        return 1
    if s1 != s2 or f2 <= f1:
        print(f"FAIL: doubling the horizon added no failures ({f1} -> {f2}; strategies {s1}, {s2})")
        return 1
    per = (f2 - f1) * s1
    figures = {"simulation": (sim2 - sim1) / per, "whole_run": (all2 - all1) / per}
    print(f"{budget['scenario']} ({seeds} seeds, {s1} strategies), instructions inside "
          f"simulate_all / in all: {hours:g} h, {f1} failures: {sim1:,} / {all1:,}; "
          f"{2 * hours:g} h, {f2} failures: {sim2:,} / {all2:,}")
    if a.scenario or a.record:  # the figures alone (--scenario), or recorded too
        for name, value in figures.items():
            print(f"{name}: {value:,.0f} instructions per failure per strategy")
        if a.record:
            record(a.budget, budget, figures, a.compiler or recorded_build, root)
        return 0
    tolerance = float(budget["tolerance"])
    print(f"recorded with {recorded_build} at commit {budget['commit']} ({budget['measured']}); "
          f"limit: recorded +{tolerance:.0%}")
    exceeded = []
    for name, value in figures.items():
        ref = float(budget["instructions_per_failure_per_strategy"][name])
        over = value > ref * (1 + tolerance)
        print(f"{name}: {value:,.0f} instructions per failure per strategy, recorded {ref:,.0f} "
              f"({value / ref - 1:+.1%}){': OVER THE BUDGET' if over else ''}")
        if over:
            exceeded.append(name)
    if a.expect_exceeded:
        if exceeded:
            print("ok: the canary's extra instructions per fault were caught: "
                  + ", ".join(exceeded))
            return 0
        print("FAIL: the canary build stayed within the budget: the check cannot see a regression")
        return 1
    if exceeded:
        print(f"FAIL: more than {tolerance:.0%} above the recorded figure: {', '.join(exceeded)} "
              "(a change that is worth it re-records: this command with --record)")
        return 1
    print("ok: within the budget")
    return 0


if __name__ == "__main__":
    sys.exit(main())
