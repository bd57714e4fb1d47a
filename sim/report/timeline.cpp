#include "sim/report/timeline.hpp"

#include <algorithm>

#include "sim/core/json_out.hpp"
#include "sim/core/params.hpp"

namespace goodput {

namespace {

constexpr Time kOpen = -1;
constexpr const char* kTruncatedName = "timeline truncated";

std::int64_t us(Time t) {
  return t * 1000;
}  // trace timestamps are microseconds

}  // namespace

const char* phase_label(const Phase& p) {
  if (p.rate >= 1 - 1e-9) return "running";
  int top = 0;
  for (int b = 1; b < kBucketCount; ++b)
    if (p.loss[static_cast<std::size_t>(b)] > p.loss[static_cast<std::size_t>(top)]) top = b;
  switch (static_cast<Bucket>(top)) {
    case Bucket::WastedProgress:
      return "stalled (lost work)";
    case Bucket::InfrastructureRecovery:
      return "stalled (recovery)";
    case Bucket::CheckpointSave:
      return "saving checkpoint";
    case Bucket::CheckpointRestore:
      return "restoring checkpoint";
    case Bucket::WaitingForCapacity:
      return "waiting for capacity";
    case Bucket::SlowComponents:
      return "slowed (straggler)";
    case Bucket::DegradedCapacity:
    case Bucket::ReshardOverhead:
      break;
  }
  return "degraded";
}

std::string phase_name(const Phase& p) {
  return phase_label(p);
}

std::vector<std::pair<std::string, std::optional<Bucket>>> phase_names() {
  std::vector<std::pair<std::string, std::optional<Bucket>>> out = {
      {phase_name(Phase::running(1)), std::nullopt}};
  for (int b = 0; b < kBucketCount; ++b) {
    const Bucket bucket = static_cast<Bucket>(b);
    const std::string name = phase_name(Phase::stalled(bucket));
    if (std::none_of(out.begin(), out.end(), [&](const auto& n) { return n.first == name; }))
      out.emplace_back(name, bucket);
  }
  return out;
}

std::vector<TimelineCell> timeline_columns(const std::vector<TimelineSpan>& phases, Time horizon,
                                           int columns) {
  std::vector<TimelineCell> out;
  if (horizon <= 0 || columns <= 0) return out;
  // Each span's place in phase_names() order (names it does not know stack last, by name).
  std::vector<std::string> names;
  for (const auto& [name, bucket] : phase_names()) names.push_back(name);
  std::vector<std::uint32_t> rank(phases.size());
  for (std::size_t j = 0; j < phases.size(); ++j) {
    const auto it = std::find(names.begin(), names.end(), phases[j].name);
    if (it == names.end()) names.emplace_back(phases[j].name);
    rank[j] = static_cast<std::uint32_t>(it == names.end() ? names.size() - 1 : it - names.begin());
  }
  std::vector<Time> share(names.size(), 0);
  std::vector<TimelineCell> prev;  // the previous column's cells
  std::size_t i = 0;
  for (int c = 0; c < columns; ++c) {
    const Time lo = horizon * c / columns, hi = horizon * (c + 1) / columns;
    if (hi <= lo) continue;
    std::fill(share.begin(), share.end(), 0);
    Time total = 0;
    while (i < phases.size() && phases[i].end <= lo) ++i;
    for (std::size_t j = i; j < phases.size() && phases[j].start < hi; ++j) {
      const Time t = std::min(hi, phases[j].end) - std::max(lo, phases[j].start);
      if (t > 0) {
        share[rank[j]] += t;
        total += t;
      }
    }
    if (total <= 0) continue;
    std::vector<TimelineCell> cells;
    double at = 0;
    Time sum = 0;
    for (std::size_t k = 0; k < share.size(); ++k) {
      if (share[k] == 0) continue;
      sum += share[k];
      const double next = static_cast<double>(sum) / static_cast<double>(total);
      cells.push_back({lo, hi, names[k], at, next});
      at = next;
    }
    const bool same = !prev.empty() && prev.size() == cells.size() && prev.front().end == lo &&
                      std::equal(prev.begin(), prev.end(), cells.begin(), [](auto& a, auto& b) {
                        return a.phase == b.phase && a.lo == b.lo && a.hi == b.hi;
                      });
    if (same) {
      for (std::size_t k = 0; k < cells.size(); ++k) out[out.size() - cells.size() + k].end = hi;
      for (auto& p : prev) p.end = hi;
      continue;
    }
    out.insert(out.end(), cells.begin(), cells.end());
    prev = std::move(cells);
  }
  return out;
}

TimelineRecorder::TimelineRecorder(Time horizon, std::size_t max_spans)
    : horizon_(horizon), max_(max_spans) {}

void TimelineRecorder::open(std::vector<TimelineSpan>& spans, Time t, std::string_view name,
                            double value, int count) {
  t = std::clamp<Time>(t, 0, horizon_);
  if (!spans.empty() && spans.back().end == kOpen) {
    TimelineSpan& last = spans.back();
    if (last.name == name && last.value == value && last.count == count) return;
    if (last.name == kTruncatedName) return;  // the last span runs to the horizon
    if (last.start == t) {
      spans.pop_back();  // zero-length: replaced
      if (!spans.empty() && spans.back().end == t && spans.back().name == name &&
          spans.back().value == value && spans.back().count == count) {
        spans.back().end = kOpen;  // rejoin the span before it
        return;
      }
    } else {
      last.end = t;
    }
  }
  if (name.empty()) return;                          // closing only
  if (&spans != &phases_ && spans.size() >= max_) {  // job phases: never capped
    truncated_ = true;
    name = kTruncatedName;
  }
  spans.push_back({t, kOpen, name, value, count});
}

void TimelineRecorder::phase(Time t, const Phase& p) {
  if (t >= horizon_) return;
  flush_saves(t);
  segment_start_ = t;
  cycle_ = p.cycle;
  open(phases_, t, phase_label(p), p.rate, 0);
}

void TimelineRecorder::flush_saves(Time end) {
  if (!cycle_.on() || cycle_.blocking <= 0) return;
  for (Time k = std::max<Time>(0, cycle_.last_save_at(segment_start_)); saves_.size() < max_; ++k) {
    const Time s = cycle_.save_start(k);
    if (s >= end) break;
    const Time e = std::min(end, s + cycle_.blocking);
    if (e > segment_start_)
      saves_.push_back({std::max(s, segment_start_), e, "saving checkpoint", 0, 0});
  }
  cycle_ = {};
}

void TimelineRecorder::boost(Time t, double extra_power_gpus, int boosted_domains, int) {
  if (t >= horizon_) return;
  open(boosts_, t, extra_power_gpus > 0 ? "boost" : "", extra_power_gpus, boosted_domains);
}

void TimelineRecorder::replicas(Time t, int active, int) {
  if (t >= horizon_ || replicas_.size() >= max_) return;
  if (!replicas_.empty() && replicas_.back().second == active) return;
  if (!replicas_.empty() && replicas_.back().first == t)
    replicas_.back().second = active;
  else
    replicas_.emplace_back(t, active);
}

void TimelineRecorder::instant(Time t, const char* name) {
  if (t < horizon_ && instants_.size() < max_) instants_.emplace_back(t, name);
}

void TimelineRecorder::finish() {
  flush_saves(horizon_);
  for (auto* spans : {&phases_, &boosts_})
    if (!spans->empty() && spans->back().end == kOpen) spans->back().end = horizon_;
}

std::vector<std::pair<Time, std::int64_t>> failed_gpu_counter(const RunPlan& plan,
                                                              const FaultList& faults,
                                                              std::size_t max_points,
                                                              bool* downsampled) {
  struct Edge {
    Time t;
    int delta;  // -1 (a repair) sorts before +1 (a failure) at the same time
    std::uint32_t component;
  };
  std::vector<Edge> edges;
  for (const Fault& f : faults.faults) {
    if (f.start >= plan.horizon) continue;
    edges.push_back({f.start, +1, f.component});
    if (f.end < plan.horizon) edges.push_back({f.end, -1, f.component});
  }
  std::sort(edges.begin(), edges.end(), [](const Edge& a, const Edge& b) {
    return a.t != b.t ? a.t < b.t : a.delta < b.delta;
  });
  std::vector<std::uint32_t> cover(plan.topology->gpus(), 0);
  std::vector<std::pair<Time, std::int64_t>> points{{0, 0}};
  std::int64_t down = 0;
  for (std::size_t i = 0; i < edges.size(); ++i) {
    for (std::uint32_t g : plan.topology->blast_radius(edges[i].component)) {
      if (edges[i].delta > 0)
        down += cover[g]++ == 0 ? 1 : 0;
      else
        down -= --cover[g] == 0 ? 1 : 0;
    }
    if (i + 1 < edges.size() && edges[i + 1].t == edges[i].t) continue;  // one point per instant
    if (points.back().first == edges[i].t)
      points.back().second = down;
    else if (points.back().second != down)
      points.emplace_back(edges[i].t, down);
  }
  if (downsampled) *downsampled = points.size() > max_points;
  if (points.size() <= max_points) return points;
  // Past the cap: the maximum of each window (the value in force at a window's start counts).
  const std::size_t windows = std::max<std::size_t>(1, max_points / 2);
  const Time width = std::max<Time>(
      1, (plan.horizon + static_cast<Time>(windows) - 1) / static_cast<Time>(windows));
  std::vector<std::pair<Time, std::int64_t>> out;
  std::size_t j = 0;
  std::int64_t current = 0;
  for (std::size_t w = 0; w < windows; ++w) {
    const Time lo = static_cast<Time>(w) * width, hi = lo + width;
    std::int64_t peak = current;
    for (; j < points.size() && points[j].first < hi; ++j) {
      current = points[j].second;
      peak = std::max(peak, current);
    }
    if (out.empty() || out.back().second != peak) out.emplace_back(lo, peak);
  }
  return out;
}

std::string timeline_json(const RunPlan& plan, int run, const FaultList& faults,
                          const FailedGpuCounter& counter,
                          const std::vector<StrategyTimeline>& strategies, std::size_t max_faults) {
  // Written as it goes (JsonOut: dump()'s bytes without a document per event); the header's
  // otherData, which counts the fault spans written, is put in front at the end.
  std::string events;
  JsonOut w(events);
  w.begin_array();
  auto meta = [&](int pid, int tid, const char* what, std::string_view name) {
    w.begin_object().member("ph", "M").member("pid", pid).member("name", what);
    w.key("args").begin_object().member("name", name).end_object();
    if (tid >= 0) w.member("tid", tid);
    w.end_object();
  };
  // A span's fields up to its args, whose members the caller writes, then end_span().
  auto begin_span = [&](int pid, int tid, std::string_view name, Time a, Time b) {
    w.begin_object().member("ph", "X").member("pid", pid).member("tid", tid).member("name", name);
    w.member("ts", us(a)).member("dur", us(b - a)).key("args").begin_object();
  };
  auto end_span = [&] { w.end_object().end_object(); };
  // A counter's value from t (its one member `field`).
  auto counter_at = [&](int pid, const char* name, Time t, const char* field, std::int64_t n) {
    w.begin_object().member("ph", "C").member("pid", pid).member("name", name);
    w.member("ts", us(t)).key("args").begin_object().member(field, n).end_object();
    w.end_object();
  };
  // The cluster: each fault a span from failure to repair, packed into lanes so spans don't
  // overlap.
  meta(0, -1, "process_name", "cluster failures and repairs");
  std::vector<Time> lane_end;
  std::size_t written = 0;
  for (const Fault& f : faults.faults) {
    if (f.start >= plan.horizon || written >= max_faults) continue;
    const Time end = std::min(f.end, plan.horizon);
    std::size_t lane = 0;
    while (lane < lane_end.size() && lane_end[lane] > f.start) ++lane;
    if (lane == lane_end.size()) {
      if (lane_end.size() >= kFaultLanes) continue;  // at most kFaultLanes concurrent lanes shown
      lane_end.push_back(0);
      meta(0, static_cast<int>(lane), "thread_name", "faults " + std::to_string(lane));
    }
    lane_end[lane] = end;
    const std::string_view cls = f.fault_class < faults.classes.size()
                                     ? std::string_view(faults.classes[f.fault_class].name)
                                     : std::string_view("fault");
    begin_span(0, static_cast<int>(lane), cls, f.start, end);
    w.member("component", plan.topology->name(f.component))
        .member("repaired", f.end <= plan.horizon);
    end_span();
    ++written;
  }
  for (const auto& [t, n] : counter.points) counter_at(0, "failed GPUs", t, "failed", n);
  for (std::size_t s = 0; s < strategies.size(); ++s) {
    const int pid = static_cast<int>(s) + 1;
    const TimelineRecorder& r = *strategies[s].recorder;
    meta(pid, -1, "process_name", strategies[s].strategy);
    meta(pid, 1, "thread_name", "job phase");
    meta(pid, 2, "thread_name", "boost");
    meta(pid, 3, "thread_name", "events");
    meta(pid, 4, "thread_name", "checkpoint saves");
    // The job phases up to the cap, then one span for the rest of the run (report.html draws
    // every span, aggregated per column: timeline_columns).
    const auto& phases = r.phases();
    for (std::size_t k = 0; k < phases.size(); ++k) {
      const TimelineSpan& p = phases[k];
      if (k + 1 >= r.max_spans() && k + 1 < phases.size()) {
        begin_span(pid, 1, kTruncatedName, p.start, phases.back().end);
        w.member("phase_spans_not_written", phases.size() - k)
            .member("every_phase", "report.html's timeline");
        end_span();
        break;
      }
      begin_span(pid, 1, p.name, p.start, p.end);
      w.member("rate", p.value);
      end_span();
    }
    for (const auto& b : r.boosts()) {
      begin_span(pid, 2, b.name, b.start, b.end);
      w.member("extra_power_gpus", b.value).member("domains", b.count);
      end_span();
    }
    for (const auto& c : r.saves()) {
      begin_span(pid, 4, c.name, c.start, c.end);
      end_span();
    }
    for (const auto& [t, name] : r.instants()) {
      w.begin_object().member("ph", "i").member("pid", pid).member("tid", 3).member("name", name);
      w.member("ts", us(t)).member("s", "t").end_object();
    }
    for (const auto& [t, n] : r.replica_counts()) counter_at(pid, "replicas", t, "active", n);
  }
  w.end_array();
  std::string out;
  JsonOut j(out);
  j.begin_object().member("displayTimeUnit", "ms").key("otherData").begin_object();
  j.member("tool", "goodput")
      .member("scenario", plan.scenario.name)
      .member("run", run)
      .member("horizon_ms", plan.horizon)
      .member("faults_shown", written)
      .member("faults", faults.faults.size());
  j.key("caps").begin_object();
  j.member("fault_spans", max_faults)
      .member("fault_lanes", kFaultLanes)
      .member("spans_per_strategy_track",
              strategies.empty() ? 0 : strategies.front().recorder->max_spans())
      .member("failed_gpus_counter_points", kMaxCounterPoints)
      .member("failed_gpus_counter_downsampled", counter.downsampled);
  j.end_object().end_object();
  j.key("traceEvents").raw(events).end_object();
  out += '\n';
  return out;
}

TimelineRecording::TimelineRecording(const RunPlan& plan) : plan_(&plan) {
  recorders_.reserve(plan.scenario.strategies.size());
  for (std::size_t i = 0; i < plan.scenario.strategies.size(); ++i)
    recorders_.emplace_back(plan.horizon);
}

std::vector<JobObserver*> TimelineRecording::observers() {
  std::vector<JobObserver*> out;
  for (TimelineRecorder& r : recorders_) out.push_back(&r);
  return out;
}

RecordedTimeline TimelineRecording::finish(int run, const FaultList& faults) {
  const RunPlan& plan = *plan_;
  RecordedTimeline out;
  out.run = run;
  out.horizon = plan.horizon;
  std::vector<StrategyTimeline> tracks;
  for (std::size_t i = 0; i < recorders_.size(); ++i) {
    recorders_[i].finish();
    tracks.push_back({plan.scenario.strategies[i].name, &recorders_[i]});
    out.phases.emplace_back(plan.scenario.strategies[i].name, recorders_[i].phases());
  }
  FailedGpuCounter counter;  // counted once: for the trace and for report.html
  counter.points = failed_gpu_counter(plan, faults, kMaxCounterPoints, &counter.downsampled);
  out.json = timeline_json(plan, run, faults, counter, tracks);
  out.failed_gpus = std::move(counter.points);
  return out;
}

}  // namespace goodput
