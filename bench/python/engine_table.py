#!/usr/bin/env python3
"""Reads Google Benchmark JSON from goodput_engine_bench and prints markdown tables: engine vs
bare heap / std::priority_queue events/s (CPU time) with the ratio measured in the same run,
and one simulate() per strategy (ms per run, events, events/s)."""
import json
import sys

rows = {b["name"]: b for b in json.load(open(sys.argv[1]))["benchmarks"] if b.get("run_type", "iteration") == "iteration"}
print("| pending events | engine (M events/s) | bare push/pop_heap (M/s) | std::priority_queue (M/s) | bare heap / engine |")
print("|---|---|---|---|---|")
for n in (1024, 4096, 16384):
    e, h, q = (rows.get(f"BM_{k}/{n}") for k in ("Engine", "BareHeap", "PriorityQueue"))
    if not (e and h and q):
        continue
    ei, hi, qi = e["items_per_second"], h["items_per_second"], q["items_per_second"]
    print(f"| {n} | {ei / 1e6:.2f} | {hi / 1e6:.2f} | {qi / 1e6:.2f} | **{hi / ei:.2f}x** |")
print()
print("| strategy (BM_Simulate, one run) | CPU ms per run | events per run | events/s |")
print("|---|---|---|---|")
for i in range(5):
    s = rows.get(f"BM_Simulate/{i}")
    if not s:
        continue
    ms = s["cpu_time"] if s["time_unit"] == "ms" else s["cpu_time"] / 1e6
    ev = s["items_per_second"] * ms / 1e3
    print(f"| {s.get('label', i)} | {ms:.1f} | {ev:,.0f} | {s['items_per_second'] / 1e6:.2f} M |")
