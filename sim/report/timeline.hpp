// The timeline of one run as Chrome trace / Perfetto JSON. TimelineRecorder is a JobObserver:
// it turns a strategy's phases into named spans (running, degraded, stalled (...), saving /
// restoring checkpoint, waiting) that tile [0, horizon), plus boost spans, the blocking part of
// each periodic checkpoint save (from the phase's closed-form cycle), a replicas counter and
// instants (interruptions, rollbacks). timeline_json lays them out one process per
// strategy, with the fault list's failures and repairs as a "cluster" process and a
// "failed GPUs" counter (the exact count, no concurrency cap). The recorder keeps every job
// phase (report.html draws them all, aggregated per column: timeline_columns). Caps of the file,
// all recorded in its otherData.caps: fault spans (max_faults) packed into at most kFaultLanes
// lanes; each strategy track at most max_spans spans (the job phases past it written as one
// "timeline truncated" span to the horizon); the counter at most kMaxCounterPoints points (past
// that, the maximum of each of kMaxCounterPoints / 2 equal windows).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/failures/fault.hpp"
#include "models/job/job_signals.hpp"
#include "sim/run/run_plan.hpp"

namespace goodput {

inline constexpr std::size_t kFaultLanes = 32;
inline constexpr std::size_t kMaxCounterPoints = 5000;

// The number of failed GPUs after each change (a GPU is down while any fault covering it is
// open), from 0 to the horizon; at most `max_points` points (windowed maxima past that).
std::vector<std::pair<Time, std::int64_t>> failed_gpu_counter(const RunPlan& plan,
                                                              const FaultList& faults,
                                                              std::size_t max_points,
                                                              bool* downsampled = nullptr);

struct TimelineSpan {
  Time start = 0, end = 0;
  std::string_view name;  // a string literal: the recorder names spans from a fixed set
  double value = 0;       // phases: progress rate; boost: extra power (GPU-TDP units)
  int count = 0;          // boost: domains boosted
};

class TimelineRecorder final : public JobObserver {
 public:
  explicit TimelineRecorder(Time horizon, std::size_t max_spans = 1000);
  void phase(Time t, const Phase& p) override;
  void checkpoint_aborted(Time t) override { instant(t, "checkpoint aborted"); }
  void rollback(Time t) override { instant(t, "rollback"); }
  void partial_step_lost(Time, Time) override {}
  void interruption(Time t) override { instant(t, "interruption"); }
  void gpus_in_use(Time, std::int64_t) override {}
  void replicas(Time t, int active, int total) override;
  void boost(Time t, double extra_power_gpus, int boosted_domains, int capped_domains) override;

  // Closes the open spans at the horizon; call once after the run.
  void finish();
  const std::vector<TimelineSpan>& phases() const { return phases_; }
  std::size_t max_spans() const { return max_; }
  const std::vector<TimelineSpan>& boosts() const { return boosts_; }
  const std::vector<TimelineSpan>& saves() const { return saves_; }  // blocking checkpoint saves
  const std::vector<std::pair<Time, std::string_view>>& instants() const { return instants_; }
  const std::vector<std::pair<Time, int>>& replica_counts() const { return replicas_; }
  bool truncated() const { return truncated_; }

 private:
  void instant(Time t, const char* name);
  // `name`: a string literal (kept as a view, never copied).
  void open(std::vector<TimelineSpan>& spans, Time t, std::string_view name, double value,
            int count);
  void flush_saves(Time end);  // the saves of the running segment that ends at `end`
  Time horizon_;
  std::size_t max_;
  bool truncated_ = false;
  std::vector<TimelineSpan> phases_, boosts_, saves_;
  Time segment_start_ = 0;
  CheckpointCycle cycle_;  // of the phase in force since segment_start_
  std::vector<std::pair<Time, std::string_view>> instants_;  // names: string literals
  std::vector<std::pair<Time, int>> replicas_;
};

std::string phase_name(const Phase& p);
const char* phase_label(const Phase& p);  // the same name, without a string built

// The phases of one strategy aggregated for a picture of `columns` equal columns of [0,
// horizon): per column, each phase's share of it, stacked in phase_names() order as [lo, hi)
// within [0, 1] (the shares of a column tile [0, 1]); neighbouring columns with the same shares
// are one cell. A phase shows in every column it touches, however small its share, and no
// phase paints a column it does not share.
struct TimelineCell {
  Time start = 0, end = 0;
  std::string phase;
  double lo = 0, hi = 0;
};
std::vector<TimelineCell> timeline_columns(const std::vector<TimelineSpan>& phases, Time horizon,
                                           int columns);
// Every name phase_name can give, with the badput bucket it stands for (running: none), in
// bucket order.
std::vector<std::pair<std::string, std::optional<Bucket>>> phase_names();

struct StrategyTimeline {
  std::string strategy;
  const TimelineRecorder* recorder;
};
// One run's timeline in two forms: the Chrome trace written as timeline.json, and what
// report.html draws from it (each strategy's job phases and the failed-GPU counter).
struct RecordedTimeline {
  std::string json;  // empty: none recorded (snapshot mode)
  int run = 0;
  Time horizon = 0;
  std::vector<std::pair<std::string, std::vector<TimelineSpan>>> phases;  // per strategy
  std::vector<std::pair<Time, std::int64_t>> failed_gpus;  // failed_gpu_counter's points
  bool empty() const { return json.empty(); }
};
// Records one run's timeline while it is simulated: a recorder per strategy (observers(), in
// the plan's strategy order), then finish() with the run's faults.
class TimelineRecording {
 public:
  explicit TimelineRecording(const RunPlan& plan);
  std::vector<JobObserver*> observers();
  RecordedTimeline finish(int run, const FaultList& faults);

 private:
  const RunPlan* plan_;
  std::vector<TimelineRecorder> recorders_;
};
// The failed-GPU counter of a run as timeline_json writes it (failed_gpu_counter at
// kMaxCounterPoints), with whether it was downsampled.
struct FailedGpuCounter {
  std::vector<std::pair<Time, std::int64_t>> points;
  bool downsampled = false;
};
// The whole trace (run index `run`), with at most max_faults failure spans.
std::string timeline_json(const RunPlan& plan, int run, const FaultList& faults,
                          const FailedGpuCounter& counter,
                          const std::vector<StrategyTimeline>& strategies,
                          std::size_t max_faults = 1000);

}  // namespace goodput
