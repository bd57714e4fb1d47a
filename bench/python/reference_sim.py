#!/usr/bin/env python3
"""Plain-Python reference of goodput's checkpoint_restart and dp_drop model (issue 6).

Contract: reads the CSV written by `goodput_export_faults` (constants in ms, each domain's GPUs,
each run's faults as blast-radius GPU lists, the C++ results and C++ ns/event on those faults),
replays every run under both strategies with a heapq event loop (standard library only) that
mirrors, call for call, sim/engine/simulator.cpp, sim/run/single_run.cpp (FaultFeeder),
models/job/cluster_health.cpp, models/job/job_layout.cpp (full groups only),
models/strategies/job_controller.cpp, checkpoint_restart.cpp, dp_drop.cpp and
sim/run/accounting.cpp. Prints one line per (run, strategy) with events and Goodput next to
the C++ figures, then a summary line `python_ns_per_event=... cpp_ns_per_event=... ratio=...
max_goodput_diff=... events_match=...`; both per-event times divide by this model's events, so
the ratio is Python time / C++ time on the same runs even where C++ fires fewer events. Exit status 1 if a Goodput differs by more than --tol.
"""
import argparse
import heapq
import sys
import time
from collections import deque

WASTED, INFRA, SAVE, RESTORE, DEGRADED, RESHARD, WAITING = range(7)
RUNNING, STALLED, WAITING_MODE, SAVING = range(4)
AFTER_RESUME, AFTER_FULL_RESTART, AFTER_WAIT_FULL = range(3)
K_STALL, K_CKPT_DUE, K_SAVE_DONE, K_DURABLE, K_JOIN = 1, 2, 3, 4, 5
FAULT_START, FAULT_END = 1, 2
FEEDER, CONTROLLER = 0, 1


def read_export(path):
    params, domains, faults, cpp = {}, [], {}, []
    with open(path) as f:
        for line in f:
            parts = line.rstrip("\n").split(",")
            tag = parts[0]
            if tag == "param":
                v = parts[2]
                params[parts[1]] = int(v) if v.lstrip("-").isdigit() else v
            elif tag == "domain":
                domains.append([int(g) for g in parts[2].split()])
            elif tag == "fault":
                faults.setdefault(int(parts[1]), []).append(
                    (int(parts[2]), int(parts[3]), [int(g) for g in parts[4].split()]))
            elif tag == "cpp":
                cpp.append((int(parts[1]), parts[2], float(parts[3]), int(parts[4]), float(parts[5]), int(parts[6])))
    return params, domains, faults, cpp


class Run:
    """One (run, strategy) replay: engine + health + layout + controller + accounting."""

    def __init__(self, p, domains, faults, strategy):
        self.p, self.domain_gpus, self.faults, self.drop = dict(p), domains, faults, strategy == "dp_drop"
        # Each strategy checkpoints at its own interval (the C++ plan's, exported per strategy).
        self.p["checkpoint_interval_ms"] = p["checkpoint_interval_ms." + strategy]
        self.tp, self.pp, self.dp = p["tp"], p["pp"], p["dp"]
        self.horizon = p["horizon_ms"]
        self.gpu_domain = [0] * p["gpus"]
        for d, gs in enumerate(domains):
            for g in gs:
                self.gpu_domain[g] = d
        # engine
        self.heap, self.next_id, self.cancelled, self.now, self.fired = [], 1, set(), 0, 0
        # health
        self.down_count = [0] * p["gpus"]
        self.domain_healthy = [len(gs) for gs in domains]
        self.down_gpus = 0
        # layout
        self.slot = [0] * p["gpus"]
        self.assigned = [0] * len(domains)
        self.total_assigned = 0
        self.in_use = 0
        # accounting
        self.last = 0
        self.rate, self.loss_b, self.loss_v = 0.0, WAITING, 1.0
        self.progress = self.durable_progress = self.snapshot_progress = 0.0
        self.run_time = self.durable_run_time = self.snapshot_run_time = 0.0
        self.snapshot_pending = False
        self.running_since = 0
        self.bucket = [0.0] * 7
        self.acc_down = self.acc_in_use = 0
        self.down_gpu_s = self.idle_gpu_s = 0.0
        self.interruptions = 0
        # controller
        self.mode, self.after, self.steps, self.step = RUNNING, AFTER_RESUME, [], 0
        self.stall_event = self.checkpoint_event = self.save_event = self.durable_event = 0
        self.checkpoint_due = self.full_restart_pending = self.restarting = False
        self.active = self.joining = 0
        self.joins = deque()

    # --- engine ---------------------------------------------------------------------------
    def schedule_at(self, t, target, kind, arg=0):
        i = self.next_id
        self.next_id += 1
        heapq.heappush(self.heap, (t, i, target, kind, arg))
        return i

    def schedule_after(self, delay, target, kind, arg=0):
        return self.schedule_at(self.now + delay, target, kind, arg)

    def cancel(self, i):
        if 0 < i < self.next_id:
            self.cancelled.add(i)

    def run(self):
        self.start_controller()
        self.schedule_start(0)
        heap, end = self.heap, self.horizon
        while heap and heap[0][0] <= end:
            t, i, target, kind, arg = heapq.heappop(heap)
            if i in self.cancelled:
                self.cancelled.discard(i)
                continue
            self.now = t
            self.fired += 1
            if target == FEEDER:
                self.feed(kind, arg)
            else:
                self.handle(kind)
        if end > self.now:
            self.now = end
        self.advance(end)
        return self.progress / (end / 1000.0)

    # --- accounting (sim/run/accounting.cpp) ------------------------------------------------
    def advance(self, t):
        if t <= self.last:
            return
        dt = (t - self.last) / 1000.0
        self.progress += self.rate * dt
        self.bucket[self.loss_b] += self.loss_v * dt
        if self.rate > 0:
            self.run_time += dt
        self.down_gpu_s += self.acc_down * dt
        self.idle_gpu_s += max(0, len(self.gpu_domain) - self.acc_down - self.acc_in_use) * dt
        self.last = t

    def phase(self, rate, bucket, loss):
        t = self.now
        self.advance(t)
        if rate > 0 and self.rate <= 0:
            self.running_since = t
        self.rate, self.loss_b, self.loss_v = rate, bucket, loss

    def stalled(self, bucket):
        self.phase(0.0, bucket, 1.0)

    def rollback(self):
        self.advance(self.now)
        lost = self.progress - self.durable_progress
        self.progress -= lost
        self.bucket[WASTED] += lost
        self.run_time = self.durable_run_time
        self.snapshot_pending = False

    def partial_step_lost(self, step):
        t = self.now
        self.advance(t)
        if self.rate <= 0 or step <= 0:
            return
        in_step = ((t - self.running_since) % step) / 1000.0
        lost = min(self.rate * in_step, self.progress - self.durable_progress)
        if lost <= 0:
            return
        self.progress -= lost
        self.bucket[WASTED] += lost
        self.run_time -= min(in_step, self.run_time - self.durable_run_time)

    def set_in_use(self):
        self.advance(self.now)
        self.acc_in_use = self.in_use

    # --- layout (models/job/job_layout.cpp, full groups only) ------------------------------
    def assign(self, d, groups):
        tp, slot, gpus = self.tp, self.slot, self.domain_gpus[d]
        groups = min(groups, self.domain_healthy[d] // tp)
        old = self.assigned[d]
        counts = [0] * old
        for g in gpus:
            if slot[g]:
                counts[slot[g] - 1] += 1
        if groups == old:  # same groups: top up short ones from idle GPUs, from the domain's end
            k, down = 0, self.down_count
            for g in reversed(gpus):
                while k < groups and counts[k] >= tp:
                    k += 1
                if k == groups:
                    break
                if slot[g] == 0 and down[g] == 0:
                    slot[g] = k + 1
                    counts[k] += 1
                    self.in_use += 1
            return groups
        order = sorted(range(old), key=lambda k: -counts[k])  # stable, like std::stable_sort
        relabel = [0] * (old + 1)
        for i in range(min(old, groups)):
            relabel[order[i] + 1] = i + 1
        members = [0] * groups
        for g in gpus:
            if slot[g] == 0:
                continue
            tag = relabel[slot[g]]
            if tag and members[tag - 1] >= tp:
                tag = 0
            slot[g] = tag
            if tag == 0:
                self.in_use -= 1
            else:
                members[tag - 1] += 1
        k, down = 0, self.down_count
        for g in gpus:
            while k < groups and members[k] >= tp:
                k += 1
            if k == groups:
                break
            if slot[g] == 0 and down[g] == 0:
                slot[g] = k + 1
                members[k] += 1
                self.in_use += 1
        self.total_assigned += groups - old
        self.assigned[d] = groups
        return groups

    def retarget(self, target, dirty):
        for d in dirty:
            self.assign(d, self.assigned[d])
        n = target - self.total_assigned
        if n > 0:
            for d in range(len(self.assigned)):
                if n <= 0:
                    break
                cap = self.domain_healthy[d] // self.tp
                free = cap - min(cap, self.assigned[d])
                if free:
                    add = min(free, n)
                    self.assign(d, self.assigned[d] + add)
                    n -= add
        elif n < 0:
            n = -n
            for d in range(len(self.assigned) - 1, -1, -1):
                if n <= 0:
                    break
                if self.assigned[d]:
                    remove = min(self.assigned[d], n)
                    self.assign(d, self.assigned[d] - remove)
                    n -= remove
        return self.total_assigned

    # --- fault feeder (sim/run/single_run.cpp) ----------------------------------------------
    def schedule_start(self, i):
        if i < len(self.faults) and self.faults[i][0] < self.horizon:
            self.schedule_at(self.faults[i][0], FEEDER, FAULT_START, i)

    def feed(self, kind, i):
        start, end, gpus = self.faults[i]
        if kind == FAULT_START:
            self.schedule_start(i + 1)
            if end < self.horizon:
                self.schedule_at(end, FEEDER, FAULT_END, i)
            hits = []
            for g in gpus:
                self.down_count[g] += 1
                if self.down_count[g] == 1:
                    self.domain_healthy[self.gpu_domain[g]] -= 1
                    self.down_gpus += 1
                    if self.slot[g]:
                        hit = (self.gpu_domain[g], self.slot[g] - 1)
                        self.slot[g] = 0
                        self.in_use -= 1
                        if hit not in hits:
                            hits.append(hit)
            self.advance(self.now)
            self.acc_down = self.down_gpus
            self.on_fault(hits)
        else:
            domains = []
            for g in gpus:
                self.down_count[g] -= 1
                if self.down_count[g] == 0:
                    d = self.gpu_domain[g]
                    self.domain_healthy[d] += 1
                    self.down_gpus -= 1
                    if not domains or domains[-1] != d:
                        domains.append(d)
            self.advance(self.now)
            self.acc_down = self.down_gpus
            self.on_repair(domains)

    # --- controller (models/strategies/job_controller.cpp) ----------------------------------
    def job_groups(self):
        return self.dp * self.pp

    def layout_full(self):
        return self.total_assigned >= self.dp * self.pp

    def start_controller(self):
        self.active = self.dp
        self.retarget(self.job_groups(), [])
        self.mode = STALLED
        self.arm_checkpoint()
        self.resume()

    def on_fault(self, hits):
        if not hits:
            return
        hit_domains = []
        for d, _ in hits:
            if d not in hit_domains:
                hit_domains.append(d)
        for d in hit_domains:
            self.assign(d, self.assigned[d])
        if self.restarting or self.full_restart_pending or not self.drop:
            self.recover_by_restart(hit_domains)
        else:
            self.recover_by_drop(len(hits), hit_domains)

    def on_repair(self, domains):
        p = self.p
        if self.full_restart_pending:
            self.retarget(self.job_groups(), domains)
            if self.layout_full():
                self.full_restart_pending = False
                self.begin_stall([(p["restart_ms"], INFRA), (p["load_ms"], RESTORE)], AFTER_FULL_RESTART)
            return
        if self.restarting:
            return
        if self.active + self.joining < self.dp:
            self.relayout_replicas(domains)
            if self.mode == WAITING_MODE and self.can_run():
                self.resume()
        elif not self.layout_full():
            self.retarget(self.job_groups(), domains)
            if self.mode == WAITING_MODE and self.can_run():
                self.resume()
        self.set_in_use()

    def handle(self, kind):
        p = self.p
        if kind == K_STALL:
            self.next_stall_step()
        elif kind == K_CKPT_DUE:
            self.checkpoint_event = 0
            if self.mode == RUNNING:
                self.begin_save()
            else:
                self.checkpoint_due = True
        elif kind == K_SAVE_DONE:
            self.save_event = 0
            if p["async"]:
                self.durable_event = self.schedule_after(p["durable_after_ms"], CONTROLLER, K_DURABLE)
            else:
                self.checkpoint_durable()
            self.mode = STALLED
            self.arm_checkpoint()
            self.resume()
        elif kind == K_DURABLE:
            self.durable_event = 0
            self.checkpoint_durable()
        elif kind == K_JOIN:
            self.joins.popleft()
            self.joining -= 1
            self.active += 1
            # The replica joins through a communicator rebuild (planned: no detection, no
            # interruption counted, no step lost; in a stall under way: that one's).
            if self.mode == RUNNING or (self.mode == WAITING_MODE and self.can_run()):
                self.interrupt(False, planned=True)
                self.begin_stall([(self.p["rebuild_ms"], INFRA)], AFTER_RESUME)

    def checkpoint_durable(self):
        self.advance(self.now)
        if self.snapshot_pending:
            self.durable_progress = self.snapshot_progress
            self.durable_run_time = self.snapshot_run_time
            self.snapshot_pending = False

    def recover_by_restart(self, dirty):
        p = self.p
        self.interrupt(True)
        for i in self.joins:
            self.cancel(i)
        self.joins.clear()
        self.joining = 0
        self.active = self.dp
        self.restarting = True
        self.retarget(self.job_groups(), dirty)
        if self.layout_full():
            self.full_restart_pending = False
            self.begin_stall([(p["detection_ms"], INFRA), (p["restart_ms"], INFRA), (p["load_ms"], RESTORE)],
                             AFTER_FULL_RESTART)
        else:
            self.full_restart_pending = True
            self.begin_stall([(p["detection_ms"], INFRA)], AFTER_WAIT_FULL)

    def recover_by_drop(self, groups_hit, dirty):
        lost = min(groups_hit, self.active)
        if self.active - lost <= 0 and self.joining == 0:
            self.recover_by_restart(dirty)
            return
        self.interrupt(False)
        self.active -= lost
        self.relayout_replicas(dirty)
        self.begin_stall([(self.p["detection_ms"], INFRA), (self.p["rebuild_ms"], INFRA)], AFTER_RESUME)

    def relayout_replicas(self, dirty):
        formable = self.retarget(self.job_groups(), dirty) // self.pp
        self.active = min(self.active, formable)
        while self.active + self.joining > formable:
            self.cancel(self.joins.pop())
            self.joining -= 1
        while self.active + self.joining < formable:
            self.joins.append(self.schedule_after(self.p["join_ms"], CONTROLLER, K_JOIN))
            self.joining += 1
        self.retarget(formable * self.pp, [])

    def interrupt(self, rollback, planned=False):
        if self.mode != WAITING_MODE and not planned:
            self.advance(self.now)
            self.interruptions += 1
        if self.stall_event:
            self.cancel(self.stall_event)
        self.stall_event = 0
        self.abort_save()
        if rollback:
            self.rollback()
        elif self.mode == RUNNING and not planned:
            self.partial_step_lost(self.p["step_ms"])

    def begin_stall(self, steps, after):
        if self.stall_event:
            self.cancel(self.stall_event)
        self.steps, self.step, self.after, self.mode, self.stall_event = steps, 0, after, STALLED, 0
        self.next_stall_step()

    def next_stall_step(self):
        self.stall_event = 0
        if self.step < len(self.steps):
            duration, bucket = self.steps[self.step]
            self.step += 1
            self.stalled(bucket)
            self.stall_event = self.schedule_after(duration, CONTROLLER, K_STALL)
            return
        if self.after == AFTER_RESUME:
            self.resume()
        elif self.after == AFTER_FULL_RESTART:
            self.restarting = False
            self.active = self.dp
            if self.checkpoint_event:
                self.cancel(self.checkpoint_event)
            self.checkpoint_event = 0
            self.checkpoint_due = False
            self.arm_checkpoint()
            self.resume()
        else:
            self.mode = WAITING_MODE
            self.stalled(WAITING)

    def can_run(self):
        pause = self.drop and self.p.get("batch_policy") == "pause_below"
        min_run = max(1, self.p.get("min_replicas", 1)) if pause else 1
        return (not self.restarting and self.active >= min_run
                and self.total_assigned >= self.active * self.pp)

    def drop_rate(self):
        a, dp, m = self.active, self.dp, self.p["microbatches"]
        policy = self.p.get("batch_policy", "shrink") if self.drop else "shrink"
        if a >= dp:
            return 1.0
        if a <= 0:
            return 0.0
        if policy == "pause_below" and a < self.p.get("min_replicas", 1):
            return 0.0
        if policy == "accumulate":
            return m / -(-(dp * m) // a)
        return a / dp

    def resume(self):
        if not self.can_run():
            self.mode = WAITING_MODE
            self.stalled(WAITING)
            self.set_in_use()
            return
        self.mode = RUNNING
        rate = self.drop_rate()
        self.phase(rate, DEGRADED, 1 - rate)
        self.set_in_use()
        if self.checkpoint_due:
            self.checkpoint_due = False
            self.begin_save()

    def arm_checkpoint(self):
        if self.p["checkpoint_interval_ms"] > 0 and self.checkpoint_event == 0:
            self.checkpoint_event = self.schedule_after(self.p["checkpoint_interval_ms"], CONTROLLER, K_CKPT_DUE)

    def begin_save(self):
        self.advance(self.now)
        self.snapshot_progress, self.snapshot_run_time, self.snapshot_pending = self.progress, self.run_time, True
        self.mode = SAVING
        self.stalled(SAVE)
        self.save_event = self.schedule_after(self.p["save_blocking_ms"], CONTROLLER, K_SAVE_DONE)

    def abort_save(self):
        if self.save_event or self.durable_event:
            self.advance(self.now)
            self.snapshot_pending = False
        if self.save_event:
            self.cancel(self.save_event)
        if self.durable_event:
            self.cancel(self.durable_event)
        if self.save_event:
            self.arm_checkpoint()
        self.save_event = self.durable_event = 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("export_csv")
    ap.add_argument("--tol", type=float, default=1e-9, help="largest |Goodput difference| accepted")
    args = ap.parse_args()
    params, domains, faults, cpp = read_export(args.export_csv)
    py_s = cpp_ns_events = 0.0
    events_total, max_diff, events_match = 0, 0.0, True
    for run, strategy, cpp_goodput, cpp_events, cpp_ns, cpp_intr in cpp:
        r = Run(params, domains, faults.get(run, []), strategy)
        t0 = time.perf_counter()
        goodput = r.run()
        py_s += time.perf_counter() - t0
        events_total += r.fired
        cpp_ns_events += cpp_ns * cpp_events
        diff = abs(goodput - cpp_goodput)
        max_diff = max(max_diff, diff)
        events_match &= r.fired == cpp_events and r.interruptions == cpp_intr
        print(f"run {run} {strategy:18s} python: events {r.fired:7d} goodput {goodput:.12f} interruptions "
              f"{r.interruptions:4d} | C++: events {cpp_events:7d} goodput {cpp_goodput:.12f} "
              f"interruptions {cpp_intr:4d} | diff {diff:.2e}")
    # Per event of the reference model (the same simulated work on both sides, also once the C++
    # model fires fewer events than this one): C++ total time / reference events.
    py_ns = py_s * 1e9 / max(1, events_total)
    cpp_avg = cpp_ns_events / max(1, events_total)
    print(f"python_ns_per_event={py_ns:.0f} cpp_ns_per_event={cpp_avg:.1f} ratio={py_ns / cpp_avg:.0f} "
          f"events={events_total} cpp_events={sum(c[3] for c in cpp)} python_s={py_s:.2f} "
          f"max_goodput_diff={max_diff:.2e} events_match={events_match}")
    return 0 if max_diff <= args.tol else 1


if __name__ == "__main__":
    sys.exit(main())
